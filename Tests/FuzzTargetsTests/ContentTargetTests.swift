import IAPKit
import IAPRules
import IAPSystem
import Testing
import XarKit

@testable import FuzzTargets

/// The `content` target: its input language, and that its packages reach the content rules (the
/// container is always valid, so the findings are the content's).
@Suite struct ContentTargetTests {
    static func report(_ text: String) throws -> ValidationReport {
        try report(Array(text.utf8))
    }

    static func report(_ input: [UInt8]) throws -> ValidationReport {
        let description = ContentDescription(input)
        let scratch = ScratchFile.empty()
        let sandbox = UnpackSandbox()
        try withExtendedLifetime(sandbox) {
            try ContentPackageWriter.write(description, to: scratch.file, heapFolder: sandbox.heap)
        }
        return try PackageValidator.validate(scratch.path, options: ContentTargets.validationOptions(description))
    }

    static func rules(_ report: ValidationReport) -> Set<String> { Set(report.findings.map(\.rule)) }

    /// Whether the report has an error about the xar container (none is expected: the writers make it).
    static func containerErrors(_ report: ValidationReport) -> Bool {
        report.findings.contains { $0.severity == .error && $0.rule.hasPrefix("xar-") }
    }

    @Test func theDescriptionReadsKindsFlagsModesEscapesAndTheContentInfo() {
        let input =
            "!product\n!max 10\nfBX4755 Contents/a\\x41\\tb\tx\\ny\\0\t3\nlP Contents/l\t../a\nbogus\n%%\nPLIST\n"
        let description = ContentDescription(Array(input.utf8))
        #expect(description.options == ["product", "max"])
        #expect(description.values["max"] == "10")
        #expect(description.entries.map(\.path) == ["Contents", "Contents/aA\tb", "Contents/l"])
        let file = description.entries[1]
        #expect(file.kind == .file && file.mode == 0o4755 && !file.inBom && !file.inXar && file.inPayload)
        #expect(file.data == Array("x\ny\0x\ny\0x\ny\0".utf8))
        #expect(description.entries[2].kind == .symlink && description.entries[2].data == Array("../a".utf8))
        #expect(description.entries[2].inBom && !description.entries[2].inPayload)
        #expect(description.contentInfo == Array("PLIST\n".utf8))
    }

    @Test func repeatedDataStopsAtTheInputsDataCap() {
        let description = ContentDescription(Array("f Contents/a\tABCDEFGH\t99999999\nf Contents/b\tx\n".utf8))
        #expect(description.entries[1].data.count == ContentDescription.maxDataBytes)
        #expect(description.entries[2].data.isEmpty)
    }

    @Test(arguments: ["", "!product\n"])
    func aPlainFolderIsValidInBothLayouts(_ layout: String) throws {
        let report = try Self.report(layout + "f Contents/readme.txt\thello\nl Contents/link\treadme.txt\n")
        #expect(report.valid, "\(report.findings)")
        #expect(report.productIdentifier == "com.example.fuzz")
    }

    @Test(arguments: [
        ("l Contents/evil\t../../etc/passwd\n", "link-escape"),
        ("l Contents/a\tb\nl Contents/b\ta\n", "link-loop"),
        // Product layout: XarWriter keys paths by Swift String, whose == is canonical equivalence.
        ("!product\nf Contents/caf\\xc3\\xa9\tx\nf Contents/cafe\\xcc\\x81\tx\n", "entry-unicode-collision"),
        ("f Contents/A\tx\nf Contents/a\tx\n", "entry-case-collision"),
        ("f Contents/elf\t\\x7fELF\\x02\\x01\\x01\\0\\0\\0\\0\\0\\0\\0\\0\\0\n", "exec-elf"),
        ("f4755 Contents/s\tx\n", "entry-setid"),
        ("!product\nf Contents/../escape\tx\n", "entry-name-invalid"),
        ("!product\nfB Contents/notinbom\tx\n", "shape-bom-mismatch"),
        ("!max 100\nf Contents/big\tAAAA\t100\n", "size-unpacked-limit"),
        ("f Contents/a\tx\n%%\n<plist><dict/></plist>", "plist-product-id"),
    ])
    func eachShapeOfContentReachesItsRule(_ input: String, _ rule: String) throws {
        let report = try Self.report(input)
        #expect(Self.rules(report).contains(rule), "\(report.findings.map(\.rule))")
        #expect(!Self.containerErrors(report), "the container stays valid")
    }

    @Test func everyContentSeedMakesAValidContainer() throws {
        for seed in SeedReplayTests.inputs("Corpus", .content) {
            let report = try Self.report(try Replay.read(seed))
            #expect(!Self.containerErrors(report), "\(seed): \(report.findings)")
            #expect(report.shape != nil, "\(seed)")
        }
    }

    @Test func aValidPackageIsUnpackedIntoItsSandboxWhichGoesAwayAfterwards() throws {
        var path = ""
        do {
            let sandbox = UnpackSandbox()
            path = sandbox.path
            let report = ContentTargets.run(
                Array("f Contents/readme.txt\thello\nl Contents/up\treadme.txt\n".utf8), in: sandbox)
            #expect(report.valid)
            let version = sandbox.store + "/com.example.fuzz/1.0"
            #expect(FileSystem.status(version + "/Contents/readme.txt")?.isRegularFile == true)
            #expect(try FileSystem.readLink(version + "/Contents/up") == "readme.txt")
            #expect(try DirectoryHandle.open(sandbox.path).names() == ["heap", "store"])
        }
        #expect(FileSystem.status(path) == nil)
    }
}
