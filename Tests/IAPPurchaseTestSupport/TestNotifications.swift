import Foundation

/// Signed App Store Server Notifications V2 made with the test chain, as Apple shapes them
/// (`ResponseBodyV2DecodedPayload`): the transaction inside is a JWS of the same chain.
extension TestPKI {
    /// The app's App Store identifier in the notifications made here.
    package static let appAppleId: Int64 = 1_234_567_890

    /// A notification payload of `type` signed at `signedDate`, its `data` carrying `transaction`
    /// (a JWS; none for `TEST`), changed by `edit`.
    package static func notificationPayload(
        type: String, uuid: String = UUID().uuidString, signedDate: Date = TestPKI.signedDate,
        transaction: String?, edit: (inout [String: Any]) -> Void = { _ in }
    ) -> [String: Any] {
        var data: [String: Any] = [
            "appAppleId": appAppleId, "bundleId": "com.example.game", "bundleVersion": "1.0",
            "environment": "Production",
        ]
        if let transaction { data["signedTransactionInfo"] = transaction }
        var fields: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "version": "2.0",
            "signedDate": Int64(signedDate.timeIntervalSince1970 * 1000), "data": data,
        ]
        edit(&fields)
        return fields
    }

    /// The signed transaction a notification about `originalTransactionId` carries: refunded
    /// (`revocationDate` set) for `REFUND` and `REVOKE`.
    package func notifiedTransaction(
        type: String, originalTransactionId: String = "2000000123456789", transactionId: String? = nil,
        signedDate: Date = TestPKI.signedDate
    ) throws -> String {
        try jws(
            payload: TestPKI.payload { fields in
                fields["originalTransactionId"] = originalTransactionId
                fields["transactionId"] = transactionId ?? originalTransactionId
                fields["signedDate"] = Int64(signedDate.timeIntervalSince1970 * 1000)
                if type == "REFUND" || type == "REVOKE" {
                    fields["revocationDate"] = Int64(signedDate.timeIntervalSince1970 * 1000) - 1000
                    fields["revocationReason"] = 0
                }
            })
    }

    /// The request body Apple posts, `{"signedPayload": "<JWS>"}`, for a notification of `type`
    /// about `originalTransactionId`, signed at `signedDate`.
    package func notificationBody(
        type: String, originalTransactionId: String = "2000000123456789", uuid: String = UUID().uuidString,
        signedDate: Date = TestPKI.signedDate
    ) throws -> [UInt8] {
        let transaction =
            type == "TEST"
            ? nil
            : try notifiedTransaction(type: type, originalTransactionId: originalTransactionId, signedDate: signedDate)
        let payload = TestPKI.notificationPayload(
            type: type, uuid: uuid, signedDate: signedDate, transaction: transaction)
        return try TestPKI.body(signedPayload: try jws(payload: payload))
    }

    /// `{"signedPayload": "<JWS>"}`.
    package static func body(signedPayload: String) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: ["signedPayload": signedPayload]))
    }
}
