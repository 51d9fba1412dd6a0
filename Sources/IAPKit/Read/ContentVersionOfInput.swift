import IAPSystem

/// The ContentVersion of a package or a content folder, read without judging it: what
/// `validate --newer-than FILE` compares against. A package is read as `inspect` reads it (TOC,
/// Bom and the head of the Payload); a folder's ContentInfo.plist is read alone.
package enum ContentVersionOfInput {
    /// The version `path` carries; throws when it cannot be read.
    package static func read(_ path: String) throws(IAPKitError) -> ContentVersion {
        let text: String?
        if try FileStatus.ofInput(path).isDirectory {
            text = try folderVersion(path)
        } else {
            text = try PackageInspector.inspect(path).contentVersion
        }
        guard let text, let version = ContentVersion(text) else {
            throw .refused("\(path): its ContentVersion cannot be read")
        }
        return version
    }

    private static func folderVersion(_ folder: String) throws(IAPKitError) -> String? {
        let plist = folder + "/ContentInfo.plist"
        guard FileSystem.linkStatus(plist)?.isRegularFile == true else { return nil }
        return try ContentInfoLoader.load(plist).info?.contentVersion.text
    }
}
