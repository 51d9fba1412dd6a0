internal import COpenSSL

/// Public-key checks of detached signatures over bytes that are already a digest.
package enum SignatureVerification {
    /// Checks an RSA PKCS#1 v1.5 signature over `digest` wrapped in the DigestInfo of `algorithm`
    /// (the digest is not hashed again). Throws when the key cannot be used; false when it does not verify.
    package static func verifyRSA(
        signature: [UInt8], digest: [UInt8], algorithm: DigestAlgorithm,
        certificate: X509Certificate
    ) throws(CryptoError) -> Bool {
        guard let key = X509_get0_pubkey(certificate.handle) else {
            throw .drain("the certificate's public key cannot be read")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            throw CryptoError("the certificate holds a \(certificate.keyAlgorithm) key, not an RSA key")
        }
        guard let md = EVP_get_digestbyname(algorithm.rawValue) else {
            throw CryptoError("OpenSSL does not know the digest \(algorithm.rawValue)")
        }
        let context = try PublicKeyContext(key)
        guard EVP_PKEY_verify_init(context.handle) == 1,
            EVP_PKEY_CTX_set_rsa_padding(context.handle, RSA_PKCS1_PADDING) == 1,
            EVP_PKEY_CTX_set_signature_md(context.handle, md) == 1
        else {
            throw .drain("OpenSSL could not set up an RSA verification")
        }
        let status = EVP_PKEY_verify(context.handle, signature, signature.count, digest, digest.count)
        ERR_clear_error()
        return status == 1
    }

    /// Checks a detached CMS SignedData (DER; trailing zero padding allowed) over `content`, without
    /// judging the signer's chain. `extra` certificates may supply the signer's. Returns the signers'
    /// certificates, or throws why it does not verify.
    package static func verifyCMS(_ der: [UInt8], content: [UInt8], extra: [X509Certificate]) throws(CryptoError)
        -> [X509Certificate]
    {
        CryptoLibrary.prepare()
        let message = try CMSMessage(der: der)
        let data = try MemoryBIO(reading: content)
        let certificates = try CertificateStack(extra)
        let status = withExtendedLifetime((data, certificates)) {
            CMS_verify(message.handle, certificates.handle, nil, data.handle, nil, iapkg_cms_detached_flags())
        }
        guard status == 1 else { throw .drain("the CMS signature does not verify") }
        guard let signers = CMS_get0_signers(message.handle) else { throw .drain("the CMS signature names no signer") }
        defer { OPENSSL_sk_free(signers) }
        var found: [X509Certificate] = []
        for index in 0..<OPENSSL_sk_num(signers) {
            guard let x509 = OPENSSL_sk_value(signers, index) else { continue }
            found.append(try X509Certificate(copying: OpaquePointer(x509)))
        }
        return found
    }
}

/// An `EVP_PKEY_CTX` with exactly one owner.
final class PublicKeyContext {
    let handle: OpaquePointer

    init(_ key: OpaquePointer) throws(CryptoError) {
        guard let handle = EVP_PKEY_CTX_new(key, nil) else { throw .drain("OpenSSL could not allocate a key context") }
        self.handle = handle
    }

    deinit { EVP_PKEY_CTX_free(handle) }
}

/// A parsed CMS `ContentInfo` with exactly one owner.
final class CMSMessage {
    let handle: OpaquePointer

    /// Parses the first DER object of `der`; what follows it must be zero padding.
    init(der: [UInt8]) throws(CryptoError) {
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let result = d2i_CMS_ContentInfo(nil, &cursor, buffer.count)
            consumed = cursor.map { $0 - base } ?? 0
            return result
        }
        guard let parsed else { throw .drain("the bytes are not a DER CMS message") }
        handle = parsed
        guard der[consumed...].allSatisfy({ $0 == 0 }) else {
            throw CryptoError("the CMS message is followed by \(der.count - consumed) bytes that are not zero padding")
        }
    }

    deinit { CMS_ContentInfo_free(handle) }
}
