import IAPCore

/// The rules every content tree is held to (FORMAT.md §6: shape, entries, code, links, hygiene),
/// whichever source the entries came from. Build, validate and unpack all call this one engine.
public enum ContentRules {
    /// The default cap on unpacked bytes: Apple's 2 GiB, since a device must store what it unpacks.
    public static let defaultMaxUnpackedBytes: UInt64 = 2_147_483_648

    /// Every finding for `entries`. The content root itself (no components) may be among them.
    /// Files (and hard links, unpacked as copies) adding up to more than `maxUnpackedBytes` are an error.
    public static func check(_ entries: [ContentEntry], maxUnpackedBytes: UInt64 = defaultMaxUnpackedBytes) -> [Finding]
    {
        var findings: [Finding] = []
        let items = EntryList(entries)
        checkNames(items, &findings)
        checkUniqueness(items, &findings)
        checkShape(items, &findings)
        checkKinds(items, &findings)
        checkCode(items, &findings)
        checkLinks(items, &findings)
        checkHygiene(items, maxUnpackedBytes: maxUnpackedBytes, &findings)
        return findings
    }

    private static func checkNames(_ entries: EntryList, _ findings: inout [Finding]) {
        for entry in entries {
            if entry.rawPath.hasPrefix("/") {
                findings.append(
                    .error(
                        "entry-absolute-path", entry,
                        "the path is absolute; every path must be relative to the content root (ContentInfo.plist, Contents/…)"
                    ))
                continue
            }
            if let problem = entry.components.lazy.compactMap(EntryNameRules.problem(with:)).first {
                let rule = problem.contains("bytes; at most") ? "entry-component-length" : "entry-name-invalid"
                findings.append(
                    .error(
                        rule, entry,
                        "the path \(problem); rename it (traversal and odd names are refused so nothing lands outside the content folder)"
                    ))
                continue
            }
            if entry.path.utf8.count > EntryNameRules.maxPathBytes {
                findings.append(
                    .error(
                        "entry-path-length", entry,
                        "the path is \(entry.path.utf8.count) bytes; at most \(EntryNameRules.maxPathBytes) are allowed — shorten it"
                    ))
            }
            if entry.components.contains(where: EntryNameRules.hasBidiControl) {
                findings.append(
                    .warning(
                        "entry-bidi", entry,
                        "the name holds a bidirectional control character that can make it display as something else; rename it"
                    ))
            }
            if entry.hasExtendedAttributes {
                findings.append(
                    .warning(
                        "entry-xattr", entry,
                        "the entry carries extended attributes; they are never restored on unpack"))
            }
            if entry.hasFlags {
                findings.append(
                    .warning(
                        "entry-flags", entry,
                        "the entry carries file flags; they are never restored on unpack"))
            }
        }
    }

    private static func checkUniqueness(_ entries: EntryList, _ findings: inout [Finding]) {
        // Indices, not copies: a package can hold a million entries.
        var exact: [ExactPath: Int] = [:]
        var canonical: [String: Int] = [:]
        var folded: [String: Int] = [:]
        exact.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() where !entry.components.isEmpty {
            let path = entries.paths[index]
            if let first = exact[ExactPath(path)] {
                findings.append(
                    .error(
                        "entry-duplicate", entry,
                        "the path appears more than once (first as \(entries[first].kind.name)); keep one"))
                continue
            }
            exact[ExactPath(path)] = index
            if let other = canonical[path] {
                findings.append(
                    .error(
                        "entry-unicode-collision", entry,
                        "the name equals '\(entries[other].reportedPath)' after Unicode normalisation; on Apple file systems they are the same file — rename one"
                    ))
                continue
            }
            canonical[path] = index
            let lower = path.lowercased()
            if let other = folded[lower] {
                findings.append(
                    .warning(
                        "entry-case-collision", entry,
                        "the name differs from '\(entries[other].reportedPath)' only in case; on a case-insensitive volume one hides the other"
                    ))
            } else {
                folded[lower] = index
            }
        }
    }

