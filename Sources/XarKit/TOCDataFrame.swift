import IAPRules
import IAPSystem

/// The fields of one open `<data>` element, gathered while the TOC is parsed and judged when it closes.
struct TOCDataFrame {
    var offset: UInt64?
    var length: UInt64?
    var size: UInt64?
    var encoding: XarEncoding?
    var archived: XarChecksum?
    var extracted: XarChecksum?
    /// Names of child elements given more than once.
    var duplicates: [String] = []

    /// The data the element describes (nil when offset, length or size is missing) and what is wrong
    /// with it, as `xar-data-fields` and `xar-encoding` messages.
    func finish() -> (data: XarData?, problems: [(rule: Rule, message: String)]) {
        var problems: [(rule: Rule, message: String)] = []
        if !duplicates.isEmpty {
            problems.append((Rule.xarDataFields, "<data> repeats \(duplicates.joined(separator: ", "))"))
        }
        guard let offset, let length, let size else {
            let missing = [("offset", offset), ("length", length), ("size", size)]
                .filter { $0.1 == nil }.map { "<\($0.0)>" }.joined(separator: ", ")
            problems.append((Rule.xarDataFields, "<data> lacks a valid \(missing)"))
            return (nil, problems)
        }
        if encoding == nil {
            problems.append((Rule.xarEncoding, "<data> has no <encoding>; it is read as stored bytes"))
        }
        let data = XarData(
            offset: offset, length: length, size: size, encoding: encoding ?? .stored,
            archivedChecksum: archived, extractedChecksum: extracted)
        return (data, problems)
    }
}
