import ArgumentParser
import IAPKit

/// `iapkg init`: a new content folder.
struct InitCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a content folder: ContentInfo.plist (version 1.0) and an empty Contents/.",
        discussion: """
            Put everything the app should receive under Contents/, then run 'iapkg build'.

            With --from NAME.xcodeproj, the folder is made from an In-App Purchase Content Xcode \
            project instead: its target's ContentInfo.plist (INFOPLIST_FILE, kept byte for byte) and \
            the files of its Resources phase under Contents/, in a folder named PRODUCT_NAME unless \
            one is given; 'iapkg build' of that folder gives the package the project gives. Nothing \
            is written when the project has errors (a missing file, an unknown build setting).

            Examples:
              iapkg init com.example.game.level1
              cp -R art levels com.example.game.level1/Contents/
              iapkg build com.example.game.level1
              iapkg init --from Levels.xcodeproj --target Pack2 pack2
            """)

    @Argument(help: "The App Store product identifier (letters, digits, '.', '_', '-'; at most 100); not with --from.")
    var productIdentifier: String?

    @Argument(help: "The folder to create (default: the product identifier). It must not exist or be empty.")
    var directory: String?

    @Option(help: "An Xcode project (NAME.xcodeproj) whose In-App Purchase Content target becomes the folder.")
    var from: String?

    @Option(help: "With --from: the In-App Purchase Content target (needed when there are several).")
    var target: String?

    @Option(help: "With --from: the build configuration (default: the target's default, Release).")
    var configuration: String?

    func validate() throws {
        if from != nil {
            guard directory == nil else {
                throw ValidationError(
                    "with --from, give at most the folder to create; the product comes from the project")
            }
            return
        }
        guard target == nil && configuration == nil else {
            throw ValidationError("--target and --configuration go with --from NAME.xcodeproj")
        }
        guard let productIdentifier else {
            throw ValidationError("give a product identifier, or --from NAME.xcodeproj")
        }
        if let problem = ProductIdentifier.problem(with: productIdentifier) {
            throw ValidationError("'\(productIdentifier)' is not a valid product identifier: \(problem)")
        }
    }

    func execute() throws -> ExitStatus {
        let console = Console.current
        if let from {
            // The one positional argument, if any, is the folder.
            let outcome = try ProjectFolderInitializer.create(
                fromProject: from, target: target, configuration: configuration, at: productIdentifier)
            for warning in outcome.warnings {
                console.note(FindingText.line(warning, path: from, console: console))
            }
            console.err(
                "Created \(outcome.path)/ from \(from) (target \(outcome.target)): ContentInfo.plist and \(outcome.entries - 2) entries under Contents/"
            )
            return .success
        }
        let product = productIdentifier ?? ""
        let path = directory ?? product
        try ContentFolderInitializer.create(productIdentifier: product, at: path)
        console.err("Created \(path)/ContentInfo.plist (\(product), version 1.0) and \(path)/Contents/")
        return .success
    }
}
