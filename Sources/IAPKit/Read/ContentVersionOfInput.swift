import IAPCore

#if canImport(Glibc)
    import Glibc
#endif

/// The ContentVersion of a package or a content folder, read without judging it: what
/// `validate --newer-than FILE` compares against. A package is read as `inspect` reads it (TOC,
/// Bom and the head of the Payload); a folder's ContentInfo.plist is read alone.
public enum ContentVersionOfInput {
    /// The version `path` carries; throws when it cannot be read.
    public static func read(_ path: String) throws(IAPKitError) -> ContentVersion {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .system(SystemError("open", path: path)) }
        let text: String?
        if st.st_mode & S_IFMT == S_IFDIR {
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
        var st = stat()
        guard lstat(plist, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= ContentInfo.maxBytes else {
            return nil
        }
        var bytes: [UInt8] = []
        do {
            try SourceFileReader.stream(plist, expectedSize: UInt64(st.st_size)) { bytes.append(contentsOf: $0) }
        } catch {
            throw .system(error as? SystemError ?? SystemError("read", path: plist, code: EIO))
        }
        return ContentInfo.read(bytes).0?.contentVersion.text
    }
}
