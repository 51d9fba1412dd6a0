import ArgumentParser
import IAPKit
import IAPSystem

/// A command shipped as a program of its own (`iapkg gate` runs `iapkg-gate`), as git runs its
/// subcommands: the `iapkg` binary stays free of what only that command needs (a web server,
/// an HTTP client and full Foundation), and its own arguments and `--help` go to it untouched.
protocol ExternalCommand: IAPSubcommand {
    /// Everything after the command's name, passed on as it is.
    var arguments: [String] { get }
}

extension ExternalCommand {
    /// The program's name: `iapkg-` and the command's name.
    static var programName: String { "iapkg-" + (configuration.commandName ?? "") }

    /// Replaces this process with the program; returns only by throwing why it could not.
    func execute() throws -> ExitStatus {
        let command = Self.configuration.commandName ?? ""
        guard let path = ExternalProgram.locate(Self.programName) else {
            throw IAPKitError.failed(
                "'iapkg \(command)' runs the program \(Self.programName), which the Debian package installs "
                    + "beside iapkg (from source: swift build -c release --static-swift-stdlib --product "
                    + "\(Self.programName), then install it beside iapkg); it is neither beside "
                    + "\(ProcessImage.executablePath ?? "this iapkg") nor on PATH.")
        }
        throw IAPKitError.system(ProcessImage.replace(with: path, arguments: [Self.programName] + arguments))
    }
}

/// Where an external command's program is found: beside the running `iapkg` first, then on `PATH`.
enum ExternalProgram {
    static func locate(_ name: String) -> String? {
        var folders: [String] = []
        if let executable = ProcessImage.executablePath { folders.append(PathText.parent(of: executable)) }
        folders += (FileSystem.environment("PATH") ?? "").split(separator: ":").map(String.init)
        for folder in folders where !folder.isEmpty {
            let candidate = folder + "/" + name
            if let status = FileSystem.status(candidate), status.isRegularFile, status.permissions & 0o111 != 0 {
                return candidate
            }
        }
        return nil
    }
}

/// `iapkg gate`: the purchase-checking HTTP service, the program `iapkg-gate`.
struct GateCommand: ExternalCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Serve content only to buyers: verify purchases, issue download tokens (runs iapkg-gate).")

    @Argument(parsing: .captureForPassthrough, help: "The arguments of iapkg-gate ('iapkg gate --help' lists them).")
    var arguments: [String] = []
}

/// `iapkg fetch`: the download client, the program `iapkg-fetch`.
struct FetchCommand: ExternalCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download a product's current version from a server, verified and resumable (runs iapkg-fetch).")

    @Argument(parsing: .captureForPassthrough, help: "The arguments of iapkg-fetch ('iapkg fetch --help' lists them).")
    var arguments: [String] = []
}
