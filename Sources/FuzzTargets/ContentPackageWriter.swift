internal import BomKit
internal import IAPCrypto
internal import IAPKit
internal import IAPSystem
internal import PayloadKit
internal import XarKit

/// Writes a `ContentDescription` as a package through the project's own writers (`XarWriter`,
/// `PayloadWriter`, `BomWriter`): every checksum and heap range valid, whatever the content says.
/// Entries a writer refuses (a `..` component in a xar path, a duplicate) are left out of that part.
enum ContentPackageWriter {
    /// Every entry's modification time.
    static let time = "2024-01-01T00:00:00Z"
    static let seconds: Int64 = 1_704_067_200

    /// Writes the package to `output` (empty, at offset 0). Throws only when the scratch file fails.
    static func write(_ description: ContentDescription, to output: FileDescriptor, heapFolder: String) throws {
        let options = description.options
        let checksum: DigestAlgorithm =
            options.contains("md5")
            ? .md5 : options.contains("sha256") ? .sha256 : options.contains("sha512") ? .sha512 : .sha1
        let xar = try XarWriter(
            temporaryDirectory: heapFolder,
            options: XarWriterOptions(checksum: checksum, creationTime: time, compressionLevel: 1))
        if options.contains("product") {
            try writeProduct(description, to: xar)
        } else {
            try writeTree(description, to: xar)
        }
        try xar.finish(to: output)
    }

    /// The bare tree: ContentInfo.plist and the entries as xar entries.
    static func writeTree(_ description: ContentDescription, to xar: XarWriter) throws {
        let encoding: XarWriterEncoding = description.options.contains("stored") ? .stored : .zlib
        if !description.options.contains("noinfo") {
            try? xar.addFile(path: "ContentInfo.plist", mtime: time, encoding: encoding, bytes: description.contentInfo)
        }
        for entry in description.entries where entry.inXar {
            switch entry.kind {
            case .directory: try? xar.addDirectory(path: entry.path, mode: UInt32(entry.mode), mtime: time)
            case .symlink:
                try? xar.addSymlink(
                    path: entry.path, target: String(decoding: entry.data, as: UTF8.self), mode: UInt32(entry.mode),
                    mtime: time)
            case .file:
                try? xar.addFile(
                    path: entry.path, mode: UInt32(entry.mode), mtime: time, encoding: encoding, bytes: entry.data)
            }
        }
    }

    /// The product archive: Distribution, NAME.pkg/{Bom,Payload,PackageInfo}, as `iapkg build` lays it out.
    static func writeProduct(_ description: ContentDescription, to xar: XarWriter) throws {
        let options = description.options
        let name = description.values["name"] ?? "content"
        let component = name + ".pkg"
        var entries = description.entries
        if !options.contains("noinfo") {
            entries.insert(
                .init(kind: .file, path: "ContentInfo.plist", mode: 0o644, data: description.contentInfo), at: 0)
        }
        entries.insert(.init(kind: .directory, path: "", mode: 0o755), at: 0)
        let sizes = payloadSizes(entries)
        let installKBytes = ProductArchiveDocuments.installKBytes(sizes: Array(sizes.dropFirst()))
        try? xar.addDirectory(path: component, mtime: time)
        if !options.contains("nopayload") {
            try? xar.addFile(path: component + "/Payload", mtime: time, encoding: .stored) { sink in
                try withoutActuallyEscaping(sink) { sink in
                    let payload = try PayloadWriter(level: 1, workers: 1, sink: sink)
                    for entry in entries where entry.inPayload {
                        try? add(entry, to: payload)
                    }
                    try payload.finish()
                }
            }
        }
        if !options.contains("nobom") {
            let records = zip(entries, sizes).filter { $0.0.inBom }.map { bomEntry($0.0, size: $0.1) }
            if let bom = try? BomWriter.write(records) {
                try? xar.addFile(path: component + "/Bom", mtime: time, encoding: .zlib, bytes: bom)
            }
        }
        if !options.contains("nopackageinfo") {
            let info = ProductArchiveDocuments.packageInfo(
                componentName: name, numberOfFiles: entries.count, installKBytes: installKBytes)
            try? xar.addFile(path: component + "/PackageInfo", mtime: time, encoding: .zlib, bytes: info)
        }
        if !options.contains("nodist") {
            let distribution = ProductArchiveDocuments.distribution(componentName: name, installKBytes: installKBytes)
            try? xar.addFile(path: "Distribution", mtime: time, encoding: .zlib, bytes: distribution)
        }
        xar.order(["Distribution", component, component + "/Bom", component + "/Payload", component + "/PackageInfo"])
    }

    /// The Payload's spelling of a path: `.` for the root, `./PATH` below it.
    static func payloadPath(_ entry: ContentDescription.Entry) -> String {
        entry.path.isEmpty ? "." : "./" + entry.path
    }

    static func add(_ entry: ContentDescription.Entry, to payload: PayloadWriter) throws {
        let path = payloadPath(entry)
        switch entry.kind {
        case .directory: try payload.addDirectory(path: path, mode: entry.mode, modificationTime: seconds)
        case .symlink:
            try payload.addSymlink(
                path: path, target: String(decoding: entry.data, as: UTF8.self), mode: entry.mode,
                modificationTime: seconds)
        case .file:
            try payload.addFile(path: path, mode: entry.mode, modificationTime: seconds, size: UInt64(entry.data.count))
            {
                write in try entry.data.withUnsafeBytes { try write($0) }
            }
        }
    }

    /// The Bom record pkgbuild would write for `entry`.
    static func bomEntry(_ entry: ContentDescription.Entry, size: UInt64) -> BomEntry {
        let path = payloadPath(entry)
        switch entry.kind {
        case .directory:
            return BomEntry(path: path, kind: .directory, mode: 0o040000 | entry.mode, size: size)
        case .symlink:
            let target = String(decoding: entry.data, as: UTF8.self)
            return BomEntry(
                path: path, kind: .symlink, mode: 0o120000 | entry.mode, size: size,
                checksum: BomChecksum.checksum(of: Array(target.utf8)), linkTarget: target)
        case .file:
            return BomEntry(
                path: path, kind: .file, mode: 0o100000 | entry.mode, size: size,
                checksum: BomChecksum.checksum(of: entry.data))
        }
    }

    /// pkgbuild's size per entry: file bytes, link target length, 32 per folder child plus 64.
    static func payloadSizes(_ entries: [ContentDescription.Entry]) -> [UInt64] {
        var children: [String: UInt64] = [:]
        for entry in entries where !entry.path.isEmpty {
            children[
                entry.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"),
                default: 0] += 1
        }
        return entries.map { entry in
            switch entry.kind {
            case .directory: 32 * ((children[entry.path] ?? 0) + 2)
            case .symlink, .file: UInt64(entry.data.count)
            }
        }
    }
}
