import Testing
import XcodeKit

/// The old-style property list reader reads what Xcode writes and refuses, with line and column,
/// everything it cannot read exactly.
@Suite struct OldStyleParserTests {
    static func parse(_ text: String) throws -> OldStyleValue { try OldStyleParser.parse(Array(text.utf8)) }

    static func failure(_ bytes: [UInt8]) -> OldStyleSyntaxError? {
        do {
            _ = try OldStyleParser.parse(bytes)
            return nil
        } catch { return error }
    }

    static func failure(_ text: String) -> OldStyleSyntaxError? { failure(Array(text.utf8)) }

    @Test func readsXcodesShapes() throws {
        let text = """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjects = {
            /* Begin PBXBuildFile section */
            \t\t55F129BE1B47C798002DD6E0 /* payload.txt in Resources */ = {isa = PBXBuildFile; fileRef = 55F129BD1B47C798002DD6E0 /* payload.txt */; };
            \t\tAA = {isa = PBXGroup; children = (BB /* x */, CC, ); path = "My Folder"; sourceTree = "<group>"; };
            \t};
            \tdata = <0fAB 10>;
            \tescapes = "a\\"b\\\\c\\n\\t\\101\\U00e9\\U263a";
            \tbare = SRCROOT/a_b-c.d:e$x;
            \tempty = ();
            \trootObject = AA;
            }
            """
        let root = try #require(try Self.parse(text).dictionary)
        #expect(
            root.keys == ["archiveVersion", "classes", "objects", "data", "escapes", "bare", "empty", "rootObject"])
        let objects = try #require(root["objects"]?.dictionary)
        #expect(objects["55F129BE1B47C798002DD6E0"]?.dictionary?.string("fileRef") == "55F129BD1B47C798002DD6E0")
        #expect(objects["AA"]?.dictionary?["children"] == .array([.string("BB"), .string("CC")]))
        #expect(objects["AA"]?.dictionary?.string("path") == "My Folder")
        #expect(root["data"] == .data([0x0f, 0xab, 0x10]))
        #expect(root.string("escapes") == "a\"b\\c\n\tA\u{e9}\u{263a}")
        #expect(root["bare"] == .string("SRCROOT/a_b-c.d:e$x"))
        #expect(root["empty"] == .array([]))
    }

    @Test func refusesWhatItCannotReadExactly() {
        let cases: [(String, Int, Int, String)] = [
            ("{ a = b; a = c; }", 1, 10, "the key 'a' appears twice"),
            ("{ a = \"open; }", 1, 7, "the file ends inside a quoted string"),
            ("{ a = \"\\q\"; }", 1, 8, "the unknown escape \\q"),
            ("{ a = \"\\377\"; }", 1, 8, "NeXTSTEP character"),
            ("{ a = b }", 1, 9, "expected ';' after the value of 'a', found '}'"),
            ("{ a = (b c); }", 1, 10, "expected ',' or ')' in an array, found 'c'"),
            ("{ a = <0g>; }", 1, 9, "'g' in <hex> data"),
            ("{ a = <0>; }", 1, 7, "odd number of digits"),
            ("{ a = b; }\n}", 2, 1, "unexpected '}' after the root value"),
            ("/* never ends", 1, 1, "a /* comment that never ends"),
            ("{ a = b; ", 1, 10, "the file ends inside a dictionary"),
            ("", 1, 1, "the file holds no value"),
            ("{ (a) = b; }", 1, 3, "a dictionary key must be a string"),
            ("{ a = $(X); }", 1, 8, "expected ';' after the value of 'a', found '('"),
        ]
        for (text, line, column, words) in cases {
            let error = Self.failure(text)
            #expect(error?.line == line && error?.column == column, "\(text): \(String(describing: error))")
            #expect(error?.reason.contains(words) == true, "\(text): \(String(describing: error))")
        }
        let invalid = Self.failure(Array("{ a = \"".utf8) + [0xc3, 0x28] + Array("\"; }".utf8))
        #expect(invalid?.reason == "invalid UTF-8" && invalid?.offset == 7)
        let deep = String(repeating: "(", count: 100) + String(repeating: ")", count: 100)
        #expect(Self.failure(deep)?.reason.contains("nesting deeper than 64") == true)
    }

    @Test func everyPrefixOfAProjectEndsInAnErrorNeverACrash() throws {
        let text = "{ // !$*UTF8*$!\n a = { isa = PBXGroup; children = ( b, c, ); name = \"x\\ty\"; }; d = <00ff>; }"
        let bytes = Array(text.utf8)
        #expect(try OldStyleParser.parse(bytes).dictionary != nil)
        for cut in 0..<bytes.count {
            #expect(Self.failure(Array(bytes.prefix(cut))) != nil, "prefix \(cut)")
        }
    }
}
