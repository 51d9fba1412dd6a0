import IAPCrypto
import IAPRules
import XMLKit

/// A heap range the TOC names outside file data (extended attributes, signatures).
struct ExtraHeapRange {
    var offset: UInt64
    var length: UInt64
    var fileIndex: Int?
    var what: String
}

/// Builds the TOC model from parser events, one element at a time, never holding the document.
final class TOCHandler: XMLEventHandler {
    /// Where the parse stands: what each open element means to xar.
    enum Node {
        case xar, toc, tocChecksum, signature, keyInfo, file, data, ea, ignored
        case leaf(Leaf)
    }

    /// An element whose text we keep.
    enum Leaf {
        case tocChecksumOffset, tocChecksumSize, creationTime, signatureOffset, signatureSize
        case name, type, mode, uid, gid, user, group, mtime, link
        case dataOffset, dataLength, dataSize, archivedChecksum, extractedChecksum
        case eaOffset, eaLength, certificate
    }

    /// The state of one open `<file>`.
    struct FileFrame {
        var index: Int
        var nameCount = 0
        /// The first `<name>`'s decoded text; a repeat must decode to the same.
        var firstName: String?
        var typeCount = 0
        var dataCount = 0
    }

    let limits: XarLimits
    var stack: [Node] = []
    var fileFrames: [FileFrame] = []
    var dataFrame = TOCDataFrame()
    var eaOffset: UInt64?
    var eaLength: UInt64?
    var signatureOffset: UInt64?
    var signatureSize: UInt64?
    var signatureName = ""
    var signature = XarSignature(element: "", style: "")
    var leafStyle: String?
    /// The `enctype` attribute of the `<name>` being read.
    var nameEncoding: String?
    var text = ""
    var tocCount = 0

    var toc = XarTOC(
        checksum: nil, checksumCount: 0, creationTime: nil, hasSignature: false,
        hasXSignature: false, files: [])
    /// Findings, each with the index of the file it concerns (its path is known only at the end).
    var findings: [(fileIndex: Int?, finding: Finding)] = []
    var extraRanges: [ExtraHeapRange] = []
    /// Findings not kept because `maxFindings` was reached.
    var droppedFindings = 0
    /// True once `<xar><toc>` has been seen.
    var sawTOC: Bool { tocCount > 0 }

    /// Repeated values (owners, time stamps) share one string: 100,000 files rarely have more than a
    /// few distinct ones. At most 4,096 are remembered.
    var internTable: [String: String] = [:]

    func interned(_ text: String) -> String {
        if let known = internTable[text] { return known }
        if internTable.count < 4096 { internTable[text] = text }
        return text
    }

    /// Hands the TOC over, leaving an empty one: the caller then edits it in place instead of
    /// copying every file (copy-on-write would, while this handler still held it).
    func takeTOC() -> XarTOC {
        var taken = XarTOC(
            checksum: nil, checksumCount: 0, creationTime: nil, hasSignature: false, hasXSignature: false, files: [])
        swap(&taken, &toc)
        // The list grew by doubling (8.6 MB empty at 100,103 files): trimmed now, while little else
        // is alive, the slack stays out of every later peak.
        taken.files.shrinkToFit()
        return taken
    }

    /// The file list grows as files are read, never reserved from the header's declared TOC size:
    /// that number is the package's to choose, and a guess per `<file>` from it reserved ~1.4 KB a
    /// file (139 MB of address space at 100,000 files in massif) for a ~0.4 KB model.
    init(limits: XarLimits) {
        self.limits = limits
    }

    func startElement(_ name: String, attributes: [XMLAttribute], line: Int) throws(XMLError) {
        let node = try node(for: name, attributes: attributes, under: stack.last, line: line)
        stack.append(node)
        if case .leaf = node { text = "" }
    }

    func characters(_ piece: String) throws(XMLError) {
        guard case .leaf = stack.last else { return }
        guard text.utf8.count + piece.utf8.count <= limits.maxTextBytes else {
            throw XMLError(.limit, "an element's text is longer than \(limits.maxTextBytes) bytes")
        }
        text += piece
    }

    func endElement(_ name: String) throws(XMLError) {
        guard let node = stack.popLast() else { return }
        switch node {
        case .leaf(let leaf): finishLeaf(leaf)
        case .file: finishFile()
        case .data: finishData()
        case .ea:
            if let offset = eaOffset, let length = eaLength {
                extraRanges.append(
                    ExtraHeapRange(
                        offset: offset, length: length, fileIndex: fileFrames.last?.index,
                        what: "extended attribute"))
            }
        case .signature:
            if let offset = signatureOffset, let size = signatureSize {
                extraRanges.append(ExtraHeapRange(offset: offset, length: size, fileIndex: nil, what: signatureName))
            }
            signature.offset = signatureOffset
            signature.size = signatureSize
            toc.signatures.append(signature)
        default: break
        }
    }

    // MARK: - Opening elements

