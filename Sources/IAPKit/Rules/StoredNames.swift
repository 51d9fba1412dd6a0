import IAPRules
import IAPSystem

/// Adds the stored spelling to findings about entries whose stored name differs from the decoded
/// one (a base64 `<name>`), whichever layer reported them: the container's findings name entries
/// by decoded path only.
enum StoredNames {
    static func annotate(_ findings: inout FindingLog, entries: [ContentEntry]) {
        var stored: [String: String] = [:]
        for entry in entries {
            if let spelling = entry.storedPathIfDifferent { stored[entry.reportedPath] = spelling }
        }
        guard !stored.isEmpty else { return }
        findings.amend { finding in
            if finding.storedEntry == nil, let entry = finding.entry, let spelling = stored[entry] {
                finding.storedEntry = spelling
            }
        }
    }
}
