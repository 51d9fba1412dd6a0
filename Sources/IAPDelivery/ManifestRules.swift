/// The rules a manifest meets before anything it lists is fetched: safe relative paths under
/// `Contents/` (or `ContentInfo.plist`), each path once, no entry below a file or a symlink,
/// symlinks that stay inside `Contents/` (followed through the manifest's other symlinks),
/// counts and totals that add up, and a total within the limit.
package enum ManifestRules {
    /// Largest total of a version's files: 2 GiB, the unpacked limit a device must store.
    package static let defaultTotalLimit: UInt64 = 2_147_483_648
    /// Most symlinks followed while resolving one target (a loop otherwise).
    package static let maxHops = 40

    /// True for a ContentVersion: digits and dots, at most 64 characters.
    package static func isVersionName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.utf8.count <= 64
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }

    /// True for 64 lowercase hex digits.
    package static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Checks `manifest` (named `name` in errors) against every rule, with `limit` as the largest total.
    package static func check(_ manifest: VersionManifest, name: String, limit: UInt64 = defaultTotalLimit)
        throws(DeliveryDocumentError)
    {
        guard manifest.fileCount == manifest.files.count else {
            throw DeliveryDocumentError(
                name, "fileCount \(manifest.fileCount) but \(manifest.files.count) files listed")
        }
        var total: UInt64 = 0
        for file in manifest.files {
            let (sum, overflow) = total.addingReportingOverflow(file.size)
            guard !overflow else { throw DeliveryDocumentError(name, "the files' sizes overflow") }
            total = sum
        }
        guard total == manifest.totalBytes else {
            throw DeliveryDocumentError(name, "totalBytes \(manifest.totalBytes) but the files add up to \(total)")
        }
        guard total <= limit else {
            throw DeliveryDocumentError(name, "the version holds \(total) bytes, over the \(limit)-byte limit")
        }
        var paths = Set<String>()
        var links: [String: String] = [:]
        for file in manifest.files {
            try checkPath(file.path, name: name)
            guard isSHA256(file.sha256) else {
                throw DeliveryDocumentError(name, "\(file.path): sha256 is not 64 lowercase hex digits")
            }
            guard paths.insert(file.path).inserted else {
                throw DeliveryDocumentError(name, "\(file.path) is listed twice")
            }
        }
        for link in manifest.symlinks {
            try checkPath(link.path, name: name)
            guard link.path.hasPrefix("Contents/") else {
                throw DeliveryDocumentError(name, "\(link.path): a symlink outside Contents/")
            }
            guard paths.insert(link.path).inserted else {
                throw DeliveryDocumentError(name, "\(link.path) is listed twice")
            }
            links[link.path] = link.target
        }
        for path in paths {
            var parent = Substring(path)
            while let slash = parent.lastIndex(of: "/") {
                parent = parent[..<slash]
                if paths.contains(String(parent)) {
                    throw DeliveryDocumentError(name, "\(path) lies below \(parent), which is a file or a symlink")
                }
            }
        }
        for link in manifest.symlinks where !staysInside(link.path, links: links) {
            throw DeliveryDocumentError(
                name, "\(link.path): the symlink to '\(link.target)' leads outside Contents/ (or loops)")
        }
    }

    /// Refuses a path that is absolute, empty, has an empty, `.` or `..` component, a NUL, a
    /// component over 255 bytes, or lies neither under `Contents/` nor at `ContentInfo.plist`.
    package static func checkPath(_ path: String, name: String) throws(DeliveryDocumentError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if path.hasPrefix("/") { throw DeliveryDocumentError(name, "'\(path)' is an absolute path") }
        for part in parts {
            if part.isEmpty || part == "." || part == ".." {
                throw DeliveryDocumentError(name, "'\(path)' has an empty, '.' or '..' component")
            }
            if part.utf8.count > 255 || part.utf8.contains(0) {
                throw DeliveryDocumentError(name, "'\(path)' has a component over 255 bytes or a NUL")
            }
        }
        guard path.utf8.count <= 4096, path == "ContentInfo.plist" || (parts.count >= 2 && parts[0] == "Contents")
        else {
            throw DeliveryDocumentError(name, "'\(path)' is neither ContentInfo.plist nor under Contents/")
        }
    }

    /// True when the symlink at `path` resolves, through the other symlinks in `links`, to
    /// `Contents/` or below, in at most ``maxHops`` links.
    package static func staysInside(_ path: String, links: [String: String]) -> Bool {
        guard let target = links[path], !target.isEmpty, !target.hasPrefix("/") else { return false }
        var stack = path.split(separator: "/").map(String.init)
        stack.removeLast()
        var pending =
            target.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed()
            as [String]
        var hops = 0
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." {
                if stack.count <= 1 { return false }
                stack.removeLast()
                continue
            }
            stack.append(part)
            if let next = links[stack.joined(separator: "/")] {
                hops += 1
                if hops > maxHops || next.isEmpty || next.hasPrefix("/") { return false }
                stack.removeLast()
                pending.append(contentsOf: next.split(separator: "/").map(String.init).reversed())
            }
        }
        return stack.first == "Contents"
    }
}
