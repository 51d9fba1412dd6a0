internal import IAPSystem
internal import XarKit

/// The xar targets: the header and TOC (`xar`), one entry's heap data stream (`xar-data`).
enum XarTargets {
    /// Entries up to this size are read whole with `readAll`; larger ones are streamed.
    static let readAllLimit = 1 << 20

    /// Opens the input (a xar, or TOC XML wrapped by `XarContainer`) and reads every entry's data.
    static func openArchive(_ input: [UInt8]) {
        let path = ScratchFile.write(XarContainer.package(from: input))
        guard let archive = try? XarArchive.open(path: path) else { return }
        readEveryEntry(archive)
    }

    /// Reads every entry with data: small ones with `readAll`, larger ones through `dataStream`.
    static func readEveryEntry(_ archive: XarArchive) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        for file in archive.toc.files where file.data != nil {
            if let size = file.data?.size, size <= UInt64(readAllLimit) {
                _ = try? archive.readAll(file, maxBytes: readAllLimit)
            } else if let stream = try? archive.dataStream(for: file) {
                while let count = try? stream.read(into: buffer), count > 0 {}
            }
        }
    }

    /// Decodes one entry made from the input (see `EntryDataInput`), through `dataStream` in small
    /// reads and through `readAll`, then `verifyAllData`.
    static func readEntryData(_ input: [UInt8]) {
        let entry = EntryDataInput(input)
        let path = ScratchFile.write(XarContainer.wrap(toc: entry.toc, heap: entry.stored))
        guard let archive = try? XarArchive.open(path: path), let file = archive.toc.files.first else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: entry.readSize, alignment: 16)
        defer { buffer.deallocate() }
        if let stream = try? archive.dataStream(for: file) {
            while let count = try? stream.read(into: buffer), count > 0 {}
        }
        _ = try? archive.readAll(file, maxBytes: readAllLimit)
        _ = archive.verifyAllData()
    }
}
