import IAPCrypto
import IAPTestSupport
import Testing
import XMLKit

@testable import XarKit

/// The TOC's signature elements as read, and the findings when they cannot be verified.
@Suite struct XarSignatureTests {
    let directory: ScratchFolder
    init() throws { directory = ScratchFolder() }

    private let checksum = "<checksum style=\"sha1\"><offset>0</offset><size>20</size></checksum>"

    /// A fixture whose TOC carries `element` after its checksum.
    private func signed(_ element: String) -> XarFixture {
        var fixture = XarFixture()
        let checksum = checksum
        fixture.editTOC = { $0.replacingFirst(checksum, with: checksum + element) }
        return fixture
    }

    private func element(
        _ name: String = "signature", style: String = "RSA", offset: String = "<offset>20</offset>",
        size: String = "<size>256</size>", certificates: [String]
    ) -> String {
        let list = certificates.map { "<X509Certificate>\($0)</X509Certificate>" }.joined()
        return
            "<\(name) style=\"\(style)\">\(offset)\(size)<KeyInfo xmlns=\"http://www.w3.org/2000/09/xmldsig#\"><X509Data>\(list)</X509Data></KeyInfo></\(name)>"
    }

    @Test func signatureElementsAreParsed() throws {
        let fixture = signed(
            element(certificates: ["AAEC\r\n AwQ=", "BQY="])
                + element(
                    "x-signature", style: "CMS", offset: "<offset>276</offset>", size: "<size>9216</size>",
                    certificates: []))
        let archive = try directory.open(fixture)
        #expect(archive.toc.hasSignature && archive.toc.hasXSignature)
        #expect(archive.toc.signatures.count == 2)
        let rsa = try #require(archive.toc.signatures.first)
        #expect(rsa.element == "signature" && rsa.style == "RSA" && rsa.offset == 20 && rsa.size == 256)
        #expect(rsa.certificateTexts.count == 2)
        #expect(rsa.certificateTexts.compactMap(Base64.decode) == [[0, 1, 2, 3, 4], [5, 6]])
        #expect(archive.toc.signatures.last?.offset == 276 && archive.toc.signatures.last?.style == "CMS")
    }

    @Test func base64IsStrictButSkipsWhitespace() {
        #expect(Base64.decode("TWFu\r\n\tTWE=\n") == Array("ManMa".utf8))
        #expect(Base64.decode("TQ==") == Array("M".utf8))
        #expect(Base64.decode("TWFu!") == nil)
        #expect(Base64.decode("TW=u") == nil)
        #expect(Base64.decode("TWF") == nil)
        #expect(Base64.decode("T===") == nil)
    }

    @Test func unreadableCertificatesAreFindings() throws {
        // The signature range lies outside this small file too; that is xar-data-range, not a signature rule.
        let notBase64 = try directory.open(signed(element(certificates: ["not base64!"])))
        #expect(notBase64.errorRules.contains("xar-signature-certificate"))
        let notDER = try directory.open(signed(element(certificates: ["AAECAwQ="])))
        #expect(notDER.errorRules.contains("xar-signature-certificate"))
        let none = try directory.open(signed(element(certificates: [])))
        #expect(none.errorRules.contains("xar-signature-certificate"))
        #expect(none.signatureChecks.first?.status == .invalid)
    }

    @Test func signatureWithoutOffsetIsInvalid() throws {
        let certificate = Self.sampleCertificate
        let archive = try directory.open(signed(element(offset: "", certificates: [certificate])))
        #expect(archive.errorRules == ["xar-signature-invalid"], "\(archive.findings)")
        let outside = try directory.open(
            signed(element(offset: "<offset>900000</offset>", certificates: [certificate])))
        #expect(outside.errorRules == ["xar-data-range"], "\(outside.findings)")
        #expect(outside.signatureChecks.first?.status == .invalid)
        #expect(outside.signatureChecks.first?.certificates.first?.subject == "CN=sample")
    }

    /// A throw-away self-signed certificate (base64 DER, CN=sample), to reach the checks after the certificates.
    // Made once with: openssl req -x509 -newkey rsa:1024 -nodes -subj /CN=sample -days 36500 -outform DER | base64
    static let sampleCertificate = """
        MIICADCCAWmgAwIBAgIUIoLLvtkpth4pPFDhZ85ScjISAf0wDQYJKoZIhvcNAQELBQAwETEPMA0GA1UEAwwGc2FtcGxlMCAX
        DTI2MTEyMzExMTQ0NFoYDzIxMjYxMDMwMTExNDQ0WjARMQ8wDQYDVQQDDAZzYW1wbGUwgZ8wDQYJKoZIhvcNAQEBBQADgY0A
        MIGJAoGBAKixSzG80wjO8mr9gO1k+UOGQiCyFCBlQ3bkaToBjGGGauhpnhyH81UxPhsdVXQjj4MzzXJyM6P6GjzH9uIPGZnl
        GkN5w6W0zqVBYh8AiV9hX4vxOldgMSxp7JqjBRZneqIcAf/i2gBnaCA7UhGhrIdEy36voun0BN0MO2o+NJQxAgMBAAGjUzBR
        MB0GA1UdDgQWBBQ7/1xu0X533s+206x7Ne3J1DiWAjAfBgNVHSMEGDAWgBQ7/1xu0X533s+206x7Ne3J1DiWAjAPBgNVHRMB
        Af8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4GBAB+kRyTOdP1ckf3/d5GbOBoI+pAv67CtxnRyxzDmpBrnWvvsUS54yNXDs65q
        w6fpEn566VrNbUhyy1I2UjuLJMILIPZuTFGZDdMDAfGKlvOSxrGzPH0Upib6Tykw91HBTV+8DV1pMpBx6vs3i0CxISivDpF1
        7QfzdftB6J+mNqWL
        """
}