    private static func checkShape(_ entries: EntryList, _ findings: inout [Finding]) {
        var top: [String: ContentEntry] = [:]
        var implicitDirectories: Set<String> = []
        // Absolute and traversing paths are reported by checkNames; they are not root entries.
        for entry in entries
        where !entry.components.isEmpty && !entry.rawPath.hasPrefix("/")
            && EntryNameRules.problem(with: entry.components[0]) == nil
        {
            if entry.components.count == 1 {
                top[entry.components[0]] = top[entry.components[0]] ?? entry
            } else {
                implicitDirectories.insert(entry.components[0])
            }
        }
        switch top["ContentInfo.plist"]?.kind {
        case .file?: break
        case nil:
            findings.append(
                .error(
                    "shape-missing-contentinfo", "ContentInfo.plist", offset: nil,
                    "the content root has no ContentInfo.plist; create one with IAPProductIdentifier and ContentVersion (iapkg init makes it)"
                ))
        case let kind?:
            findings.append(
                .error(
                    "shape-contentinfo-type", "ContentInfo.plist", offset: top["ContentInfo.plist"]?.offset,
                    "ContentInfo.plist is a \(kind.name), not a regular file; replace it with the property list itself")
            )
        }
        switch top["Contents"]?.kind {
        case .directory?: break
        case nil where implicitDirectories.contains("Contents"): break
        case nil:
            findings.append(
                .error(
                    "shape-missing-contents", "Contents", offset: nil,
                    "the content root has no Contents folder; put everything the app receives under Contents/"))
        case let kind?:
            findings.append(
                .error(
                    "shape-contents-type", "Contents", offset: top["Contents"]?.offset,
                    "Contents is a \(kind.name), not a folder; everything the app receives must be inside a Contents folder"
                ))
        }
        let extras = Set(top.keys).union(implicitDirectories).subtracting(["ContentInfo.plist", "Contents"])
        for name in extras.sorted() where !EntryNameRules.isJunk(name) {
            let entry = top[name] ?? entries.first { $0.components.first == name }
            let advice =
                name.lowercased().hasSuffix(".pkg")
                ? "'\(name)' looks like a built package: remove it, and write packages outside the content folder"
                : "move '\(name)' into Contents/ or remove it"
            findings.append(
                .error(
                    "shape-extra-root-entry", entry?.reportedPath ?? name, offset: entry?.offset,
                    "only ContentInfo.plist and Contents/ may sit at the content root; \(advice)"))
        }
    }

    private static func checkKinds(_ entries: EntryList, _ findings: inout [Finding]) {
        let kindByPath = entries.kindByPath
        for entry in entries {
            switch entry.kind {
            case .fifo, .characterDevice, .blockDevice, .socket, .unknown:
                findings.append(
                    .error(
                        "entry-special-file", entry,
                        "the entry is a \(entry.kind.name); content may hold only files, folders and links — remove it")
                )
            default: break
            }
            if entry.permissions & 0o7000 != 0, entry.kind != .symlink {
                let bits = [(0o4000, "setuid"), (0o2000, "setgid"), (0o1000, "sticky")]
                    .filter { entry.permissions & UInt32($0.0) != 0 }.map(\.1).joined(separator: ", ")
                findings.append(
                    .error(
                        "entry-setid", entry,
                        "the entry has the \(bits) bit set (mode \(String(entry.permissions, radix: 8))); clear it (chmod -s / chmod -t)"
                    ))
            }
            guard entry.components.count > 1 else { continue }
            for depth in 1..<entry.components.count {
                let parent = entry.components[0..<depth].joined(separator: "/")
                guard let kind = kindByPath[parent], kind != .directory else { continue }
                if kind == .symlink {
                    findings.append(
                        .error(
                            "link-write-through", entry,
                            "the entry lies below '\(parent)', which is a symlink: unpacking would write through the link; store the real folder instead"
                        ))
                } else {
                    findings.append(
                        .error(
                            "entry-file-dir-conflict", entry,
                            "the entry lies below '\(parent)', which is a \(kind.name), not a folder; one path cannot be both"
                        ))
                }
                break
            }
        }
    }

    private static func checkCode(_ entries: EntryList, _ findings: inout [Finding]) {
        var reportedBundles: Set<String> = []
        for entry in entries where !entry.components.isEmpty {
            if let index = entry.components.firstIndex(where: { EntryNameRules.codeSuffix(of: $0) != nil }) {
                let bundle = entry.components[0...index].joined(separator: "/")
                if reportedBundles.insert(bundle).inserted {
                    let suffix = EntryNameRules.codeSuffix(of: entry.components[index]) ?? ""
                    findings.append(
                        .error(
                            "exec-bundle-name", bundle, offset: entry.offset,
                            "a '\(suffix)' is executable code, which hosted content may not contain; remove it"))
                }
            }
            if entry.kind == .hardlink, let kind = entry.sniff?.executable {
                findings.append(
                    .error(
                        kind.rule, entry,
                        "the hard link carries \(kind.rawValue) executable bytes of its own (judged by its bytes, not its name); hosted content may not contain executable code — remove it"
                    ))
                continue
            }
            // A hard link that carries bytes of its own gets the same warnings a file does.
            guard entry.kind == .file || (entry.kind == .hardlink && entry.size > 0) else { continue }
            if let kind = entry.sniff?.executable {
                findings.append(
                    .error(
                        kind.rule, entry,
                        "the file is \(kind.article) \(kind.rawValue) executable (judged by its bytes, not its name); hosted content may not contain executable code — remove it"
                    ))
                continue
            }
            if entry.sniff?.isScript == true {
                findings.append(
                    .warning(
                        "exec-script", entry,
                        "the file starts with '#!', a script; apps cannot run it, but reviewers may ask why it is there"
                    ))
            } else if let name = entry.components.last, EntryNameRules.isNativeLibraryName(name) {
                findings.append(
                    .warning(
                        "exec-shared-library", entry,
                        "the name looks like a native library (.so / .a); hosted content may not contain executable code"
                    ))
            } else if entry.permissions & 0o111 != 0 {
                findings.append(
                    .warning(
                        "exec-mode-bits", entry,
                        "a data file has execute permission (mode \(String(entry.permissions, radix: 8))); clear it with chmod -x"
                    ))
            }
        }
    }

