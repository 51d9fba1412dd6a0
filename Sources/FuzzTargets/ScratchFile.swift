internal import IAPSystem
import Synchronization

/// The file each input is written into, for readers that take a path: an unnamed file
/// (`O_TMPFILE`) in `/dev/shm` when it can hold one (no disk I/O per input), reached through
/// `/proc/self/fd/N`, so nothing is left behind even when the process dies on a finding.
/// One per thread (libFuzzer runs inputs on one thread; the tests run in parallel).
enum ScratchFile {
    /// Each thread's scratch file (by `CurrentThread.id`), made on first use.
    private static let files = Mutex<[UInt: FileDescriptor]>([:])

    /// Replaces the calling thread's scratch file's content with `bytes` and returns a path that opens it.
    static func write(_ bytes: [UInt8]) -> String {
        let file = threadFile()
        do {
            try file.truncate(to: 0)
            try file.write(bytes, at: 0)
        } catch {
            preconditionFailure("cannot write the fuzzer's scratch file: \(error)")
        }
        return "/proc/self/fd/\(file.rawValue)"
    }

    /// Empties the calling thread's scratch file and returns it, positioned at its start, with a path
    /// that opens it: for writers that write to a descriptor.
    static func empty() -> (file: FileDescriptor, path: String) {
        let file = threadFile()
        do {
            try file.truncate(to: 0)
            try file.seek(to: 0)
        } catch {
            preconditionFailure("cannot empty the fuzzer's scratch file: \(error)")
        }
        return (file, "/proc/self/fd/\(file.rawValue)")
    }

    private static func threadFile() -> FileDescriptor {
        let thread = CurrentThread.id
        return files.withLock { files in
            if let file = files[thread] { return file }
            guard
                let made = UnnamedFile.create(in: "/dev/shm", mode: 0o600)
                    ?? UnnamedFile.create(in: "/tmp", mode: 0o600)
            else { preconditionFailure("cannot make an unnamed file in /dev/shm or /tmp") }
            files[thread] = made
            return made
        }
    }
}
