import Foundation
import Testing

/// What the fault tests need of the machine, and the one way a test steps aside under a sanitizer.
enum FaultConditions {
    /// Root can mount a small tmpfs here (checked once by mounting one). Tests that need one are
    /// skipped, with that reason shown, where it cannot (not root, or no CAP_SYS_ADMIN).
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = ScratchFolder()
        guard (try? SmallFileSystem(at: probe.at("probe"), options: "size=64k")) != nil else { return false }
        return true
    }()

    /// The sanitizer the suite runs under: `IAPKG_SANITIZER` ("address" or "thread"), which
    /// `.ci/sanitize` sets. Tests whose measure a sanitizer distorts (memory ceilings, RSS growth)
    /// are skipped under it, and only through this variable.
    static let sanitizer: String? = ProcessInfo.processInfo.environment["IAPKG_SANITIZER"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// How many rounds a test repeats work whose every round runs the same code: all of them in a
    /// plain run, a fifth under a sanitizer, which reports a fault the first time the code runs and
    /// makes every round several times slower (ThreadSanitizer 5–15x).
    static func rounds(_ full: Int) -> Int { sanitizer == nil ? full : max(1, full / 5) }

    /// True when no sanitizer distorts memory figures.
    static var memoryIsMeasurable: Bool { sanitizer == nil }

    /// False under ThreadSanitizer: its runtime dies of SIGBUS (no stack) in an `iapkg` started
    /// under `sh -c 'ulimit -f 1000'` that reads a package of 1 MiB files — `validate` too, which
    /// writes nothing — while the plain and ASan builds pass the same steps.
    static var fileSizeLimitIsUsable: Bool { sanitizer != "thread" }
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
    let process = Process()
    private let outputFile: String

    /// Starts the built iapkg with `arguments`.
    init(_ arguments: [String], scratch: ScratchFolder) throws {
        outputFile = scratch.at("output-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        process.executableURL = URL(fileURLWithPath: Harness.binary)
        process.arguments = arguments
        process.environment = Harness.childEnvironment()
        let sink = FileHandle(forWritingAtPath: outputFile)
        process.standardOutput = sink
        process.standardError = sink
        try process.run()
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

/// Runs a program and reports its exit status and peak resident memory (`wait4`'s `ru_maxrss`),
/// its output thrown away.
func runMeasuringPeakMemory(_ program: String, _ arguments: [String]) -> (status: Int32, peakKiB: Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let environment = Harness.childEnvironment().map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in environment { free(pointer) } }
    guard posix_spawn(&pid, program, &actions, nil, argv, environment) == 0 else { return (-1, 0) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let exited = status & 0x7f == 0
    return (exited ? (status >> 8) & 0xff : -1, usage.ru_maxrss)
}
