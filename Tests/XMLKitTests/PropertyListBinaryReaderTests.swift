import Testing

@testable import XMLKit

@Suite struct PropertyListBinaryReaderTests {
    /// Made by Python 3's plistlib:
    /// plistlib.dumps({"IAPProductIdentifier": "com.example.levels.pack1", "ContentVersion": "1.2.3",
    ///   "Title": "Café 日本 😀", "Small": 7, "Byte": 200, "Short": 40000, "Word": 3000000000, "Negative": -5,
    ///   "Big": 2**62 + 1, "Ratio": 0.5, "Blob": bytes(range(20)), "When": datetime(2013, 5, 17, 8, 30, 15),
    ///   "Yes": True, "No": False, "Nested": {"List": [1, "two", [3.25, {"deep": "x"}]], "Empty": {}, "None": []},
    ///   "Long": "a" * 20}, fmt=plistlib.FMT_BINARY, sort_keys=False)
    static let fixture = PropertyListTestSupport.bytes(
        hex: """
            62706c6973743030df10100102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2d5f101449415050726f6475
            63744964656e7469666965725e436f6e74656e7456657273696f6e555469746c6555536d616c6c54427974655553686f727454576f72
            64584e656761746976655342696755526174696f54426c6f62545768656e53596573524e6f564e6573746564544c6f6e675f1018636f
            6d2e6578616d706c652e6c6576656c732e7061636b3155312e322e336a00430061006600e9002065e5672c0020d83dde00100710c811
            9c4012b2d05e0013fffffffffffffffb134000000000000001233fe00000000000004f1014000102030405060708090a0b0c0d0e0f10
            1112133341b74622170000000908d3202122232b2c544c69737455456d707479544e6f6e65a324252610015374776fa2272823400a00
            0000000000d1292a54646565705178d0a05f101461616161616161616161616161616161616161610008002b004200510057005d0062
            0068006d0076007a00800085008a008e00910098009d00b800be00d300d500d700da00df00e800f100fa0111011a011b011c01230128
            012e013301370139013d01400149014c01510153015401550000000000000201000000000000002e0000000000000000000000000000
            016c
            """)

    static let fixtureValue = PropertyListValue.dictionary([
        (key: "IAPProductIdentifier", value: .string("com.example.levels.pack1")),
        (key: "ContentVersion", value: .string("1.2.3")),
        (key: "Title", value: .string("Café 日本 😀")),
        (key: "Small", value: .integer(7)),
        (key: "Byte", value: .integer(200)),
        (key: "Short", value: .integer(40000)),
        (key: "Word", value: .integer(3_000_000_000)),
        (key: "Negative", value: .integer(-5)),
        (key: "Big", value: .integer(1 << 62 + 1)),
        (key: "Ratio", value: .real(0.5)),
        (key: "Blob", value: .data(Array(0..<20))),
        (key: "When", value: .date("2013-05-17T08:30:15Z")),
        (key: "Yes", value: .bool(true)),
        (key: "No", value: .bool(false)),
        (
            key: "Nested",
            value: .dictionary([
                (
                    key: "List",
                    value: .array([
                        .integer(1), .string("two"),
                        .array([.real(3.25), .dictionary([(key: "deep", value: .string("x"))])]),
                    ])
                ),
                (key: "Empty", value: .dictionary([])),
                (key: "None", value: .array([])),
            ])
        ),
        (key: "Long", value: .string(String(repeating: "a", count: 20))),
    ])

