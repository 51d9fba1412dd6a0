import IAPRules
import IAPSystem

/// Executable code (`exec-*`), judged by bytes and by names.
extension ContentRules {
    static func checkCode(_ entries: EntryList, _ findings: inout FindingLog) {
        var reportedBundles: Set<String> = []
        for entry in entries where !entry.components.isEmpty {
            if let index = entry.components.firstIndex(where: { EntryNameRules.codeSuffix(of: $0) != nil }) {
                let bundle = entry.components[0...index].joined(separator: "/")
                if reportedBundles.insert(bundle).inserted {
                    let suffix = EntryNameRules.codeSuffix(of: entry.components[index]) ?? ""
                    findings.report(
                        Rule.execBundleName.finding(
                            bundle, offset: entry.offset,
                            "a '\(suffix)' is executable code, which hosted content may not contain; remove it"))
                }
            }
            if entry.kind == .hardlink, let kind = entry.sniff?.executable {
                findings.report(
                    kind.rule.finding(
                        entry,
                        "the hard link carries \(kind.rawValue) executable bytes of its own (judged by its bytes, not its name); hosted content may not contain executable code — remove it"
                    ))
                continue
            }
            // A hard link that carries bytes of its own gets the same warnings a file does.
            guard entry.kind == .file || (entry.kind == .hardlink && entry.size > 0) else { continue }
            if let kind = entry.sniff?.executable {
                findings.report(
                    kind.rule.finding(
                        entry,
                        "the file is \(kind.article) \(kind.rawValue) executable (judged by its bytes, not its name); hosted content may not contain executable code — remove it"
                    ))
                continue
            }
            if entry.sniff?.isScript == true {
                findings.report(
                    Rule.execScript.finding(
                        entry,
                        "the file starts with '#!', a script; apps cannot run it, but reviewers may ask why it is there"
                    ))
            } else if let name = entry.components.last, EntryNameRules.isNativeLibraryName(name) {
                findings.report(
                    Rule.execSharedLibrary.finding(
                        entry,
                        "the name looks like a native library (.so / .a); hosted content may not contain executable code"
                    ))
            } else if entry.permissions & 0o111 != 0 {
                findings.report(
                    Rule.execModeBits.finding(
                        entry,
                        "a data file has execute permission (mode \(String(entry.permissions, radix: 8))); clear it with chmod -x"
                    ))
            }
        }
    }
}
