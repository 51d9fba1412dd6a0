/// The time stamps a build writes: one epoch for everything, or each file's own.
struct EntryTimes {
    /// The archive's creation time (and the product archive's own entries).
    let archive: Int64
    /// Set for reproducible builds.
    let epoch: Int64?

    /// The time to record for a source entry.
    func entry(_ source: SourceEntry) -> Int64 { epoch ?? source.modificationTime }
}
