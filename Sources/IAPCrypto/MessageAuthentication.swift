internal import COpenSSL

/// HMAC-SHA256 (RFC 2104) from libcrypto, and the comparison of codes that takes the same time
/// wherever they differ.
package enum MessageAuthentication {
    /// HMAC-SHA256 of `message` under `key`: 32 bytes; nil when libcrypto cannot allocate.
    package static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        CryptoLibrary.prepare()
        var code = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &code, &length) != nil,
            length == 32
        else {
            ERR_clear_error()
            return nil
        }
        return code
    }

    /// True when `code` is the HMAC-SHA256 of `message` under `key`, compared in constant time.
    package static func isValidSHA256(_ code: [UInt8], key: [UInt8], message: [UInt8]) -> Bool {
        guard let expected = sha256(key: key, message: message) else { return false }
        return code.count == expected.count && CRYPTO_memcmp(code, expected, expected.count) == 0
    }
}
