import IAPSystem

/// What a version store holds, for `iapkg list`.
public struct StoreListing: Codable, Sendable {
    public struct Version: Codable, Sendable {
        public var version: String
        public var files: Int
        public var bytes: UInt64
        public var current: Bool
    }

    public struct Product: Codable, Sendable {
        public var productIdentifier: String
        public var current: String?
        /// The version an operator's `activate` pinned (a rollback `unpack` and `serve` leave current).
        public var pinned: String?
        public var versions: [Version]
    }

    public var schemaVersion = 1
    public var root: String
    public var products: [Product]
}

/// `list` and `activate` over a version store (a folder or `s3://BUCKET/PREFIX`).
public enum VersionStoreCommands {
    /// Every product and version in the store at `root`, lowest version first. Takes no lock:
    /// versions appear and disappear only as a whole, so nothing half-written is ever seen.
    public static func list(_ root: String) throws(IAPKitError) -> StoreListing {
        return try translatingErrors { try StoreLocation(root).open().listing() }
    }

    /// Points `current` of `productIdentifier` at `version` (rolling back or forward; any spelling
    /// that compares equal names the installed version) and pins it when it is below the newest
    /// installed one. Returns the previous one.
    @discardableResult
    public static func activate(_ root: String, productIdentifier: String, version: String) throws(IAPKitError)
        -> String?
    {
        guard ProductIdentifier.isValid(productIdentifier) else {
            throw .refused("'\(productIdentifier)' is not a valid product identifier")
        }
        guard let wanted = ContentVersion(version) else { throw .refused("'\(version)' is not a version") }
        return try translatingErrors {
            let product = try StoreLocation(root).open().openProduct(productIdentifier, create: false)
            guard let name = try product.installedName(of: wanted) else {
                let have = try product.versions().map(\.text).joined(separator: ", ")
                throw IAPKitError.refused(
                    "\(productIdentifier) has no version \(version) in \(root) (installed: \(have.isEmpty ? "none" : have))"
                )
            }
            var previous: String?
            // a rollback is pinned against automatic moves
            try product.activate(name, pinning: true) { current, _ in
                previous = current?.text
                return true
            }
            return previous
        }
    }
}
