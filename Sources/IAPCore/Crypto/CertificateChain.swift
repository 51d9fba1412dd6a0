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
        let store = try CertificateStore()
        for anchor in anchors where X509_STORE_add_cert(store.handle, anchor.handle) != 1 {
            throw .drain("the trust anchor could not be added to the store")
        }
        let untrusted = try CertificateStack(intermediates)
        // The context borrows the store, the stack and the leaf: all live until it is gone.
        return try withExtendedLifetime((store, untrusted, leaf)) { () throws(CryptoError) -> String? in
            let context = try StoreContext()
            guard X509_STORE_CTX_init(context.handle, store.handle, leaf.handle, untrusted.handle) == 1 else {
                throw .drain("OpenSSL could not start a chain verification")
            }
            var flags = UInt(X509_V_FLAG_PARTIAL_CHAIN) | UInt(X509_V_FLAG_IGNORE_CRITICAL)
            if !checkTime { flags |= UInt(X509_V_FLAG_NO_CHECK_TIME) }
            X509_STORE_CTX_set_flags(context.handle, flags)
            let verified = X509_verify_cert(context.handle) == 1
            ERR_clear_error()
            guard !verified else { return nil }
            let code = X509_STORE_CTX_get_error(context.handle)
            return String(cString: X509_verify_cert_error_string(Int(code)))
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
