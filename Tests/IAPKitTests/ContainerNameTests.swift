import Foundation
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// The names of a product archive's own parts (NAME.pkg, Bom, PackageInfo, Payload, Distribution)
/// obey the rules entry names obey. (C0 controls other than tab cannot appear in a plain-text
/// xar name at all: XML 1.0 forbids them, and the TOC is refused before any name is judged.)
@Suite(.onTestThreads) struct ContainerNameTests {
    let scratch = ScratchFolder()

    func write(_ file: String, _ package: HostileProduct) throws -> String {
        let path = scratch.at(file + ".pkg")
        try package.write(to: path)
        return path
    }

    @Test(arguments: ["../x", "a\u{7F}b", "c\u{85}d", "tab\there", "a\\b"])
    func aComponentFolderWithABadNameIsRefused(name: String) throws {
        var package = HostileProduct()
        package.name = name
        let run = try Validate.expectError(
            try write("component-\(abs(name.hashValue))", package), Rule.entryNameInvalid)
        #expect(
            run.findings.contains { $0.rule == "entry-name-invalid" && ($0.entry ?? "").hasSuffix(".pkg") },
            "\(run.dump)")
    }

    @Test func aComponentWithoutANameIsRefused() throws {
        var package = HostileProduct()
        package.name = ""
        try Validate.expectError(try write("noname", package), Rule.entryNameInvalid, entry: ".pkg")
    }

    @Test func aPartWithAControlCharacterIsRefused() throws {
        var package = HostileProduct()
        package.editXar = { xar in xar.nodes[1].children.append(.file("Bom\u{9F}", text: "x")) }
        try Validate.expectError(try write("part", package), Rule.entryNameInvalid, entry: "content.pkg/Bom")
    }

    @Test func ordinaryNamesStayClean() throws {
        var package = HostileProduct()
        package.name = "Level Pack é"
        try Validate.expectClean(try write("ordinary", package))
    }
}
