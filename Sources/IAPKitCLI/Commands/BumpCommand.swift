import ArgumentParser
import IAPKit

/// `iapkg bump`: raise ContentVersion for an update.
struct BumpCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "bump",
        abstract: "Raise ContentVersion in ContentInfo.plist (1.0 → 1.1), changing nothing else.",
        discussion: """
            Only the ContentVersion string changes: keys, their order, comments, indentation and every \
            other byte stay as they were. A binary plist is rewritten as XML (and says so).

            Examples:
              iapkg bump level-pack              # 1.0 → 1.1, 1.9 → 1.10
              iapkg bump level-pack --patch      # 1.1 → 1.1.1
              iapkg bump level-pack --major      # 1.4 → 2.0
              iapkg bump level-pack/ContentInfo.plist --to 3.0
            """)

    @Argument(help: "A content folder or its ContentInfo.plist.")
    var path: String

    @Flag(help: "Raise the first component (1.4 → 2.0).")
    var major = false
    @Flag(help: "Raise the second component (1.0 → 1.1); the default.")
    var minor = false
    @Flag(help: "Raise or add the third component (1.1 → 1.1.1).")
    var patch = false
    @Option(help: "Set this version; it must be greater than the current one.")
    var to: String?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        let chosen = [major, minor, patch, to != nil].filter { $0 }.count
        guard chosen <= 1 else { throw ValidationError("choose one of --major, --minor, --patch and --to") }
        if let to, ContentVersion(to) == nil {
            throw ValidationError(
                "--to '\(to)' is not a version: integers separated by periods, at most four (1.0, 2.3.1)")
        }
    }

    var consoleOptions: OutputOptions? { outputOptions }

    func execute() throws -> ExitStatus {
        let target: VersionBumper.Target
        if let to, let version = ContentVersion(to) {
            target = .exactly(version)
        } else {
            target = .part(major ? .major : patch ? .patch : .minor)
        }
        let report = try VersionBumper.bump(path, to: target)
        let console = Console.current
        if outputOptions.json {
            console.out(try JSONOutput.encode(report))
        } else {
            console.out("\(report.from) → \(report.to)")
            if report.rewrittenAsXML { console.note("\(report.path) was a binary property list; it is now XML") }
        }
        return .success
    }
}
