import ArgumentParser
import IAPClient
import IAPSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `iapkg fetch BASE-URL PRODUCT --into DIR`: brings a local folder to the version a server publishes.
@main
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapkg fetch",
        abstract: "Download the current version of a product from an iapkg server into a local folder.",
        discussion: """
            Reads BASE-URL/PRODUCT/current.json and that version's manifest.json (checked against the \
            pointer's SHA-256 and against every path rule), fetches only the files the installed version \
            lacks (the plan 'iapkg diff' prints), checks each file's size and SHA-256, resumes a file cut \
            off earlier with a range request, retries network failures and 5xx answers with backoff, and \
            installs the version atomically: DIR/current -> versions/<version>, read from DIR/current/Contents. \
            The previous version stays until the next update.

            Exit status: 0 installed or already up to date; 1 the server's content failed a check (nothing \
            installed); 2 the job could not be done (network, server, disk: run again to resume); 64 usage error.

            Examples:
              iapkg fetch https://cdn.example.com/content com.example.game.levels.pack1 --into levels
              iapkg fetch http://127.0.0.1:8080 com.example.books.harbour.chapter1 --into chapter --json
              iapkg fetch https://cdn.example.com/content com.example.pack --into pack --token "$DOWNLOAD_TOKEN"
            """)

    @Argument(help: "The server's base URL: PRODUCT's documents are at BASE-URL/PRODUCT/current.json.")
    var baseURL: String
    @Argument(help: "The product identifier.")
    var product: String
    @Option(help: ArgumentHelp("The local content folder (created if missing).", valueName: "dir"))
    var into: String
    @Option(help: "A download token, sent as 'Authorization: Bearer <token>'.")
    var token: String?
    @Option(help: "Files fetched at once.")
    var parallel = 8
    @Option(help: "Tries of a request that makes no progress before giving up.")
    var attempts = 6
    @Flag(help: "Print the report as JSON on stdout.")
    var json = false
    @Flag(name: .shortAndLong, help: "Print only errors on stderr (no progress bar, no summary).")
    var quiet = false

    func validate() throws {
        guard let url = URL(string: baseURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("'\(baseURL)' is not an http:// or https:// URL")
        }
        guard !product.isEmpty, !product.contains("/"), !product.hasPrefix(".") else {
            throw ValidationError("'\(product)' is not a product identifier")
        }
        guard parallel >= 1, parallel <= 64 else { throw ValidationError("--parallel must be 1 to 64") }
        guard attempts >= 1, attempts <= 100 else { throw ValidationError("--attempts must be 1 to 100") }
    }

    func run() async throws {
        var updater = ContentUpdater(
            server: URL(string: baseURL)!, productIdentifier: product, folder: URL(fileURLWithPath: into),
            token: token)
        updater.parallelDownloads = parallel
        updater.retry = RetryPolicy(attempts: attempts)
        let download = updater.download()
        let bar = ProgressBar.standardError(wanted: !quiet)
        let drawing = Task {
            for await progress in download.progress { Summary.draw(progress, on: bar) }
        }
        let report: FetchReport
        do {
            report = try await download.result()
        } catch {
            _ = await drawing.value
            bar.finish()
            CurrentProcess.writeToStandardError("iapkg: error: \(error.description)\n")
            throw ExitCode(error.isContentProblem ? 1 : 2)
        }
        _ = await drawing.value
        bar.finish()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            CurrentProcess.writeToStandardOutput(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        }
        if !quiet { CurrentProcess.writeToStandardError(Summary.line(report) + "\n") }
    }
}
