internal import IAPCrypto
internal import IAPSystem
internal import XMLKit

/// The two digests a written body carries: MD5 in base64 for `Content-Md5`, which the store checks
/// the bytes against, and SHA-256 in hex for `x-amz-content-sha256`, which the signature covers.
struct BodyDigests {
    var md5Base64: String
    var sha256Hex: String

    /// The digests of `bytes`.
    init(_ bytes: [UInt8]) {
        md5Base64 = Self.base64(DigestHasher.digest(.md5, of: bytes))
        sha256Hex = Hex.encode(DigestHasher.digest(.sha256, of: bytes))
    }

    /// The digests of `length` bytes of `file` from `offset`, read once in 1 MiB pieces.
    init(file: FileDescriptor, offset: UInt64, length: UInt64) throws(SystemError) {
        let md5 = DigestHasher(.md5)
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
            md5.update(UnsafeRawBufferPointer(piece))
            sha256.update(UnsafeRawBufferPointer(piece))
            done += UInt64(want)
        }
        md5Base64 = Self.base64(md5.finish())
        sha256Hex = Hex.encode(sha256.finish())
    }

    /// The headers and payload hash of a write with these digests.
    var headers: [SignableRequest.Field] { [.init("Content-MD5", md5Base64)] }

    private static func base64(_ bytes: [UInt8]) -> String {
        String(decoding: Base64.encode(bytes[...]), as: UTF8.self)
    }
}
