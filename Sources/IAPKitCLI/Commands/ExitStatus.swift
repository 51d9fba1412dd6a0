/// How a command ended, as the documented exit status: the one list of them.
enum ExitStatus: Int32, Comparable, Sendable {
    /// The work is done; every input is valid.
    case success = 0
    /// An input is invalid, or a check failed.
    case checkFailed = 1
    /// The tool could not do its job: a missing file, an I/O error, a full disk, a server down.
    case couldNotWork = 2
    /// The command line is wrong (ArgumentParser's `ValidationError` exits with it by itself).
    case usage = 64

    /// The more severe of two statuses is the higher, usage aside (it never comes from running).
    static func < (a: ExitStatus, b: ExitStatus) -> Bool { a.rawValue < b.rawValue }
}
