import IAPSystem
import XMLKit

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
        let plistPath =
            try FileStatus.ofInput(path).isDirectory
            ? (path.hasSuffix("/") ? path : path + "/") + "ContentInfo.plist" : path
        let loaded = try ContentInfoLoader.load(plistPath, entry: plistPath, followingLinks: true)
        let (bytes, mode) = (loaded.bytes, loaded.permissions & 0o777)
        guard let info = loaded.info else { throw .invalid(path: plistPath, findings: loaded.findings) }
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
        } catch {
            throw IAPKitError(error, path: plistPath)
        }
        do {
            try replaceFile(plistPath, with: updated, mode: mode)
        } catch {
            throw .system(error as? SystemError ?? SystemError("write", path: plistPath, code: SystemError.Code.io))
        }
        return BumpReport(
            path: plistPath, from: info.contentVersion.text, to: next.text, rewrittenAsXML: info.format == .binary)
    }

    /// Writes `bytes` beside `path` and renames over it, keeping its permissions.
    private static func replaceFile(_ path: String, with bytes: [UInt8], mode: UInt32) throws {
        let output = try AtomicOutputFile(destination: path)
        try output.file.write(bytes)
        try output.file.setPermissions(mode)
        try output.commit()
    }
}
