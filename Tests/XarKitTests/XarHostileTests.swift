import Foundation
import IAPCore
import IAPRules
import Testing

@testable import XarKit

/// Hand-made broken archives: each must give exactly the rule id expected.
@Suite struct XarHostileTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func fixture(_ edit: (inout XarFixture) -> Void) -> XarFixture {
        var fixture = XarFixture()
        edit(&fixture)
        return fixture
    }

    private func editTOC(_ edit: @escaping (String) -> String) -> XarFixture {
        fixture { $0.editTOC = edit }
    }

    @Test func validFixtureHasNoFindingsAndReads() throws {
        let archive = try directory.open(XarFixture())
        #expect(archive.findings == [])
        #expect(try archive.readAll(archive.requireFile("hello.txt"), maxBytes: 100) == Array("hello, world\n".utf8))
        #expect(try archive.readAll(archive.requireFile("raw.bin"), maxBytes: 1000) == Array(0..<200).map { UInt8($0) })
        #expect(archive.verifyAllData() == [])
    }

    // MARK: Header

    @Test func badMagicThrows() throws {
        #expect(try directory.thrownRule(fixture { $0.magic = 0x7861_7222 }) == "xar-magic")
        let path = try directory.write(Array("PK\u{3}\u{4}".utf8), to: "zip")
        #expect(throws: XarError.self) { try XarArchive.open(path: path) }
    }

    @Test func headerSizeOtherThan28Throws() throws {
        #expect(try directory.thrownRule(fixture { $0.headerSize = 32 }) == "xar-header-size")
        let path = try directory.write(Array("xar!\0\u{1c}".utf8), to: "short")
        #expect(
            throws: XarError(
                rule: .xarHeaderSize, "the file ends inside the 28-byte xar header", offset: 6,
                advice: "the archive is truncated; rebuild or download it again")
        ) {
            try XarArchive.open(path: path)
        }
    }

    @Test func versionOtherThan1IsAFinding() throws {
        let archive = try directory.open(fixture { $0.version = 2 })
        #expect(archive.errorRules == ["xar-version"])
        #expect(archive.findings.first?.offset == 6)
    }

    @Test func checksumAlgorithmNoneIsAFinding() throws {
        let archive = try directory.open(fixture { $0.checksumCode = 0 })
        #expect(archive.errorRules == ["xar-checksum-none"])
    }

    @Test func checksumAlgorithmMD5IsAWarning() throws {
        let archive = try directory.open(fixture { $0.checksumCode = 2 })
        #expect(archive.warningRules.contains("xar-checksum-md5"))
        #expect(archive.errorRules == ["xar-toc-checksum-size"])  // the TOC says sha1, the header md5
    }

    // MARK: TOC stream

    @Test func tocStreamShorterThanDeclaredLengthIsAFinding() throws {
        let archive = try directory.open(fixture { $0.junkAfterTOC = [0xde, 0xad, 0xbe, 0xef] })
        #expect(archive.errorRules == ["xar-toc-length"])
        let finding = try #require(archive.findings.first)
        #expect(finding.offset == archive.heapOffset - 4)
    }

    @Test func tocStreamLongerThanDeclaredLengthThrows() throws {
        #expect(try directory.thrownRule(fixture { $0.compressedLengthDelta = -3 }) == "xar-toc-length")
    }

    @Test func declaredTOCLengthBeyondTheFileThrows() throws {
        #expect(try directory.thrownRule(fixture { $0.compressedLengthDelta = 1_000_000 }) == "xar-toc-length")
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
        let archive = try directory.open(fixture { $0.declaredUncompressedLength = real + 1 })
        #expect(archive.errorRules == ["xar-toc-size"])
        let smaller = try directory.open(fixture { $0.declaredUncompressedLength = real - 1 })
        #expect(smaller.errorRules == ["xar-toc-size"])
    }

    @Test func declaredTOCOver64MiBIsRefusedBeforeInflating() throws {
        #expect(
            try directory.thrownRule(fixture { $0.declaredUncompressedLength = (64 << 20) + 1 }) == "xar-toc-too-large")
    }

    @Test func tocInflatingPastTheCapIsRefused() throws {
        let limits = XarLimits(maxTOCBytes: 300)
        #expect(
            try directory.thrownRule(fixture { $0.declaredUncompressedLength = 200 }, limits: limits)
                == "xar-toc-too-large")
    }

    // MARK: TOC XML

    @Test func doctypeThrows() throws {
        let toc = editTOC {
            $0.replacingFirst("<xar>", with: "<!DOCTYPE xar SYSTEM \"http://example.com/x.dtd\">\n<xar>")
        }
        #expect(try directory.thrownRule(toc) == "xar-toc-doctype")
        let subset = editTOC { $0.replacingFirst("<xar>", with: "<!DOCTYPE xar [<!ENTITY e \"x\">]>\n<xar>") }
        #expect(try directory.thrownRule(subset) == "xar-toc-doctype")
    }

    @Test func malformedXMLThrows() throws {
        #expect(try directory.thrownRule(editTOC { $0.replacingFirst("</toc>", with: "") }) == "xar-toc-xml")
        #expect(
            try directory.thrownRule(
                editTOC { $0.replacingFirst("<xar>", with: "<zar>").replacingFirst("</xar>", with: "</zar>") })
                == "xar-toc-xml")
    }

    @Test func twoTOCChecksumsIsAFinding() throws {
        let checksum = "<checksum style=\"sha1\"><offset>0</offset><size>20</size></checksum>"
        let archive = try directory.open(editTOC { $0.replacingFirst(checksum, with: checksum + checksum) })
        #expect(archive.errorRules == ["xar-toc-checksum-count"])
        let none = try directory.open(editTOC { $0.replacingFirst(checksum, with: "") })
        #expect(none.errorRules == ["xar-toc-checksum-count"])
    }

    @Test func tocChecksumSizeOrStyleMismatchIsAFinding() throws {
        let size = try directory.open(
            editTOC { $0.replacingFirst("<size>20</size></checksum>", with: "<size>16</size></checksum>") })
        #expect(size.errorRules == ["xar-toc-checksum-size"])
        let style = try directory.open(
            editTOC { $0.replacingFirst("<checksum style=\"sha1\">", with: "<checksum style=\"md5\">") })
        #expect(style.errorRules == ["xar-toc-checksum-size"])
    }

    @Test func tocChecksumOutsideTheFileIsAFinding() throws {
        let archive = try directory.open(
            editTOC { $0.replacingFirst("<offset>0</offset><size>20", with: "<offset>99999</offset><size>20") })
        #expect(archive.errorRules == ["xar-toc-checksum-range"])
    }

    @Test func tocDigestMismatchIsAFinding() throws {
        for byte in [0, 7, 19] {
            let archive = try directory.open(
                fixture {
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
            editTOC { $0.replacingFirst("<offset>20</offset>", with: "<offset>\(text)</offset>") })
        #expect(archive.errorRules == ["xar-data-fields", "xar-number"])
        #expect(archive.findings.first { $0.rule == "xar-number" }?.entry == "hello.txt")
    }

    @Test func badModeAndIdAreNumberFindings() throws {
        let mode = try directory.open(editTOC { $0.replacingFirst("<mode>0644</mode>", with: "<mode>0698</mode>") })
        #expect(mode.errorRules == ["xar-number"])
        let id = try directory.open(editTOC { $0.replacingFirst("id=\"1\"", with: "id=\"1x\"") })
        #expect(id.errorRules == ["xar-number"])
    }

    @Test func missingOrRepeatedNameIsAFinding() throws {
        let missing = try directory.open(editTOC { $0.replacingFirst("<name>hello.txt</name>", with: "") })
        #expect(missing.errorRules == ["xar-file-name"])
        let twice = try directory.open(
            editTOC { $0.replacingFirst("<name>hello.txt</name>", with: "<name>a</name><name>b</name>") })
        #expect(twice.errorRules == ["xar-file-name"])
        #expect(twice.findings.first?.entry == "a")
    }

    @Test func missingOrRepeatedTypeIsAFinding() throws {
        let missing = try directory.open(editTOC { $0.replacingFirst("<type>file</type>", with: "") })
        #expect(missing.errorRules == ["xar-file-type"])
        let twice = try directory.open(
            editTOC { $0.replacingFirst("<type>file</type>", with: "<type>file</type><type>file</type>") })
        #expect(twice.errorRules == ["xar-file-type"])
    }

    @Test func duplicateOrMissingIdIsAFinding() throws {
        let duplicate = try directory.open(editTOC { $0.replacingFirst("id=\"2\"", with: "id=\"1\"") })
        #expect(duplicate.errorRules == ["xar-file-id"])
        #expect(duplicate.findings.first?.entry == "raw.bin")
        let missing = try directory.open(editTOC { $0.replacingFirst(" id=\"2\"", with: "") })
        #expect(missing.errorRules == ["xar-file-id"])
    }

    // MARK: Data

    @Test func dataWithoutLengthIsAFinding() throws {
        let archive = try directory.open(editTOC { $0.replacingFirst("<offset>20</offset>", with: "") })
        #expect(archive.errorRules == ["xar-data-fields"])
    }

    @Test func dataRangePastTheEndIsAFinding() throws {
        let archive = try directory.open(
            editTOC { $0.replacingFirst("<length>200</length>", with: "<length>100000</length>") })
        #expect(archive.errorRules == ["xar-data-range"])
        #expect(try archive.readRule("raw.bin") == "xar-data-range")
        let overflow = try directory.open(
            editTOC { $0.replacingFirst("<length>200</length>", with: "<length>18446744073709551615</length>") })
        #expect(overflow.errorRules == ["xar-data-range"])
    }

    @Test func identicalFilesSharingARangeAreOneDataStream() throws {
        let content = Array("same bytes".utf8)
        var fixture = XarFixture()
        fixture.files = [
            FixtureFile(name: "a", content: content, encoding: "application/octet-stream"),
            FixtureFile(name: "b", content: content, encoding: "application/octet-stream"),
        ]
        fixture.editTOC = { $0.replacingFirst("<offset>30</offset>", with: "<offset>20</offset>") }
        let archive = try directory.open(fixture)
        #expect(archive.errorRules == [])
        #expect(archive.sharedData == [1: 0])
        #expect(archive.warningRules == ["xar-heap-unreferenced"])
        #expect(try archive.readAll(archive.toc.files[1], maxBytes: 100) == content)
    }

    @Test func filesSharingARangeButNotTheirBytesIsAFinding() throws {
        var fixture = XarFixture()
        fixture.files = [
            FixtureFile(name: "a", content: Array("same bytes".utf8), encoding: "application/octet-stream"),
            FixtureFile(name: "b", content: Array("other byte".utf8), encoding: "application/octet-stream"),
        ]
        fixture.editTOC = { $0.replacingFirst("<offset>30</offset>", with: "<offset>20</offset>") }
        let archive = try directory.open(fixture)
        #expect(archive.errorRules == ["xar-data-overlap"])
        #expect(archive.findings.first { $0.rule == "xar-data-overlap" }?.entry == "b")
        #expect(archive.sharedData.isEmpty)
    }

    @Test func dataOverlappingTheTOCDigestIsAFinding() throws {
        let archive = try directory.open(
            editTOC { $0.replacingFirst("<offset>20</offset>", with: "<offset>10</offset>") })
        #expect(archive.errorRules.contains("xar-data-overlap"))
    }

    @Test func unreferencedHeapBytesAreAWarning() throws {
        let archive = try directory.open(fixture { $0.editHeap = { $0 + [1, 2, 3] } })
        #expect(archive.errorRules == [])
        #expect(archive.warningRules == ["xar-heap-unreferenced"])
        #expect(archive.findings.first?.offset == archive.fileSize - 3)
    }

    @Test func unknownEncodingIsAFinding() throws {
        let archive = try directory.open(
            editTOC {
                $0.replacingFirst("application/octet-stream", with: "application/x-foo")
            })
        #expect(archive.errorRules == ["xar-encoding"])
        #expect(try archive.readRule("raw.bin") == "xar-encoding")
        let bzip2 = try directory.open(
            editTOC { $0.replacingFirst("application/octet-stream", with: "application/x-bzip2") })
        #expect(bzip2.errorRules == [])
        // bzip2 is decoded now: bytes that are not bzip2 fail as corrupt data, not as an unknown encoding.
        #expect(try bzip2.readRule("raw.bin") == "xar-data-decode")
    }

    @Test func missingChecksumsAreAFinding() throws {
        let archive = try directory.open(
            editTOC {
                guard let start = $0.range(of: "<archived-checksum"), let end = $0.range(of: "</archived-checksum>")
                else { return $0 }
                return $0.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
            })
        #expect(archive.errorRules == ["xar-checksum-missing"])
        // Reported once, by the archive; the bytes still decode so the content rules can judge them.
        #expect(try archive.readRule("hello.txt") == nil)
    }

    @Test func archivedChecksumMismatchThrowsOnRead() throws {
        let archive = try directory.open(
            editTOC {
                $0.replacingAfter(
                    "<archived-checksum style=\"sha1\">", length: 40, with: String(repeating: "0", count: 40))
            })
        #expect(archive.findings == [])
        #expect(try archive.readRule("hello.txt") == "xar-archived-checksum")
        #expect(archive.verifyAllData().map(\.rule) == ["xar-archived-checksum"])
        let flipped = try directory.open(
            fixture {
                $0.editHeap = { heap in
                    var h = heap
                    h[h.count - 1] ^= 0x80
                    return h
                }
            })
        #expect(try flipped.readRule("raw.bin") == "xar-archived-checksum")
    }

    @Test func extractedChecksumMismatchThrowsOnRead() throws {
        let archive = try directory.open(
            editTOC {
                $0.replacingAfter(
                    "<extracted-checksum style=\"sha1\">", length: 40, with: String(repeating: "a", count: 40))
            })
        #expect(archive.findings == [])
        #expect(try archive.readRule("hello.txt") == "xar-extracted-checksum")
        let stream = try archive.dataStream(for: archive.requireFile("hello.txt"))
        var buffer = [UInt8](repeating: 0, count: 4)
        do {
            while try buffer.withUnsafeMutableBytes({ try stream.read(into: $0) }) > 0 {}
            Issue.record("read past a bad checksum")
        } catch let error as XarError {
            #expect(error.rule?.id == "xar-extracted-checksum")
            #expect(error.entry == "hello.txt")
        }
    }

    @Test func wrongLengthChecksumIsAFinding() throws {
        let archive = try directory.open(
            editTOC {
                $0.replacingAfter("<extracted-checksum style=\"sha1\">", length: 40, with: "abcd")
            })
        #expect(archive.errorRules == ["xar-extracted-checksum"])
    }

    @Test func unarchivedChecksumIsASynonym() throws {
        let archive = try directory.open(
            editTOC { $0.replacingOccurrences(of: "extracted-checksum", with: "unarchived-checksum") })
        #expect(archive.findings == [])
        #expect(try archive.readAll(archive.requireFile("hello.txt"), maxBytes: 100) == Array("hello, world\n".utf8))
    }

    @Test func lyingSizeBombStopsAtTheDeclaredSize() throws {
        var fixture = XarFixture()
        fixture.files = [FixtureFile(name: "bomb", content: [UInt8](repeating: 0, count: 64 << 20))]
        fixture.editTOC = { $0.replacingFirst("<size>67108864</size>", with: "<size>10</size>") }
        let archive = try directory.open(fixture)
        #expect(archive.findings == [])
        let stream = try archive.dataStream(for: archive.requireFile("bomb"))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var delivered = 0
        do {
            while true {
                let n = try stream.read(into: buffer)
                if n == 0 { break }
                delivered += n
            }
            Issue.record("the bomb decoded to the end")
        } catch {
            #expect(error.rule?.id == "xar-data-size")
        }
        #expect(delivered <= 10)
        #expect(stream.decodedByteCount <= 10)
        #expect(stream.producedByteCount <= 10 + 256 * 1024)
    }

    @Test func declaredSizeLargerThanDecodedThrows() throws {
        let archive = try directory.open(editTOC { $0.replacingFirst("<size>13</size>", with: "<size>14</size>") })
        #expect(try archive.readRule("hello.txt") == "xar-data-size")
    }

    @Test func junkAfterADataStreamThrows() throws {
        var fixture = XarFixture()
        fixture.files = [FixtureFile(name: "z", content: Array("zlib data".utf8))]
        let length = try Deflater.compress(Array("zlib data".utf8), format: .zlib).count
        fixture.editTOC = { $0.replacingFirst("<length>\(length)</length>", with: "<length>\(length + 3)</length>") }
        fixture.editHeap = { $0 + [7, 7, 7] }
        let archive = try directory.open(fixture)
        #expect(archive.findings == [])
        #expect(try archive.readRule("z") == "xar-data-decode")
    }

    @Test func tooManyFilesIsRefused() throws {
        #expect(try directory.thrownRule(XarFixture(), limits: XarLimits(maxFiles: 1)) == "xar-toc-too-large")
    }
}
