/// The one way findings come back: every check reports into a log, in order, and the log keeps
/// each fault once — a finding for a rule at an entry that already has one under that rule is not
/// kept, whichever check found it first (the container's open and an entry's data stream both meet
/// a checksum that cannot be used; the declared sizes and the decoded bytes both pass the unpacked
/// limit). So no caller removes repeats after the fact.
package struct FindingLog: Sendable {
    /// A rule at an entry (nil: the package as a whole): the identity of one fault.
    private struct Fault: Hashable, Sendable {
        let rule: String
        let entry: String?
    }

    /// What was reported, in order, each fault once.
    package private(set) var findings: [Finding] = []
    private var faults: Set<Fault> = []

    /// An empty log.
    package init() {}

    /// A log holding `findings` (each fault once).
    package init(_ findings: some Sequence<Finding>) { report(findings) }

    /// Keeps `finding` unless its rule was already reported at its entry.
    package mutating func report(_ finding: Finding) {
        guard faults.insert(Fault(rule: finding.rule, entry: finding.entry)).inserted else { return }
        findings.append(finding)
    }

    /// Reports each of `more` in order.
    package mutating func report(_ more: some Sequence<Finding>) {
        for finding in more { report(finding) }
    }

    /// Changes what each kept finding says beyond its rule and entry (its stored spelling, its
    /// severity), in place.
    package mutating func amend(_ change: (inout Finding) -> Void) {
        for index in findings.indices {
            let (rule, entry) = (findings[index].rule, findings[index].entry)
            change(&findings[index])
            precondition(findings[index].rule == rule && findings[index].entry == entry, "a fault is not amended")
        }
    }

    /// True when `rule` was reported at any entry.
    package func contains(_ rule: Rule) -> Bool { findings.contains { $0.rule == rule.id } }

    /// True when an error was reported.
    package var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// How many findings were kept.
    package var count: Int { findings.count }
}
