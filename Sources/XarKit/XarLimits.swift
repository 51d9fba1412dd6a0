import IAPCore

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

    /// The defaults are `Limits`': 64 MiB TOC, 1,000,000 files, 256 levels, 64 KiB texts, 10,000 findings.
    package init(
        maxTOCBytes: UInt64 = Limits.tocBytes, maxFiles: Int = Limits.tocFiles, maxDepth: Int = Limits.tocDepth,
        maxTextBytes: Int = Limits.tocTextBytes, maxFindings: Int = Limits.findings
    ) {
        self.maxTOCBytes = maxTOCBytes
        self.maxFiles = maxFiles
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
        self.maxFindings = maxFindings
    }
}
