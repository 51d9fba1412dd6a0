#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An App Store Server Notification V2, verified (Apple's `ResponseBodyV2DecodedPayload`): the
/// fields that decide what it does to a purchase; others are ignored.
public struct SignedNotification: Sendable, Equatable {
    /// `REFUND`, `REVOKE`, `REFUND_REVERSED`, `TEST`, `CONSUMPTION_REQUEST`, … as Apple wrote it.
    public let notificationType: String
    /// The subtype, when the type has one.
    public let subtype: String?
    /// The notification's identifier: a retry of the same notification carries the same one.
    public let notificationUUID: String
    /// When Apple signed the notification: the later of two describes the later state.
    public let signedDate: Date
    /// The app the notification is about (from `data`, `summary`, `externalPurchaseToken` or `appData`).
    public let bundleId: String
    /// The App Store's numeric identifier of the app, when the notification carries one.
    public let appAppleId: Int64?
    /// `Production` or `Sandbox`, as Apple wrote it.
    public let environment: String
    /// The transaction of `data.signedTransactionInfo`, its signature, chain, app and environment
    /// verified (a refunded one carries `revocationDate`); nil when the notification has none.
    public let transaction: SignedTransaction?

    /// What the notification does to the purchase it carries: ``RevocationEvent/Effect/revoke`` for
    /// `REFUND` and `REVOKE`, ``RevocationEvent/Effect/lift`` for `REFUND_REVERSED`, nil for every
    /// other type (acknowledged, changing nothing) and for a notification without a transaction.
    public var revocationEvent: RevocationEvent? {
        let effect: RevocationEvent.Effect
        switch notificationType {
        case "REFUND", "REVOKE": effect = .revoke
        case "REFUND_REVERSED": effect = .lift
        default: return nil
        }
        guard let transaction else { return nil }
        return RevocationEvent(
            originalTransactionId: transaction.originalTransactionId ?? transaction.transactionId, effect: effect,
            signedDate: signedDate, source: notificationType, notificationUUID: notificationUUID)
    }
}

extension SignedNotification {
    /// The payload as JSON spells it, before the transaction inside is verified.
    struct Wire: Decodable {
        /// The app fields that `data`, `summary` and `appData` share.
        struct App: Decodable {
            let bundleId: String?
            let appAppleId: Int64?
            let environment: String?
            let signedTransactionInfo: String?
        }
        /// `externalPurchaseToken`: the environment is in the identifier's prefix.
        struct ExternalToken: Decodable {
            let bundleId: String?
            let appAppleId: Int64?
            let externalPurchaseId: String?
        }
        let notificationType: String
        let subtype: String?
        let notificationUUID: String
        let signedDate: Int64
        let data: App?
        let summary: App?
        let externalPurchaseToken: ExternalToken?
        let appData: App?

        /// The app, its identifier and environment, from the first of the objects that carries them,
        /// in the order Apple's App Store Server Library reads them.
        var owner: (bundleId: String?, appAppleId: Int64?, environment: String?) {
            if let app = data ?? summary {
                return (app.bundleId, app.appAppleId, app.environment)
            }
            if let token = externalPurchaseToken {
                let sandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") == true
                return (token.bundleId, token.appAppleId, sandbox ? "Sandbox" : "Production")
            }
            return (appData?.bundleId, appData?.appAppleId, appData?.environment)
        }

        /// Decodes a payload, refusing missing fields, wrong types, dates out of range and
        /// identifiers that are not plain.
        init(payload: [UInt8]) throws(PurchaseRefusal) {
            do {
                self = try JSONDecoder().decode(Wire.self, from: Data(payload))
            } catch {
                throw PurchaseRefusal(
                    .jwsPayload,
                    "the notification lacks a field or has one of the wrong type (notificationType, "
                        + "notificationUUID: strings; signedDate: integer of milliseconds; data: object)")
            }
            guard SignedTransaction.plausibleMilliseconds.contains(signedDate) else {
                throw PurchaseRefusal(
                    .jwsPayload, "the notification's signedDate is not a plausible time in milliseconds")
            }
            guard Identifier.isPlain(notificationUUID), Identifier.isPlain(notificationType) else {
                throw PurchaseRefusal(
                    .jwsPayload, "notificationUUID or notificationType is not 1 to 64 letters, digits, '.', '_' or '-'")
            }
        }

        /// The signing moment.
        var signedMoment: Date { Date(timeIntervalSince1970: Double(signedDate) / 1000) }
    }
}

/// Identifiers that notifications carry and the state stores: 1 to 64 ASCII letters, digits, `.`,
/// `_` or `-` (Apple's are digits, UUIDs and upper-case words), so that one never breaks a log line
/// or a listing.
package enum Identifier {
    /// True when `text` is such an identifier.
    package static func isPlain(_ text: String) -> Bool {
        let bytes = text.utf8
        return (1...64).contains(bytes.count)
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}
