import IAPRules
import IAPSystem

/// Symbolic and hard links (`link-*`).
extension ContentRules {
    static func checkLinks(_ entries: EntryList, _ findings: inout FindingLog) {
        let resolver = SymlinkResolver(kinds: entries.kindByPath, entries: entries.elements)
        let paths = entries.kindByPath
        for entry in entries where !entry.components.isEmpty {
            switch entry.kind {
            case .symlink:
                let target = entry.linkTarget ?? ""
                switch resolver.resolve(linkAt: entry.components) {
                case .empty:
                    findings.report(
                        Rule.linkEmpty.finding(
                            entry,
                            "the symlink has an empty target; remove it or point it at a file inside Contents/"))
                case .absolute:
                    findings.report(
                        Rule.linkAbsolute.finding(
                            entry,
                            "the symlink points to the absolute path '\(target)'; links must be relative and stay inside Contents/"
                        ))
                case .escapes:
                    findings.report(
                        Rule.linkEscape.finding(
                            entry,
                            "the symlink to '\(target)' leads above the content root; links must stay inside Contents/")
                    )
                case .loop:
                    findings.report(
                        Rule.linkLoop.finding(
                            entry,
                            "the symlink to '\(target)' never resolves (a loop of links); break the loop"))
                case .inside(let resolved) where resolved.first != "Contents",
                    .dangling(let resolved) where resolved.first != "Contents":
                    findings.report(
                        Rule.linkEscape.finding(
                            entry,
                            "the symlink to '\(target)' resolves to '\(resolved.joined(separator: "/"))', outside Contents/; links must stay inside Contents/"
                        ))
                case .dangling:
                    findings.report(
                        Rule.linkDangling.finding(
                            entry,
                            "the symlink to '\(target)' points at nothing in the package"))
                case .inside:
                    break
                }
            case .hardlink:
                let raw = entry.hardlinkTarget ?? ""
                let parts = ContentEntry.components(of: raw)
                let relative =
                    !PathText.isAbsolute(raw) && !parts.isEmpty
                    && parts.allSatisfy { EntryNameRules.problem(with: $0) == nil }
                let target = parts.joined(separator: "/")
                if relative, let kind = paths[target], kind == .file, target != entry.path {
                    findings.report(
                        Rule.linkHard.finding(
                            entry,
                            "a hard link to '\(target)'; it is unpacked as a copy"))
                } else {
                    findings.report(
                        Rule.linkHardExternal.finding(
                            entry,
                            "the hard link points to '\(entry.hardlinkTarget ?? "")', which is not a file of this package; replace it with a real file"
                        ))
                }
            default:
                break
            }
        }
    }
}
