/// Counts content bytes written and reports them.
final class Progress {
    let total: UInt64
    private(set) var done: UInt64 = 0
    private let report: (@Sendable (UInt64, UInt64) -> Void)?

    init(total: UInt64, report: (@Sendable (UInt64, UInt64) -> Void)?) {
        self.total = total
        self.report = report
    }

    func advance(_ bytes: UInt64) {
        done += bytes
        report?(done, total)
    }
}
