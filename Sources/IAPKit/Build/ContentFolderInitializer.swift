import IAPSystem

/// Creates a new content folder: `ContentInfo.plist` (version 1.0) and an empty `Contents/`.
public enum ContentFolderInitializer {
    /// Creates the folder at `path` for `productIdentifier`. Refuses a bad identifier and a folder
    /// that exists and is not empty; never overwrites anything.
    public static func create(productIdentifier: String, at path: String) throws(IAPKitError) {
        if let problem = ProductIdentifier.problem(with: productIdentifier) {
            throw .refused("'\(productIdentifier)' is not a valid product identifier: \(problem)")
        }
        if let status = FileSystem.linkStatus(path) {
            guard status.isDirectory else {
                throw .refused("\(path) already exists and is not a folder; choose another path")
            }
            let existing: [String]
            do { existing = try ContentFolderScanner.names(in: path) } catch {
                throw .system(error as? SystemError ?? SystemError("read folder", path: path))
            }
            guard existing.isEmpty else {
                throw .refused(
                    "\(path) already exists and is not empty; iapkg init never overwrites — choose an empty or new folder"
                )
            }
        } else {
            do { try FileSystem.makeDirectory(path) } catch { throw .system(error) }
        }
        let plistPath = path + "/ContentInfo.plist"
        do {
            let file = try FileDescriptor.createExclusive(plistPath)
            try file.write(try ContentInfo.initialPropertyList(productIdentifier: productIdentifier))
            try file.sync()
        } catch {
            throw .system(error as? SystemError ?? SystemError("write", path: plistPath))
        }
        do { try FileSystem.makeDirectory(path + "/Contents") } catch { throw .system(error) }
    }
}
