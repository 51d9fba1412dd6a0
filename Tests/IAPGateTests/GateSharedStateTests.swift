import Foundation
import IAPPurchase
import IAPPurchaseTestSupport
import IAPTestSupport
import Testing

/// Two `iapkg gate` processes sharing `--state s3://…` on a real SeaweedFS, as gates on two hosts
/// would: a REFUND posted to one closes the other's door within 2 s, and the operator's listing
/// reads the same state.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct GateSharedStateTests {
    let product = "com.example.game.levels.pack1"
    let buyer = "2000000123456789"

    @Test func aRefundPostedToOneGateClosesTheOthersDoorWithinTwoSeconds() async throws {
        let server = try SeaweedServer.shared()
        let pki = try TestPKI()
        let setUp = GateProcessTests()
        let folder = try setUp.setUp(pki)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = "s3://\(SeaweedServer.bucket)/\(SeaweedServer.uniquePrefix())/gate-state"
        let arguments = [Harness.binary] + setUp.arguments(folder, ["--state", state])
        let first = try ListeningProcess(arguments, environment: server.environment(), lineFromStderr: true)
        let second = try ListeningProcess(arguments, environment: server.environment(), lineFromStderr: true)
        let firstPort = try #require(first.port, "\(first.firstLine)")
        let secondPort = try #require(second.port, "\(second.firstLine)")
        let token = try DownloadTokens(key: Array(repeating: 9, count: 32))
            .issue(product: product, ttl: 600, originalTransactionId: buyer).token
        func check() throws -> String {
            try setUp.curl([
                "-H", "X-Original-URI: /\(product)/1.0/manifest.json", "-H", "Authorization: Bearer \(token)",
                "http://127.0.0.1:\(secondPort)/v1/check",
            ])
        }
        #expect(try check() == "204")
        try Data(try pki.notificationBody(type: "REFUND", signedDate: Date(timeIntervalSinceNow: -5)))
            .write(to: URL(fileURLWithPath: folder + "/refund.json"))
        let posted = try setUp.curl([
            "-H", "Content-Type: application/json", "--data-binary", "@\(folder)/refund.json",
            "http://127.0.0.1:\(firstPort)/v1/notifications",
        ])
        #expect(posted == "200")
        let deadline = ContinuousClock.now + .seconds(2)
        var status = try check()
        while status == "204" && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            status = try check()
        }
        #expect(status == "403")
        // The operator's listing reads the same object.
        let listing = try await Harness.run(
            ["iapkg", "gate", "revocations", "--state", state, "--json"], environment: server.environment())
        #expect(listing.status == 0 && listing.stdout.contains(buyer), "\(listing.stderr)")
        #expect(!listing.stdout.contains(SeaweedServer.writer.secretKey))
        #expect(first.stop() == 0 && second.stop() == 0)
    }
}
