import Foundation
import IAPTestSupport
import Testing

@testable import XarKit

/// An open archive tells whether its file was written since it was opened (a package rewritten
/// while it is published), and a second read may leave the TOC's checksums to the caller.
@Suite struct XarChangeDetectionTests {
    @Test func writingCuttingOrGrowingTheFileIsSeen() throws {
        let directory = ScratchFolder()
        for change in ["overwrite", "truncate", "append"] {
            let path = directory.path + "/\(change).xar"
            try SampleTree.write(to: path, in: directory)
            let archive = try XarArchive.open(path: path)
            #expect(!archive.changedSinceOpened)
            Thread.sleep(forTimeInterval: 0.01)  // a later modification time, on any file system
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            switch change {
            case "overwrite":
                try handle.seek(toOffset: archive.heapOffset)
                try handle.write(contentsOf: Data([0xFF]))
            case "truncate": try handle.truncate(atOffset: archive.fileSize - 1)
            default:
                try handle.seekToEnd()
                try handle.write(contentsOf: Data([0]))
            }
            try handle.close()
            #expect(archive.changedSinceOpened, "\(change)")
        }
    }

    @Test func aStreamLeftUncheckedReadsDamagedBytesWithoutAChecksumError() throws {
        let directory = ScratchFolder()
        let path = directory.path + "/sample.xar"
        try SampleTree.write(to: path, in: directory)
        let archive = try XarArchive.open(path: path)
        let file = try #require(archive.toc.files.first { $0.path == "payload.pkg/Payload" })
        let data = try #require(file.data)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: archive.heapOffset + data.offset)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: archive.heapOffset + data.offset)
        try handle.write(contentsOf: Data([~byte]))
        try handle.close()
        func readAll(checking: Bool) throws -> Int {
            let stream = try archive.dataStream(for: file, checkingDigests: checking)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var total = 0
            while true {
                let n = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
                if n == 0 { return total }
                total += n
            }
        }
        #expect(throws: XarError.self) { try readAll(checking: true) }
        #expect(try readAll(checking: false) == Int(data.size))
    }
}
