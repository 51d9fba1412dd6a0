import Testing

@testable import IAPKit

@Suite struct ContentVersionTests {
    @Test func parsesOnlyDottedIntegers() {
        for good in ["1", "1.0", "2.10.3", "0.0.0.1", "18446744073709551615"] {
            #expect(ContentVersion(good) != nil, "\(good)")
        }
        for bad in ["", "1.", ".1", "1..2", "-1", "1.a", " 1", "1.0.0.0.0", "../../x", "18446744073709551616", "１"] {
            #expect(ContentVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func comparesNumerically() throws {
        func v(_ s: String) throws -> ContentVersion { try #require(ContentVersion(s)) }
        #expect(try v("1.10") > v("1.9"))
        #expect(try v("1.0") == v("1"))
        #expect(try v("2") > v("1.99.99"))
        #expect(try v("1.0.1") > v("1"))
    }

    @Test func bumps() throws {
        func bump(_ s: String, _ part: ContentVersion.Part) throws -> String {
            try #require(ContentVersion(s)?.bumped(part)).text
        }
        #expect(try bump("1.0", .minor) == "1.1")
        #expect(try bump("1.9", .minor) == "1.10")
        #expect(try bump("1.4", .major) == "2.0")
        #expect(try bump("1.1", .patch) == "1.1.1")
        #expect(try bump("1.1.1", .patch) == "1.1.2")
        #expect(try bump("1", .minor) == "1.1")
        #expect(try bump("1.2.3", .minor) == "1.3")
    }
}

@Suite struct ProductIdentifierTests {
    @Test func acceptsAppStoreIdentifiers() {
        for good in ["com.example.level1", "A", "com.example_x-y", String(repeating: "a", count: 100)] {
            #expect(ProductIdentifier.isValid(good), "\(good)")
        }
        for bad in ["", ".com", "-x", "com..x", "com/x", "com x", "é", String(repeating: "a", count: 101), "../x"] {
            #expect(!ProductIdentifier.isValid(bad), "\(bad)")
        }
    }
}
