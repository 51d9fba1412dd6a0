import IAPCore
import IAPKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The products published under ROOT, read from each `ROOT/<product>/current.json` as `iapkg
/// unpack`, `activate` and `serve` write it: a product is published when that file names its
/// current version.
package struct PublishedProducts: Sendable {
    /// What `current.json` says.
    package struct Current: Sendable, Equatable, Decodable {
        /// The product.
        package let productIdentifier: String
        /// Its current version (a folder under the product).
        package let version: String
        /// The SHA-256 of that version's `manifest.json`.
        package let manifestSHA256: String
    }

    /// The largest `current.json` read.
    static let maxPointerSize = 64 * 1024

    /// The version store's root folder.
    package let root: String

    /// The products under `root`.
    package init(root: String) { self.root = root }

    /// The current version of `product`, or nil when it is not a valid identifier or not published.
    package func current(of product: String) -> Current? {
        guard ProductIdentifier.isValid(product) else { return nil }
        let path = root + "/" + product + "/" + DeliveryManifest.pointerName
        guard let file = try? FileDescriptor.openForReading(path), let size = try? file.size(),
            size <= UInt64(Self.maxPointerSize), let bytes = try? file.read(count: Int(size), at: 0),
            let current = try? JSONDecoder().decode(Current.self, from: Data(bytes)),
            current.productIdentifier == product, Self.isPlainSegment(current.version)
        else { return nil }
        return current
    }

    /// True when `text` is one harmless path segment (a version folder's name).
    static func isPlainSegment(_ text: String) -> Bool {
        !text.isEmpty && text != "." && text != ".." && !text.hasPrefix(".")
            && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") }
    }
}
