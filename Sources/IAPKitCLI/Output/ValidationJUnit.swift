import IAPKit
import IAPRules
import XMLKit

/// `validate --format junit`: a test case per input, a failure per invalid one.
extension ValidationOutput {
    /// The JUnit XML document.
    func junit() -> String {
        func escape(_ text: String) -> String { XMLEscaping.escape(text) }
        let failures = reports.filter { !$0.valid }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"iapkg validate\" tests=\"\(reports.count + unreadable.count)\" failures=\"\(failures)\" errors=\"\(unreadable.count)\">\n"
        xml +=
            "  <testsuite name=\"iapkg validate\" tests=\"\(reports.count + unreadable.count)\" failures=\"\(failures)\" errors=\"\(unreadable.count)\" skipped=\"0\">\n"
        for report in reports {
            xml += "    <testcase classname=\"iapkg.validate\" name=\"\(escape(report.path))\">\n"
            let lines =
                report.findings.map { finding in
                    finding.severity.rawValue + FindingText.body(finding)
                } + SignatureText.summary(report.signatures ?? [], path: report.path)
            if !report.valid {
                xml +=
                    "      <failure type=\"invalid\" message=\"\(report.errors) error\(report.errors == 1 ? "" : "s")\">\(escape(lines.joined(separator: "\n")))</failure>\n"
            } else if !lines.isEmpty {
                xml += "      <system-out>\(escape(lines.joined(separator: "\n")))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        for item in unreadable {
            xml += "    <testcase classname=\"iapkg.validate\" name=\"\(escape(item.path))\">\n"
            xml += "      <error type=\"unreadable\" message=\"\(escape(item.message))\"/>\n    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>"
        return xml
    }
}
