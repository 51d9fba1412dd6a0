import IAPRules
import IAPSystem
import XcodeKit

/// `init --from NAME.xcodeproj`: the content folder an In-App Purchase Content target describes,
/// written once for good — ContentInfo.plist (its bytes as they are, extra keys and all) and every
/// resource copied under `Contents/` — so authors leave Xcode with a folder `iapkg build` takes.
package enum ProjectFolderInitializer {
    /// What was written.
    package struct Outcome: Sendable {
        /// The folder made.
        package var path: String
        /// The target it came from.
        package var target: String
        /// Entries copied below the folder (ContentInfo.plist, Contents/ and what it holds).
        package var entries: Int
        /// The project's warnings (unlisted files).
        package var warnings: [Finding]
    }

    /// Writes the folder at `path` (default: the target's PRODUCT_NAME, the name that builds the
    /// same package). It must not exist or be empty; the folder appears whole or not at all (it is
    /// filled beside it under a hidden name, then renamed), and nothing is written when the
    /// project has errors.
    package static func create(
        fromProject project: String, target: String?, configuration: String?, at path: String?
    ) throws(IAPKitError) -> Outcome {
        try translatingErrors {
            let result: XcodeContentScanner.Result
            do {
                result = try XcodeContentScanner.scan(project, target: target, configuration: configuration)
            } catch let error as XcodeProjectError {
                throw IAPKitError.invalid(path: project, findings: error.findings)
            }
            guard !result.findings.contains(where: { $0.severity == .error }) else {
                throw IAPKitError.invalid(path: project, findings: result.findings)
            }
            let destination = path ?? result.target.productName
            try ContentFolderCopier.copy(result.scan, to: destination)
            return Outcome(
                path: destination, target: result.target.name, entries: result.scan.contents.count - 1,
                warnings: result.findings)
        }
    }
}
