import Foundation
import IAPTestSupport
import Testing

/// What the fault tests need of the machine, and which of their measures a sanitizer distorts
/// (the sanitizer itself, and how many rounds to run under it: `Sanitizer` in IAPTestSupport).
enum FaultConditions {
    /// Root can mount a small tmpfs here (checked once by mounting one). Tests that need one are
    /// skipped, with that reason shown, where it cannot (not root, or no CAP_SYS_ADMIN).
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = ScratchFolder()
        guard (try? SmallFileSystem(at: probe.at("probe"), options: "size=64k")) != nil else { return false }
        return true
    }()

    /// True when no sanitizer distorts memory figures (memory ceilings, RSS growth).
    static var memoryIsMeasurable: Bool { !Sanitizer.distortsMemory }

    /// False under ThreadSanitizer: its runtime dies of SIGBUS (no stack) in an `iapkg` started
    /// under `sh -c 'ulimit -f 1000'` that reads a package of 1 MiB files — `validate` too, which
    /// writes nothing — while the plain and ASan builds pass the same steps.
    static var fileSizeLimitIsUsable: Bool { Sanitizer.name != "thread" }
}

/// A tmpfs mounted for a test (root only), lazily unmounted when the value goes away.
final class SmallFileSystem {
    let path: String

    /// Mounts a tmpfs with `options` (e.g. "size=1m", "size=8m,nr_inodes=40") at `path`, created if missing.
    init(at path: String, options: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try Harness.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path])
        guard mounted.status == 0 else { throw MountError(message: mounted.stderr) }
        self.path = path
    }

    /// Makes the file system read-only (or writable again), keeping what it holds.
    func remount(readOnly: Bool) throws {
        let result = try Harness.run(["mount", "-o", readOnly ? "remount,ro" : "remount,rw", path])
        guard result.status == 0 else { throw MountError(message: result.stderr) }
    }

    /// Blocks in use, as `df` counts them (unnamed files included).
    func usedBytes() -> UInt64 {
        var fs = statvfs()
        guard statvfs(path, &fs) == 0 else { return 0 }
        return UInt64(fs.f_blocks - fs.f_bfree) * UInt64(fs.f_frsize)
    }

    deinit { _ = try? Harness.run(["umount", "-l", path]) }

    struct MountError: Error, CustomStringConvertible {
        var message: String
        var description: String { "mount failed: \(message)" }
    }
}

/// A process started and left running, its output kept in a file for the checks.
final class RunningProcess {
    let process: Process
    private let outputFile: String

    /// Starts the built iapkg with `arguments`, `environment` added to the test's.
    init(_ arguments: [String], scratch: ScratchFolder, environment: [String: String] = [:]) throws {
        outputFile = scratch.at("output-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        let sink = try FileHandle(forWritingTo: URL(fileURLWithPath: outputFile))
        process = try Harness.start(
            ["iapkg"] + arguments, environment: environment, standardOutput: sink, standardError: sink)
    }

    /// Waits for the end; the exit status, or nil when a signal ended it (a crash).
    func finish() -> Int32? {
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// What the process wrote, standard output and error together.
    var output: String { (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "" }

    /// Sends `kill -9` and waits for the end.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Random bytes (incompressible content, so that reading and writing take measurable time).
func randomBytes(_ count: Int) -> Data {
    var generator = SystemRandomNumberGenerator()
    var data = Data(count: count)
    data.withUnsafeMutableBytes { raw in
        var offset = 0
        while offset < raw.count {
            let word = generator.next()
            withUnsafeBytes(of: word) { bytes in
                for byte in bytes where offset < raw.count {
                    raw[offset] = byte
                    offset += 1
                }
            }
        }
    }
    return data
}

/// Runs a program and reports its exit status and peak resident memory, its output thrown away.
///
/// The peak is `ru_maxrss` of the program forked by a small python3 process, not of a process this
/// one spawns: posix_spawn's child shares this process's memory until it execs, and the kernel
/// carries that memory's high-water mark into the child's `ru_maxrss` (in a whole test run this
/// process is 150–800 MB, which hid the program's own 70 MB and made the figures noise).
func runMeasuringPeakMemory(_ program: String, _ arguments: [String]) -> (status: Int32, peakKiB: Int) {
    let measure = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.execv(sys.argv[2], sys.argv[2:])
        _, status, usage = os.wait4(pid, 0)
        with open(sys.argv[1], "w") as out:
            out.write("%d %d" % (os.waitstatus_to_exitcode(status), usage.ru_maxrss))
        """
    let scratch = ScratchFolder()
    let figures = scratch.at("peak.txt")
    guard (try? Harness.run(["python3", "-c", measure, figures, program] + arguments)) != nil,
        let said = try? String(contentsOfFile: figures, encoding: .utf8)
    else { return (-1, 0) }
    let fields = said.split(separator: " ").compactMap { Int($0) }
    guard fields.count == 2 else { return (-1, 0) }
    return (Int32(truncatingIfNeeded: fields[0]), fields[1])
}
