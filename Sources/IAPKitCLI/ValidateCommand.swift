import ArgumentParser
import FoundationEssentials
import IAPCore
import IAPKit
import IAPRules
import XMLKit

/// The report formats `iapkg validate` writes on stdout.
enum ValidateFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, junit, sarif
}

/// `iapkg validate`: the CI gate.
struct ValidateCommand: ParsableCommand {
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

    func run() throws {
        try outputOptions.apply { try perform(execute) }
    }

    private func execute() throws {
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
        if !unreadable.isEmpty { throw ExitCode(2) }
        if reports.contains(where: { !$0.valid }) { throw ExitCode(1) }
    }

    /// Text that names a file rather than a mistyped version.
    static func looksLikePath(_ text: String) -> Bool {
        text.contains("/") || text.lowercased().hasSuffix(".pkg") || FileManager.default.fileExists(atPath: text)
    }

    /// The certificates of a PEM file: unreadable is exit 2, not a PEM certificate a usage error.
    static func loadTrustAnchors(_ path: String) throws -> [X509Certificate] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IAPKitError.system(SystemError("read --trust-anchor", path: path))
        }
        do {
            return try X509Certificate.certificates(pem: [UInt8](data))
        } catch {
            throw ValidationError(
                "--trust-anchor \(path): \(error.message); give a PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
    }

    /// A version given as text, or read from a package or content folder.
    static func resolveVersion(_ text: String) throws -> ContentVersion {
        if let version = ContentVersion(text) { return version }
        guard FileManager.default.fileExists(atPath: text) else {
            throw IAPKitError.failed(
                "--newer-than '\(text)' is neither a version (1.0, 2.3.1) nor an existing .pkg or folder")
        }
        // Only the version is read, not the whole package judged: it is a reference, not an input.
        return try ContentVersionOfInput.read(text)
    }
}

/// The validation results of one run, rendered as text, JSON, JUnit or workflow annotations.
struct ValidationOutput {
    var reports: [ValidationReport]
    var unreadable: [(path: String, message: String)]

    /// The JSON document: schemaVersion, an overall verdict, one object per input.
    struct Document: Encodable {
        var schemaVersion = 1
        var valid: Bool
        var inputs: [ValidationReport]
        var unreadable: [Unreadable]
    }

    struct Unreadable: Encodable {
        var path: String
        var message: String
    }

    var document: Document {
        Document(
            valid: unreadable.isEmpty && reports.allSatisfy(\.valid), inputs: reports,
            unreadable: unreadable.map { Unreadable(path: $0.path, message: $0.message) })
    }

    func writeText(to console: Console) {
        for report in reports {
            for finding in report.findings {
                console.out(FindingText.line(finding, path: report.path, console: console, on: .out))
            }
            for line in SignatureText.summary(report.signatures ?? [], path: report.path) { console.out(line) }
            let what = [report.shape?.rawValue, report.productIdentifier, report.contentVersion].compactMap { $0 }
                .joined(separator: " ")
            let verdict =
                report.valid ? console.styled("valid", "32", on: .out) : console.styled("invalid", "1;31", on: .out)
            console.out(
                "\(report.path): \(verdict) (\(what.isEmpty ? "unreadable content" : what); \(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s"))"
            )
        }
        for item in unreadable { console.err("iapkg: error: \(item.message)") }
        let valid = reports.filter(\.valid).count
        let total = reports.count + unreadable.count
        if total > 1 {
            console.out(
                "\(total) inputs: \(valid) valid, \(reports.count - valid) invalid\(unreadable.isEmpty ? "" : ", \(unreadable.count) unreadable")"
            )
        }
    }

    func junit() -> String {
        func escape(_ text: String) -> String { XMLEscaping.escape(text) }
        let failures = reports.filter { !$0.valid }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"iapkg validate\" tests=\"\(reports.count + unreadable.count)\" failures=\"\(failures)\" errors=\"\(unreadable.count)\">\n"
        xml +=
            "  <testsuite name=\"iapkg validate\" tests=\"\(reports.count + unreadable.count)\" failures=\"\(failures)\" errors=\"\(unreadable.count)\" skipped=\"0\">\n"
        for report in reports {
            xml += "    <testcase classname=\"iapkg.validate\" name=\"\(escape(report.path))\">\n"
            let lines =
                report.findings.map { finding in
                    finding.severity.rawValue + FindingText.body(finding)
                } + SignatureText.summary(report.signatures ?? [], path: report.path)
            if !report.valid {
                xml +=
                    "      <failure type=\"invalid\" message=\"\(report.errors) error\(report.errors == 1 ? "" : "s")\">\(escape(lines.joined(separator: "\n")))</failure>\n"
            } else if !lines.isEmpty {
                xml += "      <system-out>\(escape(lines.joined(separator: "\n")))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        for item in unreadable {
            xml += "    <testcase classname=\"iapkg.validate\" name=\"\(escape(item.path))\">\n"
            xml += "      <error type=\"unreadable\" message=\"\(escape(item.message))\"/>\n    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>"
        return xml
    }

    /// GitHub Actions workflow commands (`::error file=…,title=…::message`) on stderr.
    func writeAnnotations(to console: Console) {
        // By scalar: "\r\n" is one Character, which a Character-wise replace of "\r" would miss.
        func escaped(_ s: String, _ table: [Unicode.Scalar: String]) -> String {
            var out = ""
            for scalar in s.unicodeScalars {
                if let replacement = table[scalar] { out += replacement } else { out.unicodeScalars.append(scalar) }
            }
            return out
        }
        func data(_ s: String) -> String { escaped(s, ["%": "%25", "\r": "%0D", "\n": "%0A"]) }
        func property(_ s: String) -> String {
            escaped(s, ["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"])
        }
        for report in reports {
            for finding in report.findings {
                let level = finding.severity == .error ? "error" : "warning"
                let message = FindingText.entryAndMessage(finding)
                // In a folder, point at the offending file itself.
                let file =
                    report.shape == .folder ? finding.entry.map { report.path + "/" + $0 } ?? report.path : report.path
                console.err(
                    "::\(level) file=\(property(file)),title=\(property("iapkg " + finding.rule))::\(data(message))")
            }
        }
        for item in unreadable {
            console.err("::error file=\(property(item.path)),title=iapkg::\(data(item.message))")
        }
    }
}
