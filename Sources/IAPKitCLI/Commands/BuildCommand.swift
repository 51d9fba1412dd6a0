import ArgumentParser
import FoundationEssentials
import IAPCore
import IAPKit
import IAPRules

extension PackageLayout: ExpressibleByArgument {}

/// `iapkg build`: a content folder into a `.pkg`.
struct BuildCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a content folder into a hosted-content .pkg.",
        discussion: """
            The folder must hold ContentInfo.plist and Contents/. It is checked first (layout, plist, \
            no executable code, links that stay inside Contents/, no special files); nothing is written \
            unless it passes. Clutter (.DS_Store, ._*, .git, .svn, CVS, __MACOSX, Thumbs.db) is left out.

            --layout product (default) writes what 'productbuild --content' wrote: a Distribution and a \
            component NAME.pkg with Bom, PackageInfo and a gzip'd cpio Payload. --layout tree writes \
            ContentInfo.plist and Contents/ as xar entries directly.

            With --source-date-epoch N (or SOURCE_DATE_EPOCH), every time stamp is N and two builds of \
            the same folder are byte-identical. The package is written to a temporary file and renamed \
            into place, so a failed build never leaves a partial .pkg.

            Examples:
              iapkg build Examples/book-chapter
              iapkg build level-pack -o dist/level-pack.pkg --source-date-epoch 1700000000
            """)

    @Argument(help: "The content folder.")
    var directory: String

    @Option(
        name: [.short, .customLong("output")],
        help: "Where to write the package (default: <product-id>-<version>.pkg here).")
    var output: String?

    @Option(help: "product (as productbuild --content) or tree (bare xar).")
    var layout: PackageLayout = .product

    @Option(
        help: "Seconds since 1970 to stamp on every entry, for byte-identical builds (default: $SOURCE_DATE_EPOCH).")
    var sourceDateEpoch: Int64?

    @Option(help: "Compression level, 1 (fastest) to 12 (smallest); 7 is as small as zlib's 6.")
    var level: Int32 = 7

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard (1...12).contains(level) else { throw ValidationError("--level must be from 1 to 12") }
        if let epoch = sourceDateEpoch, epoch < 0 { throw ValidationError("--source-date-epoch must not be negative") }
    }

    var consoleOptions: OutputOptions? { outputOptions }

    func execute() throws -> ExitStatus {
        do {
            let console = Console.current
            var epoch = sourceDateEpoch
            if epoch == nil, let text = console.environment["SOURCE_DATE_EPOCH"], !text.isEmpty {
                guard let value = Int64(text), value >= 0 else {
                    throw IAPKitError.refused("SOURCE_DATE_EPOCH='\(text)' is not a whole number of seconds")
                }
                epoch = value
            }
            let bar = ProgressBar(
                console: console, enabled: console.errIsTerminal && !outputOptions.json && !console.quiet)
            let update: @Sendable (UInt64, UInt64) -> Void = { @Sendable done, total in
                bar.update(done: done, total: total)
            }
            let progress = bar.isEnabled ? update : nil
            let options = BuildOptions(
                layout: layout, output: output, sourceDateEpoch: epoch, compressionLevel: level,
                progress: progress)
            let report = try PackageBuilder.build(folder: directory, options: options)
            bar.finish()
            for warning in report.warnings {
                console.note(FindingText.line(warning, path: directory, console: console))
            }
            if outputOptions.json {
                console.out(try JSONOutput.encode(report))
            } else {
                console.note(
                    "Built \(report.output): \(report.productIdentifier) \(report.contentVersion), \(report.layout.rawValue) layout, "
                        + "\(report.fileCount) entries, \(ByteCount.text(report.bytesIn)) in, \(ByteCount.text(report.bytesOut)) out, "
                        + FixedPoint.text(report.seconds, places: 2) + " s")
                if !report.excluded.isEmpty {
                    let shown = report.excluded.prefix(5).joined(separator: ", ")
                    console.note(
                        "Left out \(report.excluded.count) clutter entr\(report.excluded.count == 1 ? "y" : "ies"): \(shown)\(report.excluded.count > 5 ? ", …" : "")"
                    )
                }
            }
        }
        return .success
    }
}
