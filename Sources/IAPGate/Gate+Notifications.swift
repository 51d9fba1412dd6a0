import IAPPurchase

/// App Store Server Notifications V2 (`POST /v1/notifications`) and the revocations they decide.
extension Gate {
    /// The refusals that say the body or the JWS is not well formed (400); too large is 413, and
    /// every other refusal (trust, signature, another app or environment) 403.
    static let malformedReasons: Set<PurchaseRefusal.Reason> = [
        .requestMalformed, .jwsMalformed, .jwsBase64, .jwsHeader, .jwsPayload,
    ]

    /// `POST /v1/notifications`: 200 for every notification that verifies, once what it decides is
    /// durable (acted on or not: `TEST`, `CONSUMPTION_REQUEST`, `REFUND_DECLINED`, unknown types,
    /// and purchases other than non-consumables are acknowledged and change nothing); 4xx for one
    /// that is malformed, too large or does not verify, including one for another app or
    /// environment (Apple then retries it and App Store Connect shows the failure); 503 when the
    /// decision could not be kept (Apple retries).
    package func notify(body: [UInt8]) -> GateAnswer {
        guard let notifications, let revocations else {
            return .refusal(
                503, "notifications-off", "this gate keeps no state (--state DIR): notifications are not taken")
        }
        let notification: SignedNotification
        do {
            notification = try notifications.verify(body: body)
        } catch {
            let status = error.reason == .jwsTooLarge ? 413 : Self.malformedReasons.contains(error.reason) ? 400 : 403
            return .refusal(status, error)
        }
        let product = notification.transaction?.productId
        guard let event = notification.revocationEvent,
            notification.transaction?.type == TransactionVerifier.nonConsumable
        else {
            return Self.acknowledgement(notification, code: "acknowledged", outcome: nil, product: product)
        }
        let outcome: RevocationDecision.Outcome
        do {
            outcome = try revocations.record(event)
        } catch {
            return .refusal(503, "state-unavailable", "the decision could not be kept: \(error)", product: product)
        }
        return Self.acknowledgement(
            notification, code: "\(event.effect.rawValue)-\(outcome.rawValue)", outcome: outcome, product: product)
    }

    /// A refusal with the reason code `revoked` when `purchase` has been revoked, a 503 when the
    /// state cannot be read (fail closed), nil when it may go on (or no state is kept).
    func revocationRefusal(_ purchase: String, product: String) -> GateAnswer? {
        guard let revocations else { return nil }
        do {
            guard let decision = try revocations.decision(for: purchase), decision.effect == .revoke else { return nil }
            return .refusal(
                403,
                PurchaseRefusal(
                    .revoked,
                    "the purchase was refunded or revoked (\(decision.source), signed \(decision.signedMilliseconds) ms)"
                ),
                product: product)
        } catch {
            return .refusal(503, "state-unavailable", "the revocations could not be read: \(error)", product: product)
        }
    }

    /// `{"action":…,"notificationType":…,"notificationUUID":…,"outcome":…,"schemaVersion":1}`.
    static func acknowledgement(
        _ notification: SignedNotification, code: String, outcome: RevocationDecision.Outcome?, product: String?
    ) -> GateAnswer {
        let action = notification.revocationEvent?.effect.rawValue ?? "none"
        var out = Array("{\"action\":".utf8)
        JSONWriter.append(outcome == nil ? "none" : action, to: &out)
        out += Array(",\"notificationType\":".utf8)
        JSONWriter.append(notification.notificationType, to: &out)
        out += Array(",\"notificationUUID\":".utf8)
        JSONWriter.append(notification.notificationUUID, to: &out)
        out += Array(",\"outcome\":".utf8)
        JSONWriter.append(outcome?.rawValue ?? "acknowledged", to: &out)
        out += Array(",\"schemaVersion\":1}\n".utf8)
        return GateAnswer(status: 200, code: code, product: product, body: out)
    }
}
