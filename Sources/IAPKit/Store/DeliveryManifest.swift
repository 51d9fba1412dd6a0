import IAPCore

/// What a client needs to fetch a version over plain HTTP: `<version>/manifest.json` lists every
/// file (path, size, SHA-256, mode) and symlink of the version, and `<product>/current.json` names
/// the current version and the SHA-256 of its manifest. Both are written by the store, never by a
/// package (a package's content root holds only ContentInfo.plist and Contents/).
package enum DeliveryManifest {
    /// The manifest's name inside a version folder.
    package static let fileName = "manifest.json"
    /// The pointer's name inside a product folder, beside the `current` link.
    package static let pointerName = "current.json"
    /// The documents' schema version.
    package static let schemaVersion = 1

    /// The manifest of the version folder `folder` (sorted keys, one file per line).
    package static func make(productIdentifier: String, version: String, of folder: DirectoryHandle) throws -> [UInt8] {
        make(productIdentifier: productIdentifier, version: version, items: try ContentManifest.of(folder).items)
    }

    /// The manifest listing `items` (any order, each path once; folders are left out), written
    /// straight into bytes: one sorted list of positions and the output, never a line string per
    /// item (at 100,000 files the lines, their join and the sorted copies of the items cost ~70 MB).
    static func make<Line: DeliveryManifestLine>(productIdentifier: String, version: String, items: [Line])
        -> [UInt8]
    {
        var order = Array(items.indices)
        order.sort { items[$0].path.utf8.lexicographicallyPrecedes(items[$1].path.utf8) }
        var files = 0
        var total = UInt64(0)
        var estimate = 256
        for item in items where item.isFile || item.isSymlink {
            if item.isFile {
                files += 1
                total &+= item.size
            }
            estimate += 120 + item.path.utf8.count + item.valueByteCount
        }
        var out: [UInt8] = []
        out.reserveCapacity(estimate)
        out += "{\n  \"fileCount\": \(files),\n  \"files\": [".utf8
        var first = true
        for index in order where items[index].isFile {
            let item = items[index]
            out += (first ? "\n    " : ",\n    ").utf8
            first = false
            out += "{\"mode\": \"0\(String(item.mode, radix: 8))\", \"path\": ".utf8
            JSONText.append(item.path, to: &out)
            out += ", \"sha256\": \"".utf8
            item.appendSHA256Hex(to: &out)
            out += "\", \"size\": \(item.size)}".utf8
        }
        out += (first ? "],\n" : "\n  ],\n").utf8
        out += "  \"productIdentifier\": ".utf8
        JSONText.append(productIdentifier, to: &out)
        out += ",\n  \"schemaVersion\": \(schemaVersion),\n  \"symlinks\": [".utf8
        first = true
        for index in order where items[index].isSymlink {
            out += (first ? "\n    {\"path\": " : ",\n    {\"path\": ").utf8
            first = false
            JSONText.append(items[index].path, to: &out)
            out += ", \"target\": ".utf8
            JSONText.append(items[index].linkTarget, to: &out)
            out += "}".utf8
        }
        out += (first ? "],\n" : "\n  ],\n").utf8
        out += "  \"totalBytes\": \(total),\n  \"version\": ".utf8
        JSONText.append(version, to: &out)
        out += "\n}\n".utf8
        return out
    }

    /// The bytes of `<product>/current.json` for `version` whose manifest hashes to `manifestSHA256`.
    package static func pointer(productIdentifier: String, version: String, manifestSHA256: String) -> [UInt8] {
        Array(
            ("{\"manifestSHA256\":\"\(manifestSHA256)\",\"productIdentifier\":\(JSONText.quoted(productIdentifier)),"
                + "\"schemaVersion\":\(schemaVersion),\"version\":\(JSONText.quoted(version))}\n").utf8)
    }

    /// Writes the manifest of `items` (what was just written there) into a staging folder not yet
    /// visible (flushed with it).
    static func write<Line: DeliveryManifestLine>(
        productIdentifier: String, version: String, items: [Line], into staging: DirectoryHandle
    ) throws {
        let bytes = make(productIdentifier: productIdentifier, version: version, items: items)
        let file = try staging.createFile(fileName, mode: 0o644)
        try file.write(bytes)
        try file.sync()
    }

    /// The SHA-256 (hex) of `version`'s manifest in `product`, writing the manifest first if the
    /// version was installed before manifests existed (atomically, from the files that are there).
    static func ensure(productIdentifier: String, version: String, in product: DirectoryHandle) throws -> String {
        let folder = try product.openDirectory(version)
        if folder.status(fileName) == nil {
            let bytes = try make(productIdentifier: productIdentifier, version: version, of: folder)
            try folder.writeAtomically(fileName, bytes)
        }
        // Read in pieces: at 1,000,000 entries the manifest is about 150 MB.
        return Hex.encode(try DigestHasher.digest(.sha256, ofRestOf: try folder.openFile(fileName)))
    }
}

/// JSON text without Foundation: just what the store's documents need.
enum JSONText {
    /// Appends `text` as a JSON string literal to `out`.
    static func append(_ text: String, to out: inout [UInt8]) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(UInt8(ascii: "\""))
            out += text.utf8
            out.append(UInt8(ascii: "\""))
        } else {
            out += quoted(text).utf8
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
