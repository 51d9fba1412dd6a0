#if canImport(Glibc)
    import Glibc
#endif

/// Names a crash by where it happened, from the Swift runtime's backtrace: the runtime failure
/// ("arithmetic overflow") and the first frame in project code outside the fuzzer
/// ("IAPKit/PackageInspector.swift:68:59"). Crashes with the same signature are one bug.
enum CrashSignature {
    /// The signature read from the backtrace saved at `path`, or `fallback` when it names none.
    static func read(stackFile path: String, fallback: String) -> String {
        guard let text = readBytes(path) else { return fallback }
        let failureMark = Array("Swift runtime failure: ".utf8)
        let fatalMark = Array("Fatal error: ".utf8)
        let sourcesMark = Array("/Sources/".utf8)
        let fuzzerMark = Array("/Sources/iapkg-fuzz/".utf8)
        var failure: String?
        var frame: String?
        for line in text.split(separator: 0x0A).map(Array.init) {
            if failure == nil, let at = ByteSearch.find(failureMark, in: line) {
                failure = String(decoding: line[(at + failureMark.count)...].filter { $0 != 0x2A }, as: UTF8.self)
                while failure?.last == " " { failure?.removeLast() }
            } else if failure == nil, let at = ByteSearch.find(fatalMark, in: line) {
                failure = String(decoding: line[at...].prefix(120), as: UTF8.self)
            }
            if frame == nil, let at = ByteSearch.find(sourcesMark, in: line),
                ByteSearch.find(fuzzerMark, in: line) == nil
            {
                frame = String(decoding: line[(at + sourcesMark.count)...], as: UTF8.self)
            }
        }
        guard failure != nil || frame != nil else { return fallback }
        return [failure, frame].compactMap { $0 }.joined(separator: " at ")
    }

    /// The bytes of the file at `path` (at most 1 MiB).
    static func readBytes(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
        guard count > 0 else { return nil }
        return Array(bytes[0..<count])
    }
}
