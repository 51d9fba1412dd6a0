import ArgumentParser
import FoundationEssentials
import IAPKit
import IAPRules
import IAPSystem

extension PackageLayout: ExpressibleByArgument {}
extension PayloadCompressionChoice: ExpressibleByArgument {}

/// `iapkg build`: a content folder into a `.pkg`.
struct BuildCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a content folder (or an Xcode In-App Purchase Content project) into a hosted-content .pkg.",
        discussion: """
            The folder must hold ContentInfo.plist and Contents/. It is checked first (layout, plist, \
            no executable code, links that stay inside Contents/, no special files); nothing is written \
            unless it passes. Clutter (.DS_Store, ._*, .git, .svn, CVS, __MACOSX, Thumbs.db) is left out.

            --layout product (default) writes what 'productbuild --content' wrote: a Distribution and a \
            component NAME.pkg with Bom, PackageInfo and a gzip'd cpio Payload. --layout tree writes \
            ContentInfo.plist and Contents/ as xar entries directly.

            --payload-compression pbzx writes the Payload as pkgbuild --compression latest does: \
            16 MiB chunks of xz (stored when xz does not make them smaller); the default, gzip, is what \
            every reader takes.

            Given NAME.xcodeproj, the In-App Purchase Content target is built as Xcode built it: \
            ContentInfo.plist from INFOPLIST_FILE, the Resources phase's files under Contents/, in a \
            content root named PRODUCT_NAME; the same package the equivalent content folder gives. \
            --target picks the target when the project has several, --configuration the build \
            configuration (default: the target's default, Release).

            With --source-date-epoch N (or SOURCE_DATE_EPOCH), every time stamp is N and two builds of \
            the same folder are byte-identical. The package is written to a temporary file and renamed \
            into place, so a failed build never leaves a partial .pkg.

            Examples:
              iapkg build Examples/book-chapter
              iapkg build level-pack -o dist/level-pack.pkg --source-date-epoch 1700000000
              iapkg build Levels.xcodeproj --target Pack2
            """)

    @Argument(help: "The content folder, or an Xcode project (NAME.xcodeproj).")
    var directory: String

    @Option(help: "For an Xcode project: the In-App Purchase Content target (needed when there are several).")
    var target: String?

    @Option(help: "For an Xcode project: the build configuration (default: the target's default, Release).")
    var configuration: String?

    @Option(
        name: [.short, .customLong("output")],
        help: "Where to write the package (default: <product-id>-<version>.pkg here).")
    var output: String?

    @Option(help: "product (as productbuild --content) or tree (bare xar).")
    var layout: PackageLayout = .product

    @Option(help: "The product layout's Payload compression: gzip (default) or pbzx (chunks of xz).")
    var payloadCompression: PayloadCompressionChoice = .gzip

    @Option(
        help: "Seconds since 1970 to stamp on every entry, for byte-identical builds (default: $SOURCE_DATE_EPOCH).")
    var sourceDateEpoch: Int64?

    @Option(help: "Compression level, 1 (fastest) to 12 (smallest); 7 is as small as zlib's 6.")
    var level: Int32 = 7

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard (1...12).contains(level) else { throw ValidationError("--level must be from 1 to 12") }
        if payloadCompression != .gzip && layout == .tree {
            throw ValidationError("--payload-compression applies to the product layout; a tree package has no Payload")
        }
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
                enabled: console.errIsTerminal && !outputOptions.json && !console.quiet, coloured: console.useColor,
                write: console.writeErr)
            let update: @Sendable (UInt64, UInt64) -> Void = { @Sendable done, total in
                bar.update(fraction: total == 0 ? 1 : Double(done) / Double(total)) {
                    "\(ByteCount.text(done)) of \(ByteCount.text(total))"
                }
            }
            let progress = bar.isEnabled ? update : nil
            var options = BuildOptions(
                layout: layout, output: output, sourceDateEpoch: epoch, compressionLevel: level,
                progress: progress)
            options.payloadCompression = payloadCompression
            options.target = target
            options.configuration = configuration
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
