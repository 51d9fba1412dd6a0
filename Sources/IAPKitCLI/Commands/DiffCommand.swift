import ArgumentParser
import IAPKit

/// `iapkg diff`: what an app must download to go from one version to another.
struct DiffCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show the files added, removed and changed between two versions, and the bytes to download.",
        discussion: """
            OLD and NEW are packages (validated and decoded as 'unpack' does), content folders, installed \
            version folders (ROOT/<product-id>/<version>) or versions in a bucket \
            (s3://BUCKET/PREFIX/<product-id>/<version>, or s3://BUCKET/PREFIX/<product-id> for its current \
            version), read from their manifests without downloading their files. Files are compared by the \
            SHA-256 of their decoded bytes. Exit status 0 whether or not they differ.

            Examples:
              iapkg diff level-pack-1.0.pkg level-pack-1.1.pkg
              iapkg diff /srv/content/com.example.game.levels.pack1/1.0 level-pack-1.1.pkg --json
              iapkg diff s3://content/live/com.example.game.levels.pack1 level-pack-1.2.pkg
            """)

    @Argument(help: "The version an app has.")
    var old: String
    @Argument(help: "The version it updates to.")
    var new: String
    @OptionGroup var outputOptions: OutputOptions

    var consoleOptions: OutputOptions? { outputOptions }

    func execute() throws -> ExitStatus {
        let diff = try ContentDiff.compare(old, new)
        let console = Console.current
        if outputOptions.json {
            console.out(try JSONOutput.encode(diff))
            return .success
        }
        func label(_ side: ContentDiff.Side) -> String {
            side.path + (side.version.map { " (\(side.productIdentifier ?? "?") \($0))" } ?? "")
        }
        console.out(
            "\(label(diff.old)) → \(label(diff.new)): \(diff.added.count) added, \(diff.removed.count) removed, "
                + "\(diff.changed.count) changed, \(diff.unchanged) unchanged; download \(diff.downloadBytes) bytes"
        )
        for change in diff.added { console.out("  + \(change.path) (\(change.newSize ?? 0) bytes)") }
        for change in diff.removed { console.out("  - \(change.path) (\(change.oldSize ?? 0) bytes)") }
        for change in diff.changed {
            console.out("  ~ \(change.path) (\(change.oldSize ?? 0) → \(change.newSize ?? 0) bytes)")
        }
        return .success
    }
}
