import PayloadKit

/// A small content tree in payload order: the entries every round-trip and interop test writes.
enum SampleContent {
    enum Item {
        case directory(String, mode: UInt16)
        case file(String, mode: UInt16, data: [UInt8])
        case symlink(String, target: String)
    }

    static let modificationTime: Int64 = 1_700_000_000

    static let plist = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>IAPProductIdentifier</key><string>com.example.levels</string>\
        <key>ContentVersion</key><string>1.0</string></dict></plist>

        """.utf8)

    /// 1000 bytes that differ from position to position.
    static let pattern: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

    static let items: [Item] = [
        .directory(".", mode: 0o755),
        .file("./ContentInfo.plist", mode: 0o644, data: plist),
        .directory("./Contents", mode: 0o755),
        .file("./Contents/readme.txt", mode: 0o644, data: Array("hello, payload\n".utf8)),
        .file("./Contents/empty.bin", mode: 0o600, data: []),
        .directory("./Contents/levels", mode: 0o750),
        .file("./Contents/levels/level 1 é.dat", mode: 0o644, data: pattern),
        .symlink("./Contents/current", target: "levels/level 1 é.dat"),
    ]

    /// The paths in payload order.
    static var paths: [String] {
        items.map {
            switch $0 {
            case .directory(let path, _), .file(let path, _, _), .symlink(let path, _): path
            }
        }
    }

    /// Writes every item into `writer` (data in uneven pieces) and finishes it.
    static func write(into writer: PayloadWriter) throws {
        for item in items {
            switch item {
            case .directory(let path, let mode):
                try writer.addDirectory(path: path, mode: mode, modificationTime: modificationTime)
            case .file(let path, let mode, let data):
                try writer.addFile(
                    path: path, mode: mode, modificationTime: modificationTime,
                    size: UInt64(data.count)
                ) { write in
                    var offset = 0
                    while offset < data.count {
                        let end = min(data.count, offset + 300)
                        try data[offset..<end].withUnsafeBytes { try write($0) }
                        offset = end
                    }
                }
            case .symlink(let path, let target):
                try writer.addSymlink(path: path, target: target, mode: 0o755, modificationTime: modificationTime)
            }
        }
        try writer.finish()
    }

    /// The gzip'd payload bytes for `items`.
    static func payload(level: Int32 = 6) throws -> [UInt8] {
        var out: [UInt8] = []
        let writer = try PayloadWriter(level: level) { out.append(contentsOf: $0) }
        try write(into: writer)
        return out
    }
}
