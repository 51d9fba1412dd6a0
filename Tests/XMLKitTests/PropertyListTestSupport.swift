@testable import XMLKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// No Foundation here: libxml2 is built with ICU, and Foundation's own ICU headers can clash with it in
// a module that sees both.

/// Helpers shared by the property-list tests.
enum PropertyListTestSupport {
    /// The bytes of a hex string (whitespace ignored).
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8.filter { !$0.isWhitespaceByte })
        precondition(digits.count % 2 == 0, "odd hex length")
        return stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)!
        }
    }

    /// Whether python3 can be run, for the tests that compare with plistlib live.
    static let pythonAvailable = access("/usr/bin/python3", X_OK) == 0

    /// What `python3 script` writes to stdout; nil when it cannot be run or fails.
    static func python(_ script: String) -> [UInt8]? {
        let path = "/tmp/iapkg-plist-test-\(getpid()).py"
        guard let file = fopen(path, "w") else { return nil }
        let bytes = Array(script.utf8)
        let written = fwrite(bytes, 1, bytes.count, file)
        fclose(file)
        defer { unlink(path) }
        guard written == bytes.count, let pipe = popen("/usr/bin/python3 \(path)", "r") else { return nil }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            out += buffer[0..<count]
        }
        return pclose(pipe) == 0 ? out : nil
    }

    /// Reads `bytes` as a plist, returning the error it throws (nil when it reads).
    static func error(reading bytes: [UInt8]) -> PropertyListError? {
        do {
            _ = try PropertyListReader.read(bytes)
            return nil
        } catch {
            return error
        }
    }
}

extension String {
    /// `self` with every `placeholder` replaced by `value` (the tests' "expected output by simple replacement").
    func replacing(placeholder: String, with value: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: placeholder) {
            out += rest[..<range.lowerBound]
            out += value
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

extension UInt8 {
    var isWhitespaceByte: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
