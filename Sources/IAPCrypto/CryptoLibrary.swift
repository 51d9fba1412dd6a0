internal import COpenSSL

/// OpenSSL's process-wide setup, done once before its first use.
package enum CryptoLibrary {
    /// Starts libcrypto without its exit-time clean-up. OpenSSL frees its digests and providers
    /// from an `atexit` handler; a thread still hashing when the main thread exits (unpack's
    /// manifest hasher, when a full disk ends the run) then found sha256 gone and trapped, so a
    /// clean "no space left" error became a crash. The memory is the process's and goes with it.
    /// Every entry into libcrypto in IAPCrypto calls this; it has an effect only before the first.
    package static func prepare() { _ = started }

    private static let started: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
}
