import IAPDelivery
import IAPObjectStore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The version store in a bucket (`--root s3://BUCKET/PREFIX`) as the gate sees it: each product's
/// `PREFIX/<product>/current.json`, read with the gate's (read-only) credentials and kept for
/// `currentLifetime`, so a current that moves is seen within seconds; and presigned GET URLs of the
/// product's files, so the bytes go from the store to the buyer without passing through the gate.
/// Blocking (S3 requests, signing): call it off the event loop.
package final class BucketFront: Sendable {
    /// How long a `current.json` read is used before it is read again.
    package static let currentLifetime = Duration.seconds(2)
    /// The longest a presigned URL lives, however long the token still has: five minutes.
    package static let maxPresignedSeconds = 300
    /// The most products whose `current.json` is kept (the cache starts over when full).
    static let maxCachedProducts = 4096

    /// The bucket's client.
    package let client: S3Client
    /// The bucket and prefix of the store.
    package let location: S3Location

    /// One `current.json` read: when, and what it said (nil: not published).
    private struct Reading {
        let readAt: ContinuousClock.Instant
        let pointer: CurrentPointer?
    }

    private let readings = Mutex<[String: Reading]>([:])

    /// The store at `location`, reached through `client`.
    package init(client: S3Client, location: S3Location) {
        self.client = client
        self.location = location
    }

    /// The current version of `product` (a valid identifier), read again once `currentLifetime`
    /// has passed; while the store cannot be read, the last reading stands.
    func current(of product: String) -> CurrentPointer? {
        let now = ContinuousClock.now
        let last = readings.withLock { $0[product] }
        if let last, now - last.readAt < Self.currentLifetime { return last.pointer }
        let pointer: CurrentPointer?
        do {
            let key = location.key(product + "/" + DeliveryDocument.pointerName)
            let object = try client.get(key, maxBytes: DeliveryDocument.pointerLimit)
            pointer = try? CurrentPointer.decode(Data(object.bytes), product: product)
        } catch  where error.kind == .notFound {
            pointer = nil
        } catch {
            GateSetup.say("iapkg-gate: warning: cannot read \(product)'s current.json in \(location): \(error)")
            return last?.pointer
        }
        readings.withLock { readings in
            if readings.count >= Self.maxCachedProducts { readings.removeAll() }
            readings[product] = Reading(readAt: now, pointer: pointer)
        }
        return pointer
    }

    /// A URL that GETs `PREFIX/<product>/<path>` for `seconds` (1 to `maxPresignedSeconds`).
    func presignedURL(product: String, path: String, seconds: Int) throws(S3Error) -> String {
        try client.presignedGetURL(location.key(product + "/" + path), expiresIn: seconds)
    }
}
