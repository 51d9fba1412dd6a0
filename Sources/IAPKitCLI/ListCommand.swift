import ArgumentParser
import IAPKit

/// `iapkg list`: what a version store holds.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the products and versions in a version store, and which is current.",
        discussion: """
        Examples:
          iapkg list /srv/content
          iapkg list /srv/content --json
        """)

    @Argument(help: "The root folder of the version store.")
    var root: String

    @Flag(help: "Print a JSON document on stdout.")
    var json = false

    func run() throws {
        try perform {
            let listing = try VersionStoreCommands.list(root)
            let console = Console.current
            if json {
                console.out(try JSONOutput.encode(listing))
                return
            }
            if listing.products.isEmpty { console.err("\(root) holds no products") }
            for product in listing.products {
                console.out("\(product.productIdentifier) (current: \(product.current ?? "none"))")
                for version in product.versions {
                    let mark = version.current ? "*" : " "
                    console.out("  \(mark) \(version.version.padding(toLength: 12, withPad: " ", startingAt: 0)) \(version.files) files, \(version.bytes) bytes")
                }
            }
        }
    }
}

/// `iapkg activate`: point `current` at an installed version.
struct ActivateCommand: ParsableCommand {
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

    func run() throws {
        try perform {
            let previous = try VersionStoreCommands.activate(root, productIdentifier: productIdentifier, version: version)
            Console.current.out("\(productIdentifier): current \(previous ?? "none") → \(version)")
        }
    }
}
