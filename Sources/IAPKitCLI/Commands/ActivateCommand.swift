import ArgumentParser
import IAPKit

/// `iapkg activate`: point `current` at an installed version.
struct ActivateCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Point ROOT/<product-id>/current at an installed version (roll back or forward), atomically.",
        discussion: """
            Example:
              iapkg activate /srv/content com.example.game.levels.pack1 1.0
            """)

    @Argument(help: "The root folder of the version store.")
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
