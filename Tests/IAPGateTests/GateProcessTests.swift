import Foundation
import IAPPurchaseTestSupport
import IAPTestSupport
import Testing

/// The built `iapkg gate` (iapkg running iapkg-gate beside it), as an operator starts it: it
/// listens on the port it picked, answers over HTTP (curl), logs JSON lines, stops on SIGTERM with
/// exit status 0, and refuses unusable arguments and files with exit status 64 or 2.
@Suite struct GateProcessTests {
    /// A scratch folder with a store holding one product, a key and a trust anchor.
    func setUp(_ pki: TestPKI? = nil) throws -> String {
        let folder = NSTemporaryDirectory() + "gate-process-" + UUID().uuidString
        let product = folder + "/srv/com.example.game.levels.pack1"
        try FileManager.default.createDirectory(atPath: product + "/1.0", withIntermediateDirectories: true)
        try Data(
            #"{"manifestSHA256":"abababababababababababababababababababababababababababababababab","productIdentifier":"com.example.game.levels.pack1","schemaVersion":1,"version":"1.0"}"#
                .utf8
        ).write(to: URL(fileURLWithPath: product + "/current.json"))
        try Data(repeating: 9, count: 32).write(to: URL(fileURLWithPath: folder + "/gate.key"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder + "/gate.key")
        let anchor = pki.map(\.rootPEM) ?? GateTests.anchorPEM
        try Data(anchor.utf8).write(to: URL(fileURLWithPath: folder + "/anchor.pem"))
        try Data(repeating: 9, count: 8).write(to: URL(fileURLWithPath: folder + "/short.key"))
        return folder
    }

    /// `iapkg gate` with the usual arguments changed by `extra` (later options win).
    func arguments(_ folder: String, _ extra: [String] = []) -> [String] {
        [
            "gate", "--root", folder + "/srv", "--listen", "127.0.0.1:0", "--bundle-id", "com.example.game",
            "--trust-anchor", folder + "/anchor.pem", "--key-file", folder + "/gate.key",
        ] + extra
    }

    /// Runs the built iapkg (iapkg-gate is beside it) with `arguments` to the end; (status, stderr).
    func run(_ arguments: [String]) throws -> (Int32, String) {
        let err = Pipe()
        let process = try Harness.start(["iapkg"] + arguments, standardOutput: Pipe(), standardError: err)
        // A gate that starts when it should have refused is stopped after 10 s (and the test fails).
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: watchdog)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, text)
    }

    /// curl's status for `arguments`.
    func curl(_ arguments: [String]) throws -> String {
        try curlOutput(["-o", "/dev/null", "-w", "%{http_code}"] + arguments)
    }

    /// What curl prints for `arguments`.
    func curlOutput(_ arguments: [String]) throws -> String {
        try Harness.run(["curl", "-s"] + arguments).stdout
    }

    @Test func servesLogsAndStopsOnSIGTERM() throws {
        let pki = try TestPKI()
        let folder = try setUp(pki)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = Pipe()
        let err = Pipe()
        let process = try Harness.start(["iapkg"] + arguments(folder), standardOutput: out, standardError: err)
        // The first line on stderr says where it listens.
        var said = Data()
        while !said.contains(UInt8(ascii: "\n")) {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        let line = String(decoding: said, as: UTF8.self)
        let port = line.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect(line.hasPrefix("iapkg-gate: listening on 127.0.0.1:"), "\(line)")
        let base = "http://127.0.0.1:\(port ?? 0)"
        #expect(try curl([base + "/v1/health"]) == "200")
        #expect(try curl(["-H", "X-Original-URI: /com.example.game.levels.pack1/1.0/a", base + "/v1/check"]) == "401")
        #expect(try curl(["--data-binary", "not json", base + "/v1/authorize"]) == "400")
        #expect(try curl([base + "/nothing"]) == "404")
        // A purchase signed with a chain of the trusted root (made now, so signed now) earns a token.
        let jws = try pki.jws(
            payload: TestPKI.payload { $0["signedDate"] = Int64(Date().timeIntervalSince1970 * 1000) })
        let body = try JSONSerialization.data(withJSONObject: ["signedTransaction": jws])
        let answer = try curlOutput(["--data-binary", String(decoding: body, as: UTF8.self), base + "/v1/authorize"])
        let json = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
        let token = try #require(json?["token"] as? String, "\(answer)")
        let file = "X-Original-URI: /com.example.game.levels.pack1/1.0/manifest.json"
        #expect(try curl(["-H", file, "-H", "Authorization: Bearer \(token)", base + "/v1/check"]) == "204")
        process.terminate()  // SIGTERM
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let rest = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(rest.contains("iapkg-gate: stopped"))
        let records = log.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(
            records.map { $0["code"] as? String } == [
                "ok", "token-missing", "request-malformed", "http-404", "ok", "ok",
            ])
        #expect(!log.contains(token) && !log.contains(jws.split(separator: ".")[2]))
    }

    @Test func unusableArgumentsAndFilesAreRefused() throws {
        let folder = try setUp()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(Int32, [String], String)] = [
            (64, ["--environment", "Xcode"], "Production or Sandbox"),
            (64, ["--token-ttl", "864000"], "minutes, not days"),
            (64, ["--listen", "localhost"], "HOST:PORT"),
            (64, ["--uri-prefix", "content"], "--uri-prefix"),
            (64, ["--root", folder + "/none"], "is not a folder"),
            (64, ["--key-file", folder + "/short.key"], "at least 32"),
            (64, ["--trust-anchor", folder + "/gate.key"], "no PEM certificate"),
            (2, ["--key-file", folder + "/missing.key"], "cannot read key file"),
            (2, ["--trust-anchor", folder + "/missing.pem"], "cannot read trust anchor"),
            (2, ["--state", folder + "/gate.key"], "is not a folder"),
        ]
        for (status, extra, message) in cases {
            let (exit, stderr) = try run(arguments(folder, extra))
            #expect(exit == status, "\(extra)")
            #expect(stderr.contains(message), "\(extra): \(stderr)")
        }
    }
}