    private static func checkLinks(_ entries: EntryList, _ findings: inout [Finding]) {
        let resolver = SymlinkResolver(kinds: entries.kindByPath, entries: entries.elements)
        let paths = entries.kindByPath
        for entry in entries where !entry.components.isEmpty {
            switch entry.kind {
            case .symlink:
                let target = entry.linkTarget ?? ""
                switch resolver.resolve(linkAt: entry.components) {
                case .empty:
                    findings.append(
                        .error(
                            "link-empty", entry,
                            "the symlink has an empty target; remove it or point it at a file inside Contents/"))
                case .absolute:
                    findings.append(
                        .error(
                            "link-absolute", entry,
                            "the symlink points to the absolute path '\(target)'; links must be relative and stay inside Contents/"
                        ))
                case .escapes:
                    findings.append(
                        .error(
                            "link-escape", entry,
                            "the symlink to '\(target)' leads above the content root; links must stay inside Contents/")
                    )
                case .loop:
                    findings.append(
                        .error(
                            "link-loop", entry,
                            "the symlink to '\(target)' never resolves (a loop of links); break the loop"))
                case .inside(let resolved) where resolved.first != "Contents",
                    .dangling(let resolved) where resolved.first != "Contents":
                    findings.append(
                        .error(
                            "link-escape", entry,
                            "the symlink to '\(target)' resolves to '\(resolved.joined(separator: "/"))', outside Contents/; links must stay inside Contents/"
                        ))
                case .dangling:
                    findings.append(
                        .warning(
                            "link-dangling", entry,
                            "the symlink to '\(target)' points at nothing in the package"))
                case .inside:
                    break
                }
            case .hardlink:
                let raw = entry.hardlinkTarget ?? ""
                let parts = ContentEntry.components(of: raw)
                let relative =
                    !raw.hasPrefix("/") && !parts.isEmpty
                    && parts.allSatisfy { EntryNameRules.problem(with: $0) == nil }
                let target = parts.joined(separator: "/")
                if relative, let kind = paths[target], kind == .file, target != entry.path {
                    findings.append(
                        .warning(
                            "link-hard", entry,
                            "a hard link to '\(target)'; it is unpacked as a copy"))
                } else {
                    findings.append(
                        .error(
                            "link-hard-external", entry,
                            "the hard link points to '\(entry.hardlinkTarget ?? "")', which is not a file of this package; replace it with a real file"
                        ))
                }
            default:
                break
            }
        }
    }

    private static func checkHygiene(_ entries: EntryList, maxUnpackedBytes: UInt64, _ findings: inout [Finding]) {
        var reported: Set<String> = []
        var total: UInt64 = 0
        var contentsHasChildren = false
        // Unpack writes every hard link as a copy: count the bytes each copy takes.
        var linkedSizes: [String: UInt64] = [:]
        if entries.contains(where: { $0.kind == .hardlink }) {
            for entry in entries where entry.kind == .file { linkedSizes[entry.path] = entry.size }
        }
        for entry in entries where !entry.components.isEmpty {
            var size: UInt64 = 0
            if entry.kind == .file { size = entry.size }
            if entry.kind == .hardlink {
                size = max(
                    entry.size,
                    linkedSizes[entry.hardlinkTarget.map(ContentEntry.components(of:))?.joined(separator: "/") ?? ""]
                        ?? 0)
            }
            let (sum, overflow) = total.addingReportingOverflow(size)
            total = overflow ? .max : sum
            if entry.components.count > 1, entry.components[0] == "Contents" { contentsHasChildren = true }
            guard let index = entry.components.firstIndex(where: EntryNameRules.isJunk) else { continue }
            let junk = entry.components[0...index].joined(separator: "/")
            if reported.insert(junk).inserted {
                findings.append(
                    .warning(
                        "hygiene-junk-file", junk, offset: entry.offset,
                        "'\(entry.components[index])' is operating-system or version-control clutter; iapkg build leaves it out"
                    ))
            }
        }
        let hasContents = entries.contains { $0.components.first == "Contents" }
        if hasContents && !contentsHasChildren {
            findings.append(
                .warning(
                    "hygiene-empty-contents", "Contents", offset: nil,
                    "Contents/ is empty: the app would download nothing but ContentInfo.plist"))
        }
        if let finding = UnpackedSizeLimit.finding(total: total, limit: maxUnpackedBytes, declared: false) {
            findings.append(finding)
        }
    }
}
