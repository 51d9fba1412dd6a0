import IAPRules
import IAPSystem
import XcodeKit

/// What an In-App Purchase Content target of an Xcode project builds, gathered as a content folder
/// scan: the content root named `PRODUCT_NAME`, `ContentInfo.plist` from `INFOPLIST_FILE`, and each
/// resource under `Contents/` in the order a walk of the equivalent folder gives (so the package is
/// the one that folder builds, byte for byte). Files the project names that are missing, resources
/// that collide, and files beside the target's files that it does not name are findings.
package enum XcodeContentScanner {
    /// The scan, the target read, and the findings about the project.
    package struct Result: Sendable {
        package var target: XcodeContentTarget
        package var scan: ContentFolderScan
        package var findings: [Finding]
    }

    /// True when `path` names an Xcode project folder (`NAME.xcodeproj`).
    package static func isProject(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.hasSuffix(".xcodeproj") && FileSystem.status(trimmed)?.isDirectory == true
    }

    /// Reads the project at `path` and gathers its content target's files. Throws `XcodeProjectError`
    /// when the project or target cannot be read, a `SystemError` when a file cannot.
    package static func scan(_ path: String, target name: String?, configuration: String? = nil) throws -> Result {
        let project = try XcodeProject.open(path)
        let target = try XcodeContentTarget.resolve(project, target: name, configuration: configuration)
        var findings: [Finding] = []
        let time = (try? FileStatus.of(project.path + "/project.pbxproj").modificationTime) ?? 0
        var scan = ContentFolderScan(root: project.path, name: target.productName)
        scan.tracksSourcePaths = true
        scan.append(
            ContentEntry(rawPath: ".", components: [], kind: .directory, permissions: 0o755), modificationTime: time,
            sourcePath: project.sourceRoot)

        var root = Node.folder(name: "", time: time)
        if let status = FileSystem.status(target.contentInfoPath), status.kind == .regular {
            root.children["ContentInfo.plist"] = .file(resolvingLink(target.contentInfoPath))
        } else {
            findings.append(
                Rule.xcodeFileMissing.finding(
                    "ContentInfo.plist",
                    "INFOPLIST_FILE names '\(target.contentInfoPath)', which is not a file; restore it or set INFOPLIST_FILE to the plist's path"
                ))
        }
        var contents = Node.folder(name: "Contents", time: time)
        for resource in target.resources {
            let shown = "Contents/" + resource.destination.joined(separator: "/")
            guard FileSystem.linkStatus(resource.sourcePath) != nil else {
                findings.append(
                    Rule.xcodeFileMissing.finding(
                        shown,
                        "the target copies '\(resource.sourcePath)' here, but it is not on disk; restore it or remove it from the target's Resources phase"
                    ))
                continue
            }
            if !contents.insert(resource.destination, source: resolvingLink(resource.sourcePath), time: time) {
                findings.append(
                    Rule.xcodeResourceDuplicate.finding(
                        shown,
                        "'\(resource.sourcePath)' would be copied to \(shown), where another resource of the target already goes; rename one or remove it from the target"
                    ))
            }
        }
        root.children["Contents"] = contents
        try root.emit(components: [], into: &scan)
        scan.contents.shrinkToFit()
        findings += unlisted(target, project: project)
        return Result(target: target, scan: scan, findings: findings)
    }

    /// What Xcode copies for a path the project names: the file a symlink leads to (its copy phase
    /// resolves the source's own link, `-resolve-src-symlinks`); links inside a copied folder stay links.
    private static func resolvingLink(_ path: String) -> String {
        guard FileSystem.linkStatus(path)?.kind == .symlink else { return path }
        return FileSystem.realPath(path) ?? path
    }

    /// The content rules' findings for a project's scan, without the one the project already told
    /// (a missing INFOPLIST_FILE is `xcode-file-missing`, not also `shape-missing-contentinfo`).
    static func contentFindings(_ result: Result, maxUnpackedBytes: UInt64) -> [Finding] {
        var rules = ContentRules.check(result.scan.contents, maxUnpackedBytes: maxUnpackedBytes)
        if result.findings.contains(where: { $0.rule == Rule.xcodeFileMissing.id && $0.entry == "ContentInfo.plist" }) {
            rules.removeAll { $0.rule == Rule.shapeMissingContentinfo.id }
        }
        return rules
    }

    /// Files in the folders that hold the target's files which the target does not name.
    private static func unlisted(_ target: XcodeContentTarget, project: XcodeProject) -> [Finding] {
        // Compared by their real paths: "$(SRCROOT)/a" and a group's "a" may name one file.
        let real = { (path: String) in FileSystem.realPath(path) ?? PathText.normalized(path) }
        let named = Set(([target.contentInfoPath] + target.resources.map(\.sourcePath)).map(real))
        let here = (FileSystem.realPath(".") ?? "/") + "/"
        var findings: [Finding] = []
        for folder in Set(named.map { PathText.parent(of: $0) }).sorted() {
            guard let names = try? ContentFolderScanner.names(in: folder) else { continue }
            for name in names where !EntryNameRules.isJunk(name) {
                let path = folder + "/" + name
                guard !named.contains(path), FileSystem.linkStatus(path)?.kind == .regular else { continue }
                let shown = path.hasPrefix(here) ? String(path.dropFirst(here.count)) : path
                findings.append(
                    Rule.xcodeFileUnlisted.finding(
                        shown,
                        "'\(shown)' lies beside the target's files but the target \(target.name) does not name it, so it is not packaged; add it to the Copy Bundle Resources phase or move it away"
                    ))
            }
        }
        return findings
    }

    /// A folder of the content being assembled, or one of its files or copied folders.
    private struct Node {
        var source: String?
        var isFolder: Bool
        var time: Int64
        var children: [String: Node] = [:]

        static func folder(name: String, time: Int64) -> Node { Node(source: nil, isFolder: true, time: time) }
        static func file(_ source: String) -> Node { Node(source: source, isFolder: false, time: 0) }

        /// Places `source` at `path` below this folder, making the folders above it; false if taken.
        mutating func insert(_ path: [String], source: String, time: Int64) -> Bool {
            guard let first = path.first else { return false }
            if path.count == 1 {
                guard children[first] == nil else { return false }
                children[first] = .file(source)
                return true
            }
            var child = children[first] ?? .folder(name: first, time: time)
            guard child.source == nil, child.insert(Array(path.dropFirst()), source: source, time: time) else {
                return false
            }
            children[first] = child
            return true
        }

        /// Appends the entries below this folder to `scan`, in the order a folder walk gives.
        func emit(components: [String], into scan: inout ContentFolderScan) throws {
            let names = children.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for name in names {
                guard let child = children[name] else { continue }
                let parts = components + [name]
                let rawPath = parts.joined(separator: "/")
                guard let source = child.source else {
                    scan.append(
                        ContentEntry(rawPath: rawPath, components: parts, kind: .directory, permissions: 0o755),
                        modificationTime: child.time, sourcePath: "")
                    try child.emit(components: parts, into: &scan)
                    continue
                }
                let status = try FileStatus.ofLink(source)
                var entry = ContentEntry(
                    rawPath: rawPath, components: parts, kind: ContentEntry.Kind(status.kind),
                    permissions: status.permissions)
                switch entry.kind {
                case .file:
                    entry.size = status.size
                    entry.sniff = try ContentFolderScanner.sniff(source, size: entry.size)
                case .symlink:
                    entry.linkTarget = try FileSystem.readLink(source)
                    entry.size = UInt64(entry.linkTarget?.utf8.count ?? 0)
                default: break
                }
                scan.append(entry, modificationTime: status.modificationTime, sourcePath: source)
                if entry.kind == .directory {
                    try ContentFolderScanner.walk(directory: source, components: parts, into: &scan, excludeJunk: true)
                }
            }
        }
    }
}
