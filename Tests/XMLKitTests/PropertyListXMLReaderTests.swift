import Testing

@testable import XMLKit

@Suite struct PropertyListXMLReaderTests {
    @Test func readsContentInfoKeepingKeyOrderAndExtraKeys() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>IAPProductIdentifier</key>
            \t<string>com.example.levels.pack1</string>
            \t<key>Folder</key>
            \t<string>Levels &amp; Maps</string>
            \t<key>ContentVersion</key>
            \t<string>1.0</string>
            \t<key>Zeta</key>
            \t<integer>-12</integer>
            \t<key>Alpha</key>
            \t<array><true/><false/><real>2.5</real><date>2013-05-17T08:30:15Z</date><data>
            \t AAEC
            \t AwQ=
            \t</data><string><![CDATA[<raw>]]></string><dict/></array>
            </dict>
            </plist>
            """
        let (value, format) = try PropertyListReader.read(Array(text.utf8))
        #expect(format == .xml)
        let expected = PropertyListValue.dictionary([
            (key: "IAPProductIdentifier", value: .string("com.example.levels.pack1")),
            (key: "Folder", value: .string("Levels & Maps")),
            (key: "ContentVersion", value: .string("1.0")),
            (key: "Zeta", value: .integer(-12)),
            (
                key: "Alpha",
                value: .array([
                    .bool(true), .bool(false), .real(2.5), .date("2013-05-17T08:30:15Z"),
                    .data([0, 1, 2, 3, 4]), .string("<raw>"), .dictionary([]),
                ])
            ),
        ])
        #expect(value == expected)
        #expect(value.value(forKey: "ContentVersion")?.stringValue == "1.0")
        #expect(value.value(forKey: "Missing") == nil)
        guard case .dictionary(let entries) = value else {
            Issue.record("not a dict")
            return
        }
        #expect(entries.map(\.key) == ["IAPProductIdentifier", "Folder", "ContentVersion", "Zeta", "Alpha"])
    }

    @Test func acceptsNoDeclarationAndKeepsWhitespaceInStrings() throws {
        let (value, _) = try PropertyListReader.read(Array("<plist><string>  two  spaces </string></plist>".utf8))
        #expect(value == .string("  two  spaces "))
        let (empty, _) = try PropertyListReader.read(Array("<plist><dict><key></key><string/></dict></plist>".utf8))
        #expect(empty == .dictionary([(key: "", value: .string(""))]))
    }

    @Test func integersAreStrictDecimal() throws {
        func integer(_ text: String) -> PropertyListValue? {
            try? PropertyListReader.read(Array("<plist><integer>\(text)</integer></plist>".utf8)).0
        }
        #expect(integer("0") == .integer(0))
        #expect(integer("+17") == .integer(17))
        #expect(integer("-9223372036854775808") == .integer(.min))
        #expect(integer("9223372036854775807") == .integer(.max))
        for bad in ["", " 1", "1 ", "0x10", "1.0", "9223372036854775808", "-", "1e3", "١"] {
            let error = PropertyListTestSupport.error(reading: Array("<plist><integer>\(bad)</integer></plist>".utf8))
            #expect(error?.kind == .invalidValue, "\(bad)")
        }
    }

    @Test func realsDatesAndData() throws {
        func read(_ body: String) -> PropertyListValue? {
            try? PropertyListReader.read(Array("<plist>\(body)</plist>".utf8)).0
        }
        #expect(read("<real>-1.5e3</real>") == .real(-1500))
        #expect(read("<real>.25</real>") == .real(0.25))
        #expect(read("<real>nan</real>") == .real(.nan))
        #expect(read("<real>-infinity</real>") == .real(-.infinity))
        #expect(read("<real>0x1p3</real>") == nil)
        #expect(read("<real>1e</real>") == nil)
        #expect(read("<date>2024-02-29T23:59:59Z</date>") == .date("2024-02-29T23:59:59Z"))
        #expect(read("<date>2023-02-29T00:00:00Z</date>") == nil)
        #expect(read("<date>2023-01-01 00:00:00Z</date>") == nil)
        #expect(read("<date>2023-01-01T24:00:00Z</date>") == nil)
        #expect(read("<data>QUJD</data>") == .data(Array("ABC".utf8)))
        #expect(read("<data>QUI=</data>") == .data(Array("AB".utf8)))
        #expect(read("<data></data>") == .data([]))
        #expect(read("<data>QUI</data>") == nil)
        #expect(read("<data>Q=I=</data>") == nil)
        #expect(read("<data>QU*=</data>") == nil)
    }

    @Test func refusesWhatIsNotAPlistWithLineAndColumn() {
        func failure(_ text: String) -> PropertyListError? { PropertyListTestSupport.error(reading: Array(text.utf8)) }
        let unknown = failure("<plist>\n<dict>\n  <key>a</key>\n  <widget/>\n</dict></plist>")
        #expect(unknown?.kind == .unknownElement)
        #expect(unknown?.location == .line(4, column: 10))
        let duplicate = failure(
            "<plist><dict>\n<key>a</key><string>1</string>\n<key>a</key><string>2</string></dict></plist>")
        #expect(duplicate?.kind == .duplicateKey)
        if case .line(let line, _)? = duplicate?.location { #expect(line == 3) } else { Issue.record("no line") }
        #expect(failure("<plist><dict><string>x</string></dict></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist><dict><key>a</key></dict></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist><dict><key>a</key><key>b</key></dict></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist><array><key>a</key></array></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist><string>a</string><string>b</string></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist><dict>text</dict></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist><string>a<b/></string></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist><true>yes</true></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist><string id=\"1\">a</string></plist>")?.kind == .invalidStructure)
        #expect(failure("<plist version=\"2.0\"><string>a</string></plist>")?.kind == .invalidStructure)
        #expect(failure("<dict/>")?.kind == .invalidStructure)
        #expect(failure("<plist><string>a</string>")?.kind == .malformed)
        #expect(failure("bplist01xxxxxxxx")?.kind == .unsupported)
    }

    @Test func nestingIsCapped() {
        let ok = String(repeating: "<array>", count: 64) + String(repeating: "</array>", count: 64)
        #expect(PropertyListTestSupport.error(reading: Array("<plist>\(ok)</plist>".utf8)) == nil)
        let deep = String(repeating: "<array>", count: 65) + String(repeating: "</array>", count: 65)
        #expect(PropertyListTestSupport.error(reading: Array("<plist>\(deep)</plist>".utf8))?.kind == .limit)
    }
}
