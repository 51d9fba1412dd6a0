import Foundation
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// ContentInfo.plist rules (PackageFormat.md §3, §6 "ContentInfo.plist") and the package-root shape.
@Suite(.onTestThreads) struct ValidatePlistTests {
    let scratch = ScratchFolder()

    func tree(_ name: String, plist: String) throws -> String {
        let path = scratch.at(name + ".pkg")
        try HostileTree.write(HostileTree.nodes(plist: plist), to: path)
        return path
    }

    func product(_ name: String, plist: String) throws -> String {
        let path = scratch.at(name + ".pkg")
        try HostileProduct(plist: plist).write(to: path)
        return path
    }

    static let xxe = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
        <plist version="1.0"><dict>
        <key>ContentVersion</key><string>1.0</string>
        <key>IAPProductIdentifier</key><string>&xxe;</string>
        </dict></plist>
        """

    static let billionLaughs: String = {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n <!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            text += " <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        return text + "]>\n<plist version=\"1.0\"><dict><key>ContentVersion</key><string>1.0</string>"
            + "<key>IAPProductIdentifier</key><string>&lol9;</string></dict></plist>\n"
    }()

    @Test func externalEntityIsRefusedAndNeverFetched() throws {
        for path in [try tree("xxe", plist: Self.xxe), try product("xxe-p", plist: Self.xxe)] {
            let run = try Validate.expectError(path, Rule.plistSyntax, entry: "ContentInfo.plist")
            #expect(!run.result.stdout.contains("root:x:0"), "the entity was expanded")
        }
    }

    @Test func billionLaughsIsRefusedQuickly() throws {
        let run = try Validate.expectError(try tree("lol", plist: Self.billionLaughs), Rule.plistSyntax)
        #expect(run.seconds < Validate.refusedBeforeDecodingSeconds, "took \(run.seconds) s")
    }

    @Test func versionThatIsAPath() throws {
        let plist = Fixtures.plist(product: "com.example.test", version: "../../x")
        try Validate.expectError(try tree("ver", plist: plist), Rule.plistContentVersion, entry: "ContentInfo.plist")
        try Validate.expectError(
            try product("ver-p", plist: plist), Rule.plistContentVersion, entry: "ContentInfo.plist")
        try Validate.expectError(
            try tree("ver5", plist: Fixtures.plist(product: "com.example.test", version: "1.2.3.4.5")),
            Rule.plistContentVersion)
        try Validate.expectClean(
            try tree("ver4", plist: Fixtures.plist(product: "com.example.test", version: "1.2.3.4")))
    }

    @Test func badProductIdentifier() throws {
        try Validate.expectError(
            try tree("id", plist: Fixtures.plist(product: "com..evil", version: "1.0")), Rule.plistProductId)
        try Validate.expectError(
            try tree("id2", plist: Fixtures.plist(product: "-leading", version: "1.0")), Rule.plistProductId)
    }

    @Test func rootNotADictionary() throws {
        let plist = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array><string>1.0</string></array></plist>\n"
        try Validate.expectError(try tree("root", plist: plist), Rule.plistRoot)
    }

    @Test func notAPropertyList() throws {
        try Validate.expectError(try tree("garbage", plist: "ContentVersion = 1.0"), Rule.plistSyntax)
    }

    @Test func plistOverOneMebibyte() throws {
        let padding = "\n<key>Pad</key><string>" + String(repeating: "x", count: 1 << 20) + "</string>"
        try Validate.expectError(
            try tree("big", plist: Fixtures.plist(product: "com.example.test", version: "1.0", extra: padding)),
            Rule.plistSize)
    }

    @Test func extraKeysAreKept() throws {
        let plist = Fixtures.plist(
            product: "com.example.test", version: "2.0", extra: "\n<key>Note</key><string>hi</string>")
        let run = try Validate.expectClean(try tree("extra", plist: plist))
        #expect(run.document?.inputs.first?.contentVersion == "2.0")
    }

    // MARK: - The content root

    @Test func missingContentInfoOrContents() throws {
        let noPlist = scratch.at("noplist.pkg")
        try HostileTree.write([.directory("Contents", [.file("a", text: "a")])], to: noPlist)
        try Validate.expectError(noPlist, Rule.shapeMissingContentinfo)
        let noContents = scratch.at("nocontents.pkg")
        try HostileTree.write(
            [.file("ContentInfo.plist", text: Fixtures.plist(product: "com.example.test", version: "1.0"))],
            to: noContents)
        try Validate.expectError(noContents, Rule.shapeMissingContents)
    }

    @Test func wrongKindsAtTheRoot() throws {
        let plistDir = scratch.at("plistdir.pkg")
        try HostileTree.write(
            [.directory("ContentInfo.plist"), .directory("Contents", [.file("a", text: "a")])], to: plistDir)
        try Validate.expectError(plistDir, Rule.shapeContentinfoType)
        let contentsFile = scratch.at("contentsfile.pkg")
        try HostileTree.write(
            [
                .file("ContentInfo.plist", text: Fixtures.plist(product: "com.example.test", version: "1.0")),
                .file("Contents", text: "a"),
            ], to: contentsFile)
        try Validate.expectError(contentsFile, Rule.shapeContentsType)
    }

    @Test func extraEntryAtTheRoot() throws {
        let path = scratch.at("extra-root.pkg")
        try HostileTree.write(HostileTree.nodes() + [.file("install.sh", text: "echo\n")], to: path)
        try Validate.expectError(path, Rule.shapeExtraRootEntry, entry: "install.sh")
    }
}
