import IAPRules
import IAPSystem
import XMLKit

/// What a package's ContentInfo.plist says (PackageFormat.md §3).
public struct ContentInfo: Sendable, Equatable {
    /// Largest ContentInfo.plist accepted.
    public static let maxBytes = PackageLimits.contentInfoBytes

    public var productIdentifier: String
    public var contentVersion: ContentVersion
    /// Keys beyond the two required ones, in file order; they are kept, never dropped.
    public var extraKeys: [String]
    package var format: PropertyListFormat

    /// The property list `iapkg init` writes for a new product: version 1.0.
    public static func initialPropertyList(productIdentifier: String) throws -> [UInt8] {
        try PropertyListWriter.xml(
            .dictionary([
                (key: "ContentVersion", value: .string("1.0")),
                (key: "IAPProductIdentifier", value: .string(productIdentifier)),
            ]))
    }

    /// The finding for a ContentInfo.plist of `size` bytes, over `maxBytes`.
    static func sizeFinding(_ size: UInt64, entry: String = "ContentInfo.plist") -> Finding {
        Rule.plistSize.finding(entry, "ContentInfo.plist is \(size) bytes; at most \(maxBytes) (1 MiB) are allowed")
    }

    /// Reads and checks ContentInfo.plist bytes; returns what it could read and every finding.
    /// `entry` names the file in findings.
    public static func read(_ bytes: [UInt8], entry: String = "ContentInfo.plist") -> (ContentInfo?, [Finding]) {
        guard bytes.count <= maxBytes else { return (nil, [sizeFinding(UInt64(bytes.count), entry: entry)]) }
        let value: PropertyListValue
        let format: PropertyListFormat
        do {
            (value, format) = try PropertyListReader.read(bytes, maxBytes: maxBytes)
        } catch {
            return (nil, [error.finding(entry: entry)])
        }
        guard case .dictionary(let pairs) = value else {
            return (nil, [Rule.plistRoot.finding(entry, "the root of ContentInfo.plist must be a dictionary")])
        }
        var findings: [Finding] = []
        let identifier = requiredString(
            "IAPProductIdentifier", in: pairs, entry: entry, rule: Rule.plistProductId, &findings)
        if let identifier, let problem = ProductIdentifier.problem(with: identifier) {
            findings.append(
                Rule.plistProductId.finding(entry, "IAPProductIdentifier '\(identifier)' is not valid: \(problem)"))
        }
        let versionText = requiredString(
            "ContentVersion", in: pairs, entry: entry, rule: Rule.plistContentVersion, &findings)
        let version = versionText.flatMap(ContentVersion.init)
        if let versionText, version == nil {
            findings.append(
                Rule.plistContentVersion.finding(
                    entry,
                    "ContentVersion '\(versionText)' is not a version: use integers separated by periods, at most \(ContentVersion.maxComponents) of them (1.0, 1.1, 2.0.3)"
                ))
        }
        if pairs.contains(where: { $0.key == "IAPProductionIdentifier" }) && identifier == nil {
            findings.append(
                Rule.plistProductId.finding(
                    entry,
                    "the key is spelled IAPProductionIdentifier; the real key is IAPProductIdentifier"))
        }
        guard let identifier, let version, findings.allSatisfy({ $0.severity != .error }) else {
            return (nil, findings)
        }
        let extras = pairs.map(\.key).filter { $0 != "IAPProductIdentifier" && $0 != "ContentVersion" }
        return (
            ContentInfo(productIdentifier: identifier, contentVersion: version, extraKeys: extras, format: format),
            findings
        )
    }

    private static func requiredString(
        _ key: String, in pairs: [(key: String, value: PropertyListValue)], entry: String,
        rule: Rule, _ findings: inout [Finding]
    ) -> String? {
        guard let pair = pairs.first(where: { $0.key == key }) else {
            findings.append(rule.finding(entry, "ContentInfo.plist has no \(key) key; add it as a <string>"))
            return nil
        }
        guard case .string(let text) = pair.value else {
            findings.append(rule.finding(entry, "\(key) must be a <string>"))
            return nil
        }
        return text
    }
}
