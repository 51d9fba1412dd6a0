/// An In-App Purchase Content Xcode project read by `build`, `validate` and `init --from`
/// (PackageFormat.md §8 "Xcode In-App Purchase Content projects"): its `project.pbxproj`, its content target, settings, paths and files.
public struct XcodeRules: RuleGroup {
    public let xcodePbxprojSyntax = Rule(
        "xcode-pbxproj-syntax", .error, .xcode,
        "project.pbxproj is missing or not a readable old-style property list.",
        "iapkg reads project.pbxproj strictly (the old-style ASCII property list Xcode writes) and refuses what it cannot read exactly instead of guessing; the finding names the line and column. Open the project in Xcode and save it again, or fix the line named."
    )
    public let xcodeProjectStructure = Rule(
        "xcode-project-structure", .error, .xcode,
        "An object the project refers to is missing or not of the kind expected.",
        "The project's objects refer to each other by id (the root object, targets, build phases, build files, file references, groups, configurations); one is missing or has the wrong isa or fields, so the content cannot be told. Open the project in Xcode and save it again."
    )
    public let xcodeNoContentTarget = Rule(
        "xcode-no-content-target", .error, .xcode,
        "The project has no In-App Purchase Content target (of that name).",
        "Only a target whose productType is com.apple.product-type.in-app-purchase-content is built; the finding lists the targets there are. Give --target the name of a content target."
    )
    public let xcodeTargetAmbiguous = Rule(
        "xcode-target-ambiguous", .error, .xcode,
        "The project has several In-App Purchase Content targets and no --target chose one.",
        "Each content target is its own product; the finding lists them. Run the command once per target with --target NAME."
    )
    public let xcodeBuildSetting = Rule(
        "xcode-build-setting", .error, .xcode,
        "A build setting is missing or refers to a setting iapkg does not expand.",
        "iapkg expands $(TARGET_NAME), $(PRODUCT_NAME), $(SRCROOT), $(SOURCE_ROOT), $(PROJECT_DIR), $(PROJECT_NAME) and the settings the project itself defines, in the $(…) and ${…} forms, as Xcode would; anything else (an SDK path, a modifier such as :rfc1034identifier, a setting from an .xcconfig file) would be a guess. Write the value out in the target's build settings."
    )
    public let xcodePathUnsupported = Rule(
        "xcode-path-unsupported", .error, .xcode,
        "A file's path is relative to a location iapkg cannot know.",
        "Paths relative to the enclosing group, the project folder (SOURCE_ROOT, SRCROOT) or absolute are resolved; a path relative to the build products, the SDK or the developer folder exists only on the Mac that builds. Make the reference relative to its group or the project."
    )
    public let xcodeResourceCompiled = Rule(
        "xcode-resource-compiled", .error, .xcode,
        "A resource of the target is one Xcode compiles, or not a file at all.",
        "Asset catalogs, storyboards, XIBs and Core Data models are compiled by Xcode's tools, which do not run here, and a group or a package product is no file to copy; plain files, folder references and localized variants are copied. Add the compiled output, or the files themselves, to the target instead."
    )
    public let xcodeResourceDuplicate = Rule(
        "xcode-resource-duplicate", .error, .xcode,
        "Two resources of the target land on the same path in Contents/.",
        "Resources are copied by file name into Contents/ (a variant into its .lproj folder); two with the same name would overwrite each other, and Xcode refuses them too. Rename one or remove it from the target."
    )
    public let xcodeFileMissing = Rule(
        "xcode-file-missing", .error, .xcode,
        "A file the project names is not on disk.",
        "The target's ContentInfo.plist or one of its resources is not where the project says; the package would lack it. Restore the file, or remove it from the target."
    )
    public let xcodeFileUnlisted = Rule(
        "xcode-file-unlisted", .warning, .xcode,
        "A file beside the target's files is not part of the target.",
        "A file sits in a folder that holds the target's resources or its ContentInfo.plist but the target does not name it, so it is not packaged; an author may have forgotten to add it. Add it to the target's Copy Bundle Resources phase, or move it away."
    )
}
