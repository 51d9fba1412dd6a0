/// Bounds on what a document may cost to parse.
package struct XMLLimits: Sendable {
    /// Largest document accepted, in bytes.
    package var maxBytes: Int
    /// Deepest element nesting accepted.
    package var maxDepth: Int

    /// The nesting accepted unless a reader says otherwise.
    package static let defaultMaxDepth = 128
    /// Largest Distribution or PackageInfo document: 1 MiB.
    package static let documentBytes = 1 << 20
    /// Most elements in a Distribution or PackageInfo document.
    package static let documentElements = 10_000

    package init(maxBytes: Int, maxDepth: Int = XMLLimits.defaultMaxDepth) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}

/// Which DOCTYPE declarations a document may carry. Neither ever loads or fetches a DTD.
package enum DoctypePolicy: Sendable {
    /// No DOCTYPE at all (the xar TOC, Distribution, PackageInfo).
    case forbidden
    /// At most Apple's standard property-list DOCTYPE, with no internal subset.
    case applePropertyList
}
