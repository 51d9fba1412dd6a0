import IAPRules

/// A xar problem that stops the work: the file is not a readable xar, or a data stream failed a check.
package struct XarError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The rule the archive breaks (e.g. ``Rule/xarMagic``), or nil for input/output failures.
    package var rule: Rule?
    /// What is wrong.
    package var message: String
    /// The entry (path inside the archive) it concerns, if any.
    package var entry: String?
    /// Absolute byte offset in the archive file where it matters, if any.
    package var offset: UInt64?
    /// What to do about it.
    package var advice: String

    /// Creates an error with its context.
    package init(rule: Rule?, _ message: String, entry: String? = nil, offset: UInt64? = nil, advice: String) {
        self.rule = rule
        self.message = message
        self.entry = entry
        self.offset = offset
        self.advice = advice
    }

    /// A failed system call while reading or writing an archive.
    static func io(_ error: any Error, _ doing: String) -> XarError {
        XarError(rule: nil, "\(doing): \(error)", advice: "check the path, the permissions and the free disk space")
    }

    package var description: String {
        var text = ""
        if let rule { text += "[\(rule)] " }
        if let entry { text += "\(entry): " }
        text += message
        if let offset { text += " (at byte \(offset))" }
        return text + "; " + advice
    }
}

/// Runs `body`, turning any thrown error into an input/output `XarError`.
func xarIO<T>(_ doing: @autoclosure () -> String, _ body: () throws -> T) throws(XarError) -> T {
    do {
        return try body()
    } catch let error as XarError {
        throw error
    } catch {
        throw XarError.io(error, doing())
    }
}
