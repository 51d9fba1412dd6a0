internal import IAPSystem

/// Reads Apple's binary property list (`bplist00`) strictly: the trailer, the offset table and every
/// reference are range-checked, cycles and excessive nesting are refused, and no length is trusted
/// before it is checked against the bytes that hold it.
///
/// Layout: 8-byte magic; objects; an offset table (one big-endian offset per object); a 32-byte trailer
/// (6 unused bytes, offset size, reference size, object count, top object, table offset; the last three
/// 64-bit big-endian). Each object begins with a marker byte: high nibble the type, low nibble a size
/// (0xF: the size follows as an integer object).
struct PropertyListBinaryReader {
    private static let headerSize = 8
    private static let trailerSize = 32

    let bytes: [UInt8]
    private let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    /// Objects lie in `headerSize..<tableOffset`.
    let tableOffset: Int
    private var offsets: [Int] = []
    private var onPath: [Bool]
    private var produced = 0

    /// Parses a whole binary plist.
    static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        var reader = try PropertyListBinaryReader(bytes)
        let topIndex = try reader.readTrailerTop()
        try reader.readOffsetTable()
        return try reader.object(topIndex, depth: 1)
    }

    private init(_ bytes: [UInt8]) throws(PropertyListError) {
        self.bytes = bytes
        guard bytes.count >= Self.headerSize + 1 + 1 + Self.trailerSize else {
            throw PropertyListError(
                .truncated,
                "\(bytes.count) bytes is too short for a binary plist (header, one object, offset table and 32-byte trailer)",
                at: .byteOffset(bytes.count))
        }
        let trailer = bytes.count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize) else {
            throw PropertyListError(
                .malformed, "trailer offset size is \(offsetSize); it must be 1 to 8", at: .byteOffset(trailer + 6))
        }
        guard (1...8).contains(referenceSize) else {
            throw PropertyListError(
                .malformed, "trailer reference size is \(referenceSize); it must be 1 to 8",
                at: .byteOffset(trailer + 7))
        }
        let declaredCount = bytes.uint64BE(at: trailer + 8)
        guard declaredCount >= 1 else {
            throw PropertyListError(.malformed, "trailer declares no objects", at: .byteOffset(trailer + 8))
        }
        guard declaredCount <= UInt64(PropertyListReader.maxValues) else {
            throw PropertyListError(
                .limit,
                "trailer declares \(declaredCount) objects, more than the \(PropertyListReader.maxValues) allowed",
                at: .byteOffset(trailer + 8))
        }
        objectCount = Int(declaredCount)
        let declaredTable = bytes.uint64BE(at: trailer + 24)
        // The table must start after at least one object and end at the trailer.
        let tableBytes = objectCount * offsetSize
        guard declaredTable >= UInt64(Self.headerSize + 1), declaredTable <= UInt64(trailer),
            Int(declaredTable) + tableBytes <= trailer
        else {
            throw PropertyListError(
                .outOfRange,
                "offset table at \(declaredTable) with \(objectCount) entries of \(offsetSize) bytes does not fit between the header and the trailer at \(trailer)",
                at: .byteOffset(trailer + 24))
        }
        tableOffset = Int(declaredTable)
        onPath = [Bool](repeating: false, count: objectCount)
    }

    private func readTrailerTop() throws(PropertyListError) -> Int {
        let position = bytes.count - Self.trailerSize + 16
        let top = bytes.uint64BE(at: position)
        guard top < UInt64(objectCount) else {
            throw PropertyListError(
                .outOfRange, "top object \(top) is not one of the \(objectCount) objects", at: .byteOffset(position))
        }
        return Int(top)
    }

    private mutating func readOffsetTable() throws(PropertyListError) {
        offsets.reserveCapacity(objectCount)
        for index in 0..<objectCount {
            let position = tableOffset + index * offsetSize
            let offset = unsigned(at: position, size: offsetSize)
            guard offset >= UInt64(Self.headerSize), offset < UInt64(tableOffset) else {
                throw PropertyListError(
                    .outOfRange,
                    "object \(index) is said to start at byte \(offset), outside the object area \(Self.headerSize)..<\(tableOffset)",
                    at: .byteOffset(position))
            }
            offsets.append(Int(offset))
        }
    }

    // MARK: Objects

    private mutating func object(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let start = offsets[index]
        guard depth <= PropertyListReader.maxDepth else {
            throw PropertyListError(
                .limit, "objects nest deeper than \(PropertyListReader.maxDepth) levels", at: .byteOffset(start))
        }
        guard !onPath[index] else {
            throw PropertyListError(.cycle, "object \(index) contains itself", at: .byteOffset(start))
        }
        produced += 1
        guard produced <= PropertyListReader.maxValues else {
            throw PropertyListError(
                .limit,
                "more than \(PropertyListReader.maxValues) values (shared objects count each time they are used)",
                at: .byteOffset(start))
        }
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            case 0x00:
                throw PropertyListError(
                    .unsupported, "null objects are not property-list values", at: .byteOffset(start))
            default:
                throw PropertyListError(.invalidValue, "unknown object marker 0x\(hex(marker))", at: .byteOffset(start))
            }
        case 0x1:
            return .integer(try integer(at: start, sizeExponent: low))
        case 0x2:
            guard low == 2 || low == 3 else {
                throw PropertyListError(
                    .invalidValue, "a real of \(1 << min(low, 15)) bytes; reals are 4 or 8 bytes",
                    at: .byteOffset(start))
            }
            return .real(try real(at: start, size: 1 << low))
        case 0x3:
            guard marker == 0x33 else {
                throw PropertyListError(
                    .invalidValue, "date marker 0x\(hex(marker)); dates are 0x33", at: .byteOffset(start))
            }
            let seconds = try real(at: start, size: 8)
            guard let text = PropertyListDate.text(secondsSince2001: seconds) else {
                throw PropertyListError(
                    .invalidValue, "date \(seconds) s from 2001 is not in years 1 to 9999", at: .byteOffset(start))
            }
            return .date(text)
        case 0x4:
            let (count, body) = try length(at: start, low: low, unit: 1, what: "data")
            return .data(Array(bytes[body..<body + count]))
        case 0x5:
            let (count, body) = try length(at: start, low: low, unit: 1, what: "ASCII string")
            let slice = bytes[body..<body + count]
            guard slice.allSatisfy({ $0 < 0x80 }) else {
                throw PropertyListError(.invalidValue, "ASCII string holds a byte above 0x7F", at: .byteOffset(start))
            }
            return .string(String(decoding: slice, as: UTF8.self))
        case 0x6:
            let (count, body) = try length(at: start, low: low, unit: 2, what: "UTF-16 string")
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for i in 0..<count { units.append(bytes.uint16BE(at: body + 2 * i)) }
            guard let text = String(validating: units, as: UTF16.self) else {
                throw PropertyListError(
                    .invalidValue, "UTF-16 string is not valid UTF-16 (unpaired surrogate)", at: .byteOffset(start))
            }
            return .string(text)
        case 0xA:
            let (count, body) = try length(at: start, low: low, unit: referenceSize, what: "array")
            onPath[index] = true
            var items: [PropertyListValue] = []
            items.reserveCapacity(count)
            for i in 0..<count {
                let child = try reference(at: body + i * referenceSize)
                items.append(try object(child, depth: depth + 1))
            }
            onPath[index] = false
            return .array(items)
        case 0xD:
            // A dict holds `count` key references, then `count` value references.
            let (pairs, body) = try length(at: start, low: low, unit: 2 * referenceSize, what: "dictionary")
            onPath[index] = true
            var entries: [(key: String, value: PropertyListValue)] = []
            entries.reserveCapacity(pairs)
            var seen = Set<String>()
            for i in 0..<pairs {
                let keyIndex = try reference(at: body + i * referenceSize)
                guard case .string(let key) = try object(keyIndex, depth: depth + 1) else {
                    throw PropertyListError(
                        .invalidValue, "dictionary key (object \(keyIndex)) is not a string",
                        at: .byteOffset(offsets[keyIndex]))
                }
                guard seen.insert(key).inserted else {
                    throw PropertyListError(
                        .duplicateKey, "key '\(key)' appears twice in one dictionary", at: .byteOffset(start))
                }
                let valueIndex = try reference(at: body + (pairs + i) * referenceSize)
                entries.append((key: key, value: try object(valueIndex, depth: depth + 1)))
            }
            onPath[index] = false
            return .dictionary(entries)
        case 0x7:
            throw PropertyListError(
                .unsupported, "UTF-8 string objects (0x7n) belong to later binary formats, not bplist00",
                at: .byteOffset(start))
        case 0x8:
            throw PropertyListError(
                .unsupported, "UID objects (keyed-archiver data) are not supported", at: .byteOffset(start))
        case 0xB, 0xC:
            throw PropertyListError(.unsupported, "set objects are not supported", at: .byteOffset(start))
        default:
            throw PropertyListError(.invalidValue, "unknown object marker 0x\(hex(marker))", at: .byteOffset(start))
        }
    }
}
