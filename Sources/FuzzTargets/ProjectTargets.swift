internal import XcodeKit

/// An Xcode project's `project.pbxproj`, as build, validate and init --from read it.
enum ProjectTargets {
    /// The old-style property list reader, then the project model and every content target's
    /// resolution (settings expanded, group paths joined, Resources phase read). The project lies
    /// in a folder that does not exist, so nothing on disk is read.
    static func readProject(_ input: [UInt8]) {
        guard let project = try? XcodeProject.read(input, path: "/nonexistent-iapkg-fuzz/Fuzz.xcodeproj") else {
            return
        }
        for name in [nil] + project.contentTargets.prefix(4).map(Optional.some) {
            _ = try? XcodeContentTarget.resolve(project, target: name)
        }
    }
}
