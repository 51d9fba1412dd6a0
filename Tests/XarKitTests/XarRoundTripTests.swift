import IAPCompression
import IAPCrypto
import IAPRules
import IAPSystem
import IAPTestSupport
import Testing
import XarKit

/// What the writer writes, the reader reads back exactly.
@Suite struct XarRoundTripTests {
    let directory: ScratchFolder
    init() throws { directory = ScratchFolder() }

    @Test func roundTripGivesTheExactModelAndBytes() throws {
        let path = directory.path + "/sample.pkg"
        try SampleTree.write(to: path, in: directory)
        let archive = try XarArchive.open(path: path)
        #expect(archive.findings == [])
        #expect(
            archive.header.headerSize == 28 && archive.header.version == 1 && archive.header.checksumAlgorithmCode == 1)
        #expect(archive.heapOffset == 28 + archive.header.tocCompressedLength)
        #expect(archive.toc.creationTime == SampleTree.time)
        #expect(archive.toc.checksum == XarTOCChecksum(style: "sha1", offset: 0, size: 20))
        #expect(archive.toc.checksumCount == 1 && !archive.toc.hasSignature && !archive.toc.hasXSignature)
        #expect(
            archive.toc.files.map(\.path) == [
                "Distribution", "payload.pkg", "payload.pkg/Bom", "payload.pkg/Payload",
                "payload.pkg/Empty", "payload.pkg/Link",
            ])
        #expect(archive.toc.files.map(\.id) == [1, 2, 3, 4, 5, 6])
        #expect(archive.toc.files.map(\.type) == [.file, .directory, .file, .file, .file, .symlink])
        #expect(archive.toc.files.map(\.mode) == [0o644, 0o755, 0o644, 0o644, 0o644, 0o755])
        #expect(archive.toc.files.map(\.parentIndex) == [nil, nil, 1, 1, 1, 1])
        for file in archive.toc.files {
            #expect(file.uid == 0 && file.gid == 0 && file.user == "root" && file.group == "wheel")
            #expect(file.mtime == SampleTree.time)
            #expect(!file.hasExtendedAttributes && !file.hasFlags && file.hardLink == nil)
        }
        let link = try archive.requireFile("payload.pkg/Link")
        #expect(link.linkTarget == "Bom" && link.linkType == "file" && link.data == nil)

        let payload = try archive.requireFile("payload.pkg/Payload")
        let payloadData = try #require(payload.data)
        #expect(payloadData.encoding == .stored)
        #expect(
            payloadData.length == UInt64(SampleTree.payload.count)
                && payloadData.size == UInt64(SampleTree.payload.count))
        #expect(
            payloadData.extractedChecksum
                == XarChecksum(style: "sha1", digest: DigestHasher.digest(.sha1, of: SampleTree.payload)))
        #expect(payloadData.archivedChecksum == payloadData.extractedChecksum)

        let bom = try #require(try archive.requireFile("payload.pkg/Bom").data)
        #expect(bom.encoding == .zlib && bom.size == 3000 && bom.length < 100)
        #expect(try archive.readAll(archive.requireFile("Distribution"), maxBytes: 1 << 20) == SampleTree.distribution)
        #expect(try archive.readAll(archive.requireFile("payload.pkg/Bom"), maxBytes: 1 << 20) == SampleTree.bom)
        #expect(try archive.readAll(payload, maxBytes: 1 << 20) == SampleTree.payload)
        #expect(try archive.readAll(archive.requireFile("payload.pkg/Empty"), maxBytes: 0) == [])
        #expect(try archive.readAll(archive.requireFile("payload.pkg"), maxBytes: 0) == [])
        #expect(archive.verifyAllData() == [])
        #expect(throws: XarError.self) { try archive.readAll(payload, maxBytes: 100) }
    }

    @Test func firstDataStartsAfterTheTOCDigest() throws {
        let path = directory.path + "/sample.pkg"
        try SampleTree.write(to: path, in: directory)
        let archive = try XarArchive.open(path: path)
        #expect(archive.toc.files.compactMap(\.data).map(\.offset).min() == 20)
        let last = try #require(archive.toc.files.compactMap(\.data).max { $0.offset < $1.offset })
        #expect(archive.heapOffset + last.offset + last.length == archive.fileSize)
    }

    @Test func sha256OptionRoundTrips() throws {
        let path = directory.path + "/sha256.pkg"
        try SampleTree.write(to: path, in: directory, checksum: .sha256)
        let archive = try XarArchive.open(path: path)
        #expect(archive.findings == [])
        #expect(archive.toc.checksum == XarTOCChecksum(style: "sha256", offset: 0, size: 32))
        #expect(try archive.requireFile("payload.pkg/Bom").data?.archivedChecksum?.digest.count == 32)
        #expect(archive.verifyAllData() == [])
    }

    @Test func writesAreByteIdentical() throws {
        try SampleTree.write(to: directory.path + "/one.pkg", in: directory)
        try SampleTree.write(to: directory.path + "/two.pkg", in: directory)
        let one = try directory.read("one.pkg")
        #expect(one == (try directory.read("two.pkg")))
        #expect(one.count > 1000)
    }

    @Test func tocTextIsWhatWeDocument() throws {
        let path = directory.path + "/sample.pkg"
        try SampleTree.write(to: path, in: directory)
        let bytes = try directory.read("sample.pkg")
        let header = try #require(XarHeader.parse(bytes))
        #expect(Array(bytes[0..<28]) == header.serialized())
        let compressed = Array(bytes[28..<(28 + Int(header.tocCompressedLength))])
        let inflater = Inflater(format: .zlib)
        var xml: [UInt8] = []
        try compressed.withUnsafeBytes { _ = try inflater.decompress($0) { xml.append(contentsOf: $0) } }
        #expect(UInt64(xml.count) == header.tocUncompressedLength)
        let text = String(decoding: xml, as: UTF8.self)
        #expect(
            text.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xar>\n <toc>\n  <checksum style=\"sha1\">\n   <offset>0</offset>\n   <size>20</size>\n  </checksum>\n  <creation-time>2024-05-06T07:08:09Z</creation-time>\n  <file id=\"1\">\n   <name>Distribution</name>\n"
            ))
        #expect(
            Array(bytes[Int(28 + header.tocCompressedLength)...].prefix(20))
                == DigestHasher.digest(.sha1, of: compressed))
    }

    @Test func writerRefusesBadPaths() throws {
        let writer = try XarWriter(
            temporaryDirectory: directory.path, options: XarWriterOptions(creationTime: SampleTree.time))
        #expect(throws: XarError.self) { try writer.addDirectory(path: "a/b", mtime: SampleTree.time) }
        #expect(throws: XarError.self) { try writer.addDirectory(path: "/abs", mtime: SampleTree.time) }
        #expect(throws: XarError.self) { try writer.addDirectory(path: "..", mtime: SampleTree.time) }
        #expect(throws: XarError.self) { try writer.addDirectory(path: "ok", mtime: "yesterday") }
        try writer.addDirectory(path: "a", mtime: SampleTree.time)
        #expect(throws: XarError.self) { try writer.addDirectory(path: "a", mtime: SampleTree.time) }
        #expect(throws: XarError.self) {
            try XarWriter(temporaryDirectory: directory.path, options: XarWriterOptions(creationTime: "2024"))
        }
    }

    @Test func failedBodyLeavesTheHeapConsistent() throws {
        struct Boom: Error {}
        let writer = try XarWriter(
            temporaryDirectory: directory.path, options: XarWriterOptions(creationTime: SampleTree.time))
        #expect(throws: Boom.self) {
            try writer.addFile(path: "bad", mtime: SampleTree.time, encoding: .stored) { write in
                try ([1, 2, 3] as [UInt8]).withUnsafeBytes { try write($0) }
                throw Boom()
            }
        }
        try writer.addFile(path: "good", mtime: SampleTree.time, encoding: .stored) { write in
            try ([9, 8, 7] as [UInt8]).withUnsafeBytes { try write($0) }
        }
        try writer.finish(to: try FileDescriptor.createExclusive(directory.path + "/x.pkg"))
        let archive = try XarArchive.open(path: directory.path + "/x.pkg")
        #expect(archive.findings == [])
        #expect(try archive.readAll(archive.requireFile("good"), maxBytes: 10) == [9, 8, 7])
    }

    /// A TOC larger than readers accept (`xar-toc-too-large`) is refused while it is written, in
    /// both finishing modes, so the writer never makes an archive its readers refuse.
    @Test func writerRefusesATOCReadersWouldRefuse() throws {
        var options = XarWriterOptions(creationTime: SampleTree.time)
        options.maxTOCBytes = 4096
        let writer = try XarWriter(temporaryDirectory: directory.path, options: options)
        for index in 0..<40 { try writer.addDirectory(path: "folder\(index)", mtime: SampleTree.time) }
        let output = try FileDescriptor.createExclusive(directory.path + "/big-toc.pkg")
        let streamed = #expect(throws: XarError.self) { try writer.finish(to: output) }
        #expect(streamed?.rule == Rule.xarTocTooLarge)
        let direct = try FileDescriptor.createExclusive(directory.path + "/big-toc-direct.pkg")
        let inPlace = try XarWriter(directTo: direct, reservedBytes: 1024, options: options)
        for index in 0..<40 { try inPlace.addDirectory(path: "folder\(index)", mtime: SampleTree.time) }
        let padded = #expect(throws: XarError.self) { try inPlace.finishInPlace() }
        #expect(padded?.rule == Rule.xarTocTooLarge)
    }

    @Test func headerSerializesAndParses() {
        let header = XarHeader(
            tocCompressedLength: 0x0102_0304_0506_0708, tocUncompressedLength: 42, checksumAlgorithmCode: 1)
        let bytes = header.serialized()
        #expect(
            bytes == [0x78, 0x61, 0x72, 0x21, 0, 28, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0, 1])
        #expect(XarHeader.parse(bytes) == header)
        #expect(XarHeader.parse(Array(bytes.prefix(27))) == nil)
    }
}
