#if canImport(Glibc)
    import Glibc
#endif

/// Runs saved inputs through a target without libFuzzer: to reproduce a finding in a plain debug
/// build (the Swift runtime's backtrace names the line), or to check a corpus.
public enum Replay {
    /// Runs every file named in `paths` (folders: the regular files directly inside them, in name
    /// order) through `target`; returns how many inputs ran. Throws when a path cannot be read.
    public static func run(_ target: FuzzTarget, paths: [String], log: (String) -> Void) throws(ReplayError) -> Int {
        var count = 0
        for path in paths {
            for file in try inputs(at: path) {
                log("\(target.rawValue): \(file)")
                target.run(try read(file))
                count += 1
            }
        }
        return count
    }

    /// The files at `path`: itself, or the regular files directly inside it, in name order.
    public static func inputs(at path: String) throws(ReplayError) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ReplayError(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { return [path] }
        guard let directory = opendir(path) else { throw ReplayError(path: path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            var child = stat()
            if stat(path + "/" + name, &child) == 0 && child.st_mode & S_IFMT == S_IFREG { names.append(name) }
        }
        return names.sorted().map { path + "/" + $0 }
    }

    /// The bytes of the file at `path`.
    public static func read(_ path: String) throws(ReplayError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw ReplayError(path: path, errno: errno) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[0..<count]
            if count < chunk.count { break }
        }
        guard ferror(file) == 0 else { throw ReplayError(path: path, errno: EIO) }
        return bytes
    }
}

/// A saved input that could not be read.
public struct ReplayError: Error, CustomStringConvertible {
    /// The path that failed.
    public var path: String
    /// The system's error number.
    public var errno: Int32

    /// The path and the system's message.
    public var description: String { "\(path): \(String(cString: strerror(errno)))" }
}
