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

    /// Largest Bom: 256 MiB. Readers of a package ask the archive for at most this many bytes and
    /// the Bom reader refuses more, so inspect, validate and unpack refuse the same Boms.
    package static let bomBytes = 256 << 20
    /// Most paths in the Paths tree (and most entries in any other tree): as many as a content folder
    /// may hold (IAPKit's `PackageLimits.folderEntries`, held equal by a test), so every folder
    /// `build` accepts fits the product layout.
    package static let bomEntries = 2_000_000
    /// Longest path rebuilt from the Bom, in UTF-8 bytes, counting its leading "./": an entry path's
    /// limit (IAPKit's `PackageLimits.pathBytes`, held equal by a test).
    package static let bomPathBytes = 1024
    /// Longest path component, in UTF-8 bytes.
    package static let componentBytes = 255
    /// Deepest B-tree (levels from a tree's root node down to its leaves).
    package static let bomTreeDepth = 8
    /// Most named variables in the Bom's variable table.
    package static let bomVariables = 64

    /// Creates limits; the defaults fit any real content package.
    package init(
        maxBytes: Int = BomLimits.bomBytes, maxEntries: Int = BomLimits.bomEntries,
        maxPathBytes: Int = BomLimits.bomPathBytes, maxNameBytes: Int = BomLimits.componentBytes,
        maxTreeDepth: Int = BomLimits.bomTreeDepth, maxVariables: Int = BomLimits.bomVariables
    ) {
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
        self.maxPathBytes = maxPathBytes
        self.maxNameBytes = maxNameBytes
        self.maxTreeDepth = maxTreeDepth
        self.maxVariables = maxVariables
    }
}
