internal import COpenSSL

/// A failure reported by OpenSSL's libcrypto, with its error queue as text.
package struct CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done and why it failed.
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }

    /// `what`, followed by the reasons OpenSSL queued (the queue is emptied).
    static func drain(_ what: String) -> CryptoError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if reasons.count < 3, let reason = ERR_reason_error_string(code) { reasons.append(String(cString: reason)) }
        }
        return CryptoError(reasons.isEmpty ? what : what + " (" + reasons.joined(separator: "; ") + ")")
    }
}

/// A libcrypto memory BIO; owns its handle and, for input, a copy of the bytes it reads.
final class MemoryBIO {
    let handle: OpaquePointer
    private let storage: UnsafeMutableRawBufferPointer?

    /// An empty BIO that collects what is written to it.
    init() throws(CryptoError) {
        guard let handle = BIO_new(BIO_s_mem()) else { throw .drain("OpenSSL could not allocate a memory BIO") }
        self.handle = handle
        storage = nil
    }

    /// A read-only BIO over a private copy of `bytes`.
    init(reading bytes: [UInt8]) throws(CryptoError) {
        CryptoLibrary.prepare()
        guard bytes.count < Int(Int32.max) else {
            throw CryptoError("\(bytes.count) bytes are too many for OpenSSL to read at once")
        }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        copy.copyBytes(from: bytes)
        guard let handle = BIO_new_mem_buf(copy.baseAddress, Int32(bytes.count)) else {
            copy.deallocate()
            throw .drain("OpenSSL could not allocate a memory BIO")
        }
        self.handle = handle
        storage = copy
    }

    deinit {
        BIO_free(handle)
        storage?.deallocate()
    }

    /// Everything written so far, as UTF-8 text.
    func text() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = BIO_read(handle, &chunk, Int32(chunk.count))
            if n <= 0 { break }
            bytes += chunk[0..<Int(n)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A libcrypto stack of certificates that does not own them (each `X509Certificate` does).
final class CertificateStack {
    let handle: OpaquePointer
    private let members: [X509Certificate]

    init(_ certificates: [X509Certificate]) throws(CryptoError) {
        guard let handle = OPENSSL_sk_new_null() else { throw .drain("OpenSSL could not allocate a certificate stack") }
        self.handle = handle
        members = certificates
        for certificate in certificates where OPENSSL_sk_push(handle, UnsafeRawPointer(certificate.handle)) <= 0 {
            throw .drain("OpenSSL could not grow a certificate stack")
        }
    }

    deinit { OPENSSL_sk_free(handle) }
}
