import ArgumentParser
import IAPKit

/// `iapkg activate`: point `current` at an installed version.
struct ActivateCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Point ROOT/<product-id>/current at an installed version (roll back or forward), atomically.",
        discussion: """
            In an object store, current.json is replaced only if nobody replaced it since it was read \
            (If-Match), so a rollback never undoes a publish it did not see.

            Examples:
              iapkg activate /srv/content com.example.game.levels.pack1 1.0
              iapkg activate s3://game-content/iap com.example.game.levels.pack1 1.0
            """)

    @Argument(help: "The version store: a root folder, or an object store as s3://BUCKET/PREFIX.")
    var root: String
    @Argument(help: "The product identifier.")
    var productIdentifier: String
    @Argument(help: "The installed version to make current.")
    var version: String

    func validate() throws {
        if let problem = ProductIdentifier.problem(with: productIdentifier) {
            throw ValidationError("'\(productIdentifier)' is not a valid product identifier: \(problem)")
        }
        guard ContentVersion(version) != nil else {
            throw ValidationError("'\(version)' is not a version: integers separated by periods (1.0, 2.3.1)")
        }
    }

    func execute() throws -> ExitStatus {
        let previous = try VersionStoreCommands.activate(
            root, productIdentifier: productIdentifier, version: version)
        Console.current.out("\(productIdentifier): current \(previous ?? "none") → \(version)")
        return .success
    }
}
