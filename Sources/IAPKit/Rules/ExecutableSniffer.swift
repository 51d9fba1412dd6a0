/// Recognises executable code in a file fed to it in pieces, whatever the file is called.
///
/// It keeps the first 4 KiB, plus the four bytes a PE header's `e_lfanew` points at, which may
/// lie further on; `finish()` judges. Java class files share the universal Mach-O magic and pass
/// because a real fat header has 1 to 30 architectures whose slices lie inside the file.
package struct ExecutableSniffer: Sendable {
    private static let prefixLimit = 4096
    private let fileSize: UInt64
    private var prefix: [UInt8] = []
    private var position: UInt64 = 0
    private var peOffset: UInt64?
    private var peSignature: [UInt8] = []

    /// Starts sniffing a file of `fileSize` bytes.
    package init(fileSize: UInt64) {
        self.fileSize = fileSize
        prefix.reserveCapacity(min(Int(fileSize), Self.prefixLimit))
    }

    /// Feeds the next piece of the file.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        let count = UInt64(bytes.count)
        if prefix.count < Self.prefixLimit {
            let take = min(bytes.count, Self.prefixLimit - prefix.count)
            prefix.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            if peOffset == nil, prefix.count >= 0x40, prefix[0] == 0x4D, prefix[1] == 0x5A {
                let lfanew =
                    UInt64(prefix[0x3C]) | UInt64(prefix[0x3D]) << 8 | UInt64(prefix[0x3E]) << 16 | UInt64(prefix[0x3F])
                    << 24
                peOffset = lfanew
            }
        }
        if let pe = peOffset, peSignature.count < 4 {
            var index = pe + UInt64(peSignature.count)
            while peSignature.count < 4, index >= position, index < position + count {
                peSignature.append(bytes[Int(index - position)])
                index += 1
            }
        }
        position += count
    }

    /// Feeds a byte array.
    package mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// An offset beyond what was fed whose four bytes the verdict still needs (a far PE header),
    /// for callers that read only a prefix and can read more at will.
    package var pendingOffset: UInt64? {
        guard let pe = peOffset, peSignature.count < 4, pe >= position, pe + 4 <= fileSize else { return nil }
        return pe
    }

    /// Supplies the four bytes at `pendingOffset`.
    package mutating func supply(_ bytes: [UInt8], at offset: UInt64) {
        guard offset == pendingOffset else { return }
        peSignature = Array(bytes.prefix(4))
    }

    /// What the bytes fed so far are.
    package func finish() -> ContentSniff {
        ContentSniff(executable: executableKind(), isScript: prefix.starts(with: [0x23, 0x21]))
    }

    private func executableKind() -> ExecutableKind? {
        guard prefix.count >= 4 else { return nil }
        let magic = prefix.uint32BEAt(0)
        switch magic {
        case 0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE:
            return .machO
        case 0xCAFE_BABE, 0xCAFE_BABF:
            return isFatHeader(bigEndian: true, is64: magic == 0xCAFE_BABF) ? .machOUniversal : nil
        case 0xBEBA_FECA, 0xBFBA_FECA:
            return isFatHeader(bigEndian: false, is64: magic == 0xBFBA_FECA) ? .machOUniversal : nil
        case 0x7F45_4C46:
            return .elf
        case 0x0061_736D:
            return prefix.count >= 8 && prefix[4] == 1 && prefix[5] == 0 && prefix[6] == 0 && prefix[7] == 0
                ? .webAssembly : nil
        default:
            if prefix[0] == 0x4D, prefix[1] == 0x5A, peSignature == [0x50, 0x45, 0, 0] { return .pe }
            return nil
        }
    }

    private func isFatHeader(bigEndian: Bool, is64: Bool) -> Bool {
        func word(_ offset: Int) -> UInt64? {
            guard offset + 4 <= prefix.count else { return nil }
            let v = prefix.uint32BEAt(offset)
            return UInt64(bigEndian ? v : v.byteSwapped)
        }
        func dword(_ offset: Int) -> UInt64? {
            guard let hi = word(offset), let lo = word(offset + 4) else { return nil }
            return bigEndian ? hi << 32 | lo : lo << 32 | hi
        }
        guard let count = word(4), (1...30).contains(count) else { return false }
        let entrySize = is64 ? 32 : 20
        for i in 0..<Int(count) {
            let base = 8 + i * entrySize
            let offset: UInt64?
            let size: UInt64?
            if is64 {
                offset = dword(base + 8)
                size = dword(base + 16)
            } else {
                offset = word(base + 8)
                size = word(base + 12)
            }
            guard let offset, let size, offset >= UInt64(8 + Int(count) * entrySize),
                offset <= fileSize, size <= fileSize - offset, size > 0
            else { return false }
        }
        return true
    }
}

extension Array where Element == UInt8 {
    fileprivate func uint32BEAt(_ offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8
            | UInt32(self[offset + 3])
    }
}
