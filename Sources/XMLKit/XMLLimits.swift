internal import IAPCore

/// Bounds on what a document may cost to parse.
public struct XMLLimits: Sendable {
    /// Largest document accepted, in bytes.
    public var maxBytes: Int
    /// Deepest element nesting accepted.
    public var maxDepth: Int

    /// The nesting accepted unless a reader says otherwise (`Limits.xmlDepth`).
    public static let defaultMaxDepth = Limits.xmlDepth

    public init(maxBytes: Int, maxDepth: Int = XMLLimits.defaultMaxDepth) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}

/// Which DOCTYPE declarations a document may carry. Neither ever loads or fetches a DTD.
public enum DoctypePolicy: Sendable {
    /// No DOCTYPE at all (the xar TOC, Distribution, PackageInfo).
    case forbidden
    /// At most Apple's standard property-list DOCTYPE, with no internal subset.
    case applePropertyList
}
