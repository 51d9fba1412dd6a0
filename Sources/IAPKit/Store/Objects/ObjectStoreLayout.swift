/// Where everything lives in a bucket, key for key as in a folder store (PackageFormat.md §11):
/// `<product>/<version>/ContentInfo.plist`, `…/Contents/…`, `…/<version>/manifest.json`, and
/// `<product>/current.json` as the switch. The store's own bookkeeping is under
/// `<product>/.iapkg/` (a version claim per version, the retention state): no version or content
/// path can start with a period there, and the gate never hands out a key below a hidden name.
enum ObjectStoreLayout {
    /// The folder of the store's own keys inside a product.
    static let bookkeeping = ".iapkg"
    /// `Cache-Control` of a version's content: a version is immutable, so a CDN may keep it for good.
    static let immutable = "public, max-age=31536000, immutable"
    /// `Cache-Control` of `current.json` and manifests: always asked again.
    static let uncached = "no-cache"

    /// The key of `product`'s `current.json`.
    static func pointer(_ product: String) -> String { "\(product)/\(DeliveryManifest.pointerName)" }

    /// The key prefix of a version's objects.
    static func version(_ product: String, _ version: String) -> String { "\(product)/\(version)/" }

    /// The key of a version's manifest, written after every other object of the version: its
    /// presence is what makes the version installed.
    static func manifest(_ product: String, _ version: String) -> String {
        self.version(product, version) + DeliveryManifest.fileName
    }

    /// The key of the claim a publisher writes (if absent) before any object of a version: one key
    /// for every spelling of the version (`1.0`, `1.00` and `1` claim `1`), so two spellings
    /// never publish side by side.
    static func claim(_ product: String, _ version: String) -> String {
        var numbers = ContentVersion(version)?.components ?? []
        while numbers.count > 1 && numbers.last == 0 { numbers.removeLast() }
        let name = numbers.isEmpty ? version : numbers.map(String.init).joined(separator: ".")
        return "\(product)/\(bookkeeping)/claims/\(name)"
    }

    /// The key of the retention state (pin, departures).
    static func retention(_ product: String) -> String { "\(product)/\(bookkeeping)/retention" }

    /// The `Content-Type` of a content file, from its name.
    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return contentTypes[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    private static let contentTypes: [String: String] = [
        "plist": "application/x-plist", "json": "application/json", "txt": "text/plain; charset=utf-8",
        "html": "text/html; charset=utf-8", "xml": "application/xml", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "heic": "image/heic",
        "pvr": "application/octet-stream", "ktx": "image/ktx", "mp3": "audio/mpeg", "m4a": "audio/mp4",
        "aac": "audio/aac", "wav": "audio/wav", "caf": "audio/x-caf", "ogg": "audio/ogg", "mp4": "video/mp4",
        "m4v": "video/x-m4v", "mov": "video/quicktime", "zip": "application/zip", "gz": "application/gzip",
        "ttf": "font/ttf", "otf": "font/otf", "strings": "text/plain; charset=utf-8", "csv": "text/csv",
    ]
}
