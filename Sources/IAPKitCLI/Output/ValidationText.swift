import IAPKit
import IAPRules

/// `validate`'s text: a line per finding, a verdict per input, a total for several.
extension ValidationOutput {
    /// Writes the findings and verdicts on stdout, unreadable inputs on stderr.
    func writeText(to console: Console) {
        for report in reports {
            for finding in report.findings {
                console.out(FindingText.line(finding, path: report.path, console: console, on: .out))
            }
            for line in SignatureText.summary(report.signatures ?? [], path: report.path) { console.out(line) }
            let what = [report.shape?.rawValue, report.productIdentifier, report.contentVersion].compactMap { $0 }
                .joined(separator: " ")
            let verdict =
                report.valid ? console.styled("valid", "32", on: .out) : console.styled("invalid", "1;31", on: .out)
            console.out(
                "\(report.path): \(verdict) (\(what.isEmpty ? "unreadable content" : what); \(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s"))"
            )
        }
        for item in unreadable { console.err("iapkg: error: \(item.message)") }
        let valid = reports.filter(\.valid).count
        let total = reports.count + unreadable.count
        if total > 1 {
            console.out(
                "\(total) inputs: \(valid) valid, \(reports.count - valid) invalid\(unreadable.isEmpty ? "" : ", \(unreadable.count) unreadable")"
            )
        }
    }
}
