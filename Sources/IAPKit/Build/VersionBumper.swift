import IAPCore
import IAPRules
import XMLKit

#if canImport(Glibc)
    import Glibc
#endif

/// What `iapkg bump` did.
public struct BumpReport: Codable, Sendable {
    public var schemaVersion = 1
    public var path: String
    public var from: String
    public var to: String
    /// The file was a binary plist and is now XML.
    public var rewrittenAsXML: Bool
}

/// Raises ContentVersion in a ContentInfo.plist, changing only that string's bytes.
public enum VersionBumper {
    /// How the new version is chosen.
    public enum Target: Sendable {
        case part(ContentVersion.Part)
        case exactly(ContentVersion)
    }

    /// Bumps the plist at `path` (a content folder or the ContentInfo.plist itself).
    public static func bump(_ path: String, to target: Target) throws(IAPKitError) -> BumpReport {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .system(SystemError("open", path: path)) }
        let plistPath =
            st.st_mode & S_IFMT == S_IFDIR ? (path.hasSuffix("/") ? path : path + "/") + "ContentInfo.plist" : path
        let bytes: [UInt8]
        let mode: UInt32
        do {
            let file = try FileDescriptor.openForReading(plistPath)
            let status = try file.status()
            mode = UInt32(status.st_mode) & 0o777
            guard status.st_size <= ContentInfo.maxBytes else {
                throw IAPKitError.invalid(
                    path: plistPath,
                    findings: [Rule.plistSize.finding("ContentInfo.plist", "the file is larger than 1 MiB")])
            }
            bytes = try file.read(count: Int(status.st_size), at: 0)
        } catch let error as IAPKitError {
            throw error
        } catch {
            throw .system(error as? SystemError ?? SystemError("read", path: plistPath, code: EIO))
        }
        let (info, findings) = ContentInfo.read(bytes, entry: plistPath)
        guard let info else { throw .invalid(path: plistPath, findings: findings) }
        let next: ContentVersion
        switch target {
        case .part(let part):
            guard let bumped = info.contentVersion.bumped(part) else {
                throw .refused("\(info.contentVersion) cannot be raised further")
            }
            next = bumped
        case .exactly(let version):
            guard version > info.contentVersion else {
                throw .refused(
                    "\(version) is not greater than the current ContentVersion \(info.contentVersion); a content update must raise it"
                )
            }
            next = version
        }
        let updated: [UInt8]
        do {
            switch info.format {
            case .xml:
                updated = try PropertyListEditor.replacingString(
                    forTopLevelKey: "ContentVersion", with: next.text, in: bytes)
            case .binary:
                let (value, _) = try PropertyListReader.read(bytes)
                guard case .dictionary(var pairs) = value,
                    let index = pairs.firstIndex(where: { $0.key == "ContentVersion" })
                else {
                    throw IAPKitError.failed("\(plistPath): ContentVersion not found")
                }
                pairs[index].value = .string(next.text)
                updated = try PropertyListWriter.xml(.dictionary(pairs))
            }
        } catch let error as IAPKitError {
            throw error
        } catch {
            throw .invalid(path: plistPath, findings: [Rule.plistSyntax.finding("ContentInfo.plist", "\(error)")])
        }
        do {
            try replaceFile(plistPath, with: updated, mode: mode)
        } catch {
            throw .system(error as? SystemError ?? SystemError("write", path: plistPath, code: EIO))
        }
        return BumpReport(
            path: plistPath, from: info.contentVersion.text, to: next.text, rewrittenAsXML: info.format == .binary)
    }

    /// Writes `bytes` beside `path` and renames over it, keeping its permissions.
    private static func replaceFile(_ path: String, with bytes: [UInt8], mode: UInt32) throws {
        let output = try AtomicOutputFile(destination: path)
        try output.file.write(bytes)
        fchmod(output.file.rawValue, mode_t(mode))
        try output.commit()
    }
}
