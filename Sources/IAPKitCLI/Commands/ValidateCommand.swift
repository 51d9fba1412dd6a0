import ArgumentParser
import FoundationEssentials
import IAPCrypto
import IAPKit
import IAPRules
import IAPSystem

/// The report formats `iapkg validate` writes on stdout.
enum ValidateFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, junit, sarif
}

/// `iapkg validate`: the CI gate.
struct ValidateCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check packages or content folders against every rule; exit 1 if any is invalid.",
        discussion: """
            Each path is a .pkg (either shape) or a content folder. Every rule is checked and every \
            finding reported (rule id, entry, byte offset, what to do) before the verdict. The data of \
            every file is decoded and checked: checksums, sizes, executable code by its bytes, and for \
            product archives the Bom against the Payload. Warnings do not fail the run unless --strict. \
            Signatures are verified; with --trust-anchor their chains must also lead to that certificate.

            A path may also be an Xcode project (NAME.xcodeproj): its In-App Purchase Content target \
            is judged as 'iapkg build' would build it, with the project's own findings (missing or \
            unlisted files, unknown build settings); --target picks the target when there are several.

            Exit status: 0 all valid; 1 at least one invalid; 2 an input could not be read; 64 usage. \
            When GITHUB_ACTIONS=true, findings are also printed as workflow annotations.

            Examples:
              iapkg validate dist/*.pkg
              iapkg validate level-pack.pkg --product-id com.example.game.levels.pack1 --newer-than 1.0
              iapkg validate dist/*.pkg --format junit > iapkg-report.xml
              iapkg validate dist/*.pkg --format sarif > iapkg.sarif
            """)

    @Argument(help: "Packages (.pkg), content folders or Xcode projects (NAME.xcodeproj).")
    var paths: [String]

    @Option(help: "For Xcode projects: the In-App Purchase Content target (needed when there are several).")
    var target: String?

    @Option(help: "For Xcode projects: the build configuration (default: the target's default, Release).")
    var configuration: String?

    @Option(help: "Report format: text, json, junit or sarif (SARIF 2.1.0, for code scanning).")
    var format: ValidateFormat = .text

    @OptionGroup var outputOptions: OutputOptions

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Option(help: "The product identifier every input must carry.")
    var productId: String?

    @Option(help: "A version (or a .pkg / folder whose version) every input's ContentVersion must exceed.")
    var newerThan: String?

    @Option(help: "Largest package accepted, in bytes (Apple's cap is 2 GiB).")
    var maxSize: UInt64 = PackageBuilder.maxPackageBytes

    @Option(
        help:
            "Largest unpacked total accepted, in bytes (default 2 GiB: a device must store it). A server that accepts more raises it."
    )
    var maxUnpackedSize: UInt64 = ContentRules.defaultMaxUnpackedBytes

    @Option(
        help: ArgumentHelp(
            "A PEM certificate every package's signature chain must lead to; unsigned packages then fail.",
            valueName: "pem-file"))
    var trustAnchor: String?

    func validate() throws {
        if let productId, let problem = ProductIdentifier.problem(with: productId) {
            throw ValidationError("--product-id '\(productId)' is not a valid product identifier: \(problem)")
        }
        if let newerThan, ContentVersion(newerThan) == nil, !Self.looksLikePath(newerThan) {
            throw ValidationError(
                "--newer-than '\(newerThan)' is neither a version (1.0, 2.3.1) nor a .pkg or folder path")
        }
        if outputOptions.json && format != .text && format != .json {
            throw ValidationError("--json and --format \(format.rawValue) ask for two formats; give one")
        }
    }

    var consoleOptions: OutputOptions? { outputOptions }

    func execute() throws -> ExitStatus {
        let console = Console.current
        var options = ValidationOptions(
            strict: strict, productIdentifier: productId, maxSize: maxSize,
            maxUnpackedSize: maxUnpackedSize)
        if let newerThan { options.newerThan = try Self.resolveVersion(newerThan) }
        options.target = target
        options.configuration = configuration
        if let trustAnchor { options.trustAnchors = try Self.loadTrustAnchors(trustAnchor) }
        var reports: [ValidationReport] = []
        var unreadable: [(path: String, message: String)] = []
        for path in paths {
            do {
                reports.append(try PackageValidator.validate(path, options: options))
            } catch {
                unreadable.append((path, error.description))
            }
        }
        let output = ValidationOutput(reports: reports, unreadable: unreadable)
        switch outputOptions.json ? .json : format {
        case .text: output.writeText(to: console)
        case .json: console.out(try JSONOutput.encode(output.document))
        case .junit: console.out(output.junit())
        case .sarif: console.out(try JSONOutput.encode(output.sarif))
        }
        if format != .text || outputOptions.json {
            for item in unreadable { console.err("iapkg: error: \(item.message)") }
        }
        if console.environment["GITHUB_ACTIONS"] == "true" { output.writeAnnotations(to: console) }
        if !unreadable.isEmpty { return .couldNotWork }
        return reports.allSatisfy(\.valid) ? .success : .checkFailed
    }

    /// Text that names a file rather than a mistyped version.
    static func looksLikePath(_ text: String) -> Bool {
        text.contains("/") || text.lowercased().hasSuffix(".pkg") || FileSystem.status(text) != nil
    }

    /// The certificates of a PEM file: unreadable is exit 2, not a PEM certificate a usage error.
    static func loadTrustAnchors(_ path: String) throws -> [X509Certificate] {
        let data: [UInt8]
        do { data = try FileSystem.readSmallFile(path) } catch {
            throw IAPKitError.system(SystemError("read --trust-anchor", path: path, code: error.code))
        }
        do {
            return try X509Certificate.certificates(pem: data)
        } catch {
            throw ValidationError(
                "--trust-anchor \(path): \(error.message); give a PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
    }

    /// A version given as text, or read from a package or content folder.
    static func resolveVersion(_ text: String) throws -> ContentVersion {
        if let version = ContentVersion(text) { return version }
        guard FileSystem.status(text) != nil else {
            throw IAPKitError.failed(
                "--newer-than '\(text)' is neither a version (1.0, 2.3.1) nor an existing .pkg or folder")
        }
        // Only the version is read, not the whole package judged: it is a reference, not an input.
        return try ContentVersionOfInput.read(text)
    }
}
