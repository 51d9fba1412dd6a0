internal import COpenSSL

/// A digest algorithm, as xar names it in a `style` attribute.
package enum DigestAlgorithm: String, Sendable, Codable, CaseIterable {
    case sha1, sha224, sha256, sha384, sha512, md5

    /// The digest's length in bytes.
    package var byteCount: Int {
        switch self {
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        case .md5: 16
        }
    }

    /// True for algorithms too weak to verify anything (MD5): accepted, with a warning.
    package var isBroken: Bool { self == .md5 }

    /// The algorithm for a xar `style` attribute or a header's algorithm name (any case;
    /// "sha-1" spellings accepted, as old Apple tools wrote `SHA1`).
    package init?(xarStyle: String) {
        switch String(xarStyle.lowercased().filter { $0 != "-" }) {
        case "sha1": self = .sha1
        case "sha224": self = .sha224
        case "sha256": self = .sha256
        case "sha384": self = .sha384
        case "sha512": self = .sha512
        case "md5": self = .md5
        default: return nil
        }
    }
}

/// A streaming message digest, fed in pieces and finished once: OpenSSL's direct digest functions
/// (the same code as its EVP digests, without EVP's provider set-up, which cost a short command
/// such as `inspect` a sixth of its instructions).
package final class DigestHasher {
    package let algorithm: DigestAlgorithm
    private let state = UnsafeMutablePointer<iapkg_digest_state>.allocate(capacity: 1)
    private let number: Int32

    package init(_ algorithm: DigestAlgorithm) {
        self.algorithm = algorithm
        CryptoLibrary.prepare()
        number =
            switch algorithm {
            case .sha1: Int32(IAPKG_SHA1)
            case .sha224: Int32(IAPKG_SHA224)
            case .sha256: Int32(IAPKG_SHA256)
            case .sha384: Int32(IAPKG_SHA384)
            case .sha512: Int32(IAPKG_SHA512)
            case .md5: Int32(IAPKG_MD5)
            }
        guard iapkg_digest_init(state, number) == 1 else { fatalError("OpenSSL could not start \(algorithm)") }
    }

    deinit { state.deallocate() }

    /// Feeds bytes into the digest.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        iapkg_digest_update(state, number, bytes.baseAddress, bytes.count)
    }

    /// Feeds bytes into the digest.
    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Finishes and returns the digest; the hasher must not be used afterwards.
    package func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        iapkg_digest_final(state, number, &out)
        return Array(out.prefix(algorithm.byteCount))
    }

    /// The digest of a whole buffer.
    package static func digest(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) -> [UInt8] {
        let hasher = DigestHasher(algorithm)
        hasher.update(bytes)
        return hasher.finish()
    }
}
