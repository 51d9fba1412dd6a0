import FoundationEssentials
import IAPKit
import IAPRules
import IAPSystem

/// `validate --format sarif`: one SARIF 2.1.0 log with one run, for code-scanning dashboards
/// (GitHub's `upload-sarif`, GitLab, Azure DevOps). Findings become results; unreadable inputs
/// become tool execution notifications.
struct SarifLog: Encodable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }

    struct Run: Encodable {
        var tool: Tool
        var invocations: [Invocation]
        var results: [Result]
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name = "iapkg"
        var version = ReleaseVersion.current
        var semanticVersion = ReleaseVersion.current
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var shortDescription: Message
    }

    struct Message: Encodable {
        var text: String
    }

    struct Invocation: Encodable {
        var executionSuccessful: Bool
        var toolExecutionNotifications: [Notification]
    }

    struct Notification: Encodable {
        var level = "error"
        var message: Message
        var locations: [Location]
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        var properties: [String: String]?
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
        var logicalLocations: [LogicalLocation]?
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct ArtifactLocation: Encodable {
        var uri: String
    }

    struct Region: Encodable {
        var byteOffset: UInt64
    }

    struct LogicalLocation: Encodable {
        var fullyQualifiedName: String
        var kind = "resource"
    }
}

extension ValidationOutput {
    /// The run as a SARIF 2.1.0 log: the package file as the artifact, its entry as a logical
    /// location and the byte offset as a region; in a content folder, the entry's own file.
    var sarif: SarifLog {
        let ruleIds = Array(Set(reports.flatMap { $0.findings.map(\.rule) })).sorted()
        let index = Dictionary(uniqueKeysWithValues: ruleIds.enumerated().map { ($1, $0) })
        var results: [SarifLog.Result] = []
        for report in reports {
            for finding in report.findings {
                results.append(
                    SarifLog.Result(
                        ruleId: finding.rule, ruleIndex: index[finding.rule] ?? 0,
                        level: finding.severity == .error ? "error" : "warning",
                        message: .init(text: FindingText.entryAndMessage(finding)),
                        locations: [Self.location(of: finding, in: report)],
                        properties: finding.storedEntry.map { ["storedEntry": $0] }))
            }
        }
        let notifications = unreadable.map { item in
            SarifLog.Notification(
                message: .init(text: item.message),
                locations: [
                    SarifLog.Location(physicalLocation: .init(artifactLocation: .init(uri: Self.uri(item.path))))
                ])
        }
        let rules = ruleIds.map {
            SarifLog.Rule(id: $0, shortDescription: .init(text: Rule.named($0)?.summary ?? "iapkg rule \($0)."))
        }
        return SarifLog(runs: [
            SarifLog.Run(
                tool: .init(driver: .init(rules: rules)),
                invocations: [
                    .init(executionSuccessful: unreadable.isEmpty, toolExecutionNotifications: notifications)
                ],
                results: results)
        ])
    }

    /// Where a finding points: a package and the entry inside it, or a folder's file.
    static func location(of finding: Finding, in report: ValidationReport) -> SarifLog.Location {
        if report.shape == .folder, let entry = finding.entry {
            return SarifLog.Location(
                physicalLocation: .init(artifactLocation: .init(uri: uri(report.path + "/" + entry))))
        }
        return SarifLog.Location(
            physicalLocation: .init(
                artifactLocation: .init(uri: uri(report.path)),
                region: finding.offset.map { SarifLog.Region(byteOffset: $0) }),
            logicalLocations: finding.entry.map { [SarifLog.LogicalLocation(fullyQualifiedName: $0)] })
    }

    /// A path as a relative (or absolute) URI reference: each byte outside a path's safe set escaped.
    static func uri(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            if uriSafe(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0xF)]
            }
        }
        return path.hasPrefix("/") ? "file://" + escaped : escaped
    }

    private static let hexDigits = "0123456789ABCDEF".map { String($0) }

    /// RFC 3986's path characters as Foundation's `urlPathAllowed` has them, less ";", ":" and "@".
    private static func uriSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!$&'()*+,-./=_~".utf8.contains(byte)
        }
    }
}
