import IAPRules

/// The end-of-run summary: totals, rate, findings and a per-mutator table.
enum FuzzReport {
    /// The report text.
    static func render(
        options: FuzzOptions, seeds: [Seed], counters: SharedCounters, findings: [Supervisor.Finding],
        seconds: Double, children: Int
    ) -> String {
        let crashes = findings.filter { $0.kind == "crash" }.count
        let hangs = findings.filter { $0.kind == "hang" }.count
        let run = counters.completed + UInt64(findings.count)
        let rate = seconds > 0 ? Double(run) / seconds : 0
        var lines = [
            "iapkg-fuzz report",
            "seed \(options.seed), iterations \(options.iterations), batch \(options.batchSize), timeout \(options.timeoutSeconds) s",
            "seed packages: " + seeds.map { "\($0.name) (\($0.bytes.count) bytes)" }.joined(separator: ", "),
            "inputs run: \(run)",
            "crashes: \(crashes)",
            "hangs: \(hangs)",
            "time: \(format(seconds, 1)) s, \(format(rate, 0)) inputs/s, \(children) child processes",
            "peak child resident memory: \(counters.peakRSSKiB / 1024) MiB",
            "",
            pad("mutator", 20) + pad("runs", 10, right: true) + pad("opened", 10, right: true)
                + pad("valid", 10, right: true),
        ]
        for mutator in Mutator.allCases {
            let tally = counters.tally(mutator)
            lines.append(
                pad(mutator.name, 20) + pad(String(tally.runs), 10, right: true)
                    + pad(String(tally.opened), 10, right: true) + pad(String(tally.valid), 10, right: true))
        }
        lines.append("(opened: XarArchive.open accepted the input; valid: the validator found no error)")
        var bySignature: [String: [Supervisor.Finding]] = [:]
        for finding in findings { bySignature[finding.signature, default: []].append(finding) }
        for (signature, group) in bySignature.sorted(by: { $0.key < $1.key }) {
            lines.append("\(group[0].kind) x\(group.count): \(signature)")
            for finding in group where finding.file != nil {
                lines.append("    input \(finding.index) -> \(finding.file ?? "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }

    private static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return decimals == 0 ? String(Int(rounded)) : String(rounded)
    }
}
