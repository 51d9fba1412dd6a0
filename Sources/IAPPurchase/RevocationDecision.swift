/// The rule that orders revocations, whatever order they arrive in: for each original purchase,
/// the decision signed later wins. Apple retries a notification for days and reorders deliveries,
/// so a `REFUND_REVERSED` may arrive before the `REFUND` it reverses; applying each only when it
/// is newer than the one kept makes every arrival order end in the same state.
///
/// - A notification already kept (same `notificationUUID`) changes nothing: ``Outcome/duplicate``.
/// - An older decision changes nothing: ``Outcome/superseded``.
/// - Two different decisions signed in the same millisecond: the revocation wins (fail closed), so
///   the result does not depend on which came first.
public enum RevocationDecision {
    /// What applying a decision did.
    public enum Outcome: String, Sendable, Equatable, CaseIterable {
        /// It is now the decision in force.
        case applied
        /// The same decision is already in force (a repeated delivery); nothing changed.
        case duplicate
        /// A decision signed later is in force; nothing changed.
        case superseded
    }

    /// What `event` does when `current` is the decision in force for its original purchase.
    public static func outcome(of event: RevocationEvent, over current: RevocationEvent?) -> Outcome {
        guard let current else { return .applied }
        if let uuid = event.notificationUUID, uuid == current.notificationUUID { return .duplicate }
        if event.signedMilliseconds != current.signedMilliseconds {
            return event.signedMilliseconds > current.signedMilliseconds ? .applied : .superseded
        }
        if event.effect == current.effect { return .duplicate }
        return event.effect == .revoke ? .applied : .superseded
    }
}

/// Where the decisions are kept: one per original purchase, the one ``RevocationDecision`` says is
/// in force. `iapkg gate --state DIR` keeps them in SQLite; a backend of your own implements these
/// three calls, making ``record(_:)`` atomic (read, decide, write as one step) and durable before it
/// returns — a notification is answered 2xx only after.
public protocol RevocationStore: Sendable {
    /// The decision in force for `originalTransactionId`, or nil when there is none.
    func decision(for originalTransactionId: String) throws -> RevocationEvent?
    /// Applies `event` by ``RevocationDecision/outcome(of:over:)``, durably before returning.
    func record(_ event: RevocationEvent) throws -> RevocationDecision.Outcome
    /// Every decision kept, by original transaction identifier.
    func decisions() throws -> [RevocationEvent]
}

extension RevocationStore {
    /// True when the decision in force for `originalTransactionId` revokes it.
    public func isRevoked(_ originalTransactionId: String) throws -> Bool {
        try decision(for: originalTransactionId)?.effect == .revoke
    }
}
