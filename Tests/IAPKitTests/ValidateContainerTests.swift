import Foundation
import IAPCompression
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// The xar container rules (PackageFormat.md §6 "Container"), each broken once in a hand-made tree package,
/// judged in process by the validator the CLI calls.
@Suite(.onTestThreads) struct ValidateContainerTests {
    let scratch = ScratchFolder()

    /// Writes a tree package (readme.txt under Contents/) after `edit`; returns its path.
    func tree(
        _ name: String, contents: [XarNode] = [.file("readme.txt", text: "hello\n")],
        edit: (inout HostileXar) -> Void = { _ in }
    ) throws -> String {
        let path = scratch.at(name + ".pkg")
        try HostileTree.write(HostileTree.nodes(contents: contents), to: path, edit: edit)
        return path
    }

    @Test func handMadeTreeIsClean() throws {
        try Validate.expectClean(try tree("good"))
    }

    @Test func notAXarArchive() throws {
        try scratch.write("text.pkg", "this is not a xar archive at all, just text\n")
        let run = try Validate.expectError(scratch.at("text.pkg"), Rule.xarMagic)
        #expect(run.findings.first { $0.rule == "xar-magic" }?.offset == 0)
    }

    @Test func headerSizeNot28() throws {
        try Validate.expectError(try tree("h") { $0.headerSize = 64 }, Rule.xarHeaderSize)
    }

    @Test func versionNot1() throws {
        try Validate.expectError(try tree("v") { $0.version = 2 }, Rule.xarVersion)
    }

    @Test func tocChecksumAlgorithmNone() throws {
        try Validate.expectError(try tree("n") { $0.checksumCode = 0 }, Rule.xarChecksumNone)
    }

    @Test func tocChecksumMD5Warns() throws {
        let path = try tree("md5") { xar in
            xar.checksumCode = 2
            xar.tocDigest = .md5
        }
        try Validate.expectWarning(path, Rule.xarChecksumMd5)
    }

    @Test func tocChecksumOutsideTheHeap() throws {
        let path = try tree("range") { xar in
            xar.editTOC = { $0.replacingOccurrences(of: "<offset>0</offset>", with: "<offset>99999</offset>") }
        }
        try Validate.expectError(path, Rule.xarTocChecksumRange)
    }

    @Test func tocZlibCorrupt() throws {
        let path = try tree("inflate") { xar in
            xar.editCompressedTOC = { bytes in
                var copy = bytes
                for i in 2..<min(copy.count - 4, 40) { copy[i] ^= 0xA5 }
                return copy
            }
        }
        try Validate.expectError(path, Rule.xarTocInflate)
    }

    @Test func tocWithDoctype() throws {
        let path = try tree("d") { xar in
            xar.editTOC = { $0.replacingOccurrences(of: "<xar>", with: "<!DOCTYPE xar [<!ENTITY e \"x\">]>\n<xar>") }
        }
        try Validate.expectError(path, Rule.xarTocDoctype)
    }

    @Test func badTOCDigest() throws {
        let run = try Validate.expectError(try tree("digest") { $0.wrongTOCDigest = true }, Rule.xarTocChecksumMismatch)
        #expect(run.findings.first { $0.rule == "xar-toc-checksum-mismatch" }?.offset != nil, "\(run.dump)")
    }

    @Test func twoTOCChecksums() throws {
        let path = try tree("two") { xar in
            xar.editTOC = {
                $0.replacingOccurrences(
                    of: "  <creation-time>",
                    with: "  <checksum style=\"sha1\"><offset>0</offset><size>20</size></checksum>\n  <creation-time>")
            }
        }
        try Validate.expectError(path, Rule.xarTocChecksumCount)
    }

    @Test func tocChecksumSizeWrongForAlgorithm() throws {
        let path = try tree("size") { xar in
            xar.editTOC = {
                $0.replacingOccurrences(of: "<size>20</size>\n  </checksum>", with: "<size>16</size>\n  </checksum>")
            }
        }
        try Validate.expectError(path, Rule.xarTocChecksumSize)
    }

