internal import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

/// What a certificate profile is judged on: its key's curve, the algorithm it is signed with,
/// its extensions, its validity period as numbers.
extension X509Certificate {
    /// The elliptic curve of the public key as OpenSSL names it ("secp384r1", "prime256v1"); nil
    /// when the key is not an elliptic-curve key.
    package var ellipticCurve: String? {
        guard let key = X509_get0_pubkey(handle), EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return nil }
        var name = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The algorithm the issuer signed this certificate with, by OpenSSL's short name
    /// ("ecdsa-with-SHA384", "sha256WithRSAEncryption"); "undefined" when OpenSSL does not know it.
    package var signatureAlgorithm: String {
        String(cString: OBJ_nid2sn(X509_get_signature_nid(handle)))
    }

    /// True when the certificate carries the extension `oid` (dotted, "1.2.840.113635.100.6.11.1").
    package func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else {
            ERR_clear_error()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(handle, object, -1) >= 0
    }

    /// The dotted identifiers of the critical extensions OpenSSL does not implement: a verifier
    /// must understand each of them or refuse the certificate (RFC 5280, 4.2).
    package var criticalExtensionsOpenSSLDoesNotKnow: [String] {
        var found: [String] = []
        for index in 0..<max(0, X509_get_ext_count(handle)) {
            guard let ext = X509_get_ext(handle, index), X509_EXTENSION_get_critical(ext) == 1,
                X509_supported_extension(ext) != 1, let object = X509_EXTENSION_get_object(ext)
            else { continue }
            var text = [CChar](repeating: 0, count: 128)
            let length = OBJ_obj2txt(&text, Int32(text.count), object, 1)
            guard length > 0, Int(length) < text.count else { continue }
            found.append(String(decoding: text.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return found
    }

    /// The validity period in seconds since 1970 (UTC), both ends included; nil when a time cannot be read.
    package var validitySeconds: ClosedRange<Int64>? {
        guard let start = Self.seconds(X509_get0_notBefore(handle)), let end = Self.seconds(X509_get0_notAfter(handle)),
            start <= end
        else { return nil }
        return start...end
    }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Int64(timegm(&parts))
    }
}
