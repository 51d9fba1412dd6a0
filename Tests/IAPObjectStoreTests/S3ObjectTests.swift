import Foundation
import IAPCrypto
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPObjectStore

/// PUT, GET, HEAD, DELETE, conditions, ranges and integrity against a real SeaweedFS.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct S3ObjectTests {
    @Test func putGetHeadDelete() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let key = fixture.key("dir/hello world+ü.txt")
        let bytes = Array("hello, object store\n".utf8)
        let etag = try client.put(
            key, bytes: bytes,
            options: S3PutOptions(contentType: "text/plain", cacheControl: "public, max-age=31536000, immutable"))
        #expect(etag.hasPrefix("\""))
        let object = try client.get(key)
        #expect(object.bytes == bytes)
        #expect(object.info.etag == etag)
        let info = try client.head(key)
        #expect(info.size == UInt64(bytes.count))
        #expect(info.contentType == "text/plain")
        #expect(info.cacheControl == "public, max-age=31536000, immutable")
        try client.delete(key)
        #expect(s3Error { _ = try client.head(key) }?.kind == .notFound)
        let missing = s3Error { _ = try client.get(key) }
        #expect(missing?.kind == .notFound)
        #expect(missing?.description.contains("s3://iapkg-test/\(key)") == true)
    }

    @Test func conditionalWritesRefuseTheLoser() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let key = fixture.key("current.json")
        let first = try client.put(key, bytes: Array("1".utf8), options: S3PutOptions(condition: .ifAbsent))
        let again = s3Error { try client.put(key, bytes: Array("2".utf8), options: S3PutOptions(condition: .ifAbsent)) }
        #expect(again?.kind == .preconditionFailed)
        #expect(again?.status == 412)
        let second = try client.put(key, bytes: Array("3".utf8), options: S3PutOptions(condition: .ifMatch(first)))
        let stale = s3Error {
            try client.put(key, bytes: Array("4".utf8), options: S3PutOptions(condition: .ifMatch(first)))
        }
        #expect(stale?.kind == .preconditionFailed)
        #expect(try client.get(key).bytes == Array("3".utf8))
        #expect(try client.head(key).etag == second)
    }

    @Test func aBodyThatDoesNotMatchItsMD5IsRefused() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let key = fixture.key("tampered")
        let sent = Array("the bytes that arrive".utf8)
        let claimed = BodyDigests(Array("the bytes that were hashed".utf8))
        let error = s3Error {
            _ = try client.send(
                S3Client.Operation(
                    name: "PUT", method: "PUT", key: key, headers: claimed.headers, body: .bytes(sent),
                    payloadHash: BodyDigests(sent).sha256Hex))
        }
        #expect(error?.kind == .integrityMismatch)
        #expect(s3Error { _ = try client.head(key) }?.kind == .notFound)
    }

    @Test func aPutOfAKnownSHA256IsRefusedByTheStoreForOtherBytes() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client(attempts: 1)
        let key = fixture.key("expected")
        let bytes = Array("the bytes validation hashed".utf8)
        let sha256 = DigestHasher.digest(.sha256, of: bytes)
        try client.put(key, bytes: bytes, options: S3PutOptions(sha256: sha256))
        #expect(try client.get(key).bytes == bytes)
        let other = fixture.key("changed")
        // S3 answers BadDigest; SeaweedFS an internal error. Either way nothing is stored.
        let error = s3Error {
            try client.put(
                other, bytes: Array("bytes that decoded otherwise".utf8), options: S3PutOptions(sha256: sha256))
        }
        #expect(error != nil)
        #expect(s3Error { _ = try client.head(other) }?.kind == .notFound)
    }

    @Test func rangesAndStreamingIntoAFile() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let key = fixture.key("blob")
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let source = try S3ServerFixture.file(bytes)
        try client.put(key, file: source, offset: 1000, length: 200_000)
        let expected = Array(bytes[1000..<201_000])
        #expect(try client.get(key, range: 10...19).bytes == Array(expected[10...19]))
        let target = try S3ServerFixture.emptyFile()
        let info = try client.get(key, into: target, at: 5)
        #expect(info.size == 200_000)
        #expect(try target.read(count: 200_000, at: 5) == expected)
        let tail = try client.get(key, range: 199_990...199_999, into: target, at: 0)
        #expect(tail.size == 10)
        #expect(try target.read(count: 10, at: 0) == Array(expected[199_990...]))
        #expect(s3Error { _ = try client.get(key, maxBytes: 1000) }?.kind == .other)
    }

    @Test func aMissingBucketSaysSo() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client(bucket: "iapkg-no-such-bucket")
        let error = s3Error { _ = try client.get(fixture.key("x")) }
        #expect(error?.kind == .noSuchBucket)
        #expect(error?.description.contains("iapkg-no-such-bucket") == true)
    }
}
