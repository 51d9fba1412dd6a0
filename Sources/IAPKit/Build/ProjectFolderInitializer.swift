import IAPCore
import IAPRules
import XcodeKit

/// `init --from NAME.xcodeproj`: the content folder an In-App Purchase Content target describes,
/// written once for good — ContentInfo.plist (its bytes as they are, extra keys and all) and every
/// resource copied under `Contents/` — so authors leave Xcode with a folder `iapkg build` takes.
public enum ProjectFolderInitializer {
    /// What was written.
    public struct Outcome: Sendable {
        /// The folder made.
        public var path: String
        /// The target it came from.
        public var target: String
        /// Entries copied below the folder (ContentInfo.plist, Contents/ and what it holds).
        public var entries: Int
        /// The project's warnings (unlisted files).
        public var warnings: [Finding]
    }

    /// Writes the folder at `path` (default: the target's PRODUCT_NAME, the name that builds the
    /// same package). It must not exist or be empty; the folder appears whole or not at all (it is
    /// filled beside it under a hidden name, then renamed), and nothing is written when the
    /// project has errors.
    public static func create(
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
            try write(result.scan, to: destination)
            return Outcome(
                path: destination, target: result.target.name, entries: result.scan.contents.count - 1,
                warnings: result.findings)
        }
    }

    /// Copies the scan's entries into a hidden folder beside `destination`, then renames it into place.
    private static func write(_ scan: ContentFolderScan, to destination: String) throws {
        let name = ContentFolderScanner.baseName(of: destination)
        let parentPath = AtomicOutputFile.folder(of: destination)
        if let status = FileSystem.linkStatus(destination) {
            guard status.isDirectory, try ContentFolderScanner.names(in: destination).isEmpty else {
                throw IAPKitError.refused(
                    "\(destination) already exists and is not an empty folder; iapkg init never overwrites — choose an empty or new folder"
                )
            }
        }
        let parent = try DirectoryHandle.open(parentPath)
        let staging = ".\(name).iapkg-init-\(CurrentProcess.id)"
        try? parent.removeTree(staging)
        try parent.makeDirectory(staging, mode: 0o755)
        do {
            var folders = [try parent.openDirectory(staging)]
            for source in scan.entries.dropFirst() {
                let entry = source.entry
                folders.removeLast(max(0, folders.count - entry.components.count))
                guard let folder = folders.last, let leaf = entry.components.last else { continue }
                switch entry.kind {
                case .directory:
                    try folder.makeDirectory(leaf, mode: entry.permissions & 0o777)
                    folders.append(try folder.openDirectory(leaf))
                case .symlink:
                    try folder.makeSymlink(leaf, target: entry.linkTarget ?? "")
                case .file:
                    let input = try FileSystem.openNoFollow(source.sourcePath)
                    let output = try folder.createFile(leaf, mode: entry.permissions & 0o777)
                    try output.append(from: input, offset: 0, count: entry.size)
                    try output.sync()
                default:
                    throw IAPKitError.refused(
                        "\(source.sourcePath) is a \(entry.kind.name), which a content folder cannot hold; remove it from the target"
                    )
                }
            }
            try folders.first?.sync()
            if FileSystem.linkStatus(destination) != nil { try parent.removeTree(name) }
            try parent.renameNoReplace(staging, to: name)
            try parent.sync()
        } catch {
            try? parent.removeTree(staging)
            throw error
        }
    }
}
