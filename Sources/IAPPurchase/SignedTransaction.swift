#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The App Store environments a transaction can come from (the payload's `environment`).
public enum StoreEnvironment: String, CaseIterable, Sendable {
    /// Purchases by customers.
    case production = "Production"
    /// Purchases with sandbox accounts (TestFlight, development builds).
    case sandbox = "Sandbox"
}

/// The fields of a StoreKit 2 transaction payload (`JWSTransactionDecodedPayload`) that decide a
/// download; other fields are ignored.
public struct SignedTransaction: Sendable, Equatable {
    /// The app's bundle identifier.
    public let bundleId: String
    /// The In-App Purchase product identifier.
    public let productId: String
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`, as Apple wrote it.
    public let environment: String
    /// `Non-Consumable`, `Consumable`, `Auto-Renewable Subscription` or `Non-Renewing Subscription`.
    public let type: String
    /// When Apple signed the payload (milliseconds since 1970 in the JWS).
    public let signedDate: Date
    /// When the purchase was refunded or revoked, if it was.
    public let revocationDate: Date?
    /// The transaction's identifier.
    public let transactionId: String
    /// The identifier of the original purchase (restores carry the first purchase's).
    public let originalTransactionId: String?
}

extension SignedTransaction {
    /// The payload as JSON spells it; dates are integers of milliseconds.
    private struct Wire: Decodable {
        let bundleId: String
        let productId: String
        let environment: String
        let type: String
        let signedDate: Int64
        let revocationDate: Int64?
        let transactionId: String
        let originalTransactionId: String?
    }

    /// Year 2000 to year 10000 in milliseconds: anything else is not a date Apple signed.
    static let plausibleMilliseconds: ClosedRange<Int64> = 946_684_800_000...253_402_300_799_000

    /// Decodes a payload, refusing missing fields, wrong types and dates out of range.
    init(payload: [UInt8]) throws(PurchaseRefusal) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(payload))
        } catch {
            throw PurchaseRefusal(
                .jwsPayload,
                "the payload lacks a field or has one of the wrong type (bundleId, productId, environment, type, "
                    + "transactionId: strings; signedDate, revocationDate: integers of milliseconds)")
        }
        let range = Self.plausibleMilliseconds
        guard range.contains(wire.signedDate), wire.revocationDate.map(range.contains) ?? true else {
            throw PurchaseRefusal(.jwsPayload, "signedDate or revocationDate is not a plausible time in milliseconds")
        }
        func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
        self.init(
            bundleId: wire.bundleId, productId: wire.productId, environment: wire.environment, type: wire.type,
            signedDate: date(wire.signedDate), revocationDate: wire.revocationDate.map(date),
            transactionId: wire.transactionId, originalTransactionId: wire.originalTransactionId)
    }
}
