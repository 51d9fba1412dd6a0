internal import COpenSSL

/// Whether a certificate chain leads to a given trust anchor (OpenSSL's `X509_verify_cert`).
package enum CertificateChain {
    /// Builds a chain from `leaf` through `intermediates` to one of `anchors`, the only trusted
    /// certificates (an anchor need not be self-signed: pinning an intermediate works). Validity
    /// periods are not judged here (`checkTime` false): an expired chain is reported apart. Unknown
    /// critical extensions are ignored: Apple's Developer ID certificates carry private critical ones.
    /// Returns nil when the chain leads to an anchor, else why not.
    package static func problem(
        leaf: X509Certificate, intermediates: [X509Certificate], anchors: [X509Certificate],
        checkTime: Bool = false
    ) throws(CryptoError) -> String? {
        var flags = UInt(X509_V_FLAG_PARTIAL_CHAIN) | UInt(X509_V_FLAG_IGNORE_CRITICAL)
        if !checkTime { flags |= UInt(X509_V_FLAG_NO_CHECK_TIME) }
        return try verify(leaf: leaf, intermediates: intermediates, anchors: anchors, flags: flags, at: nil).problem
    }

    /// Builds and checks the path from `leaf` through `intermediates` to one of `anchors` (which
    /// need not be self-signed) as RFC 5280 has it at the moment `seconds` (since 1970): every
    /// issuer's signature, names, basic constraints and path length, key usage, and every
    /// certificate's validity period, the anchor's included. A critical extension OpenSSL does not
    /// implement fails the path unless its identifier is in `understoodCritical` (the caller checks
    /// those itself). Returns the path, leaf first and anchor last; throws why there is none.
    package static func path(
        leaf: X509Certificate, intermediates: [X509Certificate], anchors: [X509Certificate],
        at seconds: Int64, understoodCritical: Set<String> = []
    ) throws(CryptoError) -> [X509Certificate] {
        for certificate in [leaf] + intermediates {
            if let unknown = certificate.criticalExtensionsOpenSSLDoesNotKnow.first(where: {
                !understoodCritical.contains($0)
            }) {
                throw CryptoError("\(certificate.subject) has a critical extension \(unknown) not understood")
            }
        }
        // The extensions OpenSSL does not know are all understood by the caller (checked above).
        let flags = UInt(X509_V_FLAG_PARTIAL_CHAIN) | UInt(X509_V_FLAG_IGNORE_CRITICAL)
        let outcome = try verify(leaf: leaf, intermediates: intermediates, anchors: anchors, flags: flags, at: seconds)
        if let problem = outcome.problem { throw CryptoError(problem) }
        return outcome.path
    }

    /// One `X509_verify_cert` run: why it failed (nil when it did not) and the path it built.
    private static func verify(
        leaf: X509Certificate, intermediates: [X509Certificate], anchors: [X509Certificate], flags: UInt,
        at seconds: Int64?
    ) throws(CryptoError) -> (problem: String?, path: [X509Certificate]) {
        CryptoLibrary.prepare()
        let store = try CertificateStore()
        for anchor in anchors where X509_STORE_add_cert(store.handle, anchor.handle) != 1 {
            throw .drain("the trust anchor could not be added to the store")
        }
        let untrusted = try CertificateStack(intermediates)
        // The context borrows the store, the stack and the leaf: all live until it is gone.
        return try withExtendedLifetime((store, untrusted, leaf)) {
            () throws(CryptoError) -> (problem: String?, path: [X509Certificate]) in
            let context = try StoreContext()
            guard X509_STORE_CTX_init(context.handle, store.handle, leaf.handle, untrusted.handle) == 1 else {
                throw .drain("OpenSSL could not start a chain verification")
            }
            X509_STORE_CTX_set_flags(context.handle, flags)
            if let seconds { X509_STORE_CTX_set_time(context.handle, 0, time_t(seconds)) }
            let verified = X509_verify_cert(context.handle) == 1
            ERR_clear_error()
            guard verified else {
                let code = X509_STORE_CTX_get_error(context.handle)
                return (String(cString: X509_verify_cert_error_string(Int(code))), [])
            }
            var path: [X509Certificate] = []
            if let chain = X509_STORE_CTX_get0_chain(context.handle) {
                for index in 0..<OPENSSL_sk_num(chain) {
                    guard let member = OPENSSL_sk_value(chain, index) else { continue }
                    path.append(try X509Certificate(copying: OpaquePointer(member)))
                }
            }
            return (nil, path)
        }
    }
}

/// An `X509_STORE` with exactly one owner.
final class CertificateStore {
    let handle: OpaquePointer

    init() throws(CryptoError) {
        guard let handle = X509_STORE_new() else { throw .drain("OpenSSL could not allocate a certificate store") }
        self.handle = handle
    }

    deinit { X509_STORE_free(handle) }
}

/// An `X509_STORE_CTX` with exactly one owner.
final class StoreContext {
    let handle: OpaquePointer

    init() throws(CryptoError) {
        guard let handle = X509_STORE_CTX_new() else {
            throw .drain("OpenSSL could not allocate a verification context")
        }
        self.handle = handle
    }

    deinit { X509_STORE_CTX_free(handle) }
}
