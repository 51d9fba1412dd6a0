import ArgumentParser
import IAPKit

/// `iapkg store`: work on a version store as a whole.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Work on a version store as a whole (copy a folder store into a bucket).",
        subcommands: [StoreCopyCommand.self])
}

/// `iapkg store copy`: move an existing folder store into an object store.
struct StoreCopyCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a folder store into an object store (s3://BUCKET/PREFIX), keeping current and pins.",
        discussion: """
            Every version of every product in SOURCE (the ROOT of `iapkg unpack --into ROOT` or `iapkg serve \
            --into ROOT`) is published into DESTINATION as `iapkg unpack --into s3://…` publishes one: claimed, \
            each object checked by the store as it lands, its manifest.json last. Then each product's \
            current.json is set to the version SOURCE's `current` names, by a conditional write, and pinned \
            there when an operator's `activate` pinned it in SOURCE. SOURCE is only read.

            Running it again copies only what is missing, so a copy interrupted (or run while SOURCE was still \
            being published to) is finished by running it again. A version DESTINATION already holds with other \
            content is reported and left as it is there (exit 1).

            To move a server: stop `iapkg serve` (or let it idle), run this, point readers (nginx, a CDN, \
            `iapkg gate --root`) at the bucket, then start `iapkg serve --into s3://…`.

            Credentials and endpoint come from the environment as the AWS tools read them \
            (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION, AWS_ENDPOINT_URL, \
            AWS_PROFILE).

            Examples:
              iapkg store copy /srv/content s3://game-content/iap
              AWS_ENDPOINT_URL=http://seaweed:8333 iapkg store copy /srv/content s3://content/iap --json
            """)

    @Argument(help: "The folder store to copy from.")
    var source: String

    @Argument(help: "The object store to copy into: s3://BUCKET/PREFIX.")
    var destination: String

    @OptionGroup var outputOptions: OutputOptions

    var consoleOptions: OutputOptions? { outputOptions }

    func validate() throws {
        guard StoreLocation(destination).isObjectStore else {
            throw ValidationError(
                "DESTINATION must be an object store, s3://BUCKET/PREFIX (to copy folders, use cp -a)")
        }
        guard !StoreLocation(source).isObjectStore else {
            throw ValidationError("SOURCE must be a folder store (the ROOT of `iapkg unpack --into ROOT`)")
        }
    }

    func execute() throws -> ExitStatus {
        let report = try StoreCopier.copy(source, into: destination)
        let console = Console.current
        if outputOptions.json {
            console.out(try JSONOutput.encode(report))
        } else {
            for product in report.products {
                var line = "\(product.productIdentifier): copied \(product.copied.count) version(s)"
                if !product.alreadyThere.isEmpty { line += ", \(product.alreadyThere.count) already there" }
                line += "; current → \(product.current ?? "none")\(product.pinned == nil ? "" : " (pinned)")"
                console.out(line)
            }
            if report.products.isEmpty { console.note("\(source) holds no products") }
        }
        for failure in report.failures { console.err("iapkg: error: " + failure) }
        return report.failures.isEmpty ? .success : .checkFailed
    }
}
