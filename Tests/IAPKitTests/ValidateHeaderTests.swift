import Foundation
import IAPCrypto
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// Every header size and checksum algorithm real xar writers produce: Apple's xar (28-byte header,
/// code 3 = SHA-256, 4 = SHA-512), xar 1.6.1 (code 3 = "other", the algorithm's name in a 64-byte
/// header), file checksums in any of them and in any case of the style name.
@Suite(.onTestThreads) struct ValidateHeaderTests {
    let scratch = ScratchFolder()

    func tree(_ name: String, edit: (inout HostileXar) -> Void) throws -> String {
        let path = scratch.at(name + ".pkg")
        try HostileTree.write(HostileTree.nodes(), to: path, edit: edit)
        return path
    }

    @Test(arguments: [(DigestAlgorithm.sha256, UInt32(3)), (.sha512, 4), (.sha1, 1)])
    func appleCodesIn28ByteHeaders(algorithm: DigestAlgorithm, code: UInt32) throws {
        try Validate.expectClean(
            try tree("apple-\(algorithm)") {
                $0.checksumCode = code
                $0.tocDigest = algorithm
                $0.fileDigest = algorithm
            })
    }

    @Test(arguments: [DigestAlgorithm.sha224, .sha256, .sha384, .sha512])
    func namedAlgorithmsIn64ByteHeaders(algorithm: DigestAlgorithm) throws {
        try Validate.expectClean(
            try tree("named-\(algorithm)") {
                $0.checksumCode = 3
                $0.headerSize = 64
                $0.headerExtra = XarSpelling.namedHeaderExtra(algorithm.rawValue)
                $0.tocDigest = algorithm
                $0.fileDigest = algorithm
            })
    }

    @Test func code3In28BytesIsSHA256NeverAGuess() throws {
        // A 28-byte header with code 3 is Apple's SHA-256: a TOC that says sha224 disagrees with it.
        let run = try Validate.expectError(
            try tree("code3-sha224") {
                $0.checksumCode = 3
                $0.tocDigest = .sha224
            }, Rule.xarTocChecksumSize)
        #expect(run.findings.contains { $0.message.contains("sha256") && $0.message.contains("sha224") }, "\(run.dump)")
    }

    @Test func headerSizeThatDisagreesWithTheAlgorithm() throws {
        let sha1In64 = try Validate.expectError(
            try tree("sha1-64") {
                $0.headerSize = 64
                $0.headerExtra = [UInt8](repeating: 0, count: 36)
            }, Rule.xarHeaderSize)
        #expect(
            sha1In64.findings.contains { $0.message.contains("64 bytes") && $0.message.contains("expected 28") },
            "\(sha1In64.dump)")
        #expect(!sha1In64.findings.contains { $0.message.contains("writer") }, "blames no writer: \(sha1In64.dump)")
        // A name that is not NUL-terminated within the header.
        try Validate.expectError(
            try tree("unterminated") {
                $0.checksumCode = 3
                $0.headerSize = 32
                $0.headerExtra = Array("sha2".utf8)
            }, Rule.xarHeaderSize)
        // Junk after the name's NUL.
        try Validate.expectError(
            try tree("junk-pad") {
                $0.checksumCode = 3
                $0.headerSize = 64
                $0.headerExtra = XarSpelling.namedHeaderExtra("sha256").enumerated().map {
                    $0.offset == 20 ? 1 : $0.element
                }
                $0.tocDigest = .sha256
            }, Rule.xarHeaderSize)
        // A header that declares more bytes than the file has.
        try Validate.expectError(
            try tree("short") {
                $0.headerSize = 200
                $0.editCompressedTOC = { _ in [] }
                $0.editHeap = { _ in [] }
            }, Rule.xarHeaderSize)
    }

    @Test func unknownAlgorithmNamesCannotBeVerified() throws {
        try Validate.expectError(
            try tree("whirlpool") {
                $0.checksumCode = 3
                $0.headerSize = 64
                $0.headerExtra = XarSpelling.namedHeaderExtra("whirlpool")
            }, Rule.xarChecksumNone)
    }

    @Test func fileChecksumStylesInAnyCase() throws {
        try Validate.expectClean(try tree("upper-sha1") { $0.fileDigestStyle = "SHA1" })
        try Validate.expectClean(try tree("sha384-files") { $0.fileDigest = .sha384 })
    }

    @Test func md5FileChecksumsWarnOnce() throws {
        let run = try Validate.expectWarning(
            try tree("md5-files") {
                $0.fileDigest = .md5
            }, Rule.xarChecksumMd5)
        #expect(run.findings.filter { $0.rule == "xar-checksum-md5" }.count == 1, "\(run.dump)")
        try Validate.expectError(
            try tree("md5-files-strict") { $0.fileDigest = .md5 }, Rule.xarChecksumMd5, extra: ["--strict"])
    }

    @Test func eachFaultIsReportedOnce() throws {
        let run = try Validate.expectError(
            try tree("no-checksum") {
                $0.editTOC = { xml in
                    xml.replacingOccurrences(
                        of: #"<archived-checksum style="sha1">[0-9a-f]+</archived-checksum>"#, with: "",
                        options: .regularExpression)
                }
            }, Rule.xarChecksumMissing)
        #expect(
            run.findings.filter { $0.rule == "xar-checksum-missing" && $0.entry == "Contents/readme.txt" }.count == 1,
            "\(run.dump)")
    }
}
