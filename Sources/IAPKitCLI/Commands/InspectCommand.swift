import ArgumentParser
import IAPKit
import IAPRules

/// `iapkg inspect`: what a package holds, without unpacking it.
struct InspectCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a .pkg holds: shape, product, version, sizes and every file.",
        discussion: """
            Reads the table of contents and the Bom only (and the first entries of the Payload, to reach \
            ContentInfo.plist), so it takes milliseconds whatever the package's size. Both shapes are \
            read: 'product' (as productbuild --content makes) and 'tree' (as bsdtar --format xar makes). \
            A signed package also shows each signature, whether it verifies, and its certificate chain. \
            inspect is not a validator; use 'iapkg validate' to check every rule.

            Examples:
              iapkg inspect com.example.books.harbour.chapter1-1.0.pkg
              iapkg inspect level-pack.pkg --json | jq '.files[].path'
            """)

    @Argument(help: "The package to inspect.")
    var package: String

    @OptionGroup var outputOptions: OutputOptions

    var consoleOptions: OutputOptions? { outputOptions }

    func execute() throws -> ExitStatus {
        let report = try PackageInspector.inspect(package)
        let console = Console.current
        if outputOptions.json {
            console.out(try JSONOutput.encode(report))
        } else {
            InspectText.write(report, to: console.writeOut)
        }
        for note in report.notes where note.severity == .error || !console.quiet {
            console.err(FindingText.line(note, path: package, console: console))
        }
        if report.notes.contains(where: { $0.severity == .error }) {
            console.err(
                "iapkg: error: \(package) could not be read completely; run iapkg validate for every finding")
            return .checkFailed
        }
        return .success
    }
}
