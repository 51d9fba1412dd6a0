import Foundation
import IAPTestSupport

/// How real xar writers spell names and headers, written from the format facts (not through iapkg).
package enum XarSpelling {
    /// `<name enctype="base64">` as bsdtar and both xar tools write it through libxml2: standard
    /// base64, broken with CR LF every 72 characters (so any name over 54 bytes arrives wrapped).
    package static func base64Name(_ bytes: [UInt8]) -> String {
        let text = Data(bytes).base64EncodedString()
        var lines: [Substring] = []
        var rest = Substring(text)
        while rest.count > 72 {
            lines.append(rest.prefix(72))
            rest = rest.dropFirst(72)
        }
        lines.append(rest)
        return "<name enctype=\"base64\">" + lines.joined(separator: "\r\n") + "</name>"
    }

    /// A base64 `<name>` for a UTF-8 string.
    package static func base64Name(_ name: String) -> String { base64Name(Array(name.utf8)) }

    /// xar 1.6.1's header tail for a named TOC digest: the name, NUL-terminated, zero-padded to a
    /// 64-byte header.
    package static func namedHeaderExtra(_ name: String, headerSize: Int = 64) -> [UInt8] {
        var bytes = Array(name.utf8) + [0]
        bytes += [UInt8](repeating: 0, count: max(0, headerSize - 28 - bytes.count))
        return bytes
    }
}

extension XarNode {
    /// A file whose name is stored base64-encoded (as bytes, which may be anything).
    package static func encodedFile(_ nameBytes: [UInt8], text: String) -> XarNode {
        var node = XarNode.file(String(decoding: nameBytes, as: UTF8.self), text: text)
        node.nameXML = XarSpelling.base64Name(nameBytes)
        return node
    }

    /// A file whose UTF-8 name is stored base64-encoded.
    package static func encodedFile(_ name: String, text: String) -> XarNode {
        encodedFile(Array(name.utf8), text: text)
    }

    /// A folder whose UTF-8 name is stored base64-encoded.
    package static func encodedDirectory(_ name: String, _ children: [XarNode]) -> XarNode {
        var node = XarNode.directory(name, children)
        node.nameXML = XarSpelling.base64Name(name)
        return node
    }
}
