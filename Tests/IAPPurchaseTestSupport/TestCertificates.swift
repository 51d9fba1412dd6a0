internal import COpenSSL
import Foundation

/// What the test PKI could not make (libcrypto refused a step).
struct TestPKIError: Error, CustomStringConvertible {
    /// The step that failed.
    let description: String

    /// An error for `step`, with what libcrypto queued.
    init(_ step: String) {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            if let reason = ERR_reason_error_string(code) { reasons.append(String(cString: reason)) }
        }
        description = "test PKI: \(step) failed" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")
    }
}

/// An elliptic-curve key pair made by libcrypto; owns its `EVP_PKEY`, never changed after `init`
/// (so used from several tasks at once only to sign, which OpenSSL allows).
final class TestKey: @unchecked Sendable {
    let handle: OpaquePointer

    /// A fresh P-384 key, or P-256 when `p256`.
    init(p256: Bool) throws {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw TestPKIError("EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, p256 ? NID_X9_62_prime256v1 : NID_secp384r1) == 1,
            EVP_PKEY_keygen(context, &key) == 1, let key
        else { throw TestPKIError("EC key generation") }
        handle = key
    }

    deinit { EVP_PKEY_free(handle) }

    /// The JOSE form of an ECDSA signature with SHA-256 over `message`: r then s, each `half` bytes.
    func signES256(_ message: [UInt8], half: Int = 32) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw TestPKIError("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, handle) == 1,
            EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { throw TestPKIError("ECDSA signing set-up") }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
            throw TestPKIError("ECDSA signing")
        }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, length)
        }
        guard let parsed else { throw TestPKIError("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var joined = [UInt8](repeating: 0, count: 2 * half)
        guard BN_bn2binpad(r, &joined, Int32(half)) == half,
            joined.withUnsafeMutableBufferPointer({ BN_bn2binpad(s, $0.baseAddress! + half, Int32(half)) }) == half
        else { throw TestPKIError("BN_bn2binpad") }
        return joined
    }
}

/// X.509 certificates made by libcrypto for the tests.
enum TestCertificate {
    /// A v3 certificate of `key` named `subject`, issued by `issuer` and signed with `signer`
    /// (ECDSA with SHA-384, or SHA-256 when `sha256`); `extensions` are OpenSSL configuration
    /// values by NID ("critical,CA:TRUE"); each of `markers` is an extension holding a DER NULL, as
    /// Apple's are, critical when its flag says so. Returns the DER bytes.
    static func make(
        subject: String, issuer: String, key: TestKey, signer: TestKey, sha256: Bool = false,
        validity: ClosedRange<Date>, extensions: [(Int32, String)], markers: [(oid: String, critical: Bool)] = []
    ) throws -> [UInt8] {
        guard let x509 = X509_new() else { throw TestPKIError("X509_new") }
        defer { X509_free(x509) }
        guard X509_set_version(x509, 2) == 1,
            ASN1_INTEGER_set_int64(X509_get_serialNumber(x509), Int64.random(in: 1...Int64.max)) == 1,
            ASN1_TIME_set(X509_getm_notBefore(x509), time_t(validity.lowerBound.timeIntervalSince1970)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(x509), time_t(validity.upperBound.timeIntervalSince1970)) != nil,
            X509_set_pubkey(x509, key.handle) == 1
        else { throw TestPKIError("certificate fields") }
        try name(x509, subject, X509_set_subject_name)
        try name(x509, issuer, X509_set_issuer_name)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, nil, x509, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else { throw TestPKIError(value) }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(x509, ext, -1) == 1 else { throw TestPKIError("X509_add_ext") }
        }
        for marker in markers { try addMarker(x509, marker.oid, critical: marker.critical) }
        guard X509_sign(x509, signer.handle, sha256 ? EVP_sha256() : EVP_sha384()) > 0 else {
            throw TestPKIError("X509_sign")
        }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &out)
        guard length > 0, let out else { throw TestPKIError("i2d_X509") }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// Sets a name of one common name `text` with `set` (X509_set_subject_name or _issuer_name).
    private static func name(
        _ x509: OpaquePointer, _ text: String, _ set: (OpaquePointer?, OpaquePointer?) -> Int32
    ) throws {
        guard let name = X509_NAME_new() else { throw TestPKIError("X509_NAME_new") }
        defer { X509_NAME_free(name) }
        guard X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, text, -1, -1, 0) == 1, set(x509, name) == 1 else {
            throw TestPKIError("a name")
        }
    }

    /// Adds the extension `oid` holding a DER NULL.
    private static func addMarker(_ x509: OpaquePointer, _ oid: String, critical: Bool) throws {
        guard let object = OBJ_txt2obj(oid, 1), let value = ASN1_OCTET_STRING_new() else {
            throw TestPKIError("a marker's identifier")
        }
        defer {
            ASN1_OBJECT_free(object)
            ASN1_OCTET_STRING_free(value)
        }
        let null: [UInt8] = [0x05, 0x00]
        guard ASN1_OCTET_STRING_set(value, null, 2) == 1,
            let ext = X509_EXTENSION_create_by_OBJ(nil, object, critical ? 1 : 0, value)
        else { throw TestPKIError("a marker extension") }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x509, ext, -1) == 1 else { throw TestPKIError("X509_add_ext") }
    }
}
