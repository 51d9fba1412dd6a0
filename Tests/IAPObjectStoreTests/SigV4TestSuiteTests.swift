import Foundation
import IAPCrypto
import IAPSystem
import Testing

@testable import IAPObjectStore

/// The signer against AWS's Signature Version 4 test suite (Fixtures/aws4_testsuite, from botocore;
/// see its SOURCE): each case's canonical request, string to sign and Authorization header.
@Suite struct SigV4TestSuiteTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/aws4_testsuite")
    static let time = SigningTime(seconds: 1_440_938_160)  // 2015-08-30T12:36:00Z

    /// Every case folder holding a .req file.
    static let cases: [String] = {
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".req") }.map { String($0.dropLast(4)) }.sorted()
    }()

    @Test func theSuiteIsThere() {
        #expect(Self.cases.count >= 20)
    }

    @Test(arguments: cases) func signsLikeTheSuite(_ name: String) throws {
        let base = Self.folder.appendingPathComponent(name)
        let raw = try String(contentsOf: base.appendingPathExtension("req"), encoding: .utf8)
        let expectedCanonical = try String(contentsOf: base.appendingPathExtension("creq"), encoding: .utf8)
        let expectedStringToSign = try String(contentsOf: base.appendingPathExtension("sts"), encoding: .utf8)
        let expectedAuthorization = try String(contentsOf: base.appendingPathExtension("authz"), encoding: .utf8)
        let (request, body) = try #require(Self.parse(raw))
        // One case signs a token its request file leaves out; its canonical request holds it.
        let token = expectedCanonical.split(separator: "\n").first { $0.hasPrefix("x-amz-security-token:") }
            .map { String($0.dropFirst("x-amz-security-token:".count)) }
        let credentials = S3Credentials(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            sessionToken: request.header("x-amz-security-token") == nil ? token : nil)
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "service")
        let payloadHash = Hex.encode(DigestHasher.digest(.sha256, of: body))
        let signed = signer.signed(request, payloadHash: payloadHash, time: Self.time)
        var unsigned = signed
        unsigned.headers.removeAll { $0.name == "Authorization" }
        let canonical = signer.canonicalRequest(unsigned, payloadHash: payloadHash).text
        #expect(canonical == expectedCanonical)
        #expect(signer.stringToSign(canonicalRequest: canonical, time: Self.time) == expectedStringToSign)
        #expect(signed.header("Authorization") == expectedAuthorization)
    }

    /// A raw request file: request line, `Name:value` header lines, a blank line, the body.
    static func parse(_ raw: String) -> (SignableRequest, [UInt8])? {
        let parts = raw.components(separatedBy: "\n\n")
        var lines = parts[0].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        let target = String(requestLine[1])
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        guard let path = URIEncoding.decode(target[..<pathEnd]) else { return nil }
        var query: [SignableRequest.Field] = []
        if pathEnd != target.endIndex {
            for pair in target[target.index(after: pathEnd)...].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = URIEncoding.decode(halves[0]),
                    let value = URIEncoding.decode(halves.count > 1 ? halves[1] : "")
                else { return nil }
                query.append(.init(name, value))
            }
        }
        let headers = lines.compactMap { line -> SignableRequest.Field? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return .init(String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        let body = parts.count > 1 ? Array(parts[1...].joined(separator: "\n\n").utf8) : []
        return (
            SignableRequest(
                method: String(requestLine[0]), path: URIEncoding.encodePath(path), query: query, headers: headers),
            body
        )
    }
}
