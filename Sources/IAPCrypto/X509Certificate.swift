internal import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

/// One X.509 certificate parsed by libcrypto; owns its `X509` handle.
///
/// `@unchecked Sendable` with no lock of its own: the `X509` handle is never changed after `init`,
/// and libcrypto's read-only calls on a certificate are safe from several threads (OpenSSL's
/// thread-safety rules); only `OpaquePointer` keeps the compiler from proving it.
package final class X509Certificate: @unchecked Sendable {
    let handle: OpaquePointer
    /// The certificate's DER bytes, exactly as given.
    package let der: [UInt8]

    /// Parses one DER certificate; every byte must belong to it.
    package init(der: [UInt8]) throws(CryptoError) {
        CryptoLibrary.prepare()
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let result = d2i_X509(nil, &cursor, buffer.count)
            consumed = cursor.map { $0 - base } ?? 0
            return result
        }
        guard let parsed else { throw .drain("the bytes are not a DER X.509 certificate") }
        handle = parsed
        self.der = der
        guard consumed == der.count else {
            throw CryptoError("the DER certificate is followed by \(der.count - consumed) stray bytes")
        }
    }

    /// A certificate with the bytes of `x509`, a handle another owner frees (re-encoded as DER).
    convenience init(copying x509: OpaquePointer) throws(CryptoError) {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &out)
        guard length > 0, let out else { throw .drain("a certificate could not be re-encoded") }
        let bytes = Array(UnsafeBufferPointer(start: out, count: Int(length)))
        CRYPTO_free(out, #fileID, #line)
        try self.init(der: bytes)
    }

    deinit { X509_free(handle) }

    /// Every certificate in PEM text (`-----BEGIN CERTIFICATE-----` blocks), in order; none is an error.
    package static func certificates(pem: [UInt8]) throws(CryptoError) -> [X509Certificate] {
        let bio = try MemoryBIO(reading: pem)
        var found: [X509Certificate] = []
        while let x509 = PEM_read_bio_X509(bio.handle, nil, nil, nil) {
            defer { X509_free(x509) }
            found.append(try X509Certificate(copying: x509))
        }
        // The loop ends on "no start line" after the last block; anything else is a block that is broken.
        let last = ERR_peek_last_error()
        if last != 0, !(ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE) {
            throw .drain("PEM CERTIFICATE block \(found.count + 1) is not a certificate")
        }
        ERR_clear_error()
        guard !found.isEmpty else { throw CryptoError("no PEM certificate (-----BEGIN CERTIFICATE-----) was found") }
        return found
    }

    /// The subject's distinguished name, "CN=…, OU=…, O=…, C=…".
    package var subject: String { Self.name(X509_get_subject_name(handle)) }

    /// The issuer's distinguished name.
    package var issuer: String { Self.name(X509_get_issuer_name(handle)) }

    /// The start of the validity period, ISO 8601 UTC ("2023-02-08T02:34:06Z").
    package var notBefore: String { Self.time(X509_get0_notBefore(handle)) }

    /// The end of the validity period, ISO 8601 UTC.
    package var notAfter: String { Self.time(X509_get0_notAfter(handle)) }

    /// True when the current time lies outside the validity period.
    package var isOutsideValidity: Bool {
        X509_cmp_current_time(X509_get0_notBefore(handle)) > 0 || X509_cmp_current_time(X509_get0_notAfter(handle)) < 0
    }

    /// SHA-256 of the DER bytes, as upper-case hex pairs joined by colons.
    package var sha256Fingerprint: String {
        DigestHasher.digest(.sha256, of: der).map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined(separator: ":")
    }

    /// The public key's algorithm, as OpenSSL names it ("RSA", "EC", …).
    package var keyAlgorithm: String {
        guard let key = X509_get0_pubkey(handle) else { return "unknown" }
        return String(cString: OBJ_nid2sn(EVP_PKEY_get_base_id(key)))
    }

    /// True when both are the same certificate.
    package func isSame(as other: X509Certificate) -> Bool { der == other.der }

    private static func name(_ name: OpaquePointer?) -> String {
        guard let name, let bio = try? MemoryBIO() else { return "" }
        guard X509_NAME_print_ex(bio.handle, name, 0, iapkg_name_print_flags()) >= 0 else { return "" }
        return bio.text()
    }

    private static func time(_ time: UnsafePointer<ASN1_TIME>?) -> String {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return "?" }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
