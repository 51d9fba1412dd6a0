import IAPSystem
import Testing

@Suite struct PercentEncodingTests {
    private func decoded(_ text: String, keepingMalformed: Bool = false) -> String? {
        PercentEncoding.decode(text.utf8, keepingMalformed: keepingMalformed).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    @Test func decodesEscapesOfEitherCase() {
        #expect(decoded("a%20b") == "a b")
        #expect(decoded("%e2%82%AC") == "€")
        #expect(decoded("%41") == "A")
        #expect(decoded("plain/path") == "plain/path")
        #expect(decoded("") == "")
    }

    /// A `%` that is not followed by two hex digits: refused (a request path, an object key), or kept
    /// as written (productbuild's pkg-ref locations, read leniently).
    @Test func malformedEscapesAreRefusedOrKept() {
        for text in ["%", "%4", "a%zz", "%g1", "100%", "%+f"] {
            #expect(decoded(text) == nil, "\(text)")
            #expect(decoded(text, keepingMalformed: true) == text, "\(text)")
        }
        #expect(decoded("%41%zz%42", keepingMalformed: true) == "A%zzB")
    }
}
