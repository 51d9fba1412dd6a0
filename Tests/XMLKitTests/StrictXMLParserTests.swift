import Testing

@testable import XMLKit

@Suite struct StrictXMLParserTests {
    let limits = XMLLimits(maxBytes: 1 << 20)

    func parse(_ text: String, _ policy: DoctypePolicy = .forbidden) throws(XMLError) -> XMLElement {
        try XMLElement.parse(Array(text.utf8), doctype: policy, limits: limits)
    }

    @Test func buildsATree() throws {
        let root = try parse("<a x=\"1\"><b>hi &amp; bye</b><c/><b>two</b></a>")
        #expect(root.name == "a")
        #expect(root.attribute("x") == "1")
        #expect(root.children.map(\.name) == ["b", "c", "b"])
        #expect(root.child("b")?.text == "hi & bye")
        #expect(root.children(named: "b").count == 2)
    }

    @Test func acceptsApplesPlistDoctypeOnly() throws {
        let good = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict/></plist>
            """
        #expect(try parse(good, .applePropertyList).name == "plist")
        #expect(throws: XMLError.self) { try parse(good, .forbidden) }
        let other = "<!DOCTYPE plist SYSTEM \"http://evil.example/x.dtd\"><plist/>"
        #expect { try parse(other, .applePropertyList) } throws: { ($0 as? XMLError)?.kind == .doctype }
    }

    @Test func refusesInternalSubsetsAndEntities() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" [
              <!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            ]>
            <plist><string>&b;</string></plist>
            """
        #expect { try parse(laughs, .applePropertyList) } throws: { ($0 as? XMLError)?.kind == .internalSubset }
        let xxe = """
            <!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/passwd">]><plist><string>&x;</string></plist>
            """
        #expect(throws: XMLError.self) { try parse(xxe, .applePropertyList) }
        #expect { try parse("<a>&unknown;</a>") } throws: { ($0 as? XMLError) != nil }
    }

    @Test func reportsLineAndColumnOfMalformedXML() {
        do {
            _ = try parse("<a>\n<b></a>")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.line == 2)
        }
    }

    @Test func enforcesLimits() {
        let deep = String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
        #expect { try parse(deep) } throws: { ($0 as? XMLError)?.kind == .limit }
        let big = "<a>" + String(repeating: "x", count: 2 << 20) + "</a>"
        #expect { try parse(big) } throws: { ($0 as? XMLError)?.kind == .limit }
        #expect(throws: XMLError.self) { try parse("<a/><b/>") }
        #expect(throws: XMLError.self) { try parse("") }
    }
}
