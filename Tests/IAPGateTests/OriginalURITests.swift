import Testing

@testable import IAPGate

/// The product a file request names is read as nginx resolves the path: a URI that names one
/// product but reaches another, or names none, is refused.
@Suite struct OriginalURITests {
    let product = "com.example.game.levels.pack1"

    @Test func productIsTheFirstSegmentUnderThePrefix() throws {
        #expect(try OriginalURI.product(of: "/\(product)/1.0/Contents/a.png", prefix: "/") == product)
        #expect(try OriginalURI.product(of: "/\(product)/current.json", prefix: "/") == product)
        #expect(try OriginalURI.product(of: "/\(product)/1.0/a%20b.png?x=1", prefix: "/") == product)
        #expect(try OriginalURI.product(of: "/content/\(product)/1.0/a", prefix: "/content/") == product)
        #expect(try OriginalURI.product(of: "/com%2Eexample%2Egame/1.0/a", prefix: "/") == "com.example.game")
    }

    @Test func pathsThatNginxWouldResolveElsewhereAreRefused() {
        let refused = [
            "/\(product)/../com.other/1.0/a", "/\(product)/%2e%2e/com.other/1.0/a",
            "/\(product)%2F..%2Fcom.other/1.0/a", "/\(product)/./1.0/a", "/\(product)//1.0/a",
            "//\(product)/1.0/a", "/\(product)/1.0/a%00.png", "/\(product)/1.0/a%zz", "/\(product)/1.0/a%2",
            "/\(product)\\..\\x/1.0/a", "/\(product)", "/", "", "/..", "/.hidden/1.0/a", "/-x/1.0/a",
            "/a%FFb/1.0/x", String(repeating: "/a", count: 3000),
        ]
        for uri in refused {
            #expect(throws: OriginalURI.Problem.self, "\(uri.prefix(60))") {
                try OriginalURI.product(of: uri, prefix: "/")
            }
        }
        #expect(throws: OriginalURI.Problem.self) {
            try OriginalURI.product(of: "/\(product)/1.0/a", prefix: "/content/")
        }
    }

    @Test func queryTokensAreFound() {
        #expect(OriginalURI.hasQueryToken("/p/1.0/a?token=x"))
        #expect(OriginalURI.hasQueryToken("/p/1.0/a?v=1&ACCESS_TOKEN=x"))
        #expect(OriginalURI.hasQueryToken("/p/1.0/a?token"))
        #expect(!OriginalURI.hasQueryToken("/p/1.0/a?tokens=x"))
        #expect(!OriginalURI.hasQueryToken("/p/1.0/token=a"))
    }
}
