/// Builds raw cpio newc (070701) and newc-crc (070702) bytes by hand: 110-byte hex headers,
/// header+name and data each padded with NULs to a multiple of 4.
struct NewcBuilder {
    private(set) var bytes: [UInt8] = []
    /// Writes 070702 headers whose check field is the sum of the data bytes.
    var crc = false

    /// One 8-digit hex field.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// Appends an entry; `check` overrides the computed newc-crc sum.
    mutating func add(
        _ name: String, mode: UInt32, data: [UInt8] = [], ino: UInt64 = 0, nlink: UInt64 = 1,
        check: UInt64? = nil
    ) {
        let sum = crc ? data.reduce(UInt64(0)) { ($0 + UInt64($1)) & 0xffff_ffff } : 0
        let nameBytes = Array(name.utf8) + [0]
        let fields =
            (crc ? "070702" : "070701") + Self.hex(ino) + Self.hex(UInt64(mode)) + Self.hex(0) + Self.hex(0)
            + Self.hex(nlink) + Self.hex(0) + Self.hex(UInt64(data.count)) + Self.hex(0) + Self.hex(0)
            + Self.hex(0) + Self.hex(0) + Self.hex(UInt64(nameBytes.count)) + Self.hex(check ?? sum)
        bytes += Array(fields.utf8) + nameBytes
        pad()
        bytes += data
        pad()
    }

    /// Appends the `TRAILER!!!` entry.
    mutating func addTrailer() {
        add("TRAILER!!!", mode: 0)
    }

    /// NULs up to the next multiple of 4.
    private mutating func pad() {
        while bytes.count % 4 != 0 { bytes.append(0) }
    }
}
