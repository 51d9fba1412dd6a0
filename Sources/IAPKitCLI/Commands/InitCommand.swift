import ArgumentParser
import IAPKit

/// `iapkg init`: a new content folder.
struct InitCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a content folder: ContentInfo.plist (version 1.0) and an empty Contents/.",
        discussion: """
            Put everything the app should receive under Contents/, then run 'iapkg build'.

            Example:
              iapkg init com.example.game.level1
              cp -R art levels com.example.game.level1/Contents/
              iapkg build com.example.game.level1
            """)

    @Argument(help: "The App Store product identifier (letters, digits, '.', '_', '-'; at most 100).")
    var productIdentifier: String

    @Argument(help: "The folder to create (default: the product identifier). It must not exist or be empty.")
    var directory: String?

    func validate() throws {
        if let problem = ProductIdentifier.problem(with: productIdentifier) {
            throw ValidationError("'\(productIdentifier)' is not a valid product identifier: \(problem)")
        }
    }

    func execute() throws -> ExitStatus {
        let path = directory ?? productIdentifier
        try ContentFolderInitializer.create(productIdentifier: productIdentifier, at: path)
        Console.current.err(
            "Created \(path)/ContentInfo.plist (\(productIdentifier), version 1.0) and \(path)/Contents/")
        return .success
    }
}
