import IAPRules
import IAPSystem

/// Problems that stop reading a project: each a finding under an `xcode-*` rule.
package struct XcodeProjectError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, each under its rule.
    package var findings: [Finding]

    init(_ findings: [Finding]) { self.findings = findings }
    init(_ rule: Rule, _ entry: String?, _ message: String, offset: UInt64? = nil) {
        findings = [rule.finding(entry, offset: offset, message)]
    }

    package var description: String { findings.map(\.message).joined(separator: "; ") }
}

/// An Xcode project (`NAME.xcodeproj/project.pbxproj`), read strictly: its objects by id, its
/// root object, and the folders paths are relative to.
package struct XcodeProject: Sendable {
    /// The product type of an In-App Purchase Content target.
    package static let contentProductType = "com.apple.product-type.in-app-purchase-content"
    /// The entry findings about project.pbxproj name.
    static let entry = "project.pbxproj"

    /// The `.xcodeproj` folder as given.
    package let path: String
    /// The project's name: the `.xcodeproj` folder's name without its extension.
    package let name: String
    /// `SRCROOT`: the folder holding the `.xcodeproj`, joined with the root object's `projectDirPath`.
    package let sourceRoot: String
    let objects: [String: OldStyleDictionary]
    let root: OldStyleDictionary

    /// Reads `path/project.pbxproj`. Throws `SystemError` when the file cannot be read (exit 2) and
    /// `XcodeProjectError` when it is not a project iapkg can read.
    package static func open(_ path: String) throws -> XcodeProject {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let file = trimmed + "/project.pbxproj"
        guard FileSystem.status(file)?.kind == .regular else {
            throw XcodeProjectError(
                Rule.xcodePbxprojSyntax, entry,
                "\(trimmed) holds no project.pbxproj; give the .xcodeproj folder of an Xcode project")
        }
        let descriptor = try FileDescriptor.openForReading(file)
        let size = try descriptor.size()
        guard size <= UInt64(OldStyleParser.maxBytes) else {
            throw XcodeProjectError(
                Rule.xcodePbxprojSyntax, entry,
                "project.pbxproj is \(size) bytes, over the \(OldStyleParser.maxBytes)-byte limit")
        }
        return try read(try descriptor.read(count: Int(size), at: 0), path: trimmed)
    }

    /// Reads the bytes of a `project.pbxproj` as the project at `path` (the `.xcodeproj` folder,
    /// which names the project and the folder its paths are relative to); touches no file.
    package static func read(_ bytes: [UInt8], path trimmed: String) throws(XcodeProjectError) -> XcodeProject {
        let value: OldStyleValue
        do { value = try OldStyleParser.parse(bytes) } catch {
            throw XcodeProjectError(
                Rule.xcodePbxprojSyntax, entry,
                "project.pbxproj cannot be read at \(error); open the project in Xcode and save it, or fix that line",
                offset: UInt64(error.offset))
        }
        let components = PathText.components(trimmed)
        let base = components.last ?? ""
        let name = base.hasSuffix(".xcodeproj") ? String(base.dropLast(".xcodeproj".count)) : base
        let parent = components.count > 1 ? components.dropLast().joined(separator: "/") : "."
        guard let top = value.dictionary, let objectTable = top["objects"]?.dictionary,
            let rootID = top.string("rootObject")
        else {
            throw XcodeProjectError(
                Rule.xcodeProjectStructure, entry, "project.pbxproj has no 'objects' dictionary or no 'rootObject'")
        }
        var objects: [String: OldStyleDictionary] = [:]
        for key in objectTable.keys {
            guard let object = objectTable[key]?.dictionary, object.string("isa") != nil else {
                throw XcodeProjectError(
                    Rule.xcodeProjectStructure, entry, "the object \(key) is not a dictionary with an 'isa'")
            }
            objects[key] = object
        }
        guard let root = objects[rootID], root.string("isa") == "PBXProject" else {
            throw XcodeProjectError(
                Rule.xcodeProjectStructure, entry, "the rootObject \(rootID) is not a PBXProject object")
        }
        let projectDir = root.string("projectDirPath") ?? ""
        let sourceRoot =
            projectDir.isEmpty ? parent : PathText.isAbsolute(projectDir) ? projectDir : parent + "/" + projectDir
        return XcodeProject(
            path: trimmed, name: name, sourceRoot: sourceRoot, objects: objects, root: root)
    }

    /// Every target: its name and product type (empty for aggregate and legacy targets).
    package var targets: [(name: String, productType: String)] {
        (root["targets"]?.array ?? []).compactMap { $0.string.flatMap { objects[$0] } }.map {
            ($0.string("name") ?? "?", $0.string("productType") ?? "")
        }
    }

    /// The names of the In-App Purchase Content targets.
    package var contentTargets: [String] {
        targets.filter { $0.productType == Self.contentProductType }.map(\.name)
    }

    /// The object `id` refers to, of one of the kinds `isa` names; throws a structure finding naming `what`.
    func object(_ id: String?, isa: Set<String>, what: String) throws(XcodeProjectError) -> OldStyleDictionary {
        guard let id else {
            throw XcodeProjectError(Rule.xcodeProjectStructure, Self.entry, "\(what) names no object")
        }
        guard let object = objects[id], let kind = object.string("isa"), isa.contains(kind) else {
            let found = objects[id]?.string("isa").map { "a \($0)" } ?? "missing"
            throw XcodeProjectError(
                Rule.xcodeProjectStructure, Self.entry,
                "\(what) refers to \(id), which is \(found), not \(isa.sorted().joined(separator: " or "))")
        }
        return object
    }

    /// The ids an object lists under `key` (an array of ids).
    func ids(_ object: OldStyleDictionary, _ key: String, what: String) throws(XcodeProjectError) -> [String] {
        guard let value = object[key] else { return [] }
        guard let items = value.array, items.allSatisfy({ $0.string != nil }) else {
            throw XcodeProjectError(Rule.xcodeProjectStructure, Self.entry, "\(what)'s '\(key)' is not a list of ids")
        }
        return items.compactMap(\.string)
    }
}
