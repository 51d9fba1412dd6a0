/// The reason codes of one kind of ``Refusal``: stable strings, part of the interface (the gate
/// answers them in JSON and logs them), never renamed, only added to.
public protocol RefusalReason: RawRepresentable<String>, CaseIterable, Hashable, Sendable {}

/// Why IAPPurchase says no — to a transaction, a notification or a download token: a stable reason
/// code and a message for people. ``PurchaseRefusal`` and ``TokenRefusal`` are its two kinds.
public struct Refusal<Codes: RefusalReason>: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind's reason codes (``PurchaseRefusalReason``, ``TokenRefusalReason``).
    public typealias Reason = Codes

    /// The stable code.
    public let reason: Reason
    /// What was wrong, for people; never contains the transaction or the token itself.
    public let message: String

    /// A refusal for `reason` explained by `message`.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The stable code as a string, as the gate answers it.
    public var code: String { reason.rawValue }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
