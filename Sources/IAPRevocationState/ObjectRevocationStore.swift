import IAPObjectStore
import IAPPurchase
import IAPSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The revocation decisions kept in a bucket (`--state s3://BUCKET/PREFIX`), for gates on many hosts:
/// one object, `PREFIX/revocations.json`, holding every decision in force. ``record(_:)`` reads it,
/// decides by ``RevocationDecision`` (the later `signedDate` wins, a `notificationUUID` counts once)
/// and writes it back only if nobody wrote in between (`If-Match` on the ETag read, `If-None-Match:
/// *` for the first), trying again from the read when another gate won; it returns once the store
/// has taken the write, so a 2xx follows a durable decision. Reads use a copy at most
/// ``refreshInterval`` old, read again by the first check after that, so every gate sees another's
/// decision within about a second (two at most while the store answers); while the bucket cannot
/// be read, the last copy stands for ``maxStaleness``, and checks fail closed after that.
///
/// Bounded: one entry (about 130 bytes of JSON) per original purchase decided, lifted decisions
/// dropped once signed more than ``SQLiteRevocationStore/retention`` ago, notifications older than
/// that ignored, and at most ``maxDecisions`` entries (13 MB): past that, a new purchase's
/// decision is an error (the gate answers 503 and Apple retries) and the operator is told to act.
package final class ObjectRevocationStore: RevocationStore {
    /// The object's name under the prefix.
    package static let objectName = "revocations.json"
    /// How old the copy that checks read may be.
    package static let refreshInterval = Duration.seconds(1)
    /// How long the last copy is used while the bucket cannot be read.
    package static let maxStaleness = Duration.seconds(300)
    /// The most decisions kept.
    package static let maxDecisions = 100_000
    /// How many times a write that lost the race is tried again.
    static let attempts = 20

    /// The bucket's client (read and write credentials).
    package let client: S3Client
    /// The object's key.
    package let key: String

    /// The document the object holds.
    private struct Document: Codable {
        var schemaVersion = 1
        var decisions: [RevocationEvent]
    }

    /// The decisions as last read, and when.
    private struct Snapshot {
        var byPurchase: [String: RevocationEvent]
        var readAt: ContinuousClock.Instant
    }

    private let snapshot: Locked<Snapshot?> = Locked(nil)
    private let refreshing = Locked(false)

    /// The state at `location` (its object read once, so a bad bucket or credentials fail now).
    package init(client: S3Client, location: S3Location) throws(StateError) {
        self.client = client
        key = location.key(Self.objectName)
        _ = try refresh()
    }

    /// The decision in force for `originalTransactionId`, as any gate recorded it.
    package func decision(for originalTransactionId: String) throws -> RevocationEvent? {
        try current()[originalTransactionId]
    }

    /// Every decision kept, by original transaction identifier.
    package func decisions() throws -> [RevocationEvent] {
        try current().values.sorted { $0.originalTransactionId < $1.originalTransactionId }
    }

    /// Applies `event` by ``RevocationDecision`` with a conditional write, returning once stored.
    package func record(_ event: RevocationEvent) throws -> RevocationDecision.Outcome {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let horizon = now - SQLiteRevocationStore.retention
        for attempt in 1...Self.attempts {
            let (byPurchase, etag) = try read()
            var outcome = RevocationDecision.outcome(of: event, over: byPurchase[event.originalTransactionId])
            if event.source != RevocationEvent.operatorSource, event.signedMilliseconds < horizon {
                outcome = .superseded
            }
            guard outcome == .applied else { return outcome }
            var next = byPurchase.filter { $0.value.effect == .revoke || $0.value.signedMilliseconds >= horizon }
            next[event.originalTransactionId] = event
            guard next.count <= Self.maxDecisions else {
                throw StateError(
                    "the state \(key) holds \(Self.maxDecisions) decisions, its bound; list them (iapkg gate list) "
                        + "and unrevoke the ones no longer needed")
            }
            let sorted = next.values.sorted { $0.originalTransactionId < $1.originalTransactionId }
            let body: [UInt8]
            do {
                body = Array(try JSONEncoder().encode(Document(decisions: sorted)))
            } catch {
                throw StateError("cannot encode the state: \(error)")
            }
            do {
                _ = try client.put(
                    key, bytes: body,
                    options: S3PutOptions(
                        contentType: "application/json", cacheControl: "no-store",
                        condition: etag.map { .ifMatch($0) } ?? .ifAbsent))
                snapshot.withLock { $0 = Snapshot(byPurchase: next, readAt: .now) }
                return outcome
            } catch  where error.kind == .preconditionFailed {
                // Another gate wrote first: read its decisions and decide again, after a short pause.
                Self.pause(attempt)
            } catch {
                throw StateError("cannot write the state \(key): \(error)")
            }
        }
        throw StateError("the state \(key) kept changing under \(Self.attempts) tries; try again")
    }

    /// The decisions, read again when the copy is older than ``refreshInterval`` (by one caller
    /// at a time; the others use the copy).
    private func current() throws(StateError) -> [String: RevocationEvent] {
        let copy = snapshot.withLock { $0 }
        if let copy, ContinuousClock.now - copy.readAt < Self.refreshInterval { return copy.byPurchase }
        let mine = refreshing.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard mine || copy == nil else { return copy!.byPurchase }
        defer { if mine { refreshing.withLock { $0 = false } } }
        do {
            return try refresh()
        } catch {
            // A bucket that does not answer for a while: the last copy stands for `maxStaleness`,
            // then every check fails closed.
            guard let copy, ContinuousClock.now - copy.readAt < Self.maxStaleness else { throw error }
            return copy.byPurchase
        }
    }

    /// Reads the object into the copy.
    @discardableResult
    private func refresh() throws(StateError) -> [String: RevocationEvent] {
        let (byPurchase, _) = try read()
        snapshot.withLock { $0 = Snapshot(byPurchase: byPurchase, readAt: .now) }
        return byPurchase
    }

    /// The decisions in the object and its ETag (nil: no object yet).
    private func read() throws(StateError) -> ([String: RevocationEvent], String?) {
        let object: S3Object
        do {
            object = try client.get(key, maxBytes: Self.maxDecisions * 256)
        } catch  where error.kind == .notFound {
            return ([:], nil)
        } catch {
            throw StateError("cannot read the state \(key): \(error)")
        }
        do {
            let document = try JSONDecoder().decode(Document.self, from: Data(object.bytes))
            return (Dictionary(document.decisions.map { ($0.originalTransactionId, $0) }) { $1 }, object.info.etag)
        } catch {
            throw StateError("the state \(key) is not a revocation state (\(error)); was it written by iapkg gate?")
        }
    }

    /// Waits a little longer after each lost race, with jitter, so racing gates spread out.
    private static func pause(_ attempt: Int) {
        S3Client.pause(Double(Int.random(in: 5...(10 * min(attempt, 10)))) / 1000)
    }
}
