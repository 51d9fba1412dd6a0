/// The path record block (bomutils' PathInfo2): a path's type, mode, owner, time, size and checksum.
///
/// ```
/// type 1 · 1 · architecture u16 (15) · mode u16 · uid u32 · gid u32 · mtime u32 · size u32 · 1 ·
/// checksum-or-device u32 · linkNameLength u32 · link target + NUL (symlinks)
/// ```
/// pkgbuild's mkbom ends a file's record with four zero bytes (35 bytes), a symlink's with eight
/// after the target's NUL, and a directory's or device's after the link length (31 bytes)
/// (go-macos-pkg docs/formats/bom.md). Older tools (PackageMaker, 2011) ended a record as soon as
/// its fields were used up: a directory after the byte at 22 (23 bytes: no checksum, no link
/// length), a file after its checksum (27 bytes). Those two shorter shapes are read too; a symlink
/// always needs the link length. Their record of a Mach-O file goes on after the checksum with a
/// byte 1, an architecture count n and n × (cputype, subtype, size, checksum), 32 + 16n bytes in all;
/// a 1 there can never start the newer layout's link length, which is 0 for every file.
struct PathRecord: Equatable {
    var kind: BomEntry.Kind
    var mode: UInt16
    var uid: UInt32
    var gid: UInt32
    var modificationTime: UInt32
    /// The size field: the low 32 bits of the true size (Size64 holds larger ones).
    var size32: UInt32
    /// The checksum, or the device number for a device.
    var checksumOrDevice: UInt32
    var linkTarget: [UInt8]?

    /// The record's bytes, sized as mkbom sizes them.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(BomLayout.recordFixedSize + (linkTarget?.count ?? 0) + 9)
        bytes.append(BomLayout.typeCode(of: kind))
        bytes.append(1)
        bytes.appendBigEndian(BomLayout.ordinaryArchitecture)
        bytes.appendBigEndian(mode)
        bytes.appendBigEndian(uid)
        bytes.appendBigEndian(gid)
        bytes.appendBigEndian(modificationTime)
        bytes.appendBigEndian(size32)
        bytes.append(1)
        bytes.appendBigEndian(checksumOrDevice)
        switch kind {
        case .symlink:
            let target = linkTarget ?? []
            bytes.appendBigEndian(UInt32(truncatingIfNeeded: target.count + 1))
            bytes.append(contentsOf: target)
            bytes.append(0)
            bytes.append(contentsOf: [UInt8](repeating: 0, count: 8))
        case .file:
            bytes.appendBigEndian(UInt32(0))
            bytes.append(contentsOf: [UInt8](repeating: 0, count: 4))
        case .directory, .device:
            bytes.appendBigEndian(UInt32(0))
        }
        return bytes
    }

    /// Decodes and checks the record held in `bytes` (block `block`).
    static func decode(_ bytes: ArraySlice<UInt8>, block: UInt32, maxTargetBytes: Int) throws(BomError) -> PathRecord {
        guard bytes.count >= BomLayout.shortestRecordSize else {
            throw .blockTooShort(
                index: block, holding: "a path record", length: bytes.count,
                minimum: BomLayout.shortestRecordSize)
        }
        let hasChecksum = bytes.count >= BomLayout.recordChecksumEnd
        let hasLinkLength = bytes.count >= BomLayout.recordFixedSize
        guard hasLinkLength || bytes.count == BomLayout.shortestRecordSize || bytes.count == BomLayout.recordChecksumEnd
        else {
            throw .badRecord(
                block: block,
                reason:
                    "a \(bytes.count)-byte record ends inside a field; records hold 23 (directory), 27 (file) or at least 31 bytes"
            )
        }
        let base = bytes.startIndex
        func u16(_ offset: Int) -> UInt16 { BomFile.u16(bytes, offset) }
        func u32(_ offset: Int) -> UInt32 { BomFile.u32(bytes, offset) }

        guard let kind = BomLayout.kind(ofTypeCode: bytes[base]) else {
            throw .badRecord(block: block, reason: "unknown type \(bytes[base]) at byte 0")
        }
        let mode = u16(4)
        guard BomLayout.modeMatches(mode, kind: kind) else {
            throw .badRecord(block: block, reason: "mode 0o\(String(mode, radix: 8)) does not match type \(kind)")
        }
        var record = PathRecord(
            kind: kind, mode: mode, uid: u32(6), gid: u32(10), modificationTime: u32(14),
            size32: u32(18), checksumOrDevice: hasChecksum ? u32(23) : 0, linkTarget: nil)
        if !hasLinkLength && kind == .symlink {
            throw .blockTooShort(
                index: block, holding: "a symlink record", length: bytes.count, minimum: BomLayout.recordFixedSize)
        }
        if kind == .file, bytes.count > BomLayout.recordFixedSize, bytes[base + 27] == 1,
            (1...BomLayout.maxArchitectures).contains(u32(28)), bytes.count == 32 + 16 * Int(u32(28))
        {
            return record
        }
        let linkLength = hasLinkLength ? u32(27) : 0
        if kind == .symlink {
            // The target, its NUL, nothing NUL inside, within the block and the limit.
            guard linkLength >= 2, Int(linkLength) - 1 <= maxTargetBytes else {
                throw .badRecord(
                    block: block, reason: "link target length \(linkLength) outside 2...\(maxTargetBytes + 1)")
            }
            let end = BomLayout.recordFixedSize + Int(linkLength)
            guard end <= bytes.count else {
                throw .blockTooShort(index: block, holding: "a symlink record", length: bytes.count, minimum: end)
            }
            let target = bytes[(base + BomLayout.recordFixedSize)..<(base + end - 1)]
            guard bytes[base + end - 1] == 0, !target.contains(0) else {
                throw .badRecord(block: block, reason: "link target is not one NUL-terminated string")
            }
            record.linkTarget = Array(target)
        } else if linkLength != 0 {
            throw .badRecord(block: block, reason: "link target length \(linkLength) on a \(kind)")
        }
        return record
    }
}
