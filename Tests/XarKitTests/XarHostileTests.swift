import Foundation
import IAPRules
import IAPSystem
import IAPTestSupport
import Testing

@testable import XarKit

/// Hand-made broken archives: each must give exactly the rule id expected.
@Suite struct XarHostileTests {
    let directory: ScratchFolder
    init() throws { directory = ScratchFolder() }

    @Test func validFixtureHasNoFindingsAndReads() throws {
        let archive = try directory.open(XarFixture())
        #expect(archive.findings == [])
        #expect(try archive.readAll(archive.requireFile("hello.txt"), maxBytes: 100) == Array("hello, world\n".utf8))
        #expect(try archive.readAll(archive.requireFile("raw.bin"), maxBytes: 1000) == Array(0..<200).map { UInt8($0) })
        #expect(archive.verifyAllData() == [])
    }

    // MARK: Header

    @Test func badMagicThrows() throws {
        #expect(try directory.thrownRule(XarFixture.edited { $0.magic = 0x7861_7222 }) == "xar-magic")
        let path = try directory.write(Array("PK\u{3}\u{4}".utf8), to: "zip")
        #expect(throws: XarError.self) { try XarArchive.open(path: path) }
    }

    @Test func headerSizeOtherThan28Throws() throws {
        #expect(try directory.thrownRule(XarFixture.edited { $0.headerSize = 32 }) == "xar-header-size")
        let path = try directory.write(Array("xar!\0\u{1c}".utf8), to: "short")
        #expect(
            throws: XarError(
                rule: Rule.xarHeaderSize, "the file ends inside the 28-byte xar header", offset: 6,
                advice: "the archive is truncated; rebuild or download it again")
        ) {
            try XarArchive.open(path: path)
        }
    }

    @Test func versionOtherThan1IsAFinding() throws {
        let archive = try directory.open(XarFixture.edited { $0.version = 2 })
        #expect(archive.errorRules == ["xar-version"])
        #expect(archive.findings.first?.offset == 6)
    }

    @Test func checksumAlgorithmNoneIsAFinding() throws {
        let archive = try directory.open(XarFixture.edited { $0.checksumCode = 0 })
        #expect(archive.errorRules == ["xar-checksum-none"])
    }

    @Test func checksumAlgorithmMD5IsAWarning() throws {
        let archive = try directory.open(XarFixture.edited { $0.checksumCode = 2 })
        #expect(archive.warningRules.contains("xar-checksum-md5"))
        #expect(archive.errorRules == ["xar-toc-checksum-size"])  // the TOC says sha1, the header md5
    }

    // MARK: TOC stream

    @Test func tocStreamShorterThanDeclaredLengthIsAFinding() throws {
        let archive = try directory.open(XarFixture.edited { $0.junkAfterTOC = [0xde, 0xad, 0xbe, 0xef] })
        #expect(archive.errorRules == ["xar-toc-length"])
        let finding = try #require(archive.findings.first)
        #expect(finding.offset == archive.heapOffset - 4)
    }

    @Test func tocStreamLongerThanDeclaredLengthThrows() throws {
        #expect(try directory.thrownRule(XarFixture.edited { $0.compressedLengthDelta = -3 }) == "xar-toc-length")
    }

    @Test func declaredTOCLengthBeyondTheFileThrows() throws {
        #expect(
            try directory.thrownRule(XarFixture.edited { $0.compressedLengthDelta = 1_000_000 }) == "xar-toc-length")
    }

    @Test func corruptTOCZlibThrows() throws {
        var bytes = try XarFixture().bytes()
        bytes[28 + 5] ^= 0xff
        bytes[28 + 6] ^= 0xff
        let path = try directory.write(bytes, to: "corrupt.xar")
        do {
            _ = try XarArchive.open(path: path)
            Issue.record("opened a corrupt TOC")
        } catch {
            #expect(["xar-toc-inflate", "xar-toc-xml"].contains(error.rule?.id ?? ""))
        }
        var garbage = try XarFixture().bytes()
        for i in 28..<60 { garbage[i] = 0x55 }
        #expect(
            try { () throws -> String? in
                let path = try directory.write(garbage, to: "garbage.xar")
                do {
                    _ = try XarArchive.open(path: path)
                    return nil
                } catch let error as XarError { return error.rule?.id }
            }() == "xar-toc-inflate")
    }

    @Test func uncompressedLengthLieIsAFinding() throws {
        let real = try XarFixture().bytes().uint64BE(at: 16)
        let archive = try directory.open(XarFixture.edited { $0.declaredUncompressedLength = real + 1 })
        #expect(archive.errorRules == ["xar-toc-size"])
        let smaller = try directory.open(XarFixture.edited { $0.declaredUncompressedLength = real - 1 })
        #expect(smaller.errorRules == ["xar-toc-size"])
    }

    @Test func declaredTOCOver64MiBIsRefusedBeforeInflating() throws {
        #expect(
            try directory.thrownRule(XarFixture.edited { $0.declaredUncompressedLength = (64 << 20) + 1 })
                == "xar-toc-too-large")
    }

    @Test func tocInflatingPastTheCapIsRefused() throws {
        let limits = XarLimits(maxTOCBytes: 300)
        #expect(
            try directory.thrownRule(XarFixture.edited { $0.declaredUncompressedLength = 200 }, limits: limits)
                == "xar-toc-too-large")
    }

    // MARK: TOC XML

    @Test func doctypeThrows() throws {
        let toc = XarFixture.editingTOC {
            $0.replacingFirst("<xar>", with: "<!DOCTYPE xar SYSTEM \"http://example.com/x.dtd\">\n<xar>")
        }
        #expect(try directory.thrownRule(toc) == "xar-toc-doctype")
        let subset = XarFixture.editingTOC {
            $0.replacingFirst("<xar>", with: "<!DOCTYPE xar [<!ENTITY e \"x\">]>\n<xar>")
        }
        #expect(try directory.thrownRule(subset) == "xar-toc-doctype")
    }

    @Test func malformedXMLThrows() throws {
        #expect(
            try directory.thrownRule(XarFixture.editingTOC { $0.replacingFirst("</toc>", with: "") }) == "xar-toc-xml")
        #expect(
            try directory.thrownRule(
                XarFixture.editingTOC {
                    $0.replacingFirst("<xar>", with: "<zar>").replacingFirst("</xar>", with: "</zar>")
                })
                == "xar-toc-xml")
    }

    @Test func twoTOCChecksumsIsAFinding() throws {
        let checksum = "<checksum style=\"sha1\"><offset>0</offset><size>20</size></checksum>"
        let archive = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst(checksum, with: checksum + checksum) })
        #expect(archive.errorRules == ["xar-toc-checksum-count"])
        let none = try directory.open(XarFixture.editingTOC { $0.replacingFirst(checksum, with: "") })
        #expect(none.errorRules == ["xar-toc-checksum-count"])
    }

    @Test func tocChecksumSizeOrStyleMismatchIsAFinding() throws {
        let size = try directory.open(
            XarFixture.editingTOC {
                $0.replacingFirst("<size>20</size></checksum>", with: "<size>16</size></checksum>")
            })
        #expect(size.errorRules == ["xar-toc-checksum-size"])
        let style = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("<checksum style=\"sha1\">", with: "<checksum style=\"md5\">") })
        #expect(style.errorRules == ["xar-toc-checksum-size"])
    }

    @Test func tocChecksumOutsideTheFileIsAFinding() throws {
        let archive = try directory.open(
            XarFixture.editingTOC {
                $0.replacingFirst("<offset>0</offset><size>20", with: "<offset>99999</offset><size>20")
            })
        #expect(archive.errorRules == ["xar-toc-checksum-range"])
    }

    @Test func tocDigestMismatchIsAFinding() throws {
        for byte in [0, 7, 19] {
            let archive = try directory.open(
                XarFixture.edited {
                    $0.editHeap = { heap in
                        var h = heap
                        h[byte] ^= 0x01
                        return h
                    }
                })
            #expect(archive.errorRules == ["xar-toc-checksum-mismatch"])
            #expect(archive.findings.first?.offset == archive.heapOffset)
        }
    }

    @Test(arguments: ["12abc", "-1", "99999999999999999999", " 20", "0x14", "", "+20", "20 "])
    func badNumbersAreFindings(_ text: String) throws {
        let archive = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("<offset>20</offset>", with: "<offset>\(text)</offset>") })
        #expect(archive.errorRules == ["xar-data-fields", "xar-number"])
        #expect(archive.findings.first { $0.rule == "xar-number" }?.entry == "hello.txt")
    }

    @Test func badModeAndIdAreNumberFindings() throws {
        let mode = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("<mode>0644</mode>", with: "<mode>0698</mode>") })
        #expect(mode.errorRules == ["xar-number"])
        let id = try directory.open(XarFixture.editingTOC { $0.replacingFirst("id=\"1\"", with: "id=\"1x\"") })
        #expect(id.errorRules == ["xar-number"])
    }

    @Test func missingOrRepeatedNameIsAFinding() throws {
        let missing = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("<name>hello.txt</name>", with: "") })
        #expect(missing.errorRules == ["xar-file-name"])
        let twice = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("<name>hello.txt</name>", with: "<name>a</name><name>b</name>") })
        #expect(twice.errorRules == ["xar-file-name"])
        #expect(twice.findings.first?.entry == "a")
    }

    @Test func missingOrRepeatedTypeIsAFinding() throws {
        let missing = try directory.open(XarFixture.editingTOC { $0.replacingFirst("<type>file</type>", with: "") })
        #expect(missing.errorRules == ["xar-file-type"])
        let twice = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("<type>file</type>", with: "<type>file</type><type>file</type>") }
        )
        #expect(twice.errorRules == ["xar-file-type"])
    }

    @Test func duplicateOrMissingIdIsAFinding() throws {
        let duplicate = try directory.open(XarFixture.editingTOC { $0.replacingFirst("id=\"2\"", with: "id=\"1\"") })
        #expect(duplicate.errorRules == ["xar-file-id"])
        #expect(duplicate.findings.first?.entry == "raw.bin")
        let missing = try directory.open(XarFixture.editingTOC { $0.replacingFirst(" id=\"2\"", with: "") })
        #expect(missing.errorRules == ["xar-file-id"])
    }

    // MARK: Data
}
