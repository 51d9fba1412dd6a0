/// Bounds on what reading an archive may cost.
package struct XarLimits: Sendable {
    /// Largest uncompressed TOC accepted, in bytes (declared and actual).
    package var maxTOCBytes: UInt64
    /// Most `<file>` elements accepted in a TOC.
    package var maxFiles: Int
    /// Deepest XML nesting accepted in the TOC.
    package var maxDepth: Int
    /// Longest text accepted in one TOC element (a name, a link target, a number).
    package var maxTextBytes: Int
    /// Most findings collected; later ones are summarised in one last finding.
    package var maxFindings: Int

    /// Largest uncompressed TOC, declared and actual: 64 MiB.
    package static let tocBytes: UInt64 = 64 << 20
    /// Most `<file>` elements in a TOC.
    package static let tocFiles = 1_000_000
    /// Deepest XML nesting in a TOC.
    package static let tocDepth = 256
    /// Longest text in one TOC element (a name, a link target, a number).
    package static let tocTextBytes = 65_536
    /// Most findings collected; later ones are summarised in one last finding.
    package static let findings = 10_000
    /// Largest signature (CMS or RSA) read from the heap: 1 MiB.
    package static let signatureBytes: UInt64 = 1 << 20

    /// The defaults: 64 MiB TOC, 1,000,000 files, 256 levels, 64 KiB texts, 10,000 findings.
    package init(
        maxTOCBytes: UInt64 = XarLimits.tocBytes, maxFiles: Int = XarLimits.tocFiles,
        maxDepth: Int = XarLimits.tocDepth, maxTextBytes: Int = XarLimits.tocTextBytes,
        maxFindings: Int = XarLimits.findings
    ) {
        self.maxTOCBytes = maxTOCBytes
        self.maxFiles = maxFiles
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
        self.maxFindings = maxFindings
    }
}
