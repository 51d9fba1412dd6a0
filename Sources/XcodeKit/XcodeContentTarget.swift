import IAPRules
import IAPSystem

/// What an In-App Purchase Content target builds, as Xcode would build it: ContentInfo.plist from
/// `INFOPLIST_FILE`, and each file of its Resources phase copied into `Contents/` by file name (a
/// folder reference whole, a localized variant into its `.lproj` folder).
package struct XcodeContentTarget: Sendable {
    /// One file or folder reference copied into `Contents/`.
    package struct Resource: Sendable, Equatable {
        /// The path on disk (relative to the working folder, or absolute).
        package var sourcePath: String
        /// Where it goes below `Contents/`, one component per element (a folder on disk is copied whole).
        package var destination: [String]
    }

    /// The target's name.
    package var name: String
    /// `PRODUCT_NAME`, expanded: the content folder's (and the component's) name.
    package var productName: String
    /// The build configuration read (the list's default, Release in Xcode's projects).
    package var configuration: String
    /// `INFOPLIST_FILE`, resolved against `SRCROOT`.
    package var contentInfoPath: String
    /// The resources, in the order of the Resources phase.
    package var resources: [Resource]

    /// The content target `name` of `project` (the only one when nil) in `configuration` (the
    /// target's default when nil). Throws every finding that stops it.
    package static func resolve(_ project: XcodeProject, target name: String?, configuration: String? = nil)
        throws(XcodeProjectError) -> XcodeContentTarget
    {
        let target = try choose(project, name)
        let targetName = target.string("name") ?? "?"
        let (config, settings) = try buildSettings(project, target: target, name: targetName, configuration)
        guard let plist = try settings.value("INFOPLIST_FILE"), !plist.isEmpty else {
            throw XcodeProjectError(
                Rule.xcodeBuildSetting, XcodeProject.entry,
                "the target \(targetName) sets no INFOPLIST_FILE in its \(config) configuration, so its ContentInfo.plist is unknown; set INFOPLIST_FILE to the plist's path"
            )
        }
        let productName = try settings.value("PRODUCT_NAME") ?? targetName
        guard PathText.components(productName).count == 1, !productName.isEmpty, productName != ".", productName != ".."
        else {
            throw XcodeProjectError(
                Rule.xcodeBuildSetting, XcodeProject.entry,
                "PRODUCT_NAME expands to '\(productName)', which cannot name a folder")
        }
        let paths = try XcodePaths(project)
        var resources: [Resource] = []
        for phaseID in try project.ids(target, "buildPhases", what: "the target \(targetName)") {
            let phase = try project.object(
                phaseID,
                isa: [
                    "PBXResourcesBuildPhase", "PBXSourcesBuildPhase", "PBXFrameworksBuildPhase",
                    "PBXCopyFilesBuildPhase", "PBXShellScriptBuildPhase", "PBXHeadersBuildPhase",
                    "PBXRezBuildPhase",
                ], what: "a build phase of \(targetName)")
            guard phase.string("isa") == "PBXResourcesBuildPhase" else { continue }
            for fileID in try project.ids(phase, "files", what: "the Resources phase") {
                let buildFile = try project.object(fileID, isa: ["PBXBuildFile"], what: "the Resources phase")
                resources += try paths.resources(of: buildFile, id: fileID)
            }
        }
        return XcodeContentTarget(
            name: targetName, productName: productName, configuration: config,
            contentInfoPath: PathText.isAbsolute(plist) ? plist : project.sourceRoot + "/" + plist,
            resources: resources)
    }

    /// The content target named `name`, or the only one.
    private static func choose(_ project: XcodeProject, _ name: String?) throws(XcodeProjectError)
        -> OldStyleDictionary
    {
        let content = project.contentTargets
        let all = project.targets.map { "\($0.name) (\($0.productType.isEmpty ? "no product type" : $0.productType))" }
        let listed = all.isEmpty ? "none" : all.joined(separator: ", ")
        guard let chosen = name ?? (content.count == 1 ? content[0] : nil) else {
            if content.isEmpty {
                throw XcodeProjectError(
                    Rule.xcodeNoContentTarget, XcodeProject.entry,
                    "the project has no target of product type \(XcodeProject.contentProductType); its targets: \(listed)"
                )
            }
            throw XcodeProjectError(
                Rule.xcodeTargetAmbiguous, XcodeProject.entry,
                "the project has \(content.count) In-App Purchase Content targets (\(content.joined(separator: ", "))); choose one with --target NAME"
            )
        }
        let targetIDs = try project.ids(project.root, "targets", what: "the project")
        for id in targetIDs {
            let target = try project.object(
                id, isa: ["PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget"], what: "the project's targets")
            if target.string("name") == chosen, target.string("productType") == XcodeProject.contentProductType {
                return target
            }
        }
        throw XcodeProjectError(
            Rule.xcodeNoContentTarget, XcodeProject.entry,
            "the project has no In-App Purchase Content target named '\(chosen)'; its content targets: \(content.isEmpty ? "none" : content.joined(separator: ", "))"
        )
    }

    /// The target's and the project's settings in the chosen configuration.
    private static func buildSettings(
        _ project: XcodeProject, target: OldStyleDictionary, name: String, _ wanted: String?
    ) throws(XcodeProjectError) -> (String, BuildSettings) {
        let list = try project.object(
            target.string("buildConfigurationList"), isa: ["XCConfigurationList"], what: "the target \(name)")
        let configuration = wanted ?? list.string("defaultConfigurationName") ?? "Release"
        func settings(_ list: OldStyleDictionary, _ what: String) throws(XcodeProjectError) -> [String: String]? {
            for id in try project.ids(list, "buildConfigurations", what: what) {
                let config = try project.object(id, isa: ["XCBuildConfiguration"], what: what)
                guard config.string("name") == configuration else { continue }
                var values: [String: String] = [:]
                let table = config["buildSettings"]?.dictionary ?? OldStyleDictionary()
                for key in table.keys {
                    // A list (GCC_PREPROCESSOR_DEFINITIONS…) is never a path iapkg needs: kept joined.
                    values[key] = table[key]?.string ?? table[key]?.array?.compactMap(\.string).joined(separator: " ")
                }
                return values
            }
            return nil
        }
        guard let targetSettings = try settings(list, "the target \(name)'s configurations") else {
            throw XcodeProjectError(
                Rule.xcodeBuildSetting, XcodeProject.entry,
                "the target \(name) has no '\(configuration)' build configuration; give --configuration one it has")
        }
        let projectList = try project.object(
            project.root.string("buildConfigurationList"), isa: ["XCConfigurationList"], what: "the project")
        let projectSettings = try settings(projectList, "the project's configurations") ?? [:]
        // Absolute, as Xcode gives them: "$(SRCROOT)/x" is then a path of its own, never joined again.
        let root = FileSystem.realPath(project.sourceRoot) ?? project.sourceRoot
        let builtIn = [
            "TARGET_NAME": name, "PROJECT_NAME": project.name, "SRCROOT": root, "SOURCE_ROOT": root,
            "PROJECT_DIR": root,
        ]
        return (
            configuration,
            BuildSettings(
                target: targetSettings, project: projectSettings, builtIn: builtIn, configuration: configuration)
        )
    }
}
