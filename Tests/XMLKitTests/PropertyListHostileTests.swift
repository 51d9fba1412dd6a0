import Testing

@testable import XMLKit

/// Inputs built to hurt a parser: each must give its specific error, quickly, without fetching anything.
@Suite struct PropertyListHostileTests {
    func kind(_ text: String) -> PropertyListError.Kind? {
        PropertyListTestSupport.error(reading: Array(text.utf8))?.kind
    }

    static let appleDoctype =
        #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd""#

    @Test func billionLaughs() {
        var entities = "<!ENTITY lol \"lol\">"
        for level in 1...9 {
            entities +=
                "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10)
                + "\">"
        }
        #expect(
            kind("<?xml version=\"1.0\"?>\n\(Self.appleDoctype) [\(entities)]>\n<plist><string>&lol9;</string></plist>")
                == .internalSubset)
        #expect(
            kind("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\(entities)]>\n<plist><string>&lol9;</string></plist>")
                == .doctype)
    }

    @Test func externalEntitiesAndDoctypes() {
        #expect(
            kind(#"<!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><plist><string>&xxe;</string></plist>"#)
                == .doctype)
        #expect(
            kind(
                #"\#(Self.appleDoctype) [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><plist><string>&xxe;</string></plist>"#
            ) == .internalSubset)
        #expect(
            kind(#"<!DOCTYPE plist SYSTEM "http://evil.example/x.dtd"><plist><string>a</string></plist>"#) == .doctype)
        #expect(
            kind(
                #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://evil.example/x.dtd"><plist><string>a</string></plist>"#
            ) == .doctype)
        #expect(kind("<plist><string>&xxe;</string></plist>") == .entity)
        #expect(kind(#"\#(Self.appleDoctype)><plist><string>&#65;&lt;</string></plist>"#) == nil)
    }

    @Test func unknownElementsAndDuplicateKeys() {
        #expect(kind("<plist><dict><key>a</key><script>x</script></dict></plist>") == .unknownElement)
        #expect(kind("<plist><set/></plist>") == .unknownElement)
        #expect(kind("<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>") == .duplicateKey)
        #expect(
            kind("<plist><array><dict><key>a</key><true/><key>a</key><false/></dict></array></plist>") == .duplicateKey)
    }

    @Test func tooLargeBeforeParsing() {
        let big =
            Array("<plist><string>".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20)
            + Array("</string></plist>".utf8)
        #expect(PropertyListTestSupport.error(reading: big)?.kind == .tooLarge)
        var binary = Array("bplist00".utf8)
        binary += [UInt8](repeating: 0, count: 2 << 20)
        #expect(PropertyListTestSupport.error(reading: binary)?.kind == .tooLarge)
        #expect(throws: PropertyListError.self) {
            try PropertyListEditor.replacingString(forTopLevelKey: "a", with: "b", in: big)
        }
        let small = Array("<plist><string>abc</string></plist>".utf8)
        #expect((try? PropertyListReader.read(small, maxBytes: 10))?.0 == nil)
    }

    @Test func manyValuesAreCapped() {
        let many =
            "<plist><array>" + String(repeating: "<true/>", count: PropertyListReader.maxValues) + "</array></plist>"
        #expect(many.utf8.count < (1 << 21))
        #expect((try? PropertyListReader.read(Array(many.utf8), maxBytes: 1 << 21)) == nil)
        #expect(PropertyListTestSupport.error(reading: Array(many.utf8))?.kind == .tooLarge)
        do {
            _ = try PropertyListReader.read(Array(many.utf8), maxBytes: 1 << 21)
        } catch {
            #expect(error.kind == .limit)
        }
    }
}
