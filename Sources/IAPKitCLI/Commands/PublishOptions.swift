import ArgumentParser
import IAPKit

/// The options `unpack` and `serve` share: where versions are published, how many are kept, and
/// how strictly a package is judged before it is.
struct PublishOptions: ParsableArguments {
    @Option(help: "The version store: a root folder, or an object store as s3://BUCKET/PREFIX.")
    var into: String

    @Option(help: "Keep at most this many versions per product (never the current or a pinned one).")
    var keep: Int?

    @Option(help: "With --keep, never remove a version that was current this recently (seconds, or 30m, 24h, 7d).")
    var keepFor = DurationArgument(seconds: Double(UnpackOptions.defaultKeepFor))

    @Flag(help: "Validate with warnings as errors.")
    var strict = false

    @Option(help: "Largest unpacked total accepted, in bytes (default 2 GiB).")
    var maxUnpackedSize: UInt64 = ContentRules.defaultMaxUnpackedBytes

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
    }

    /// Sets the options these hold on `options`.
    func apply(to options: inout UnpackOptions) {
        options.keep = keep
        options.keepFor = Int64(keepFor.seconds.rounded(.up))
        options.strict = strict
        options.maxUnpackedSize = maxUnpackedSize
    }
}
