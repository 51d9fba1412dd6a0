import Foundation

/// Writes `project.pbxproj` files of the shape Xcode writes (objectVersion 46, sections of objects
/// by id, comments after ids) from a few calls: file references, groups, variant groups, content
/// targets with their build settings and Resources phase.
struct XcodeProjectFixture {
    static let contentType = "com.apple.product-type.in-app-purchase-content"

    private(set) var objects: [(id: String, comment: String, fields: [(String, String)])] = []
    private var counter = 0
    private(set) var targets: [String] = []
    var mainChildren: [String] = []
    var projectSettings: [String: String] = [:]

    /// A fresh 24-digit hex id, as Xcode makes.
    private mutating func nextID() -> String {
        counter += 1
        let digits = String(counter, radix: 16, uppercase: true)
        return "A1B2C3D4" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    private mutating func add(_ comment: String, _ fields: [(String, String)]) -> String {
        let id = nextID()
        objects.append((id, comment, fields))
        return id
    }

    /// A file reference; `type` is its lastKnownFileType ("folder" for a folder reference).
    mutating func file(_ path: String, tree: String = "<group>", type: String = "text", name: String? = nil) -> String {
        var fields = [
            ("isa", "PBXFileReference"), ("lastKnownFileType", quoted(type)), ("path", quoted(path)),
            ("sourceTree", quoted(tree)),
        ]
        if let name { fields.insert(("name", quoted(name)), at: 2) }
        return add(name ?? path, fields)
    }

    /// A group holding `children`; without `path` it adds nothing to its children's paths.
    mutating func group(_ children: [String], path: String? = nil, name: String? = nil, tree: String = "<group>")
        -> String
    {
        var fields = [("isa", "PBXGroup"), ("children", list(children))]
        if let name { fields.append(("name", quoted(name))) }
        if let path { fields.append(("path", quoted(path))) }
        fields.append(("sourceTree", quoted(tree)))
        return add(name ?? path ?? "", fields)
    }

    /// A localized resource: its variants (file references such as `en.lproj/Name.strings`).
    mutating func variantGroup(_ children: [String], name: String) -> String {
        add(
            name,
            [
                ("isa", "PBXVariantGroup"), ("children", list(children)), ("name", quoted(name)),
                ("sourceTree", "\"<group>\""),
            ])
    }

    /// A target whose Resources phase copies `resources`, with Debug and Release settings.
    @discardableResult
    mutating func target(
        _ name: String, resources: [String], settings: [String: String], productType: String = contentType,
        release: String = "Release"
    ) -> String {
        let buildFiles = resources.map { add("in Resources", [("isa", "PBXBuildFile"), ("fileRef", $0)]) }
        let phase = add(
            "Resources",
            [
                ("isa", "PBXResourcesBuildPhase"), ("buildActionMask", "2147483647"), ("files", list(buildFiles)),
                ("runOnlyForDeploymentPostprocessing", "0"),
            ])
        let configurations = ["Debug", release].map { configuration in
            add(
                configuration,
                [("isa", "XCBuildConfiguration"), ("buildSettings", dictionary(settings)), ("name", configuration)])
        }
        let list = add(
            "Build configuration list for PBXNativeTarget \"\(name)\"",
            [
                ("isa", "XCConfigurationList"), ("buildConfigurations", self.list(configurations)),
                ("defaultConfigurationIsVisible", "0"), ("defaultConfigurationName", release),
            ])
        let target = add(
            name,
            [
                ("isa", "PBXNativeTarget"), ("buildConfigurationList", list), ("buildPhases", self.list([phase])),
                ("buildRules", "()"), ("dependencies", "()"), ("name", quoted(name)), ("productName", quoted(name)),
                ("productType", quoted(productType)),
            ])
        targets.append(target)
        return target
    }

    /// The whole `project.pbxproj` text.
    mutating func text() -> String {
        let main = group(mainChildren)
        let configurations = ["Debug", "Release"].map {
            add($0, [("isa", "XCBuildConfiguration"), ("buildSettings", dictionary(projectSettings)), ("name", $0)])
        }
        let list = add(
            "Build configuration list for PBXProject",
            [
                ("isa", "XCConfigurationList"), ("buildConfigurations", self.list(configurations)),
                ("defaultConfigurationIsVisible", "0"), ("defaultConfigurationName", "Release"),
            ])
        let root = add(
            "Project object",
            [
                ("isa", "PBXProject"), ("buildConfigurationList", list), ("compatibilityVersion", "\"Xcode 3.2\""),
                ("mainGroup", main), ("projectDirPath", "\"\""), ("projectRoot", "\"\""),
                ("targets", self.list(targets)),
            ])
        var out = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 46;\n\tobjects = {\n"
        for (id, comment, fields) in objects {
            let body = fields.map { "\($0.0) = \($0.1);" }.joined(separator: " ")
            out += "\t\t\(id) /* \(comment) */ = {\(body) };\n"
        }
        out += "\t};\n\trootObject = \(root) /* Project object */;\n}\n"
        return out
    }

    /// Writes `NAME.xcodeproj/project.pbxproj` in `folder`; returns the `.xcodeproj` path.
    mutating func write(in folder: String, name: String = "Content") throws -> String {
        let project = folder + "/\(name).xcodeproj"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try text().write(toFile: project + "/project.pbxproj", atomically: true, encoding: .utf8)
        return project
    }

    private func list(_ ids: [String]) -> String { "(" + ids.map { $0 + "," }.joined(separator: " ") + ")" }

    private func dictionary(_ settings: [String: String]) -> String {
        "{" + settings.sorted { $0.key < $1.key }.map { " \($0.key) = \(quoted($0.value));" }.joined() + " }"
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
