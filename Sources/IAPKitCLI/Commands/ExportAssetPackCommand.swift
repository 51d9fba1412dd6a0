import ArgumentParser
import IAPKit
import IAPRules

extension AssetPackManifest.Policy: ExpressibleByArgument {}
extension AssetPackManifest.InstallationEvent: ExpressibleByArgument {}

/// `iapkg export-asset-pack`: hosted content handed on to Background Assets (`ba-package`).
struct ExportAssetPackCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "export-asset-pack",
        abstract: "Write hosted content as Background Assets asset-pack folders with their ba-package manifests.",
        discussion: """
            Each input — a .pkg (validated, then unpacked), a content folder (validated), a product \
            folder of a version store (its current version) or a whole store (every product's current \
            version), in a folder or in a bucket (s3://BUCKET/PREFIX, s3://BUCKET/PREFIX/<product-id>, \
            s3://BUCKET/PREFIX/<product-id>/<version>; each file checked against the version's manifest) \
            — becomes DIR/<assetPackID>/ holding ContentInfo.plist, Contents/ and AssetPackManifest.json, \
            the manifest of Apple's template (assetPackID, downloadPolicy, fileSelectors, platforms) that 'xcrun ba-package' packs on a Mac. The asset pack ID is the \
            product identifier. Nothing is overwritten.

            The download policy cannot be read from the content: --policy on-demand (the default) is \
            what hosted content was, fetched when the app asks; essential and prefetch are downloaded \
            with the app, on the --installation-event kinds given (default both).

            Examples:
              iapkg export-asset-pack level-pack-1.1.pkg --into asset-packs
              iapkg export-asset-pack /srv/content --into asset-packs --policy prefetch --platform iOS --platform macOS
              iapkg export-asset-pack s3://content/live --into asset-packs
              cd asset-packs/com.example.game.levels.pack1 && xcrun ba-package AssetPackManifest.json -o ../pack1.aar
            """)

    @Argument(
        help: "Packages, content folders, product folders (ROOT/PRODUCT) or version stores (ROOT), in folders or s3://."
    )
    var inputs: [String]

    @Option(help: "The folder to write the asset-pack folders into (made if missing).")
    var into: String

    @Option(help: "The download policy: on-demand (default), prefetch or essential.")
    var policy: AssetPackManifest.Policy = .onDemand

    @Option(
        name: .customLong("installation-event"),
        help: "For essential and prefetch: firstInstallation or subsequentUpdate; repeat for both (default both).")
    var installationEvents: [AssetPackManifest.InstallationEvent] = []

    @Option(
        name: .customLong("platform"),
        help: "iOS (default), macOS, tvOS or visionOS; repeat for several.")
    var platforms: [String] = []

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        for platform in platforms where !AssetPackManifest.platforms.contains(platform) {
            throw ValidationError(
                "--platform \(platform): Apple-hosted asset packs serve \(AssetPackManifest.platforms.joined(separator: ", "))"
            )
        }
        if policy == .onDemand && !installationEvents.isEmpty {
            throw ValidationError("--installation-event applies to --policy essential or prefetch; on-demand has none")
        }
    }

    var consoleOptions: OutputOptions? { outputOptions }

    private struct Document: Encodable {
        var schemaVersion = 1
        var into: String
        var assetPacks: [AssetPackExport]
    }

    func execute() throws -> ExitStatus {
        let console = Console.current
        var options = AssetPackExportOptions(policy: policy)
        if !installationEvents.isEmpty {
            options.installationEvents = Array(Set(installationEvents)).sorted { $0.rawValue < $1.rawValue }
        }
        if !platforms.isEmpty {
            options.platforms = platforms.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }
        var exports: [AssetPackExport] = []
        var status = ExitStatus.success
        for input in inputs {
            do {
                let written = try AssetPackExporter.export(input, into: into, options: options)
                exports += written
                if !outputOptions.json {
                    for pack in written {
                        console.out(
                            "\(input): \(pack.productIdentifier) \(pack.contentVersion) → \(pack.folder)/ (\(pack.files) files, \(pack.bytes) bytes; \(AssetPackManifest.fileName), \(policy.manifestKey))"
                        )
                    }
                }
            } catch {
                // One input's failure is reported and the others are still exported; the worst status is the exit's.
                status = max(status, CommandBoundary.report(error, on: console))
            }
        }
        if exports.count > AssetPackManifest.maxPacksPerApp {
            console.note(
                "note: \(exports.count) asset packs; App Store Connect holds at most \(AssetPackManifest.maxPacksPerApp) per app"
            )
        }
        if outputOptions.json { console.out(try JSONOutput.encode(Document(into: into, assetPacks: exports))) }
        return status
    }
}
