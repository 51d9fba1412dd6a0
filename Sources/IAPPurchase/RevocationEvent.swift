#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One decision about an original purchase — revoke it, or lift its revocation — and the moment
/// it was signed: a notification's `signedDate`, or the time an operator decided.
public struct RevocationEvent: Sendable, Equatable, Codable {
    /// What the decision does.
    public enum Effect: String, Sendable, Codable, CaseIterable {
        /// Every transaction of the original purchase is refused (`REFUND`, `REVOKE`, an operator's revoke).
        case revoke
        /// The revocation is lifted (`REFUND_REVERSED`, an operator's unrevoke).
        case lift
    }

    /// The source of an operator's decision.
    public static let operatorSource = "operator"

    /// The original purchase: every restore of it carries this identifier.
    public let originalTransactionId: String
    /// Revoke or lift.
    public let effect: Effect
    /// When the decision was signed, in milliseconds since 1970 (the later one decides).
    public let signedMilliseconds: Int64
    /// The notification type that made it (`REFUND`, `REVOKE`, `REFUND_REVERSED`), or `operator`.
    public let source: String
    /// The notification's identifier; nil for an operator's decision.
    public let notificationUUID: String?

    /// A decision signed `signedMilliseconds` after 1970.
    public init(
        originalTransactionId: String, effect: Effect, signedMilliseconds: Int64, source: String,
        notificationUUID: String?
    ) {
        self.originalTransactionId = originalTransactionId
        self.effect = effect
        self.signedMilliseconds = signedMilliseconds
        self.source = source
        self.notificationUUID = notificationUUID
    }

    /// A decision signed at `signedDate` (kept to the millisecond, as Apple signs).
    public init(
        originalTransactionId: String, effect: Effect, signedDate: Date, source: String, notificationUUID: String?
    ) {
        self.init(
            originalTransactionId: originalTransactionId, effect: effect,
            signedMilliseconds: Int64((signedDate.timeIntervalSince1970 * 1000).rounded(.down)), source: source,
            notificationUUID: notificationUUID)
    }

    /// An operator's decision, counting as signed at `now`: a notification signed later overrides it.
    public static func byOperator(_ originalTransactionId: String, effect: Effect, now: Date = Date())
        -> RevocationEvent
    {
        RevocationEvent(
            originalTransactionId: originalTransactionId, effect: effect, signedDate: now, source: operatorSource,
            notificationUUID: nil)
    }

    /// When the decision was signed.
    public var signedDate: Date { Date(timeIntervalSince1970: Double(signedMilliseconds) / 1000) }

    /// True when `text` can name an original purchase here: 1 to 64 ASCII letters, digits, `.`,
    /// `_` or `-` (Apple's are decimal digits).
    public static func isValidIdentifier(_ text: String) -> Bool { Identifier.isPlain(text) }
}
