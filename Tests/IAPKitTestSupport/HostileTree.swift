import Foundation
import IAPSystem
import IAPTestSupport

/// Bare-tree packages: ContentInfo.plist and Contents/ as xar entries.
package enum HostileTree {
    /// A valid tree whose Contents/ holds `contents` (plus readme.txt unless `contents` is given).
    package static func nodes(
        plist: String = Fixtures.plist(product: "com.example.test", version: "1.0"),
        contents: [XarNode] = [.file("readme.txt", text: "hello\n")]
    ) -> [XarNode] {
        [.file("ContentInfo.plist", text: plist), .directory("Contents", contents)]
    }

    /// Writes a tree package to `path`, letting `edit` change the xar first.
    package static func write(_ nodes: [XarNode], to path: String, edit: (inout HostileXar) -> Void = { _ in }) throws {
        var xar = HostileXar(nodes)
        edit(&xar)
        try xar.write(to: path)
    }
}

/// Sample bytes for the executable-code rules.
package enum CodeSamples {
    /// A thin 64-bit Mach-O header (little-endian magic 0xfeedfacf as stored on disk).
    package static let machOThin: [UInt8] =
        [0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0x00, 0x00, 0x01] + [UInt8](repeating: 0, count: 56)

    /// A universal (fat) header with two slices that lie inside the file.
    package static let machOUniversal: [UInt8] = {
        var bytes: [UInt8] = []
        bytes.appendBE(UInt32(0xCAFE_BABE))
        bytes.appendBE(UInt32(2))
        for (cpu, offset) in [(UInt32(0x0100_0007), UInt32(4096)), (UInt32(0x0100_000C), UInt32(8192))] {
            bytes.appendBE(cpu)
            bytes.appendBE(UInt32(3))
            bytes.appendBE(offset)
            bytes.appendBE(UInt32(4096))
            bytes.appendBE(UInt32(12))
        }
        bytes += [UInt8](repeating: 0, count: 12288 - bytes.count)
        return bytes
    }()

    /// A Java class file: same magic, then minor 0 / major 52 (read as 52 "architectures": not fat).
    package static let javaClass: [UInt8] =
        [0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x34, 0x00, 0x0A] + [UInt8](repeating: 0, count: 120)

    /// An ELF header.
    package static let elf: [UInt8] =
        [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 56)

    /// An MZ stub whose e_lfanew points at `PE\0\0`.
    package static let pe: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 0x100)
        bytes[0] = 0x4D
        bytes[1] = 0x5A
        bytes[0x3C] = 0x80
        bytes[0x80] = 0x50
        bytes[0x81] = 0x45
        return bytes
    }()

    /// A PE whose `PE\0\0` lies at 0x2000, beyond the first 4 KiB a sniffer keeps.
    package static let farPE: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 0x3000)
        bytes[0] = 0x4D
        bytes[1] = 0x5A
        bytes[0x3D] = 0x20
        bytes[0x2000] = 0x50
        bytes[0x2001] = 0x45
        return bytes
    }()

    /// Text that merely starts with "MZ".
    package static let mzText =
        Array("MZ is the name of our level pack; this is a readme, not a program.\n".utf8)
        + Array(String(repeating: "Plain text line.\n", count: 20).utf8)
}

extension ScratchFolder {
    /// A valid tree package `name.pkg` (or `file` when given) for `version`, its Contents/ holding `contents`.
    package func validTree(
        _ name: String, version: String = "1.0", contents: [XarNode] = [.file("readme.txt", text: "hello\n")],
        file: String? = nil
    ) throws -> String {
        try hostileTree(
            name, contents, plist: Fixtures.plist(product: "com.example.test", version: version), file: file)
    }

    /// A tree package `name.pkg` (or `file` when given) whose Contents/ holds `contents` (and
    /// `root` beside it), the xar changed by `edit` before it is written.
    package func hostileTree(
        _ name: String, _ contents: [XarNode], root: [XarNode] = [],
        plist: String = Fixtures.plist(product: "com.example.test", version: "1.0"), file: String? = nil,
        edit: (inout HostileXar) -> Void = { _ in }
    ) throws -> String {
        let path = at(file ?? name + ".pkg")
        try HostileTree.write(HostileTree.nodes(plist: plist, contents: contents) + root, to: path, edit: edit)
        return path
    }

    /// A product package `name.pkg`: a valid plist and Contents/, then `items`, the Bom matching.
    package func hostileProduct(_ name: String, _ items: [CpioItem]) throws -> String {
        let path = at(name + ".pkg")
        var package = HostileProduct(files: [("readme.txt", Array("hello\n".utf8))])
        package.items += items
        try package.write(to: path)
        return path
    }
}
