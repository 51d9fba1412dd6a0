import ArgumentParser
import IAPKit
import IAPRules

/// `iapkg unpack`: install packages into versioned folders on a server.
struct UnpackCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "unpack",
        abstract: "Unpack packages into ROOT/<product-id>/<version>/ and switch ROOT/<product-id>/current atomically.",
        discussion: """
            Each package is validated completely first; an invalid one writes nothing. Content is written \
            into a private staging folder, flushed to disk, and renamed into place in one step, so readers \
            never see half a version, and a crash or a full disk loses nothing already there. Files get \
            mode 0644, folders 0755; no owners, no extended attributes; hard links become copies.

            Re-unpacking a version with identical content does nothing ("already installed"); different \
            content under the same version is refused unless --force. A version lower than the current one \
            is refused unless --allow-downgrade.

            Into an object store (s3://BUCKET/PREFIX; credentials and endpoint from AWS_ACCESS_KEY_ID, \
            AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL or AWS_PROFILE as the AWS tools read them) the \
            objects are laid out key for key as the folders are; each is checked by the store as it lands, the \
            version's manifest.json goes last, and current.json is replaced only by a conditional write, so two \
            publishers never lose an update. A version there is immutable: --force is refused.

            Examples:
              iapkg unpack level-pack-1.1.pkg --into /srv/content
              iapkg unpack dist/*.pkg --into /srv/content --keep 3
              iapkg unpack level-pack-1.1.pkg --into s3://game-content/iap
            """)

    @Argument(help: "Packages to unpack.")
    var packages: [String]

    @OptionGroup var publish: PublishOptions

    @Flag(help: "Install without moving 'current'.")
    var noActivate = false

    @Flag(help: "Allow installing a version lower than the current one.")
    var allowDowngrade = false

    @Flag(help: "Replace an installed version whose content differs.")
    var force = false

    @OptionGroup var outputOptions: OutputOptions

    var consoleOptions: OutputOptions? { outputOptions }

    private struct Document: Encodable {
        var schemaVersion = 1
        var root: String
        var results: [UnpackReport]
    }

    func execute() throws -> ExitStatus {
        let console = Console.current
        var options = UnpackOptions(activate: !noActivate, allowDowngrade: allowDowngrade, force: force)
        publish.apply(to: &options)
        var results: [UnpackReport] = []
        var status = ExitStatus.success
        for package in packages {
            do {
                let report = try Unpacker.unpack(package, into: publish.into, options: options)
                results.append(report)
                for warning in report.warnings {
                    console.note(FindingText.line(warning, path: package, console: console))
                }
                if !outputOptions.json {
                    let what =
                        switch report.action {
                        case .installed: "installed"
                        case .alreadyInstalled: "already installed"
                        case .replaced: "replaced"
                        }
                    var line = "\(package): \(report.productIdentifier) \(report.version) \(what) in \(report.folder)"
                    line += "; current → \(report.current ?? "none")"
                    if !report.removed.isEmpty { line += "; removed \(report.removed.joined(separator: ", "))" }
                    console.out(line)
                }
            } catch {
                // One package's failure is reported and the others are still unpacked; the worst status is the exit's.
                status = max(status, CommandBoundary.report(error, on: console))
            }
        }
        if outputOptions.json { console.out(try JSONOutput.encode(Document(root: publish.into, results: results))) }
        return status
    }
}
