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

/// A streaming message digest (OpenSSL's EVP), fed in pieces and finished once.
package final class DigestHasher {
    package let algorithm: DigestAlgorithm
    private let context: OpaquePointer

    package init(_ algorithm: DigestAlgorithm) {
        self.algorithm = algorithm
        CryptoLibrary.prepare()
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        self.context = context
        let md: OpaquePointer? =
            switch algorithm {
            case .sha1: EVP_sha1()
            case .sha224: EVP_sha224()
            case .sha256: EVP_sha256()
            case .sha384: EVP_sha384()
            case .sha512: EVP_sha512()
            case .md5: EVP_md5()
            }
        guard EVP_DigestInit_ex(context, md, nil) == 1 else { fatalError("OpenSSL could not start \(algorithm)") }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Feeds bytes into the digest.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// Feeds bytes into the digest.
    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Finishes and returns the digest; the hasher must not be used afterwards.
    package func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &out, &length)
        return Array(out.prefix(Int(length)))
    }

    /// The digest of a whole buffer.
    package static func digest(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) -> [UInt8] {
        let hasher = DigestHasher(algorithm)
        hasher.update(bytes)
        return hasher.finish()
    }
}
