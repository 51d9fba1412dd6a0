import Foundation
import IAPCompression
import IAPRules
import IAPTestSupport
import Testing

@testable import XarKit

/// Hand-made broken archives, their data side: lengths, shared ranges, encodings, checksums, bombs.
@Suite struct XarHostileDataTests {
    let directory: ScratchFolder
    init() throws { directory = ScratchFolder() }

    @Test func dataWithoutLengthIsAFinding() throws {
        let archive = try directory.open(XarFixture.editingTOC { $0.replacingFirst("<offset>20</offset>", with: "") })
        #expect(archive.errorRules == ["xar-data-fields"])
    }

    @Test func dataRangePastTheEndIsAFinding() throws {
        let archive = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("<length>200</length>", with: "<length>100000</length>") })
        #expect(archive.errorRules == ["xar-data-range"])
        #expect(try archive.readRule("raw.bin") == "xar-data-range")
        let overflow = try directory.open(
            XarFixture.editingTOC {
                $0.replacingFirst("<length>200</length>", with: "<length>18446744073709551615</length>")
            })
        #expect(overflow.errorRules == ["xar-data-range"])
    }

    @Test func dataStreamsRefuseTheRangesOpenRefusedAndNoOthers() throws {
        let sound = try directory.open(XarFixture())
        #expect(sound.dataOutsideFile.isEmpty)
        #expect(try sound.readRule("raw.bin") == nil)
        let overflow = try directory.open(
            XarFixture.editingTOC {
                $0.replacingFirst("<length>200</length>", with: "<length>18446744073709551615</length>")
            })
        let raw = try overflow.requireFile("raw.bin")
        #expect(overflow.dataOutsideFile == [HeapSpan(try #require(raw.data))])
        // The stream takes open's record: the overflowing range is refused, never added to the heap offset.
        #expect(try overflow.readRule("raw.bin") == "xar-data-range")
        #expect(try overflow.readRule("hello.txt") == nil)
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
            XarFixture.editingTOC { $0.replacingFirst("<offset>20</offset>", with: "<offset>10</offset>") })
        #expect(archive.errorRules.contains("xar-data-overlap"))
    }

    @Test func unreferencedHeapBytesAreAWarning() throws {
        let archive = try directory.open(XarFixture.edited { $0.editHeap = { $0 + [1, 2, 3] } })
        #expect(archive.errorRules == [])
        #expect(archive.warningRules == ["xar-heap-unreferenced"])
        #expect(archive.findings.first?.offset == archive.fileSize - 3)
    }

    @Test func unknownEncodingIsAFinding() throws {
        let archive = try directory.open(
            XarFixture.editingTOC {
                $0.replacingFirst("application/octet-stream", with: "application/x-foo")
            })
        #expect(archive.errorRules == ["xar-encoding"])
        #expect(try archive.readRule("raw.bin") == "xar-encoding")
        let bzip2 = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("application/octet-stream", with: "application/x-bzip2") })
        #expect(bzip2.errorRules == [])
        // bzip2 is decoded now: bytes that are not bzip2 fail as corrupt data, not as an unknown encoding.
        #expect(try bzip2.readRule("raw.bin") == "xar-data-decode")
    }

    @Test func missingChecksumsAreAFinding() throws {
        let archive = try directory.open(
            XarFixture.editingTOC {
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
            XarFixture.editingTOC {
                $0.replacingAfter(
                    "<archived-checksum style=\"sha1\">", length: 40, with: String(repeating: "0", count: 40))
            })
        #expect(archive.findings == [])
        #expect(try archive.readRule("hello.txt") == "xar-archived-checksum")
        #expect(archive.verifyAllData().map(\.rule) == ["xar-archived-checksum"])
        let flipped = try directory.open(
            XarFixture.edited {
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
            XarFixture.editingTOC {
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
            XarFixture.editingTOC {
                $0.replacingAfter("<extracted-checksum style=\"sha1\">", length: 40, with: "abcd")
            })
        #expect(archive.errorRules == ["xar-extracted-checksum"])
    }

    @Test func unarchivedChecksumIsASynonym() throws {
        let archive = try directory.open(
            XarFixture.editingTOC { $0.replacingOccurrences(of: "extracted-checksum", with: "unarchived-checksum") })
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
        let delivered = bytesDeliveredBeforeTheSizeStop(stream)
        #expect(delivered <= 10)
        #expect(stream.decodedByteCount <= 10)
        #expect(stream.producedByteCount <= 10 + 256 * 1024)
    }

    @Test func declaredSizeLargerThanDecodedThrows() throws {
        let archive = try directory.open(
            XarFixture.editingTOC { $0.replacingFirst("<size>13</size>", with: "<size>14</size>") })
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
