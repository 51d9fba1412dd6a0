import IAPCore
import IAPRules

#if canImport(Glibc)
    import Glibc
#endif

/// Runs inputs in forked children, a batch per child, and turns a child's death into a saved
/// crash and a child's silence into a saved hang.
final class Supervisor {
    /// How a child's batch ended.
    enum BatchEnd {
        case finished
        /// Died (signal or non-zero exit) while on input `index`.
        case crashed(index: UInt64, status: ProcessStatus)
        /// Made no progress for the timeout while on input `index`; killed.
        case hung(index: UInt64)
    }

    /// A crashing or hanging input (saved unless its signature was already saved often enough).
    struct Finding {
        var kind: String
        var index: UInt64
        var detail: String
        /// Where the crash happened ("arithmetic overflow at IAPKit/X.swift:68:59"), or "hang".
        var signature: String
        /// The saved input, or nil when enough inputs of this signature were saved already.
        var file: String?
    }

    /// How many inputs of one signature are saved; the rest are only counted.
    static let savedPerSignature = 3
    private var savedCounts: [String: Int] = [:]

    /// The largest address space a child may use: a runaway allocation then fails loudly in the child.
    static let childAddressSpaceBytes: UInt64 = 3 << 30

    let options: FuzzOptions
    let generator: InputGenerator
    let counters: SharedCounters
    let scratchDirectory: String
    private(set) var findings: [Finding] = []
    private(set) var children = 0

    init(options: FuzzOptions, generator: InputGenerator, counters: SharedCounters, scratchDirectory: String) {
        self.options = options
        self.generator = generator
        self.counters = counters
        self.scratchDirectory = scratchDirectory
    }

    /// Runs every input; `progress` hears (inputs done, elapsed seconds) now and then.
    func runAll(progress: (UInt64, Double) -> Void) {
        let clock = Stopwatch()
        var next: UInt64 = 0
        var lastReport = 0.0
        while next < options.iterations {
            let end = min(next + options.batchSize, options.iterations)
            switch runBatch(next..<end) {
            case .finished:
                next = end
            case .crashed(let index, let status):
                locateCrash(in: next...index, batchStatus: status)
                next = index + 1
            case .hung(let index):
                save(
                    "hang", index: index, signature: "hang",
                    detail: "no progress for \(options.timeoutSeconds) s; killed")
                next = index + 1
            }
            if clock.seconds - lastReport >= 30 {
                lastReport = clock.seconds
                progress(counters.completed, lastReport)
            }
        }
    }

    /// Re-runs `range` one input per child to find the input that crashes on its own.
    private func locateCrash(in range: ClosedRange<UInt64>, batchStatus: ProcessStatus) {
        let saved = counters.snapshot()
        defer { counters.restore(saved) }
        // The input the child was on is the likeliest; try it first, then the rest of the batch.
        for index in [range.upperBound] + Array(range.dropLast()) {
            let stack = "\(options.outputDirectory)/crash-seed\(options.seed)-\(index).stack.txt"
            if case .crashed(_, let status) = runBatch(index..<(index + 1), standardError: stack) {
                let signature = CrashSignature.read(stackFile: stack, fallback: status.summary)
                if !save(
                    "crash", index: index, signature: signature,
                    detail: "\(status.summary) when run alone (batch child: \(batchStatus.summary))")
                {
                    unlink(stack)
                }
                return
            }
            unlink(stack)
        }
        save(
            "crash", index: range.upperBound, signature: "not reproducible alone: \(batchStatus.summary)",
            detail:
                "\(batchStatus.summary) in a batch child on this input, not reproduced alone (state from earlier inputs?)"
        )
    }

