import IAPDelivery
import IAPSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The products published under ROOT, read from each `ROOT/<product>/current.json` as `iapkg
/// unpack`, `activate` and `serve` write it: a product is published when that file names its
/// current version. The store is a folder or a bucket (`bucket`).
package struct PublishedProducts: Sendable {
    /// The version store's root folder (or its `s3://` URL).
    package let root: String
    /// The store in a bucket, when it is one.
    package let bucket: BucketFront?

    /// The products under the folder `root`.
    package init(root: String) {
        self.root = root
        bucket = nil
    }

    /// The products in the bucket `bucket`.
    package init(bucket: BucketFront) {
        root = bucket.location.description
        self.bucket = bucket
    }

    /// The current version of `product`, or nil when it is not a valid identifier or not published.
    package func current(of product: String) -> CurrentPointer? {
        guard ProductIdentifier.isValid(product) else { return nil }
        if let bucket { return bucket.current(of: product) }
        let path = root + "/" + product + "/" + DeliveryDocument.pointerName
        guard let file = try? FileDescriptor.openForReading(path), let size = try? file.size(),
            size <= UInt64(DeliveryDocument.pointerLimit), let bytes = try? file.read(count: Int(size), at: 0)
        else { return nil }
        return try? CurrentPointer.decode(Data(bytes), product: product)
    }
}
