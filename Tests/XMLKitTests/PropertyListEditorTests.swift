import Testing

@testable import XMLKit

@Suite struct PropertyListEditorTests {
    func edit(_ text: String, key: String = "ContentVersion", to value: String) throws(PropertyListError) -> String {
        let out = try PropertyListEditor.replacingString(forTopLevelKey: key, with: value, in: Array(text.utf8))
        return String(decoding: out, as: UTF8.self)
    }

    func editError(_ text: String, key: String = "ContentVersion", to value: String = "2.0") -> PropertyListError? {
        do {
            _ = try edit(text, key: key, to: value)
            return nil
        } catch {
            return error
        }
    }

    @Test func changesOnlyTheVersionBytesOfAHandFormattedPlist() throws {
        let template = """
            <?xml version="1.0"   encoding="UTF-8"?>\r
            <!-- written by hand; <key>ContentVersion</key><string>0.9</string> -->\r
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\r
            <plist version="1.0">\r
              <dict>\r
                   <key>IAPProductIdentifier</key>   <string>com.example.pack&amp;more</string>\r
            \t<!-- the version -->\r
            \t\t<key>ContentVersion</key>\r
              \t  <string>@VERSION@</string >\r
                <key>Folder</key><string>Levels &lt;all&gt;</string>\r
                <key>Nested</key><dict><key>ContentVersion</key><string>7.7</string></dict>\r
                <key>Count</key><integer>3</integer>\r
              </dict>\r
            </plist>\r

            """
        let original = template.replacing(placeholder: "@VERSION@", with: "1.0")
        let expected = template.replacing(placeholder: "@VERSION@", with: "1.10.2")
        let output = try edit(original, to: "1.10.2")
        #expect(Array(output.utf8) == Array(expected.utf8))
        let (value, _) = try PropertyListReader.read(Array(output.utf8))
        #expect(value.value(forKey: "ContentVersion") == .string("1.10.2"))
        #expect(value.value(forKey: "Nested")?.value(forKey: "ContentVersion") == .string("7.7"))
    }

