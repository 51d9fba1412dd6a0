import Testing

@testable import IAPKit

@Suite struct ExecutableSnifferTests {
    func sniff(_ bytes: [UInt8], chunk: Int = 7) -> ContentSniff {
        var sniffer = ExecutableSniffer(fileSize: UInt64(bytes.count))
        var i = 0
        while i < bytes.count {
            sniffer.feed(Array(bytes[i..<min(bytes.count, i + chunk)]))
            i += chunk
        }
        return sniffer.finish()
    }

    func fat(magic: [UInt8], count: UInt32, offset: UInt32, size: UInt32, total: Int) -> [UInt8] {
        var b = magic
        b.appendBE(count)
        for _ in 0..<count {
            b.appendBE(UInt32(7))
            b.appendBE(UInt32(3))
            b.appendBE(offset)
            b.appendBE(size)
            b.appendBE(UInt32(12))
        }
        return b + [UInt8](repeating: 0, count: max(0, total - b.count))
    }

    @Test func recognisesMachO() {
        for magic: [UInt8] in [
            [0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe],
        ] {
            #expect(sniff(magic + [0, 0, 0, 0]).executable == .machO)
        }
        #expect(
            sniff(fat(magic: [0xca, 0xfe, 0xba, 0xbe], count: 2, offset: 4096, size: 100, total: 8192)).executable
                == .machOUniversal)
    }

    @Test func javaClassFilesPass() {
        // cafebabe, minor 0, major 52 (Java 8): 52 "architectures" is not a fat header.
        #expect(sniff([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52] + [UInt8](repeating: 1, count: 200)).executable == nil)
        // A fat header whose slice lies beyond the end of the file is not one either.
        #expect(
            sniff(fat(magic: [0xca, 0xfe, 0xba, 0xbe], count: 1, offset: 4096, size: 100, total: 1000)).executable
                == nil)
    }

    @Test func recognisesELFAndWasm() {
        #expect(sniff([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]).executable == .elf)
        #expect(sniff([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]).executable == .webAssembly)
        #expect(sniff([0, 0x61, 0x73, 0x6d, 9, 9, 9, 9]).executable == nil)
    }

    @Test func recognisesPEEvenFarAway() {
        var pe = [UInt8](repeating: 0, count: 70_000)
        pe[0] = 0x4d
        pe[1] = 0x5a
        let lfanew = 66_000
        pe[0x3c] = UInt8(lfanew & 0xff)
        pe[0x3d] = UInt8(lfanew >> 8 & 0xff)
        pe[0x3e] = UInt8(lfanew >> 16)
        pe[lfanew] = 0x50
        pe[lfanew + 1] = 0x45
        #expect(sniff(pe, chunk: 4093).executable == .pe)
        var text = Array("MZ is how this letter starts, and it is just text.\n".utf8)
        text += [UInt8](repeating: 0x20, count: 100)
        #expect(sniff(text).executable == nil)
    }

    @Test func flagsScripts() {
        #expect(sniff(Array("#!/bin/sh\necho hi\n".utf8)) == ContentSniff(executable: nil, isScript: true))
        #expect(sniff(Array("plain".utf8)) == ContentSniff())
    }
}

extension Array where Element == UInt8 {
    mutating func appendBE(_ v: UInt32) {
        append(contentsOf: [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)])
    }
}
