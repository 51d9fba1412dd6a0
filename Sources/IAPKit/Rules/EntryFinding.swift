import IAPRules

extension Rule {
    /// A finding about a content entry, named as every finding names one: relative to the content
    /// root, names decoded, the stored spelling added where it differs, the entry's byte offset.
    func finding(_ entry: ContentEntry, _ message: String) -> Finding {
        var finding = finding(entry.reportedPath, offset: entry.offset, message)
        finding.storedEntry = entry.storedPathIfDifferent
        return finding
    }
}