    @Test func editsAOneLinePlist() throws {
        let template =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>ContentVersion</key><string>@V@</string><key>IAPProductIdentifier</key><string>com.example.x</string></dict></plist>"#
        let output = try edit(template.replacing(placeholder: "@V@", with: "1.0"), to: "2.0")
        #expect(output == template.replacing(placeholder: "@V@", with: "2.0"))
        let noDeclaration = "<plist><dict><key>ContentVersion</key><string>1</string></dict></plist>"
        #expect(
            try edit(noDeclaration, to: "12.3.4.5")
                == "<plist><dict><key>ContentVersion</key><string>12.3.4.5</string></dict></plist>")
    }

    @Test func fillsAnEmptyStringElement() throws {
        let template =
            "<plist version=\"1.0\">\n<dict>\n\t<key>A</key>\n\t<string/>\n\t<key>ContentVersion</key>\n\t@V@\n</dict>\n</plist>\n"
        #expect(
            try edit(template.replacing(placeholder: "@V@", with: "<string/>"), to: "1.0")
                == template.replacing(placeholder: "@V@", with: "<string>1.0</string>"))
        #expect(
            try edit(template.replacing(placeholder: "@V@", with: "<string />"), to: "1.0")
                == template.replacing(placeholder: "@V@", with: "<string >1.0</string>"))
        let unchanged = template.replacing(placeholder: "@V@", with: "<string/>")
        #expect(try edit(unchanged, to: "") == unchanged)
        #expect(
            try edit(template.replacing(placeholder: "@V@", with: "<string></string>"), to: "2.0")
                == template.replacing(placeholder: "@V@", with: "<string>2.0</string>"))
        #expect(
            try edit(template.replacing(placeholder: "@V@", with: "<string>1.0</string>"), to: "")
                == template.replacing(placeholder: "@V@", with: "<string></string>"))
    }

    @Test func replacesEntityAndCDATAContentAndEscapesTheNewText() throws {
        let template =
            "<plist><dict><key>ContentVersion</key><string>@V@</string><key>B</key><string>x &amp; y</string></dict></plist>"
        #expect(
            try edit(template.replacing(placeholder: "@V@", with: "a &amp; b &#38; &lt;c&gt;"), to: "x < y & z > w")
                == template.replacing(placeholder: "@V@", with: "x &lt; y &amp; z &gt; w"))
        #expect(
            try edit(template.replacing(placeholder: "@V@", with: "<![CDATA[<old>]]>"), to: "new")
                == template.replacing(placeholder: "@V@", with: "new"))
        #expect(
            try edit(template.replacing(placeholder: "@V@", with: "1.0"), to: "line\rend")
                == template.replacing(placeholder: "@V@", with: "line&#13;end"))
        let (value, _) = try PropertyListReader.read(
            Array(try edit(template.replacing(placeholder: "@V@", with: "1"), to: "line\rend").utf8))
        #expect(value.value(forKey: "ContentVersion") == .string("line\rend"))
        #expect(editError(template.replacing(placeholder: "@V@", with: "1"), to: "bell\u{07}")?.kind == .invalidValue)
    }

    @Test func keepsBOMAndMultibyteTextAround() throws {
        let template =
            "\u{FEFF}<?xml version='1.0' encoding='utf-8'?><plist><dict><key>Título</key><string>日本語 😀</string><key>ContentVersion</key><string>@V@</string></dict></plist>"
        #expect(
            try edit(template.replacing(placeholder: "@V@", with: "1.0"), to: "ß.2")
                == template.replacing(placeholder: "@V@", with: "ß.2"))
    }

    @Test func editsNearTheEndOfALargePlist() throws {
        var padding = ""
        for index in 0..<8500 {
            padding += "\t<key>k\(index)</key>\n\t<string>\(String(repeating: "v", count: 80))</string>\n"
        }
        let template =
            "<plist version=\"1.0\">\n<dict>\n\(padding)\t<key>ContentVersion</key>\n\t<string>@V@</string>\n</dict>\n</plist>\n"
        let original = template.replacing(placeholder: "@V@", with: "1.0")
        #expect(original.utf8.count > 900_000)
        #expect(try edit(original, to: "3.0") == template.replacing(placeholder: "@V@", with: "3.0"))
    }

    @Test func refusesWhatItCannotEditExactly() {
        let base = "<plist><dict><key>IAPProductIdentifier</key><string>x</string>@MORE@</dict></plist>"
        func with(_ more: String) -> String { base.replacing(placeholder: "@MORE@", with: more) }
        #expect(editError(with(""))?.kind == .keyNotFound)
        #expect(
            editError(with("<key>Inner</key><dict><key>ContentVersion</key><string>1</string></dict>"))?.kind
                == .keyNotFound)
        #expect(
            editError(with("<key>ContentVersion</key><string>1</string><key>ContentVersion</key><string>2</string>"))?
                .kind == .duplicateKey)
        #expect(editError(with("<key>ContentVersion</key><real>1.0</real>"))?.kind == .wrongType)
        #expect(
            editError(with("<key>ContentVersion</key><dict><key>a</key><string>1</string></dict>"))?.kind == .wrongType)
        #expect(editError("<plist><array><string>ContentVersion</string></array></plist>")?.kind == .wrongType)
        #expect(editError(with("<key>ContentVersion</key><widget/>"))?.kind == .unknownElement)
        #expect(
            editError(
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><dict><key>ContentVersion</key><string>1</string></dict></plist>"
            )?.kind == .unsupported)
        let utf16: [UInt8] = [0xFF, 0xFE] + "<plist/>".utf8.flatMap { [$0, UInt8(0)] }
        #expect(throws: PropertyListError.self) {
            try PropertyListEditor.replacingString(forTopLevelKey: "ContentVersion", with: "1", in: utf16)
        }
        let binary = PropertyListTestSupport.bytes(
            hex: "62706c6973743030d1010251615162080b0d000000000000010100000000000000030000000000000000000000000000000f")
        #expect(
            throws: PropertyListError(
                .unsupported, "a binary plist cannot be edited in place; read it and write it again as XML")
        ) {
            try PropertyListEditor.replacingString(forTopLevelKey: "a", with: "c", in: binary)
        }
        let laughs =
            "<!DOCTYPE plist [<!ENTITY a \"aaaa\">]><plist><dict><key>ContentVersion</key><string>&a;</string></dict></plist>"
        #expect(editError(laughs)?.kind == .doctype)
    }
}
