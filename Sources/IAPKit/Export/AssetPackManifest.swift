/// The manifest `ba-package` (Background Assets, Xcode's command-line tools) packs an asset pack
/// from, with the fields of Apple's template ("Creating managed asset packs"): `assetPackID`,
/// `downloadPolicy` holding exactly one of `essential`, `prefetch` (each with its
/// `installationEventTypes`) or `onDemand` (an empty object), `fileSelectors` (each a `file` or a
/// `directory`, relative to where `ba-package` runs) and `platforms`.
package struct AssetPackManifest: Sendable, Equatable {
    /// When the system downloads the pack.
    package enum Policy: String, Sendable, CaseIterable {
        /// During the app's installation, which waits for it.
        case essential
        /// During the app's installation, going on in the background afterwards.
        case prefetch
        /// Only when the app asks for it (what hosted content was: fetched after a purchase).
        case onDemand = "on-demand"

        /// The key Apple's template names it by.
        package var manifestKey: String {
            switch self {
            case .essential: "essential"
            case .prefetch: "prefetch"
            case .onDemand: "onDemand"
            }
        }
    }

    /// The installation events an essential or prefetch policy applies to.
    package enum InstallationEvent: String, Sendable, CaseIterable {
        case firstInstallation
        case subsequentUpdate
    }

    /// The platforms Apple-hosted asset packs serve (every one but watchOS).
    package static let platforms = ["iOS", "macOS", "tvOS", "visionOS"]
    /// Most asset packs one app record holds (App Store Connect's "Asset pack count").
    package static let maxPacksPerApp = 100
    /// The manifest's file name in each exported folder.
    package static let fileName = "AssetPackManifest.json"

    package var assetPackID: String
    package var policy: Policy
    /// For `essential` and `prefetch`; unused for `onDemand`.
    package var installationEvents: [InstallationEvent]
    /// Relative paths of files, then of folders, taken whole.
    package var files: [String]
    package var directories: [String]
    package var platforms: [String]

    /// The asset pack ID iapkg derives from a product identifier: the identifier itself. It is
    /// 1 to 100 letters, digits, '.', '_' and '-' (checked by every rule before), so it is unique
    /// per product, the same on every run, and safe as a file name and in JSON.
    package static func assetPackID(forProduct productIdentifier: String) -> String { productIdentifier }

    /// The manifest as JSON, keys in the template's order, two-space indented, ending in a newline.
    package var json: String {
        func quoted(_ text: String) -> String { JSONText.quoted(text) }
        let policyBody =
            policy == .onDemand
            ? "{}"
            : "{\n      \"installationEventTypes\": ["
                + installationEvents.map { "\n        " + quoted($0.rawValue) }.joined(separator: ",")
                + "\n      ]\n    }"
        let selectors =
            files.map { "    {\n      \"file\": \(quoted($0))\n    }" }
            + directories.map { "    {\n      \"directory\": \(quoted($0))\n    }" }
        return """
            {
              "assetPackID": \(quoted(assetPackID)),
              "downloadPolicy": {
                \(quoted(policy.manifestKey)): \(policyBody)
              },
              "fileSelectors": [
            \(selectors.joined(separator: ",\n"))
              ],
              "platforms": [
            \(platforms.map { "    " + quoted($0) }.joined(separator: ",\n"))
              ]
            }

            """
    }
}
