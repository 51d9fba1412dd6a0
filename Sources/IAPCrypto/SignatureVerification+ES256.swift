internal import COpenSSL

extension SignatureVerification {
    /// Checks a JOSE ES256 signature (RFC 7518, 3.4: the 32-byte big-endian r then s) over
    /// `message`, hashed with SHA-256, with the certificate's P-256 key. Throws when the key is not
    /// a P-256 key or OpenSSL cannot be set up; false when the signature does not verify.
    package static func verifyES256(signature: [UInt8], message: [UInt8], certificate: X509Certificate)
        throws(CryptoError) -> Bool
    {
        CryptoLibrary.prepare()
        guard certificate.ellipticCurve == "prime256v1", let key = X509_get0_pubkey(certificate.handle) else {
            throw CryptoError("the certificate holds a \(certificate.keyAlgorithm) key, not a P-256 key")
        }
        guard signature.count == 64, let der = try derSignature(r: signature[0..<32], s: signature[32...]) else {
            return false
        }
        guard let context = EVP_MD_CTX_new() else { throw .drain("OpenSSL could not allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw .drain("OpenSSL could not set up an ECDSA verification")
        }
        let status = EVP_DigestVerify(context, der, der.count, message, message.count)
        ERR_clear_error()
        return status == 1
    }

    /// The DER `ECDSA-Sig-Value` of r and s; nil when either is zero (never a valid signature).
    private static func derSignature(r: ArraySlice<UInt8>, s: ArraySlice<UInt8>) throws(CryptoError) -> [UInt8]? {
        guard r.contains(where: { $0 != 0 }), s.contains(where: { $0 != 0 }) else { return nil }
        guard let value = ECDSA_SIG_new() else { throw .drain("OpenSSL could not allocate a signature") }
        defer { ECDSA_SIG_free(value) }
        let rNumber = r.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        let sNumber = s.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let rNumber, let sNumber, ECDSA_SIG_set0(value, rNumber, sNumber) == 1 else {
            BN_free(rNumber)
            BN_free(sNumber)
            throw .drain("OpenSSL could not hold a signature's numbers")
        }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(value, &out)
        guard length > 0, let out else { throw .drain("OpenSSL could not encode a signature") }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
