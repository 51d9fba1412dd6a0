import IAPCore

extension Finding {
    /// An error about a content entry, named as every finding names one: relative to the content
    /// root, names decoded, the stored spelling added where it differs, the entry's byte offset.
    static func error(_ rule: String, _ entry: ContentEntry, _ message: String) -> Finding {
        var finding = Finding.error(rule, entry.reportedPath, offset: entry.offset, message)
        finding.storedEntry = entry.storedPathIfDifferent
        return finding
    }

    /// A warning about a content entry, named as ``error(_:_:_:)-swift.type.method`` names it.
    static func warning(_ rule: String, _ entry: ContentEntry, _ message: String) -> Finding {
        var finding = Finding.warning(rule, entry.reportedPath, offset: entry.offset, message)
        finding.storedEntry = entry.storedPathIfDifferent
        return finding
    }
}