    /// A binary plist laid out from `objects` (in order), 1-byte offsets and references unless told.
    static func layout(
        _ objects: [[UInt8]], top: UInt64 = 0, count: UInt64? = nil,
        offsetSize: UInt8 = 1, referenceSize: UInt8 = 1
    ) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let table = out.count
        for offset in offsets {
            for shift in stride(from: Int(offsetSize) - 1, through: 0, by: -1) {
                out.append(UInt8(truncatingIfNeeded: offset >> (8 * shift)))
            }
        }
        out += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        out.appendBE(count ?? UInt64(objects.count))
        out.appendBE(top)
        out.appendBE(UInt64(table))
        return out
    }

    static func kind(_ bytes: [UInt8]) -> PropertyListError.Kind? {
        PropertyListTestSupport.error(reading: bytes)?.kind
    }

    @Test func readsPlistlibOutput() throws {
        let (value, format) = try PropertyListReader.read(Self.fixture)
        #expect(format == .binary)
        #expect(value == Self.fixtureValue)
    }

    @Test func readsOtherPlistlibShapes() throws {
        let dict = PropertyListTestSupport.bytes(
            hex: "62706c6973743030d1010251615162080b0d000000000000010100000000000000030000000000000000000000000000000f")
        #expect(try PropertyListReader.read(dict).0 == .dictionary([(key: "a", value: .string("b"))]))
        let minusOne = PropertyListTestSupport.bytes(
            hex:
                "62706c6973743030a10113ffffffffffffffff080a0000000000000101000000000000000200000000000000000000000000000013"
        )
        #expect(try PropertyListReader.read(minusOne).0 == .array([.integer(-1)]))
        // 2**64 - 1, which plistlib writes as a 16-byte integer: does not fit Int64.
        let huge = PropertyListTestSupport.bytes(
            hex:
                "62706c6973743030140000000000000000ffffffffffffffff080000000000000101000000000000000100000000000000000000000000000019"
        )
        #expect(Self.kind(huge) == .invalidValue)
        let sixteenByteMinusOne = Self.layout([[0x14] + [UInt8](repeating: 0xFF, count: 16)])
        #expect(try PropertyListReader.read(sixteenByteMinusOne).0 == .integer(-1))
        let float32 = Self.layout([[0x22, 0x40, 0x20, 0x00, 0x00]])
        #expect(try PropertyListReader.read(float32).0 == .real(2.5))
        let wideOffsets = Self.layout([[0xA1, 0x00, 0x01], [0x09]], offsetSize: 4, referenceSize: 2)
        #expect(try PropertyListReader.read(wideOffsets).0 == .array([.bool(true)]))
        let beforeEpoch = Self.layout([[0x33] + Self.doubleBytes(-86_400.5)])
        #expect(try PropertyListReader.read(beforeEpoch).0 == .date("2000-12-30T23:59:59Z"))
        let longASCII = Self.layout([[0x5F, 0x10, 0x10] + Array("sixteen chars!!!".utf8)])
        #expect(try PropertyListReader.read(longASCII).0 == .string("sixteen chars!!!"))
    }

    static func doubleBytes(_ value: Double) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBE(value.bitPattern)
        return out
    }

    @Test func refusesCycles() {
        #expect(Self.kind(Self.layout([[0xA1, 0x00]])) == .cycle)
        #expect(Self.kind(Self.layout([[0xA1, 0x01], [0xA1, 0x00]])) == .cycle)
        #expect(Self.kind(Self.layout([[0xD1, 0x01, 0x00], [0x51, 0x6B]])) == .cycle)
        let error = PropertyListTestSupport.error(reading: Self.layout([[0xA1, 0x01], [0xA1, 0x00]]))
        #expect(error?.location == .byteOffset(8))
    }

    @Test func sharedObjectsAreFineButBombsAreCapped() throws {
        // Object i is an array [i+1, i+1]: shared, acyclic.
        let shared = Self.layout([[0xA2, 0x01, 0x01], [0x09]])
        #expect(try PropertyListReader.read(shared).0 == .array([.bool(true), .bool(true)]))
        // 30 levels of doubling: 2^30 values from 31 objects.
        let bomb = Self.layout((0..<30).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x09]])
        #expect(Self.kind(bomb) == .limit)
        // A chain deeper than 64.
        let chain = Self.layout((0..<70).map { [0xA1, UInt8($0 + 1)] } + [[0x09]])
        #expect(Self.kind(chain) == .limit)
        let sixtyFour = Self.layout((0..<63).map { [0xA1, UInt8($0 + 1)] } + [[0x09]])
        #expect(Self.kind(sixtyFour) == nil)
    }

    @Test func refusesOutOfRangeOffsetsAndReferences() {
        var badOffset = Self.layout([[0xA1, 0x01], [0x09]])
        badOffset[badOffset.count - 32 - 1] = 0xF0
        #expect(Self.kind(badOffset) == .outOfRange)
        var intoTable = Self.layout([[0xA1, 0x01], [0x09]])
        intoTable[intoTable.count - 32 - 1] = UInt8(intoTable.count - 32 - 2)
        #expect(Self.kind(intoTable) == .outOfRange)
        #expect(Self.kind(Self.layout([[0xA1, 0x05], [0x09]])) == .outOfRange)
        #expect(Self.kind(Self.layout([[0x09]], top: 1)) == .outOfRange)
        #expect(Self.kind(Self.layout([[0x09]], count: 2)) == .outOfRange)
        var tableOffset = Self.layout([[0x09]])
        tableOffset[tableOffset.count - 1] = 0xFF
        #expect(Self.kind(tableOffset) == .outOfRange)
        #expect(Self.kind(Self.layout([[0x09, 0x00]], offsetSize: 0)) == .malformed)
        #expect(Self.kind(Self.layout([[0x09]], referenceSize: 9)) == .malformed)
    }

    @Test func refusesHugeCounts() {
        let hugeArray = Self.layout([[0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x09]])
        #expect(Self.kind(hugeArray) == .outOfRange)
        let overflowing = Self.layout([[0xAF, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x09]])
        #expect(Self.kind(overflowing) == .outOfRange)
        let longData = Self.layout([[0x4F, 0x11, 0x10, 0x00, 0x01, 0x02]])
        #expect(Self.kind(longData) == .outOfRange)
        let shortString = Self.layout([[0x55, 0x61, 0x62]])
        #expect(Self.kind(shortString) == .outOfRange)
        let dictPastEnd = Self.layout([[0xD3, 0x01, 0x01], [0x51, 0x61]])
        #expect(Self.kind(dictPastEnd) == .outOfRange)
        #expect(Self.kind(Self.layout([[0x09]], count: 1 << 40)) == .limit)
        #expect(Self.kind(Self.layout([[0x5F, 0x22, 0x00]])) == .invalidValue)
    }

    @Test func truncatedInputsAllFail() {
        #expect(Self.kind(Array(Self.fixture.prefix(40))) == .truncated)
        #expect(Self.kind(Array("bplist00".utf8)) == .truncated)
        for length in 8..<Self.fixture.count {
            #expect(Self.kind(Array(Self.fixture.prefix(length))) != nil, "prefix \(length)")
        }
    }

    @Test func corruptedBytesNeverCrash() {
        var read = 0
        for index in 8..<Self.fixture.count {
            for replacement: UInt8 in [0x00, 0x0F, 0x7F, 0xAF, 0xFF] {
                var bytes = Self.fixture
                bytes[index] = replacement
                if (try? PropertyListReader.read(bytes)) != nil { read += 1 }
            }
        }
        #expect(read > 0)
    }

    @Test func refusesUnsupportedAndInvalidObjects() {
        #expect(Self.kind(Self.layout([[0x00]])) == .unsupported)
        #expect(Self.kind(Self.layout([[0x80, 0x01]])) == .unsupported)
        #expect(Self.kind(Self.layout([[0xC1, 0x01], [0x09]])) == .unsupported)
        #expect(Self.kind(Self.layout([[0xB0]])) == .unsupported)
        #expect(Self.kind(Self.layout([[0x71, 0x61]])) == .unsupported)
        #expect(Self.kind(Self.layout([[0xE0]])) == .invalidValue)
        #expect(Self.kind(Self.layout([[0x51, 0xC3]])) == .invalidValue)
        #expect(Self.kind(Self.layout([[0x61, 0xD8, 0x3D]])) == .invalidValue)
        #expect(Self.kind(Self.layout([[0x21, 0x00, 0x00]])) == .invalidValue)
        #expect(Self.kind(Self.layout([[0x33] + Self.doubleBytes(.nan)])) == .invalidValue)
        #expect(Self.kind(Self.layout([[0x33] + Self.doubleBytes(1e15)])) == .invalidValue)
        #expect(Self.kind(Self.layout([[0xD1, 0x01, 0x01], [0x09]])) == .invalidValue)
        #expect(Self.kind(Self.layout([[0xD2, 0x01, 0x01, 0x02, 0x02], [0x51, 0x61], [0x09]])) == .duplicateKey)
    }
}
