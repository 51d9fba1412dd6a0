import ArgumentParser
import IAPKit

/// The root command: `iapkg <subcommand>`.
package struct IAPCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "iapkg",
        abstract: "Build, inspect, validate and unpack In-App Purchase hosted-content packages.",
        discussion: """
            A hosted-content package is a .pkg (a xar archive) holding ContentInfo.plist and a Contents/ \
            folder. iapkg writes them as Apple's 'productbuild --content' did, checks them against every \
            rule, and unpacks them safely on servers.

            Exit status: 0 success; 1 the input is invalid or a check failed; 2 the tool could not do its \
            job (missing file, I/O error, disk full); 64 usage error.
            """,
        version: "iapkg \(ReleaseVersion.current)",
        subcommands: [
            InitCommand.self, BuildCommand.self, BumpCommand.self, InspectCommand.self, ValidateCommand.self,
            UnpackCommand.self, ListCommand.self, ActivateCommand.self, ServeCommand.self, DiffCommand.self,
            RulesCommand.self, GateCommand.self, FetchCommand.self, StoreCommand.self,
            ExportAssetPackCommand.self,
        ]
    )
    package init() {}
}