    /// Forks a child for `range` and watches its heartbeat until it exits or stalls. The child's
    /// standard error (the Swift runtime's backtrace) goes to `standardError`, or nowhere.
    private func runBatch(_ range: Range<UInt64>, standardError: String? = nil) -> BatchEnd {
        children += 1
        // Until the child starts its first input, a stall is blamed on that input.
        counters.currentIndex = range.lowerBound
        let pid = fork()
        if pid == 0 {
            let sink = open(standardError ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if sink >= 0 { dup2(sink, 2) }
            runChild(range)
        }
        guard pid > 0 else {
            printError("iapkg-fuzz: fork failed (errno \(errno)); stopping\n")
            exit(2)
        }
        var lastHeartbeat = counters.started
        let clock = Stopwatch()
        var lastChange = clock.seconds
        while true {
            var status: Int32 = 0
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid {
                let ended = ProcessStatus(status)
                if ended.exitCode == 0 { return .finished }
                return .crashed(index: counters.currentIndex, status: ended)
            }
            if waited < 0 && errno != EINTR {
                printError("iapkg-fuzz: waitpid failed (errno \(errno)); stopping\n")
                exit(2)
            }
            let heartbeat = counters.started
            if heartbeat != lastHeartbeat {
                lastHeartbeat = heartbeat
                lastChange = clock.seconds
            } else if clock.seconds - lastChange > options.timeoutSeconds {
                let index = counters.currentIndex
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return .hung(index: index)
            }
            usleep(2_000)
        }
    }

    /// The child: limits itself, runs each input of `range` from a scratch file, and exits 0.
    private func runChild(_ range: Range<UInt64>) -> Never {
        var limit = rlimit(rlim_cur: rlim_t(Self.childAddressSpaceBytes), rlim_max: rlim_t(Self.childAddressSpaceBytes))
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        let path = "\(scratchDirectory)/input-\(getpid()).pkg"
        let runner = TargetRunner()
        for index in range {
            counters.begin(index)
            if index == options.injectCrashAt { fatalError("injected crash (--inject-crash-at \(index))") }
            if index == options.injectHangAt { while true { pause() } }
            let input = generator.generate(index)
            guard Self.write(input.bytes, to: path) else {
                printError("iapkg-fuzz: cannot write the scratch file \(path)\n")
                _exit(3)
            }
            let outcome = runner.run(path)
            counters.finish(input.mutator, outcome)
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        counters.notePeakRSS(UInt64(max(0, usage.ru_maxrss)))
        unlink(path)
        _exit(0)
    }

    /// Replaces the file at `path` with `bytes`.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                written += n
            }
            return true
        }
    }

    /// Records a finding and, for the first few of its signature, saves input `index` and a note on
    /// how it was made into the output folder. Returns whether it saved.
    @discardableResult
    private func save(_ kind: String, index: UInt64, signature: String, detail: String) -> Bool {
        let input = generator.generate(index)
        let seen = savedCounts[signature, default: 0]
        savedCounts[signature] = seen + 1
        guard seen < Self.savedPerSignature else {
            findings.append(Finding(kind: kind, index: index, detail: detail, signature: signature, file: nil))
            return false
        }
        let base = "\(options.outputDirectory)/\(kind)-seed\(options.seed)-\(index)"
        _ = Self.write(input.bytes, to: base + ".pkg")
        let note = """
            kind: \(kind)
            run seed: \(options.seed), input index: \(index)
            detail: \(detail)
            signature: \(signature)
            made from seed package: \(input.seedName)
            mutator: \(input.mutator.name)
            mutation: \(input.description)
            size: \(input.bytes.count) bytes
            reproduce: iapkg-fuzz --run \(base).pkg   (or: iapkg validate \(base).pkg)

            """
        _ = Self.write(Array(note.utf8), to: base + ".txt")
        findings.append(Finding(kind: kind, index: index, detail: detail, signature: signature, file: base + ".pkg"))
        printError(
            "iapkg-fuzz: \(kind) at input \(index) [\(signature)] (\(input.mutator.name): \(input.description)) -> \(base).pkg"
        )
        return true
    }
}

/// Seconds since it was made, from the monotonic clock.
struct Stopwatch {
    private let start: Double

    init() { start = Stopwatch.now() }

    /// Seconds elapsed.
    var seconds: Double { Stopwatch.now() - start }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
