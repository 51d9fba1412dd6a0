/// Mutations of a Payload: gunzip, edit the cpio "odc" headers (76 ASCII bytes each: magic 070707,
/// dev, ino, mode, uid, gid, nlink, rdev, mtime, namesize, filesize), names and link bodies, then gzip
/// again — sometimes with a second member or junk after the stream.
enum CpioMutator {
    /// Field offsets and widths inside an odc header.
    static let fields: [(name: String, offset: Int, width: Int)] = [
        ("magic", 0, 6), ("dev", 6, 6), ("ino", 12, 6), ("mode", 18, 6), ("uid", 24, 6), ("gid", 30, 6),
        ("nlink", 36, 6), ("rdev", 42, 6), ("mtime", 48, 11), ("namesize", 59, 6), ("filesize", 65, 11),
    ]
    static let headerSize = 76

    /// One member of the cpio stream.
    struct Member {
        /// Where its header starts.
        var start: Int
        var nameSize: Int
        var fileSize: Int
        /// Header, name and body together.
        var total: Int { CpioMutator.headerSize + nameSize + fileSize }
    }

    /// The members of `cpio`, up to the first malformed header (at most 10,000).
    static func members(_ cpio: [UInt8]) -> [Member] {
        var found: [Member] = []
        var position = 0
        while found.count < 10_000, position + headerSize <= cpio.count,
            ByteSearch.octal(cpio, position..<(position + 6)) == 0o70707,
            let nameSize = ByteSearch.octal(cpio, (position + 59)..<(position + 65)),
            let fileSize = ByteSearch.octal(cpio, (position + 65)..<(position + 76)),
            nameSize < 1 << 20, fileSize < 1 << 30
        {
            let member = Member(start: position, nameSize: Int(nameSize), fileSize: Int(fileSize))
            found.append(member)
            position += member.total
        }
        return found
    }

    /// Mode values with a point: every file type, setuid/setgid/sticky, nonsense.
    static let modes: [UInt64] = [
        0o100644, 0o100755, 0o104755, 0o102755, 0o101777, 0o120777, 0o040755, 0o010644,
        0o020644, 0o060644, 0o140644, 0o000000, 0o177777, 0o160644, 0o130644,
    ]
    /// Paths that must be refused inside a Payload.
    static let hostilePaths = [
        "./Contents/../../etc/passwd", "/etc/passwd", "Contents/x", "./ContentInfo.plist", ".", "./",
        "./Contents/x.app/y", "./Contents/a\u{0}b", "./Contents/" + String(repeating: "n", count: 300),
        "TRAILER!!!", "./Contents//x", "./Contents/./x", "./Contents/\u{202E}txt.exe", "../x", "",
    ]

    /// Changes the gzip'd cpio `payload`; returns what it did.
    static func mutate(_ payload: inout [UInt8], _ random: inout SplitMix64) -> String? {
        guard var cpio = XarSurgery.inflate(payload, format: .gzip) else { return nil }
        let all = members(cpio)
        guard !all.isEmpty else { return nil }
        let member = random.pick(all)
        let description: String
        switch random.below(9) {
        case 0, 1:
            let field = random.pick(fields)
            let current =
                ByteSearch.octal(cpio, (member.start + field.offset)..<(member.start + field.offset + field.width)) ?? 0
            let value: [UInt8]
            switch random.below(4) {
            case 0: value = ByteSearch.octalText(current &+ UInt64(random.inRange(1...2)), width: field.width)
            case 1: value = ByteSearch.octalText(current &- UInt64(random.inRange(1...2)), width: field.width)
            case 2: value = Array(String(repeating: random.pick(["0", "7", "9", " ", "x"]), count: field.width).utf8)
            default:
                value = ByteSearch.octalText(
                    UInt64(random.pick([0, 1, 2, 0o777777, 0o7777, 0o77777777777, 0o70707])),
                    width: field.width)
            }
            let clipped = Array(value.suffix(field.width))
            cpio.replaceSubrange(
                (member.start + field.offset)..<(member.start + field.offset + field.width), with: clipped)
            description = "member at \(member.start): \(field.name) -> \(String(decoding: clipped, as: UTF8.self))"
        case 2:
            let mode = random.pick(modes)
            cpio.replaceSubrange((member.start + 18)..<(member.start + 24), with: ByteSearch.octalText(mode, width: 6))
            description = "member at \(member.start): mode -> \(String(mode, radix: 8))"
        case 3:
            // A new name, with namesize fixed up (and sometimes left stale).
            let path = random.pick(hostilePaths)
            let name = Array(path.utf8) + [0]
            let nameStart = member.start + headerSize
            cpio.replaceSubrange(nameStart..<min(cpio.count, nameStart + member.nameSize), with: name)
            if random.chance(7, in: 8) {
                cpio.replaceSubrange(
                    (member.start + 59)..<(member.start + 65), with: ByteSearch.octalText(UInt64(name.count), width: 6))
            }
            description = "member at \(member.start): name -> \(path.prefix(40).debugDescription)"
        case 4:
            // Same inode as another member, nlink 2: a hard link.
            let other = random.pick(all)
            let ino = Array(cpio[(other.start + 12)..<(other.start + 18)])
            cpio.replaceSubrange((member.start + 12)..<(member.start + 18), with: ino)
            cpio.replaceSubrange((member.start + 36)..<(member.start + 42), with: Array("000002".utf8))
            description = "member at \(member.start): ino of member at \(other.start), nlink 2"
        case 5:
            if random.chance(1, in: 2) {
                cpio.removeSubrange(member.start..<min(cpio.count, member.start + member.total))
                description = "removed member at \(member.start)"
            } else {
                let copy = Array(cpio[member.start..<min(cpio.count, member.start + member.total)])
                cpio.insert(contentsOf: copy, at: member.start)
                description = "repeated member at \(member.start)"
            }
        case 6:
            // A symlink body (or any body) replaced by a hostile target, with filesize fixed up.
            let body = Array(random.pick(TOCMutator.hostileTargets).utf8)
            let bodyStart = min(cpio.count, member.start + headerSize + member.nameSize)
            cpio.replaceSubrange(bodyStart..<min(cpio.count, bodyStart + member.fileSize), with: body)
            cpio.replaceSubrange(
                (member.start + 65)..<(member.start + 76), with: ByteSearch.octalText(UInt64(body.count), width: 11))
            if random.chance(1, in: 2) {
                cpio.replaceSubrange((member.start + 18)..<(member.start + 24), with: Array("120777".utf8))
            }
            description =
                "member at \(member.start): body -> \(String(decoding: body.prefix(30), as: UTF8.self).debugDescription)"
        case 7:
            let cut = random.below(cpio.count)
            cpio.removeSubrange(cut...)
            description = "cpio cut at \(cut)"
        default:
            let offset = member.start + random.below(min(member.total, cpio.count - member.start))
            cpio[offset] = UInt8(truncatingIfNeeded: random.next())
            description = "member at \(member.start): byte \(offset - member.start) overwritten"
        }
        payload = XarSurgery.deflate(cpio, format: .gzip, level: Int32(random.inRange(1...9)))
        switch random.below(12) {
        case 0:
            payload += XarSurgery.deflate(Array("more".utf8), format: .gzip, level: 6)
            return description + " + second gzip member"
        case 1:
            payload += [0, 0, 0, 0, 0x1F]
            return description + " + junk after gzip"
        default: return description
        }
    }
}
