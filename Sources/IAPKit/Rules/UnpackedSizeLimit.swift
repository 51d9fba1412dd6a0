import IAPRules
import IAPSystem

/// The cap on what a package unpacks to (rule `size-unpacked-limit`): a device has to store what it
/// unpacks, so a small package that unpacks to gigabytes is refused whatever its compression ratio.
enum UnpackedSizeLimit {
    /// A `size-unpacked-limit` error when `total` bytes exceed `limit`; `declared` totals (what the
    /// TOC or the Bom claims) are judged before anything is decoded.
    static func finding(total: UInt64, limit: UInt64, declared: Bool, entry: String? = nil) -> Finding? {
        guard total > limit else { return nil }
        let what = declared ? "the package declares \(total) unpacked bytes" : "the content unpacks to \(total) bytes"
        let refused = declared ? " (refused before decoding)" : ""
        return Rule.sizeUnpackedLimit.finding(
            entry, offset: nil,
            "\(what), more than the \(limit)-byte cap\(refused); a device must store all of it — split the content, or raise the cap with --max-unpacked-size"
        )
    }
}
