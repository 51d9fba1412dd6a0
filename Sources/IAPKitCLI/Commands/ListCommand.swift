import ArgumentParser
import IAPKit

/// `iapkg list`: what a version store holds.
struct ListCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the products and versions in a version store, and which is current.",
        discussion: """
            Examples:
              iapkg list /srv/content
              iapkg list /srv/content --json
              iapkg list s3://game-content/iap
            """)

    @Argument(help: "The version store: a root folder, or an object store as s3://BUCKET/PREFIX.")
    var root: String

    @OptionGroup var outputOptions: OutputOptions

    var consoleOptions: OutputOptions? { outputOptions }

    func execute() throws -> ExitStatus {
        let listing = try VersionStoreCommands.list(root)
        let console = Console.current
        if outputOptions.json {
            console.out(try JSONOutput.encode(listing))
            return .success
        }
        if listing.products.isEmpty { console.note("\(root) holds no products") }
        for product in listing.products {
            let pin = product.pinned == nil ? "" : ", pinned by activate"
            console.out("\(product.productIdentifier) (current: \(product.current ?? "none")\(pin))")
            for version in product.versions {
                let mark = version.current ? "*" : " "
                console.out(
                    "  \(mark) \(version.version.paddedOrCut(to: 12)) \(version.files) files, \(version.bytes) bytes"
                )
            }
        }
        return .success
    }
}
