/// The cpio variants a component Payload may use, and the fixed part of their headers.
enum CpioFormat: Equatable {
    /// POSIX.1 portable ASCII ("odc", magic 070707): 76 bytes of octal, no alignment.
    case odc
    /// SVR4 "newc" (070701): 110 bytes of hex; header+name and data each padded to 4 bytes.
    case newc
    /// SVR4 with a checksum (070702): newc whose check field is the sum of the data bytes.
    case newcCRC

    /// Bytes of the fixed header.
    var headerSize: Int { self == .odc ? 76 : 110 }
    /// Alignment of header+name and of data.
    var alignment: UInt64 { self == .odc ? 1 : 4 }
    /// A name for messages.
    var name: String {
        switch self {
        case .odc: "cpio odc (070707)"
        case .newc: "cpio newc (070701)"
        case .newcCRC: "cpio newc-crc (070702)"
        }
    }

    /// The format a header's first six bytes announce; throws for anything but odc and newc.
    static func detect(_ magic: ArraySlice<UInt8>, headerOffset: UInt64) throws(PayloadError) -> CpioFormat {
        switch Array(magic.prefix(6)) {
        case Array("070707".utf8): return .odc
        case Array("070701".utf8): return .newc
        case Array("070702".utf8): return .newcCRC
        default: break
        }
        let first = magic.first ?? 0
        let second = magic.dropFirst().first ?? 0
        if (first == 0xc7 && second == 0x71) || (first == 0x71 && second == 0xc7) {
            throw .unsupportedCpioFormat("binary cpio (old binary header at decoded byte \(headerOffset))")
        }
        let shown = magic.prefix(6).map { (0x21...0x7e).contains($0) ? String(UnicodeScalar($0)) : "\\x" + hex2($0) }
            .joined()
        throw .invalidEntry(
            headerOffset: headerOffset,
            reason: "no cpio header magic (found \"\(shown)\"; expected 070707, 070701 or 070702)")
    }

    private static func hex2(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}

/// The numeric fields of one cpio header, decoded strictly (every character a digit of the radix).
struct CpioHeader {
    var dev: UInt64
    var ino: UInt64
    var mode: UInt32
    var uid: UInt32
    var gid: UInt32
    var nlink: UInt32
    var mtime: Int64
    var nameSize: UInt64
    var fileSize: UInt64
    /// newc-crc's check field (the 32-bit sum of the data bytes); 0 elsewhere.
    var check: UInt32

    /// Decodes the fixed header in `bytes` (exactly `format.headerSize` bytes) of the entry at `headerOffset`.
    init(_ bytes: [UInt8], format: CpioFormat, headerOffset: UInt64) throws(PayloadError) {
        var position = 6
        func field(_ name: String, _ width: Int) throws(PayloadError) -> UInt64 {
            let radix: UInt64 = format == .odc ? 8 : 16
            var value: UInt64 = 0
            for byte in bytes[position..<position + width] {
                guard let digit = Self.digit(byte), UInt64(digit) < radix else {
                    throw .invalidEntry(
                        headerOffset: headerOffset,
                        reason:
                            "its \(name) field (header byte \(position)) holds a character that is not a\(format == .odc ? "n octal" : " hex") digit"
                    )
                }
                value = value * radix + UInt64(digit)
            }
            position += width
            return value
        }
        func small(_ value: UInt64, _ name: String) throws(PayloadError) -> UInt32 {
            guard let small = UInt32(exactly: value) else {
                throw .invalidEntry(headerOffset: headerOffset, reason: "its \(name) \(value) is out of range")
            }
            return small
        }
        if format == .odc {
            dev = try field("dev", 6)
            ino = try field("ino", 6)
            mode = try small(try field("mode", 6), "mode")
            uid = try small(try field("uid", 6), "uid")
            gid = try small(try field("gid", 6), "gid")
            nlink = try small(try field("nlink", 6), "nlink")
            _ = try field("rdev", 6)
            mtime = Int64(try field("mtime", 11))
            nameSize = try field("namesize", 6)
            fileSize = try field("filesize", 11)
            check = 0
        } else {
            ino = try field("ino", 8)
            mode = try small(try field("mode", 8), "mode")
            uid = try small(try field("uid", 8), "uid")
            gid = try small(try field("gid", 8), "gid")
            nlink = try small(try field("nlink", 8), "nlink")
            mtime = Int64(try field("mtime", 8))
            fileSize = try field("filesize", 8)
            let major = try field("devmajor", 8)
            let minor = try field("devminor", 8)
            dev = major << 32 | minor
            _ = try field("rdevmajor", 8)
            _ = try field("rdevminor", 8)
            nameSize = try field("namesize", 8)
            check = try small(try field("check", 8), "check")
            if format == .newc && check != 0 {
                throw .invalidEntry(
                    headerOffset: headerOffset,
                    reason: "its check field is \(check); a newc (070701) header has 0 there")
            }
        }
    }

    /// The value of an ASCII hex digit (either case), nil for anything else.
    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
