package import IAPSystem

/// Runs saved inputs through a target without libFuzzer: to reproduce a finding in a plain debug
/// build (the Swift runtime's backtrace names the line), or to check a corpus.
package enum Replay {
    /// Runs every file named in `paths` (folders: the regular files directly inside them, in name
    /// order) through `target`; returns how many inputs ran. Throws when a path cannot be read.
    package static func run(_ target: FuzzTarget, paths: [String], log: (String) -> Void) throws(SystemError) -> Int {
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
    package static func inputs(at path: String) throws(SystemError) -> [String] {
        guard try FileStatus.of(path).isDirectory else { return [path] }
        do {
            let folder = try DirectoryHandle.open(path)
            return try folder.names().filter { folder.status($0)?.isRegularFile == true }.sorted().map(folder.child)
        } catch let error as SystemError {
            throw error
        } catch {
            throw SystemError("list", path: path, code: SystemError.Code.io)
        }
    }

    /// The bytes of the file at `path`.
    package static func read(_ path: String) throws(SystemError) -> [UInt8] {
        do {
            let file = try FileDescriptor.openForReading(path)
            return try file.read(count: Int(try file.size()), at: 0)
        } catch let error as SystemError {
            throw error
        } catch {
            throw SystemError("read", path: path, code: SystemError.Code.io)
        }
    }
}
