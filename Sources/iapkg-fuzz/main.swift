import IAPCore

#if canImport(Glibc)
    import Glibc
#endif

// iapkg-fuzz: mutated packages through the reader, the validator and the inspector, in forked children.

let options: FuzzOptions
do {
    options = try FuzzOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if !error.description.isEmpty { printError("iapkg-fuzz: \(error.description)\n") }
    printError(FuzzOptions.usage + "\n")
    exit(error.description.isEmpty ? 0 : 64)
}

if let path = options.reproducePath {
    // Standard error is unbuffered: every line is out before a crash.
    let outcome = TargetRunner().run(path) { printError($0) }
    printError("outcome: \(outcome)")
    exit(0)
}

func makeDirectory(_ path: String) {
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
        printError("iapkg-fuzz: cannot create \(path) (errno \(errno))\n")
        exit(2)
    }
}

makeDirectory(options.outputDirectory)
var template = Array(((access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/iapkg-fuzz-XXXXXX").utf8CString)
guard let made = mkdtemp(&template) else {
    printError("iapkg-fuzz: cannot create a scratch folder\n")
    exit(2)
}
let scratch = String(cString: made)
defer { _ = SeedCorpus.run(["/bin/rm", "-rf", scratch]) }

let seeds: [Seed]
do {
    seeds = try SeedCorpus.build(in: scratch)
} catch {
    printError("iapkg-fuzz: \(error)\n")
    _ = SeedCorpus.run(["/bin/rm", "-rf", scratch])
    exit(2)
}
makeDirectory(options.outputDirectory + "/seeds")
for seed in seeds { _ = Supervisor.write(seed.bytes, to: "\(options.outputDirectory)/seeds/\(seed.name).pkg") }
if options.seedsOnly {
    print("wrote \(seeds.count) seeds into \(options.outputDirectory)/seeds")
    _ = SeedCorpus.run(["/bin/rm", "-rf", scratch])
    exit(0)
}

if let count = options.listValid {
    let generator = InputGenerator(seeds: seeds, runSeed: options.seed)
    let runner = TargetRunner()
    let path = scratch + "/list-valid.pkg"
    for index in 0..<count {
        let input = generator.generate(index)
        guard Supervisor.write(input.bytes, to: path) else { exit(2) }
        if runner.run(path) == .valid {
            print("\(index)\t\(input.mutator.name)\t\(input.seedName)\t\(input.description)")
            _ = Supervisor.write(input.bytes, to: "\(options.outputDirectory)/valid-seed\(options.seed)-\(index).pkg")
        }
    }
    _ = SeedCorpus.run(["/bin/rm", "-rf", scratch])
    exit(0)
}

guard let counters = SharedCounters() else {
    printError("iapkg-fuzz: cannot map shared memory\n")
    exit(2)
}
let supervisor = Supervisor(
    options: options, generator: InputGenerator(seeds: seeds, runSeed: options.seed),
    counters: counters, scratchDirectory: scratch)
let clock = Stopwatch()
supervisor.runAll { done, seconds in
    printError("iapkg-fuzz: \(done) inputs in \(Int(seconds)) s\n")
}
let report = FuzzReport.render(
    options: options, seeds: seeds, counters: counters, findings: supervisor.findings,
    seconds: clock.seconds, children: supervisor.children)
print(report, terminator: "")
_ = Supervisor.write(Array(report.utf8), to: "\(options.outputDirectory)/report-seed\(options.seed).txt")
_ = SeedCorpus.run(["/bin/rm", "-rf", scratch])
exit(supervisor.findings.isEmpty ? 0 : 1)
