import IAPKit
import IAPRules

/// GitHub Actions annotations of `validate`'s findings.
extension ValidationOutput {
    /// GitHub Actions workflow commands (`::error file=…,title=…::message`) on stderr.
    func writeAnnotations(to console: Console) {
        // By scalar: "\r\n" is one Character, which a Character-wise replace of "\r" would miss.
        func escaped(_ s: String, _ table: [Unicode.Scalar: String]) -> String {
            var out = ""
            for scalar in s.unicodeScalars {
                if let replacement = table[scalar] { out += replacement } else { out.unicodeScalars.append(scalar) }
            }
            return out
        }
        func data(_ s: String) -> String { escaped(s, ["%": "%25", "\r": "%0D", "\n": "%0A"]) }
        func property(_ s: String) -> String {
            escaped(s, ["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"])
        }
        for report in reports {
            for finding in report.findings {
                let level = finding.severity == .error ? "error" : "warning"
                let message = FindingText.entryAndMessage(finding)
                // In a folder, point at the offending file itself.
                let file =
                    report.shape == .folder ? finding.entry.map { report.path + "/" + $0 } ?? report.path : report.path
                console.err(
                    "::\(level) file=\(property(file)),title=\(property("iapkg " + finding.rule))::\(data(message))")
            }
        }
        for item in unreadable {
            console.err("::error file=\(property(item.path)),title=iapkg::\(data(item.message))")
        }
    }
}
