import IAPRules
import IAPSystem

/// Adds the stored spelling to findings about entries whose stored name differs from the decoded
/// one (a base64 `<name>`), whichever layer reported them: the container's findings name entries
/// by decoded path only.
enum StoredNames {
    static func annotate(_ findings: inout [Finding], entries: [ContentEntry]) {
        var stored: [String: String] = [:]
        for entry in entries {
            if let spelling = entry.storedPathIfDifferent { stored[entry.reportedPath] = spelling }
        }
        guard !stored.isEmpty else { return }
        for index in findings.indices where findings[index].storedEntry == nil {
            if let entry = findings[index].entry, let spelling = stored[entry] {
                findings[index].storedEntry = spelling
            }
        }
    }
}