    @Test func tocStreamEndsBeforeDeclaredLength() throws {
        let run = try Validate.expectError(
            try tree("junk") { $0.editCompressedTOC = { $0 + [0xDE, 0xAD, 0xBE, 0xEF] } },
            Rule.xarTocLength)
        let finding = run.findings.first { $0.rule == "xar-toc-length" }
        #expect(finding?.offset != nil, "\(run.dump)")
    }

    @Test func tocStreamCutShort() throws {
        try Validate.expectError(
            try tree("cut") { $0.editCompressedTOC = { Array($0.dropLast(6)) } }, Rule.xarTocLength)
    }

    @Test func tocLengthBeyondTheFile() throws {
        try Validate.expectError(try tree("beyond") { $0.declaredCompressedLength = 1 << 40 }, Rule.xarTocLength)
    }

    @Test func tocUncompressedLengthWrong() throws {
        try Validate.expectError(try tree("usize") { $0.declaredUncompressedLength = 99 }, Rule.xarTocSize)
    }

    @Test func tocDeclaredHuge() throws {
        try Validate.expectError(try tree("huge") { $0.declaredUncompressedLength = 1 << 40 }, Rule.xarTocTooLarge)
    }

    @Test func tocNotXML() throws {
        try Validate.expectError(
            try tree("xml") { $0.editTOC = { $0.replacingOccurrences(of: "</toc>", with: "</tock>") } },
            Rule.xarTocXml)
    }

    @Test func badArchivedChecksum() throws {
        var node = XarNode.file("readme.txt", text: "hello\n")
        node.archivedChecksum = .wrong
        try Validate.expectError(
            try tree("arch", contents: [node]), Rule.xarArchivedChecksum, entry: "Contents/readme.txt")
    }

    @Test func badExtractedChecksum() throws {
        var node = XarNode.file("readme.txt", text: "hello\n")
        node.extractedChecksum = .wrong
        try Validate.expectError(
            try tree("extr", contents: [node]), Rule.xarExtractedChecksum, entry: "Contents/readme.txt")
    }

    @Test func missingChecksums() throws {
        var node = XarNode.file("readme.txt", text: "hello\n")
        node.archivedChecksum = .omitted
        node.extractedChecksum = .omitted
        try Validate.expectError(
            try tree("nocheck", contents: [node]), Rule.xarChecksumMissing, entry: "Contents/readme.txt")
    }

    @Test func unknownEncoding() throws {
        var node = XarNode.file("readme.txt", text: "hello\n")
        node.encoding = "application/x-rot13"
        try Validate.expectError(try tree("enc", contents: [node]), Rule.xarEncoding, entry: "Contents/readme.txt")
    }

    @Test func corruptCompressedData() throws {
        var node = XarNode.file("readme.txt", text: "hello, hello, hello\n")
        node.storedBytes = [0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x11]
        try Validate.expectError(
            try tree("corrupt", contents: [node]), Rule.xarDataDecode, entry: "Contents/readme.txt")
    }

    @Test func dataOutsideTheFile() throws {
        let path = try tree("short") { xar in xar.editHeap = { Array($0.dropLast(3)) } }
        try Validate.expectError(path, Rule.xarDataRange, entry: "Contents/readme.txt")
    }

    @Test func overlappingData() throws {
        var a = XarNode.file("a.txt", text: "0123456789")
        var b = XarNode.file("b.txt", text: "abcdefghij")
        a.encoding = "application/octet-stream"
        b.encoding = "application/octet-stream"
        // The plist is stored first (zlib); find b's offset in the TOC and point it into a's bytes.
        let path = try tree("overlap", contents: [a, b]) { xar in
            xar.editTOC = { text in
                guard let range = text.range(of: "<name>b.txt</name>"),
                    let offset = text.range(of: "<offset>", range: range.upperBound..<text.endIndex),
                    let end = text.range(of: "</offset>", range: offset.upperBound..<text.endIndex),
                    let value = Int(text[offset.upperBound..<end.lowerBound])
                else { return text }
                return text.replacingCharacters(in: offset.upperBound..<end.lowerBound, with: String(value - 5))
            }
        }
        try Validate.expectError(path, Rule.xarDataOverlap)
    }

