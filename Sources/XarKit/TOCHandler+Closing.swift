import IAPRules
import IAPSystem
import XMLKit

/// Closing elements: leaves parsed into the file being read, files and data finished.
extension TOCHandler {
    func finishLeaf(_ leaf: Leaf) {
        let index = fileFrames.last?.index
        switch leaf {
        case .creationTime: toc.creationTime = text
        case .tocChecksumOffset: toc.checksum?.offset = number("TOC checksum <offset>", nil)
        case .tocChecksumSize: toc.checksum?.size = number("TOC checksum <size>", nil)
        case .signatureOffset: signatureOffset = number("<\(signatureName)> <offset>", nil)
        case .signatureSize: signatureSize = number("<\(signatureName)> <size>", nil)
        case .certificate: signature.certificateTexts.append(text)
        case .eaOffset: eaOffset = number("<ea> <offset>", index)
        case .eaLength: eaLength = number("<ea> <length>", index)
        case .dataOffset: dataFrame.offset = number("<data> <offset>", index)
        case .dataLength: dataFrame.length = number("<data> <length>", index)
        case .dataSize: dataFrame.size = number("<data> <size>", index)
        case .archivedChecksum, .extractedChecksum:
            let archived = leaf == .archivedChecksum
            let rule = archived ? Rule.xarArchivedChecksum : Rule.xarExtractedChecksum
            guard let digest = Hex.decode(text), !digest.isEmpty else {
                note(
                    index,
                    rule.finding(
                        nil,
                        "the \(archived ? "archived" : "extracted") checksum \"\(text.prefix(80))\" is not hexadecimal")
                )
                return
            }
            let checksum = XarChecksum(style: leafStyle ?? "", digest: digest)
            if archived { dataFrame.archived = checksum } else { dataFrame.extracted = checksum }
        default:
            guard let index else { return }
            finishFileLeaf(leaf, index)
        }
    }

    func finishFileLeaf(_ leaf: Leaf, _ index: Int) {
        switch leaf {
        case .name: finishName(index)
        case .type: toc.files[index].type = XarFileType(xarName: text)
        case .mode:
            toc.files[index].mode = XarNumber.octal(text)
            if toc.files[index].mode == nil {
                note(
                    index,
                    Rule.xarNumber.finding(
                        nil, "<mode> \"\(text.prefix(80))\" is not an octal number that fits in 32 bits")
                )
            }
        case .uid: toc.files[index].uid = number("<uid>", index)
        case .gid: toc.files[index].gid = number("<gid>", index)
        case .user: toc.files[index].user = interned(text)
        case .group: toc.files[index].group = interned(text)
        case .mtime: toc.files[index].mtime = interned(text)
        case .link: toc.files[index].linkTarget = text
        default: break
        }
    }

    /// Decodes a `<name>` (plain, or `enctype="base64"` as xar writers store names that are not
    /// plain ASCII) and keeps the first; a repeat (productsign repeats every `<name>`) must agree.
    func finishName(_ index: Int) {
        let frameIndex = fileFrames.count - 1
        guard frameIndex >= 0 else { return }
        let decoded = XarNameDecoding(text: text, enctype: nameEncoding)
        if let problem = decoded.problem { note(index, Rule.xarNameEncoding.finding(nil, problem)) }
        guard let first = fileFrames[frameIndex].firstName else {
            fileFrames[frameIndex].firstName = decoded.name
            toc.files[index].name = decoded.name
            // Most names are plain: their rare fields stay unboxed (nil is what a new file holds).
            if decoded.stored != nil { toc.files[index].storedName = decoded.stored }
            if decoded.libarchive != nil { toc.files[index].libarchiveName = decoded.libarchive }
            return
        }
        if first != decoded.name {
            note(
                index,
                Rule.xarFileName.finding(
                    nil,
                    "the file has two different names, \"\(first.prefix(120))\" and \"\(decoded.name.prefix(120))\"; readers would disagree on which one it is"
                ))
        }
    }

    func number(_ what: String, _ index: Int?) -> UInt64? {
        if let value = XarNumber.decimal(text) { return value }
        note(
            index,
            Rule.xarNumber.finding(
                nil, "\(what) \"\(text.prefix(80))\" is not a plain decimal number that fits in 64 bits")
        )
        return nil
    }

    func finishData() {
        guard let index = fileFrames.last?.index else { return }
        if fileFrames[fileFrames.count - 1].dataCount > 1 {
            note(index, Rule.xarDataFields.finding(nil, "the file has more than one <data>"))
            return
        }
        let (data, problems) = dataFrame.finish()
        for problem in problems { note(index, problem.rule.finding(nil, problem.message)) }
        if let data { toc.files[index].data = data }
    }

    func finishFile() {
        guard let frame = fileFrames.popLast() else { return }
        if frame.nameCount == 0 {
            note(frame.index, Rule.xarFileName.finding(nil, "the file has no <name>"))
        }
        if frame.typeCount != 1 {
            note(
                frame.index,
                Rule.xarFileType.finding(
                    nil,
                    frame.typeCount == 0 ? "the file has no <type>" : "the file has \(frame.typeCount) <type> elements")
            )
        }
    }

    func note(_ index: Int?, _ finding: Finding) {
        guard findings.count < limits.maxFindings else {
            droppedFindings += 1
            return
        }
        findings.append((index, finding))
    }
}
