internal import IAPCrypto
internal import IAPSystem
internal import XMLKit

/// The digests a written body carries, which the store checks the bytes against as they land:
/// the MD5 for `Content-MD5`, or a SHA-256 known beforehand for `x-amz-checksum-sha256`; and the
/// SHA-256 in hex for `x-amz-content-sha256`, which the signature covers. The payload hash is kept
/// signed with a checksum header beside it: Google Cloud Storage's XML API and some S3-compatible
/// stores ignore `x-amz-checksum-sha256` and check only the signed payload hash, so
/// `UNSIGNED-PAYLOAD` would leave their objects unchecked.
struct BodyDigests {
    /// The MD5, when the body was hashed here (nil: a SHA-256 known beforehand stands for it).
    var md5: [UInt8]?
    /// The SHA-256 the caller knew the body to have, sent as `x-amz-checksum-sha256`.
    var checksumSHA256: [UInt8]?
    var sha256Hex: String

    /// The MD5 in base64, as `Content-MD5` takes it.
    var md5Base64: String? { md5.map { String(decoding: Base64.encode($0[...]), as: UTF8.self) } }

    /// The ETag S3 gives an object written in one PUT of these bytes: the MD5 in hex, quoted (nil:
    /// not hashed here).
    var etag: String? { md5.map { "\"" + Hex.encode($0) + "\"" } }

    /// The digests of `bytes`.
    init(_ bytes: [UInt8]) {
        md5 = DigestHasher.digest(.md5, of: bytes)
        sha256Hex = Hex.encode(DigestHasher.digest(.sha256, of: bytes))
    }

    /// A body known to hash to `sha256` (32 bytes), hashed by nobody here: the store checks it
    /// against `x-amz-checksum-sha256` and the signature's payload hash, and refuses other bytes.
    init(knownSHA256 sha256: [UInt8]) {
        checksumSHA256 = sha256
        sha256Hex = Hex.encode(sha256)
    }

    /// The digests of `length` bytes of `file` from `offset`, read once in 1 MiB pieces.
    init(file: FileDescriptor, offset: UInt64, length: UInt64) throws(SystemError) {
        let md5Hasher = DigestHasher(.md5)
        let sha256 = DigestHasher(.sha256)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var done: UInt64 = 0
        while done < length {
            let want = Int(min(UInt64(buffer.count), length - done))
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want])
            let got: Int
            do { got = try file.read(into: piece, at: offset + done) } catch let error as SystemError {
                throw error
            } catch {
                throw SystemError("read", path: file.path)
            }
            guard got == want else { throw SystemError("read", path: file.path, code: SystemError.Code.io) }
            md5Hasher.update(UnsafeRawBufferPointer(piece))
            sha256.update(UnsafeRawBufferPointer(piece))
            done += UInt64(want)
        }
        md5 = md5Hasher.finish()
        sha256Hex = Hex.encode(sha256.finish())
    }

    /// The headers and payload hash of a write with these digests.
    var headers: [SignableRequest.Field] {
        if let checksumSHA256 {
            return [.init("x-amz-checksum-sha256", String(decoding: Base64.encode(checksumSHA256[...]), as: UTF8.self))]
        }
        return md5Base64.map { [.init("Content-MD5", $0)] } ?? []
    }

    /// The ETag S3 gives an object joined from parts with these ETags: the MD5 of their MD5s, a
    /// dash and their count; nil when an ETag is not a quoted MD5.
    static func multipartETag(_ parts: [S3UploadedPart]) -> String? {
        var joined: [UInt8] = []
        for part in parts.sorted(by: { $0.number < $1.number }) {
            guard let md5 = Hex.decode(part.etag.filter { $0 != "\"" }), md5.count == 16 else { return nil }
            joined += md5
        }
        return "\"" + Hex.encode(DigestHasher.digest(.md5, of: joined)) + "-\(parts.count)\""
    }
}
