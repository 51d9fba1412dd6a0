import IAPRules
import IAPSystem

/// Entry kinds and modes (`entry-special-file`, `entry-setid`, `entry-file-dir-conflict`, `link-write-through`).
extension ContentRules {
    static func checkKinds(_ entries: EntryList, _ findings: inout FindingLog) {
        let kindByPath = entries.kindByPath
        for entry in entries {
            switch entry.kind {
            case .fifo, .characterDevice, .blockDevice, .socket, .unknown:
                findings.report(
                    Rule.entrySpecialFile.finding(
                        entry,
                        "the entry is a \(entry.kind.name); content may hold only files, folders and links — remove it")
                )
            default: break
            }
            if entry.permissions & 0o7000 != 0, entry.kind != .symlink {
                let bits = [(0o4000, "setuid"), (0o2000, "setgid"), (0o1000, "sticky")]
                    .filter { entry.permissions & UInt32($0.0) != 0 }.map(\.1).joined(separator: ", ")
                findings.report(
                    Rule.entrySetid.finding(
                        entry,
                        "the entry has the \(bits) bit set (mode \(String(entry.permissions, radix: 8))); clear it (chmod -s / chmod -t)"
                    ))
            }
            guard entry.components.count > 1 else { continue }
            // Each parent path grows from the one above it: one join per component, not per pair.
            var parent = ""
            for depth in 1..<entry.components.count {
                if depth > 1 { parent += "/" }
                parent += entry.components[depth - 1]
                guard let kind = kindByPath[parent], kind != .directory else { continue }
                if kind == .symlink {
                    findings.report(
                        Rule.linkWriteThrough.finding(
                            entry,
                            "the entry lies below '\(parent)', which is a symlink: unpacking would write through the link; store the real folder instead"
                        ))
                } else {
                    findings.report(
                        Rule.entryFileDirConflict.finding(
                            entry,
                            "the entry lies below '\(parent)', which is a \(kind.name), not a folder; one path cannot be both"
                        ))
                }
                break
            }
        }
    }
}