    @Test func unreferencedHeapBytesWarn() throws {
        let path = try tree("gap") { xar in xar.editHeap = { $0 + Array("left over".utf8) } }
        try Validate.expectWarning(path, Rule.xarHeapUnreferenced)
    }

    @Test func numbersMustBePlainDecimal() throws {
        let path = try tree("num") { xar in
            xar.editTOC = { $0.replacingOccurrences(of: "<size>6</size>", with: "<size>0x6</size>") }
        }
        try Validate.expectError(path, Rule.xarNumber)
    }

    @Test func duplicateFileID() throws {
        var a = XarNode.file("a.txt", text: "a\n")
        var b = XarNode.file("b.txt", text: "b\n")
        a.id = "77"
        b.id = "77"
        try Validate.expectError(try tree("ids", contents: [a, b]), Rule.xarFileId)
    }

    @Test func fileWithoutName() throws {
        let path = try tree("noname") { xar in
            xar.editTOC = { $0.replacingOccurrences(of: "<name>readme.txt</name>", with: "") }
        }
        try Validate.expectError(path, Rule.xarFileName)
    }

    @Test func fileWithTwoTypes() throws {
        let path = try tree("types") { xar in
            xar.editTOC = {
                $0.replacingOccurrences(
                    of: "<name>readme.txt</name>", with: "<name>readme.txt</name><type>directory</type>")
            }
        }
        try Validate.expectError(path, Rule.xarFileType)
    }

    @Test func dataWithoutLength() throws {
        let path = try tree("fields") { xar in
            xar.editTOC = { text in
                guard let range = text.range(of: "<name>readme.txt</name>"),
                    let start = text.range(of: "<length>", range: range.upperBound..<text.endIndex),
                    let end = text.range(of: "</length>", range: start.upperBound..<text.endIndex)
                else { return text }
                return text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
            }
        }
        try Validate.expectError(path, Rule.xarDataFields)
    }

    @Test func storedDataWhoseSizeDisagrees() throws {
        var node = XarNode.file("readme.txt", text: "hello\n")
        node.encoding = "application/octet-stream"
        node.declaredSize = 3
        try Validate.expectError(
            try tree("stored-size", contents: [node]), Rule.xarDataSize, entry: "Contents/readme.txt")
    }

    @Test func junkAfterACompressedDataStream() throws {
        var node = XarNode.file("readme.txt", text: "hello\n")
        node.storedBytes = try Deflater.compress(Array("hello\n".utf8), format: .zlib) + Array("JUNK".utf8)
        try Validate.expectError(
            try tree("data-junk", contents: [node]), Rule.xarDataDecode, entry: "Contents/readme.txt")
    }

    @Test func eachFaultIsReportedOnce() throws {
        var unknown = XarNode.file("readme.txt", text: "hello\n")
        unknown.encoding = "application/x-zstd"
        var unchecked = XarNode.file("other.txt", text: "other\n")
        unchecked.archivedChecksum = .omitted
        let path = scratch.at("once.pkg")
        try HostileTree.write(HostileTree.nodes(contents: [unknown, unchecked]), to: path)
        let run = try Validate.expectError(path, Rule.xarEncoding, entry: "Contents/readme.txt")
        let encodings = run.findings.filter { $0.rule == "xar-encoding" }
        #expect(encodings.count == 1, "\(run.dump)")
        #expect(encodings.first?.message.contains("application/x-zstd") == true)
        #expect(run.findings.filter { $0.rule == "xar-checksum-missing" }.count == 1, "\(run.dump)")
        #expect(run.findings.filter { $0.entry?.contains("readme.txt") == true }.count == 1, "\(run.dump)")
    }
}