    func node(for name: String, attributes: [XMLAttribute], under parent: Node?, line: Int) throws(XMLError)
        -> Node
    {
        func attribute(_ key: String) -> String? { attributes.first { $0.name == key }?.value }
        guard let parent else {
            guard name == "xar" else {
                throw XMLError(.content, "the root element is <\(name)>, not <xar>", line: line)
            }
            return .xar
        }
        switch parent {
        case .xar:
            guard name == "toc" else { return .ignored }
            tocCount += 1
            guard tocCount == 1 else { throw XMLError(.content, "more than one <toc>", line: line) }
            return .toc
        case .toc:
            switch name {
            case "checksum":
                toc.checksumCount += 1
                if toc.checksumCount == 1 { toc.checksum = XarTOCChecksum(style: attribute("style") ?? "") }
                return .tocChecksum
            case "creation-time": return .leaf(.creationTime)
            case "signature", "x-signature":
                if name == "signature" { toc.hasSignature = true } else { toc.hasXSignature = true }
                signatureName = name
                signatureOffset = nil
                signatureSize = nil
                signature = XarSignature(element: name, style: attribute("style") ?? "", line: line)
                return .signature
            case "file": return try openFile(parent: nil, attributes: attributes, line: line)
            default: return .ignored
            }
        case .tocChecksum:
            guard toc.checksumCount == 1 else { return .ignored }
            switch name {
            case "offset": return .leaf(.tocChecksumOffset)
            case "size": return .leaf(.tocChecksumSize)
            default: return .ignored
            }
        case .signature:
            switch name {
            case "offset": return .leaf(.signatureOffset)
            case "size": return .leaf(.signatureSize)
            case "KeyInfo": return .keyInfo
            default: return .ignored
            }
        case .keyInfo:
            switch name {
            case "X509Data": return .keyInfo
            case "X509Certificate": return .leaf(.certificate)
            default: return .ignored
            }
        case .file:
            guard let frame = fileFrames.last else { return .ignored }
            switch name {
            case "file": return try openFile(parent: frame.index, attributes: attributes, line: line)
            case "name":
                fileFrames[fileFrames.count - 1].nameCount += 1
                nameEncoding = attribute("enctype")
                return .leaf(.name)
            case "type":
                fileFrames[fileFrames.count - 1].typeCount += 1
                if let link = attribute("link") { setHardLink(link) }
                return .leaf(.type)
            case "mode": return .leaf(.mode)
            case "uid": return .leaf(.uid)
            case "gid": return .leaf(.gid)
            case "user": return .leaf(.user)
            case "group": return .leaf(.group)
            case "mtime": return .leaf(.mtime)
            case "link":
                toc.files[frame.index].linkType = attribute("type")
                return .leaf(.link)
            case "data":
                fileFrames[fileFrames.count - 1].dataCount += 1
                dataFrame = TOCDataFrame()
                return .data
            case "ea":
                toc.files[frame.index].hasExtendedAttributes = true
                eaOffset = nil
                eaLength = nil
                return .ea
            case "flags":
                toc.files[frame.index].hasFlags = true
                return .ignored
            default: return .ignored
            }
        case .data:
            switch name {
            case "offset": return dataLeaf(.dataOffset, present: dataFrame.offset != nil, name)
            case "length": return dataLeaf(.dataLength, present: dataFrame.length != nil, name)
            case "size": return dataLeaf(.dataSize, present: dataFrame.size != nil, name)
            case "encoding":
                if dataFrame.encoding != nil { dataFrame.duplicates.append(name) }
                dataFrame.encoding = XarEncoding(style: attribute("style") ?? "")
                return .ignored
            case "archived-checksum":
                if dataFrame.archived != nil { dataFrame.duplicates.append(name) }
                leafStyle = attribute("style")
                return .leaf(.archivedChecksum)
            case "extracted-checksum", "unarchived-checksum":
                if dataFrame.extracted != nil { dataFrame.duplicates.append(name) }
                leafStyle = attribute("style")
                return .leaf(.extractedChecksum)
            default: return .ignored
            }
        case .ea:
            switch name {
            case "offset": return .leaf(.eaOffset)
            case "length": return .leaf(.eaLength)
            default: return .ignored
            }
        case .leaf, .ignored:
            return .ignored
        }
    }

    func dataLeaf(_ leaf: Leaf, present: Bool, _ name: String) -> Node {
        if present { dataFrame.duplicates.append(name) }
        return .leaf(leaf)
    }

    func openFile(parent: Int?, attributes: [XMLAttribute], line: Int) throws(XMLError) -> Node {
        guard toc.files.count < limits.maxFiles else {
            throw XMLError(.limit, "the TOC lists more than \(limits.maxFiles) files", line: line)
        }
        let index = toc.files.count
        var id: UInt64?
        if let idText = attributes.first(where: { $0.name == "id" })?.value {
            id = XarNumber.decimal(idText)
            if id == nil {
                note(
                    index,
                    Rule.xarNumber.finding(
                        nil,
                        "file id \"\(idText)\" is not a plain decimal number that fits in 64 bits (line \(line))"))
            }
        } else {
            note(index, Rule.xarFileId.finding(nil, "a <file> has no id attribute (line \(line))"))
        }
        toc.files.append(XarFile(id: id, name: "", path: "", parentIndex: parent, type: .other("")))
        fileFrames.append(FileFrame(index: index))
        return .file
    }

    func setHardLink(_ link: String) {
        guard let index = fileFrames.last?.index else { return }
        if link == "original" {
            toc.files[index].hardLink = .original
        } else if let target = XarNumber.decimal(link) {
            toc.files[index].hardLink = .target(target)
        } else {
            note(
                index,
                Rule.xarNumber.finding(
                    nil, "hard-link reference link=\"\(link)\" is neither \"original\" nor a file id"))
        }
    }
}
