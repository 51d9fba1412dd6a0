import IAPRules
import IAPSystem

/// The content root (`shape-*`): ContentInfo.plist and Contents/, nothing else.
extension ContentRules {
    static func checkShape(_ entries: EntryList, _ findings: inout FindingLog) {
        var top: [String: ContentEntry] = [:]
        var implicitDirectories: Set<String> = []
        // Absolute and traversing paths are reported by checkNames; they are not root entries.
        for entry in entries
        where !entry.components.isEmpty && !PathText.isAbsolute(entry.rawPath)
            && EntryNameRules.problem(with: entry.components[0]) == nil
        {
            if entry.components.count == 1 {
                top[entry.components[0]] = top[entry.components[0]] ?? entry
            } else {
                implicitDirectories.insert(entry.components[0])
            }
        }
        switch top["ContentInfo.plist"]?.kind {
        case .file?: break
        case nil:
            findings.report(
                Rule.shapeMissingContentinfo.finding(
                    "ContentInfo.plist", offset: nil,
                    "the content root has no ContentInfo.plist; create one with IAPProductIdentifier and ContentVersion (iapkg init makes it)"
                ))
        case let kind?:
            findings.report(
                Rule.shapeContentinfoType.finding(
                    "ContentInfo.plist", offset: top["ContentInfo.plist"]?.offset,
                    "ContentInfo.plist is a \(kind.name), not a regular file; replace it with the property list itself")
            )
        }
        switch top["Contents"]?.kind {
        case .directory?: break
        case nil where implicitDirectories.contains("Contents"): break
        case nil:
            findings.report(
                Rule.shapeMissingContents.finding(
                    "Contents", offset: nil,
                    "the content root has no Contents folder; put everything the app receives under Contents/"))
        case let kind?:
            findings.report(
                Rule.shapeContentsType.finding(
                    "Contents", offset: top["Contents"]?.offset,
                    "Contents is a \(kind.name), not a folder; everything the app receives must be inside a Contents folder"
                ))
        }
        let extras = Set(top.keys).union(implicitDirectories).subtracting(["ContentInfo.plist", "Contents"])
        for name in extras.sorted() where !EntryNameRules.isJunk(name) {
            let entry = top[name] ?? entries.first { $0.components.first == name }
            let advice =
                name.lowercased().hasSuffix(".pkg")
                ? "'\(name)' looks like a built package: remove it, and write packages outside the content folder"
                : "move '\(name)' into Contents/ or remove it"
            findings.report(
                Rule.shapeExtraRootEntry.finding(
                    entry?.reportedPath ?? name, offset: entry?.offset,
                    "only ContentInfo.plist and Contents/ may sit at the content root; \(advice)"))
        }
    }
}
