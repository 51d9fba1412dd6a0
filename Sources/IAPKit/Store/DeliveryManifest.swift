import IAPCore

/// What a client needs to fetch a version over plain HTTP: `<version>/manifest.json` lists every
/// file (path, size, SHA-256, mode) and symlink of the version, and `<product>/current.json` names
/// the current version and the SHA-256 of its manifest. Both are written by the store, never by a
/// package (a package's content root holds only ContentInfo.plist and Contents/).
public enum DeliveryManifest {
    /// The manifest's name inside a version folder.
    public static let fileName = "manifest.json"
    /// The pointer's name inside a product folder, beside the `current` link.
    public static let pointerName = "current.json"
    /// The documents' schema version.
    public static let schemaVersion = 1

    /// The manifest of the version folder `folder` (sorted keys, one file per line).
    public static func make(productIdentifier: String, version: String, of folder: DirectoryHandle) throws -> [UInt8] {
        make(productIdentifier: productIdentifier, version: version, items: try ContentManifest.of(folder).items)
    }

    /// The manifest listing `items` (any order; folders are left out).
    static func make(productIdentifier: String, version: String, items unsorted: [ContentManifest.Item]) -> [UInt8] {
        let items = unsorted.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        let files = items.filter { $0.kind == "file" }
        let links = items.filter { $0.kind == "symlink" }
        let total = files.reduce(UInt64(0)) { $0 &+ $1.size }
        var text = "{\n  \"fileCount\": \(files.count),\n  \"files\": ["
        text += files.map { item in
            "\n    {\"mode\": \"0\(String(item.mode, radix: 8))\", \"path\": \(JSONText.quoted(item.path)), "
                + "\"sha256\": \"\(item.value)\", \"size\": \(item.size)}"
        }.joined(separator: ",")
        text += files.isEmpty ? "],\n" : "\n  ],\n"
        text +=
            "  \"productIdentifier\": \(JSONText.quoted(productIdentifier)),\n  \"schemaVersion\": \(schemaVersion),\n  \"symlinks\": ["
        text += links.map { "\n    {\"path\": \(JSONText.quoted($0.path)), \"target\": \(JSONText.quoted($0.value))}" }
            .joined(separator: ",")
        text += links.isEmpty ? "],\n" : "\n  ],\n"
        text += "  \"totalBytes\": \(total),\n  \"version\": \(JSONText.quoted(version))\n}\n"
        return Array(text.utf8)
    }

    /// The bytes of `<product>/current.json` for `version` whose manifest hashes to `manifestSHA256`.
    public static func pointer(productIdentifier: String, version: String, manifestSHA256: String) -> [UInt8] {
        Array(
            ("{\"manifestSHA256\":\"\(manifestSHA256)\",\"productIdentifier\":\(JSONText.quoted(productIdentifier)),"
                + "\"schemaVersion\":\(schemaVersion),\"version\":\(JSONText.quoted(version))}\n").utf8)
    }

    /// Writes the manifest of `items` (what was just written there) into a staging folder not yet
    /// visible (flushed with it).
    static func write(
        productIdentifier: String, version: String, items: [ContentManifest.Item], into staging: DirectoryHandle
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
        return Hex.encode(DigestHasher.digest(.sha256, of: try folder.readFile(fileName)))
    }
}

/// JSON text without Foundation: just what the store's documents need.
enum JSONText {
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
