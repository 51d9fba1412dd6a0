import Testing

@testable import XMLKit

@Suite struct PropertyListWriterTests {
    static let contentInfo = PropertyListValue.dictionary([
        (key: "IAPProductIdentifier", value: .string("com.example.levels.pack1")),
        (key: "ContentVersion", value: .string("1.0")),
        (key: "Folder", value: .string("Levels & <Bonus> \"quoted\" 'it'")),
        (key: "Empty", value: .string("")),
        (key: "Unicode", value: .string("Café 😀")),
    ])

    /// plistlib.dumps({...the same dict...}, sort_keys=False), Python 3.
    static let contentInfoByPlistlib = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>IAPProductIdentifier</key>
        \t<string>com.example.levels.pack1</string>
        \t<key>ContentVersion</key>
        \t<string>1.0</string>
        \t<key>Folder</key>
        \t<string>Levels &amp; &lt;Bonus&gt; "quoted" 'it'</string>
        \t<key>Empty</key>
        \t<string></string>
        \t<key>Unicode</key>
        \t<string>Café 😀</string>
        </dict>
        </plist>

        """

    static let everyType = PropertyListValue.dictionary([
        (key: "S", value: .string("x")),
        (key: "I", value: .integer(-42)),
        (key: "R", value: .real(0.5)),
        (key: "R1", value: .real(1.0)),
        (key: "T", value: .bool(true)),
        (key: "F", value: .bool(false)),
        (key: "D", value: .date("2013-05-17T08:30:15Z")),
        (key: "Blob", value: .data(Array(0..<100))),
        (key: "E", value: .data([])),
        (
            key: "Nest",
            value: .dictionary([
                (
                    key: "L",
                    value: .array([
                        .integer(1), .dictionary([(key: "Deep", value: .array([.data(Array(0..<60))]))]), .array([]),
                    ])
                ),
                (key: "X", value: .dictionary([])),
            ])
        ),
    ])

    /// plistlib.dumps({"S": "x", "I": -42, "R": 0.5, "R1": 1.0, "T": True, "F": False,
    ///   "D": datetime(2013,5,17,8,30,15), "Blob": bytes(range(100)), "E": b"",
    ///   "Nest": {"L": [1, {"Deep": [bytes(range(60))]}, []], "X": {}}}, sort_keys=False)
    static let everyTypeByPlistlib = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>S</key>
        \t<string>x</string>
        \t<key>I</key>
        \t<integer>-42</integer>
        \t<key>R</key>
        \t<real>0.5</real>
        \t<key>R1</key>
        \t<real>1.0</real>
        \t<key>T</key>
        \t<true/>
        \t<key>F</key>
        \t<false/>
        \t<key>D</key>
        \t<date>2013-05-17T08:30:15Z</date>
        \t<key>Blob</key>
        \t<data>
        \tAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEy
        \tMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiYw==
        \t</data>
        \t<key>E</key>
        \t<data>
        \t</data>
        \t<key>Nest</key>
        \t<dict>
        \t\t<key>L</key>
        \t\t<array>
        \t\t\t<integer>1</integer>
        \t\t\t<dict>
        \t\t\t\t<key>Deep</key>
        \t\t\t\t<array>
        \t\t\t\t\t<data>
        \t\t\t\t\tAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBka
        \t\t\t\t\tGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1
        \t\t\t\t\tNjc4OTo7
        \t\t\t\t\t</data>
        \t\t\t\t</array>
        \t\t\t</dict>
        \t\t\t<array/>
        \t\t</array>
        \t\t<key>X</key>
        \t\t<dict/>
        \t</dict>
        </dict>
        </plist>

        """

    @Test func matchesPlistlibForADictOfStrings() throws {
        #expect(try PropertyListWriter.xml(Self.contentInfo) == Array(Self.contentInfoByPlistlib.utf8))
    }

    @Test func matchesPlistlibForEveryType() throws {
        #expect(try PropertyListWriter.xml(Self.everyType) == Array(Self.everyTypeByPlistlib.utf8))
        let topLevelData = try PropertyListWriter.xml(.data(Array(0..<70)))
        #expect(
            String(decoding: topLevelData, as: UTF8.self).contains(
                "<data>\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4\nOTo7PD0+P0BBQkNERQ==\n</data>\n"
            ))
    }

    @Test(.enabled(if: PropertyListTestSupport.pythonAvailable))
    func matchesLivePlistlib() throws {
        let script = """
            import plistlib, sys
            sys.stdout.buffer.write(plistlib.dumps({"IAPProductIdentifier": "com.example.levels.pack1", "ContentVersion": "1.0", \
            "Folder": "Levels & <Bonus> \\"quoted\\" 'it'", "Empty": "", "Unicode": "Caf\\u00e9 \\U0001F600"}, sort_keys=False))
            """
        let expected = try #require(PropertyListTestSupport.python(script))
        #expect(try PropertyListWriter.xml(Self.contentInfo) == expected)
    }

    @Test func roundTripsThroughTheReader() throws {
        for value in [
            Self.contentInfo, Self.everyType, PropertyListBinaryReaderTests.fixtureValue,
            .array([
                .real(.nan), .real(.infinity), .real(-.infinity), .real(1e300), .real(-0.0),
                .integer(.min), .integer(.max), .string("tab\tline\nreturn\r&]]>"), .date("0001-01-01T00:00:00Z"),
            ]),
            .string("top"), .dictionary([]),
        ] {
            let (read, format) = try PropertyListReader.read(try PropertyListWriter.xml(value))
            #expect(format == .xml)
            #expect(read == value)
        }
    }

    @Test func refusesWhatXMLCannotCarry() {
        #expect(throws: PropertyListError.self) { try PropertyListWriter.xml(.string("nul\u{0}")) }
        #expect(throws: PropertyListError.self) {
            try PropertyListWriter.xml(.dictionary([(key: "esc\u{1B}", value: .bool(true))]))
        }
        #expect(throws: PropertyListError.self) { try PropertyListWriter.xml(.date("yesterday")) }
        #expect(throws: PropertyListError.self) { try PropertyListWriter.xml(.array([.string("\u{FFFF}")])) }
    }
}
