import IAPRules
import IAPSystem

/// Where a project's file references and groups are on disk: `<group>` paths joined through the
/// enclosing groups (a group without `path` adds nothing), `SOURCE_ROOT`/`SRCROOT`/`PROJECT_DIR`
/// from the project folder, `<absolute>` as written; other source trees are refused.
struct XcodePaths {
    /// File types Xcode compiles instead of copying.
    static let compiledTypes: Set<String> = [
        "folder.assetcatalog", "file.storyboard", "file.xib", "wrapper.xcdatamodel", "wrapper.xcdatamodeld",
        "wrapper.xcmappingmodel", "file.intentdefinition", "folder.iconcomposer.icon",
    ]
    /// The same, by extension, for references that name no type.
    static let compiledExtensions: Set<String> = [
        "xcassets", "storyboard", "xib", "xcdatamodel", "xcdatamodeld", "xcmappingmodel", "intentdefinition",
    ]
    /// Deepest group nesting followed.
    static let maxDepth = 64

    let project: XcodeProject
    /// The group holding each reference or group.
    private var parents: [String: String] = [:]

    init(_ project: XcodeProject) throws(XcodeProjectError) {
        self.project = project
        for (id, object) in project.objects.sorted(by: { $0.key < $1.key }) {
            guard ["PBXGroup", "PBXVariantGroup", "XCVersionGroup"].contains(object.string("isa") ?? "") else {
                continue
            }
            for child in try project.ids(object, "children", what: "the group \(id)") {
                if let other = parents[child], other != id {
                    throw XcodeProjectError(
                        Rule.xcodeProjectStructure, XcodeProject.entry,
                        "the reference \(child) is a child of two groups (\(other) and \(id)), so its path is ambiguous"
                    )
                }
                parents[child] = id
            }
        }
    }

    /// The path of the reference or group `id` (a folder for a group); nil for a group without
    /// a place of its own at the top.
    func path(of id: String, depth: Int = 0) throws(XcodeProjectError) -> String {
        guard depth < Self.maxDepth else {
            throw XcodeProjectError(Rule.xcodeProjectStructure, XcodeProject.entry, "groups nest in a cycle at \(id)")
        }
        guard let object = project.objects[id] else {
            throw XcodeProjectError(
                Rule.xcodeProjectStructure, XcodeProject.entry, "the reference \(id) does not exist")
        }
        let own = object.string("path")
        let display = object.string("name") ?? own ?? id
        let base: String
        switch object.string("sourceTree") ?? "<group>" {
        case "<group>":
            if let parent = parents[id] {
                base = try path(of: parent, depth: depth + 1)
            } else {
                base = project.sourceRoot
            }
        case "SOURCE_ROOT", "SRCROOT", "PROJECT_DIR":
            base = project.sourceRoot
        case "<absolute>":
            guard let own, PathText.isAbsolute(own) else {
                throw XcodeProjectError(
                    Rule.xcodePathUnsupported, display,
                    "'\(display)' is marked <absolute> but its path '\(own ?? "")' is not absolute")
            }
            return own
        case let tree:
            throw XcodeProjectError(
                Rule.xcodePathUnsupported, display,
                "'\(display)' is relative to \(tree), which exists only where Xcode builds; make it relative to its group or the project"
            )
        }
        guard let own, !own.isEmpty else { return base }
        return PathText.isAbsolute(own) ? own : base + "/" + own
    }

    /// The files a Resources build file copies into `Contents/`.
    func resources(of buildFile: OldStyleDictionary, id: String) throws(XcodeProjectError) -> [XcodeContentTarget
        .Resource]
    {
        guard let refID = buildFile.string("fileRef") else {
            throw XcodeProjectError(
                Rule.xcodeResourceCompiled, XcodeProject.entry,
                "the Resources build file \(id) names no file (a Swift package product or a missing reference)")
        }
        let reference = try project.object(
            refID, isa: ["PBXFileReference", "PBXVariantGroup", "PBXGroup", "XCVersionGroup", "PBXReferenceProxy"],
            what: "the Resources build file \(id)")
        let isa = reference.string("isa") ?? ""
        let display = reference.string("name") ?? reference.string("path") ?? refID
        switch isa {
        case "PBXFileReference":
            try checkCopied(reference, display: display)
            let path = try path(of: refID)
            guard let name = Self.lastComponent(path) else {
                throw XcodeProjectError(
                    Rule.xcodePathUnsupported, display, "'\(display)' resolves to '\(path)', which names no file")
            }
            return [.init(sourcePath: path, destination: [name])]
        case "PBXVariantGroup":
            return try variants(of: reference, id: refID, display: display)
        default:
            throw XcodeProjectError(
                Rule.xcodeResourceCompiled, display,
                "the Resources phase names '\(display)', a \(isa), which Xcode does not copy as a file; add its files or a folder reference instead"
            )
        }
    }

    /// A localized resource: each variant (`en.lproj/Name.strings`) into its `.lproj` folder.
    private func variants(of group: OldStyleDictionary, id: String, display: String) throws(XcodeProjectError)
        -> [XcodeContentTarget.Resource]
    {
        var out: [XcodeContentTarget.Resource] = []
        for child in try project.ids(group, "children", what: "the variant group '\(display)'") {
            let reference = try project.object(child, isa: ["PBXFileReference"], what: "the variant group '\(display)'")
            try checkCopied(reference, display: display)
            let path = try path(of: child)
            let parts = PathText.components(path, omittingEmpty: true)
            guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") else {
                throw XcodeProjectError(
                    Rule.xcodeResourceCompiled, display,
                    "the variant '\(reference.string("name") ?? child)' of '\(display)' is at '\(path)', not inside a LANGUAGE.lproj folder, so its place in Contents/ is unknown"
                )
            }
            out.append(.init(sourcePath: path, destination: Array(parts.suffix(2))))
        }
        return out
    }

    /// Refuses a reference Xcode would compile.
    private func checkCopied(_ reference: OldStyleDictionary, display: String) throws(XcodeProjectError) {
        let type = (reference.string("explicitFileType") ?? reference.string("lastKnownFileType")).flatMap {
            $0.isEmpty ? nil : $0
        }
        let ext = (reference.string("path") ?? "").split(separator: ".").last.map { $0.lowercased() }
        if let type, Self.compiledTypes.contains(type) {
            throw unsupported(display, type)
        }
        if type == nil, let ext, Self.compiledExtensions.contains(ext) { throw unsupported(display, "." + ext) }
    }

    private func unsupported(_ display: String, _ type: String) -> XcodeProjectError {
        XcodeProjectError(
            Rule.xcodeResourceCompiled, display,
            "'\(display)' (\(type)) is compiled by Xcode's tools, not copied; add the compiled output to the target instead"
        )
    }

    /// The last component of `path`, unless it is empty, "." or "..".
    static func lastComponent(_ path: String) -> String? {
        guard let last = PathText.components(path, omittingEmpty: true).last, last != ".", last != ".." else {
            return nil
        }
        return last
    }
}
