import IAPCore

/// Caps the reader applies so hostile input costs bounded time and memory.
package struct BomLimits: Equatable, Sendable {
    /// Largest Bom accepted, in bytes.
    package var maxBytes: Int
    /// Most paths accepted in the Paths tree (and most entries in any other tree).
    package var maxEntries: Int
    /// Longest rebuilt path accepted, in UTF-8 bytes, counting the leading "./".
    package var maxPathBytes: Int
    /// Longest single path component accepted, in UTF-8 bytes.
    package var maxNameBytes: Int
    /// Deepest B-tree accepted (levels from the tree's root node down to its leaves).
    package var maxTreeDepth: Int
    /// Most named variables accepted in the variable table.
    package var maxVariables: Int

    /// Creates limits; the defaults, `Limits`', fit any real content package.
    package init(
        maxBytes: Int = Limits.bomBytes, maxEntries: Int = Limits.bomEntries, maxPathBytes: Int = Limits.bomPathBytes,
        maxNameBytes: Int = Limits.componentBytes, maxTreeDepth: Int = Limits.bomTreeDepth,
        maxVariables: Int = Limits.bomVariables
    ) {
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
        self.maxPathBytes = maxPathBytes
        self.maxNameBytes = maxNameBytes
        self.maxTreeDepth = maxTreeDepth
        self.maxVariables = maxVariables
    }
}
