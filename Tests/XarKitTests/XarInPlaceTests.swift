import Foundation
import IAPSystem
import IAPTestSupport
import Testing

@testable import XarKit

/// A heap written straight into the output, the TOC padded into the room kept before it.
@Suite struct XarInPlaceTests {
    func entries(_ path: String) throws -> [String: [UInt8]] {
        let archive = try XarArchive.open(path: path)
        #expect(archive.findings.isEmpty, "\(archive.findings)")
        var out: [String: [UInt8]] = [:]
        for file in archive.toc.files where file.data != nil {
            out[file.path] = try archive.readAll(file, maxBytes: 1 << 20)
        }
        return out
    }

    @Test func sameContentAsTheUsualWay() throws {
        let directory = ScratchFolder()
        try SampleTree.write(to: directory.path + "/usual.xar", in: directory)
        try SampleTree.write(to: directory.path + "/inplace.xar", in: directory, inPlaceRoom: 4096)
        #expect(try entries(directory.path + "/inplace.xar") == entries(directory.path + "/usual.xar"))
        // The reserved room is filled exactly: the heap starts at byte 4096 with the TOC digest.
        let archive = try XarArchive.open(path: directory.path + "/inplace.xar")
        #expect(archive.heapOffset == 4096)
        // bsdtar reads it too.
        let listing = try run("/usr/bin/bsdtar", ["-tf", directory.path + "/inplace.xar"])
        #expect(listing.contains("payload.pkg/Payload"))
    }

    @Test func aTOCTooBigForTheRoomMovesTheHeap() throws {
        let directory = ScratchFolder()
        try SampleTree.write(to: directory.path + "/usual.xar", in: directory)
        try SampleTree.write(to: directory.path + "/small-room.xar", in: directory, inPlaceRoom: 300)
        #expect(try entries(directory.path + "/small-room.xar") == entries(directory.path + "/usual.xar"))
        #expect(try directory.read("small-room.xar") == directory.read("usual.xar"))
    }
}
