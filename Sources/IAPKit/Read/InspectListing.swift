import BomKit
import IAPSystem

/// The entries of an inspected package in listing order, kept as compact as they were read: a
/// product package's Bom tree itself (no String per path), or a tree package's sorted TOC files.
/// `rows` walks them without making anything per entry; `files` makes the Codable values.
package struct InspectListing: Sendable {
    /// One entry, valid only during the `forEachRow` call that hands it out.
    package struct Row {
        /// Path below the content root ("Contents/a.png"), UTF-8.
        package var path: UnsafeBufferPointer<UInt8>
        package var type: ContentEntry.Kind
        /// File bytes; a link's target length; 0 for a folder.
        package var size: UInt64
        /// Permission bits (`mode & 0o7777`).
        package var permissions: UInt32
        package var linkTarget: String?
    }

    private enum Storage: Sendable {
        case bom(BomTree)
        case files([InspectReport.File])
    }

    private let storage: Storage
    /// Entries listed.
    package let count: Int
    /// Regular files, folders and symlinks among them.
    package private(set) var fileCount = 0
    package private(set) var folderCount = 0
    package private(set) var linkCount = 0
    /// Bytes of every regular file.
    package private(set) var unpackedSize: UInt64 = 0
    /// The largest `size` of any row.
    package private(set) var largestSize: UInt64 = 0

    /// No entries.
    package init() { self.init(files: []) }

    /// A product package's entries: every path of the Bom below its root, depth-first.
    init(bom tree: BomTree) {
        storage = .bom(tree)
        count = max(0, tree.nodes.count - 1)
        for node in tree.nodes where !node.isRoot {
            tally(Self.kind(node.kind), size: node.kind == .directory ? 0 : node.size)
        }
    }

    /// Entries already made (a tree package's TOC), in the order given.
    init(files: [InspectReport.File]) {
        storage = .files(files)
        count = files.count
        for file in files { tally(file.type, size: file.size) }
    }

    private mutating func tally(_ type: ContentEntry.Kind, size: UInt64) {
        switch type {
        case .file:
            fileCount += 1
            unpackedSize = unpackedSize.addingSaturated(size)
        case .directory: folderCount += 1
        case .symlink: linkCount += 1
        default: break
        }
        largestSize = max(largestSize, size)
    }

    /// Calls `body` with every entry in listing order.
    package func forEachRow(_ body: (Row) throws -> Void) rethrows {
        switch storage {
        case .bom(let tree):
            try tree.forEachDepthFirst { path, node in
                try body(
                    Row(
                        path: path, type: Self.kind(node.kind), size: node.kind == .directory ? 0 : node.size,
                        permissions: UInt32(node.mode) & 0o7777, linkTarget: tree.linkTarget(of: node)))
            }
        case .files(let files):
            for file in files {
                var path = file.path
                try path.withUTF8 { utf8 in
                    try body(
                        Row(
                            path: utf8, type: file.type, size: file.size,
                            permissions: UInt32(file.mode, radix: 8) ?? 0, linkTarget: file.linkTarget))
                }
            }
        }
    }

    /// Every entry as a ``InspectReport/File``.
    package var files: [InspectReport.File] {
        if case .files(let files) = storage { return files }
        var modes = ModeText()
        var files: [InspectReport.File] = []
        files.reserveCapacity(count)
        forEachRow { row in
            files.append(
                InspectReport.File(
                    path: String(decoding: row.path, as: UTF8.self), type: row.type, size: row.size,
                    mode: modes.text(row.permissions), linkTarget: row.linkTarget))
        }
        return files
    }

    private static func kind(_ kind: BomEntry.Kind) -> ContentEntry.Kind {
        switch kind {
        case .file: .file
        case .directory: .directory
        case .symlink: .symlink
        case .device: .characterDevice
        }
    }
}
