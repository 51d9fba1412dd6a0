/// The command line: `iapkg-fuzz [--iterations N] [--seed S] [--timeout-seconds T] [--out DIR] [--batch-size B] [--run FILE]`.
struct FuzzOptions {
    /// How many mutated inputs to run.
    var iterations: UInt64 = 10_000
    /// The run's seed; the same seed gives the same inputs.
    var seed: UInt64 = 1
    /// A child that makes no progress for this many seconds is killed and its input saved as a hang.
    var timeoutSeconds: Double = 10
    /// Where crashing and hanging inputs (and the seeds) are saved.
    var outputDirectory = "fuzz-out"
    /// Inputs per forked child.
    var batchSize: UInt64 = 500
    /// When set, run this one file through every target in-process (to reproduce under a debugger) and exit.
    var reproducePath: String?
    /// When set, only write the seed packages into the output folder and exit.
    var seedsOnly = false
    /// When set, run inputs 0..<N in-process (no fork) and list and save those the validator calls valid, to review rule gaps.
    var listValid: UInt64?
    /// Self-test of the supervisor: the child traps (fatalError) on this input.
    var injectCrashAt: UInt64?
    /// Self-test of the supervisor: the child stops making progress on this input.
    var injectHangAt: UInt64?

    static let usage = """
        usage: iapkg-fuzz [--iterations N] [--seed S] [--timeout-seconds T] [--out DIR] [--batch-size B]
               iapkg-fuzz --run FILE        run one input in-process (for a stack trace)
               iapkg-fuzz --seeds-only      write the seed packages into --out and exit
               iapkg-fuzz --list-valid N    list (and save into --out) the inputs 0..<N that still validate
               --inject-crash-at I / --inject-hang-at I   self-test: the child crashes / stalls on input I
        """

    /// A usage mistake, with what was wrong.
    struct UsageError: Error, CustomStringConvertible {
        /// What was wrong with the arguments.
        var description: String
    }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> FuzzOptions {
        var options = FuzzOptions()
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return arguments[index]
        }
        func number(_ name: String) throws(UsageError) -> UInt64 {
            let text = try value(name)
            guard let parsed = UInt64(text) else {
                throw UsageError(description: "\(name) wants a whole number, not '\(text)'")
            }
            return parsed
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--iterations": options.iterations = try number(argument)
            case "--seed": options.seed = try number(argument)
            case "--timeout-seconds":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                    throw UsageError(
                        description: "--timeout-seconds wants a number of seconds in (0, 3600], not '\(text)'")
                }
                options.timeoutSeconds = seconds
            case "--out": options.outputDirectory = try value(argument)
            case "--batch-size":
                options.batchSize = try number(argument)
                guard (1...100_000).contains(options.batchSize) else {
                    throw UsageError(description: "--batch-size wants 1…100000")
                }
            case "--run": options.reproducePath = try value(argument)
            case "--seeds-only": options.seedsOnly = true
            case "--list-valid": options.listValid = try number(argument)
            case "--inject-crash-at": options.injectCrashAt = try number(argument)
            case "--inject-hang-at": options.injectHangAt = try number(argument)
            case "-h", "--help": throw UsageError(description: "")
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
            index += 1
        }
        return options
    }
}
