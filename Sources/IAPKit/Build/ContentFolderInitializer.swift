import IAPCore

#if canImport(Glibc)
    import Glibc
#endif

/// Creates a new content folder: `ContentInfo.plist` (version 1.0) and an empty `Contents/`.
public enum ContentFolderInitializer {
    /// Creates the folder at `path` for `productIdentifier`. Refuses a bad identifier and a folder
    /// that exists and is not empty; never overwrites anything.
    public static func create(productIdentifier: String, at path: String) throws(IAPKitError) {
        if let problem = ProductIdentifier.problem(with: productIdentifier) {
            throw .refused("'\(productIdentifier)' is not a valid product identifier: \(problem)")
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else {
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
        } else if mkdir(path, 0o755) != 0 {
            throw .system(SystemError("create folder", path: path))
        }
        let plistPath = path + "/ContentInfo.plist"
        do {
            let file = try FileDescriptor.createExclusive(plistPath)
            try file.write(try ContentInfo.initialPropertyList(productIdentifier: productIdentifier))
            try file.sync()
        } catch {
            throw .system(error as? SystemError ?? SystemError("write", path: plistPath))
        }
        if mkdir(path + "/Contents", 0o755) != 0 {
            throw .system(SystemError("create folder", path: path + "/Contents"))
        }
    }
}
