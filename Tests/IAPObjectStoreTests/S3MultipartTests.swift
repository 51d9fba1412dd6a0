import Foundation
import IAPCrypto
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPObjectStore

/// Multipart uploads, listings and batch deletes against a real SeaweedFS.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct S3MultipartTests {
    @Test func aLargeFileGoesUpInParallelParts() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let key = fixture.key("big.bin")
        let length = 13 << 20  // three parts of 5 MiB, the last shorter
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: ($0 >> 3) &* 2_654_435_761 >> 7) }
        let file = try S3ServerFixture.file(bytes)
        let plan = S3UploadPlan(multipartThreshold: 5 << 20, partSize: 5 << 20, parallelism: 3)
        let etag = try client.upload(
            key, file: file, length: UInt64(length), options: S3PutOptions(contentType: "application/octet-stream"),
            plan: plan)
        #expect(etag.hasSuffix("-3\""))
        let target = try S3ServerFixture.emptyFile()
        let info = try client.get(key, into: target)
        #expect(info.size == UInt64(length))
        #expect(info.contentType == "application/octet-stream")
        #expect(
            DigestHasher.digest(.sha256, of: try target.read(count: length, at: 0))
                == DigestHasher.digest(.sha256, of: bytes))
        #expect(try client.listMultipartUploads(prefix: fixture.prefix).isEmpty)
    }

    @Test func partsSentFromMemoryWithTheirSHA256JoinIntoTheObject() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let key = fixture.key("from-memory.bin")
        let bytes = (0..<(11 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 5) }
        let uploadID = try client.createMultipartUpload(
            key, options: S3PutOptions(contentType: "video/mp4"), partsCarrySHA256: true)
        func send(_ number: Int, _ piece: [UInt8]) throws -> S3UploadedPart {
            try client.uploadPart(
                key, uploadID: uploadID, number: number, bytes: piece, sha256: DigestHasher.digest(.sha256, of: piece))
        }
        // Sent out of order, as parallel uploads land; joined in number order.
        let second = try send(2, Array(bytes[(5 << 20)...]))
        let first = try send(1, Array(bytes[..<(5 << 20)]))
        #expect([first, second].allSatisfy { $0.sha256?.count == 32 })
        let etag = try client.completeMultipartUpload(key, uploadID: uploadID, parts: [second, first])
        #expect(etag == BodyDigests.multipartETag([first, second]))
        let stored = try client.get(key, maxBytes: 12 << 20)
        #expect(stored.bytes == bytes)
        #expect(stored.info.contentType == "video/mp4")
        #expect(try client.listMultipartUploads(prefix: fixture.prefix).isEmpty)
    }

    @Test func aPartWhoseBytesAreNotItsSHA256IsRefused() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client(attempts: 1)
        let key = fixture.key("refused.bin")
        let uploadID = try client.createMultipartUpload(key, partsCarrySHA256: true)
        let validated = [UInt8](repeating: 1, count: 5 << 20)
        let error = s3Error {
            _ = try client.uploadPart(
                key, uploadID: uploadID, number: 1, bytes: [UInt8](repeating: 2, count: 5 << 20),
                sha256: DigestHasher.digest(.sha256, of: validated))
        }
        #expect(error != nil)
        try client.abortMultipartUpload(key, uploadID: uploadID)
        #expect(s3Error { _ = try client.head(key) }?.kind == .notFound)
    }

    @Test func aConditionalMultipartUploadLosesToAnExistingObject() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let key = fixture.key("claimed")
        try client.put(key, bytes: [1, 2, 3])
        let file = try S3ServerFixture.file([UInt8](repeating: 7, count: 6 << 20))
        let error = s3Error {
            try client.upload(
                key, file: file, length: 6 << 20, options: S3PutOptions(condition: .ifAbsent),
                plan: S3UploadPlan(multipartThreshold: 5 << 20, partSize: 5 << 20))
        }
        #expect(error?.kind == .preconditionFailed)
        #expect(try client.get(key).bytes == [1, 2, 3])
        #expect(try client.listMultipartUploads(prefix: fixture.prefix).isEmpty)
    }

    @Test func abortedUploadsLeaveTheList() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let key = fixture.key("abandoned")
        let uploadID = try client.createMultipartUpload(key)
        let file = try S3ServerFixture.file([UInt8](repeating: 1, count: 1000))
        let part = try client.uploadPart(key, uploadID: uploadID, number: 1, file: file, offset: 0, length: 1000)
        #expect(part.etag.count > 2)
        let open = try client.listMultipartUploads(prefix: fixture.prefix)
        #expect(open.map(\.uploadID) == [uploadID])
        #expect(open.first?.key == key)
        try client.abortMultipartUpload(key, uploadID: uploadID)
        #expect(try client.listMultipartUploads(prefix: fixture.prefix).isEmpty)
    }

    @Test func listingsPageAndFoldPrefixes() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let names = ["a/1", "a/2", "b/x/1", "c", "d e/ü"]
        for name in names { try client.put(fixture.key(name), bytes: Array(name.utf8)) }
        let all = try client.listAll(prefix: fixture.prefix + "/")
        #expect(all.objects.map(\.key) == names.map(fixture.key))
        #expect(all.objects.first?.size == 3)
        let first = try client.list(prefix: fixture.prefix + "/", maxKeys: 2)
        #expect(first.objects.count == 2)
        let token = try #require(first.nextContinuationToken)
        let rest = try client.list(prefix: fixture.prefix + "/", continuationToken: token, maxKeys: 10)
        #expect((first.objects + rest.objects).map(\.key) == names.map(fixture.key))
        #expect(rest.nextContinuationToken == nil)
        let folded = try client.listAll(prefix: fixture.prefix + "/", delimiter: "/")
        #expect(folded.objects.map(\.key) == [fixture.key("c")])
        #expect(folded.commonPrefixes == ["a/", "b/", "d e/"].map(fixture.key))
        let failures = try client.delete(keys: names.map(fixture.key) + [fixture.key("never-there")])
        #expect(failures.isEmpty)
        #expect(try client.listAll(prefix: fixture.prefix + "/").objects.isEmpty)
    }

    @Test func aWriteRefusedOnlyBecauseAnEarlierTryLandedCountsAsDone() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let single = fixture.key("single")
        let bytes = Array("current".utf8)
        let etag = try client.put(single, bytes: bytes, options: S3PutOptions(condition: .ifAbsent))
        #expect(etag == BodyDigests(bytes).etag)
        let refused = S3Error(.preconditionFailed, operation: "PUT", bucket: SeaweedServer.bucket, key: single)
        #expect(try client.landedWrite(refused.with(mayHaveLanded: true), key: single, etag: etag) == etag)
        #expect(s3Error { _ = try client.landedWrite(refused, key: single, etag: etag) } == refused)
        let other = BodyDigests(Array("other".utf8)).etag
        #expect(
            s3Error { _ = try client.landedWrite(refused.with(mayHaveLanded: true), key: single, etag: other) } != nil)

        let joined = fixture.key("joined")
        let uploadID = try client.createMultipartUpload(joined)
        let file = try S3ServerFixture.file((0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 / 7) })
        let parts = [
            try client.uploadPart(joined, uploadID: uploadID, number: 1, file: file, offset: 0, length: 5 << 20),
            try client.uploadPart(joined, uploadID: uploadID, number: 2, file: file, offset: 5 << 20, length: 1 << 20),
        ]
        let joinedETag = try client.completeMultipartUpload(joined, uploadID: uploadID, parts: parts)
        #expect(BodyDigests.multipartETag(parts) == joinedETag)
        let gone = S3Error(.notFound, operation: "CompleteMultipartUpload", bucket: SeaweedServer.bucket, key: joined)
        #expect(try client.landedWrite(gone.with(mayHaveLanded: true), key: joined, etag: joinedETag) == joinedETag)
    }
}
