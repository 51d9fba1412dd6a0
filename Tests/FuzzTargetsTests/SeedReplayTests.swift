import FuzzTargets
import Testing

/// The committed seed corpora and regression inputs of the libFuzzer targets, run through their
/// targets in the plain test build: every one returns (a crash here fails the test run), and the
/// corpora are where `.ci/fuzz` expects them.
@Suite struct SeedReplayTests {
    /// Tests/FuzzTargetsTests, found from this file.
    static let folder = "/" + #filePath.split(separator: "/").dropLast().joined(separator: "/")

    /// The files of `kind` (Corpus or Regressions) for `target`; none when the folder is absent.
    static func inputs(_ kind: String, _ target: FuzzTarget) -> [String] {
        (try? Replay.inputs(at: "\(folder)/\(kind)/\(target.rawValue)")) ?? []
    }

    @Test(arguments: FuzzTarget.allCases)
    func everySeedRunsThroughItsTarget(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("Corpus", target)
        #expect(seeds.count >= 3, "a seed corpus for \(target.rawValue) in Corpus/\(target.rawValue)")
        var total = 0
        for seed in seeds {
            let bytes = try Replay.read(seed)
            total += bytes.count
            target.run(bytes)
        }
        // Small and committed: a few hundred KB at most per target.
        #expect(total < 256 << 10)
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyRegressionInputRunsThroughItsTarget(_ target: FuzzTarget) throws {
        let count = try Replay.run(target, paths: Self.inputs("Regressions", target)) { _ in }
        #expect(count == Self.inputs("Regressions", target).count)
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyTargetHasItsDictionary(_ target: FuzzTarget) throws {
        let text = String(
            decoding: try Replay.read("\(Self.folder)/Dictionaries/\(target.dictionaryName)"), as: UTF8.self)
        let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(entries.count >= 10)
        #expect(entries.allSatisfy { $0.hasPrefix("\"") && $0.hasSuffix("\"") })
    }

    @Test func everyTargetRunsOnEmptyAndTinyInputs() {
        for target in FuzzTarget.allCases {
            for input: [UInt8] in [
                [], [0], Array("xar!".utf8), [0x1f, 0x8b], Array("bplist00".utf8), [0xff, 0xff, 0xff],
            ] {
                target.run(input)
            }
        }
    }
}
