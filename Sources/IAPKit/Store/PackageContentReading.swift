import PayloadKit
import XarKit

/// A validated package's content read again, entry by entry in the order validation saw them:
/// a tree package's files each from its own heap range, a product package's from the Payload's
/// stream (which must hold the same entries in the same order).
enum PackageContentReading {
    /// Reads an entry's decoded bytes: the count put into the buffer, 0 at its end.
    typealias Reader = (UnsafeMutableRawBufferPointer) throws -> Int

    /// Calls `body` with each entry's index and a reader of the bytes it carries (nil: none).
    /// The Payload's root entry (no components) is passed over. With `checkingXarDigests` false the
    /// TOC's checksums are not computed again: for a caller that holds every file to the digest
    /// validation took of it. With `only`, just those entries are visited: a tree package's others
    /// are not opened, and a Payload is decoded no further than the last of them.
    static func forEachEntry(
        _ entries: [ContentEntry], archive: XarArchive, parts: PackageParts, checkingXarDigests: Bool = true,
        only wanted: Set<Int>? = nil, _ body: (Int, Reader?) throws -> Void
    ) throws {
        let last = wanted.map { $0.max() ?? -1 } ?? Int.max
        switch parts.shape {
        case .tree:
            for (index, (file, entry)) in zip(archive.toc.files, entries).enumerated() {
                if index > last { break }
                if let wanted, !wanted.contains(index) { continue }
                guard entry.kind == .file, file.data != nil else {
                    try body(index, nil)
                    continue
                }
                let stream = try archive.dataStream(for: file, checkingDigests: checkingXarDigests)
                try body(index) { buffer in try stream.read(into: buffer) }
            }
        case .product:
            guard let payload = parts.payload else { throw IAPKitError.failed("the package has no Payload") }
            let total = entries.reduce(UInt64(0)) { $0 &+ $1.size }
            let stream = try archive.dataStream(for: payload, checkingDigests: checkingXarDigests)
            let reader = try PayloadReader(
                maxDecodedBytes: total &+ UInt64(entries.count) * CpioLimits.entryAllowance &+ CpioLimits.slackBytes,
                decodingAhead: true
            ) { buffer in try stream.read(into: buffer) }
            var index = 0
            while index <= last, let item = try reader.nextEntry() {
                guard index < entries.count, entries[index].rawPath == item.path else {
                    throw IAPKitError.failed("the Payload changed between validation and unpacking at '\(item.path)'")
                }
                let (position, entry) = (index, entries[index])
                index += 1
                if entry.components.isEmpty || !(wanted?.contains(position) ?? true) { continue }
                let carriesData = entry.kind == .file || (entry.kind == .hardlink && entry.size > 0)
                try body(position, carriesData ? { buffer in try reader.readData(into: buffer) } : nil)
            }
        }
    }
}
