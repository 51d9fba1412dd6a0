import Foundation
import IAPKit
import IAPTestSupport
import Testing

/// IAPKit's face as a client sees it, with nothing of the library but `import IAPKit`: reports speak IAPKit's own
/// types (PackageShape, EntryKind, SignatureCheck), findings and rules come re-exported, and trust
/// anchors are given as PEM bytes.
@Suite struct PublicFaceTests {
    static let example = Harness.packageRoot.appendingPathComponent("Examples/level-pack").path

    @Test func inspectSpeaksIAPKitsTypes() throws {
        let scratch = ScratchFolder()
        let folder = scratch.path
        for layout in [PackageLayout.product, .tree] {
            let package = folder + "/\(layout).pkg"
            _ = try PackageBuilder.build(folder: Self.example, options: BuildOptions(layout: layout, output: package))
            let report = try PackageInspector.inspect(package)
            #expect(report.shape == (layout == .product ? PackageShape.product : PackageShape.tree))
            #expect(report.files.contains { $0.type == EntryKind.directory && $0.path == "Contents" })
            #expect(report.files.contains { $0.type == EntryKind.file && $0.path == "ContentInfo.plist" })
            #expect(report.signatures == nil)
        }
    }

    @Test func trustAnchorsAreGivenAsPEMAndAskForASignature() throws {
        let scratch = ScratchFolder()
        let folder = scratch.path
        var options = ValidationOptions()
        #expect(throws: IAPKitError.self) { try options.addTrustAnchors(pem: Array("not a certificate".utf8)) }

        try Harness.run([
            "/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=iapkg test anchor",
            "-days",
            "2", "-keyout", folder + "/key.pem", "-out", folder + "/anchor.pem",
        ])
        try options.addTrustAnchors(pem: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/anchor.pem"))))

        let package = folder + "/unsigned.pkg"
        _ = try PackageBuilder.build(folder: Self.example, options: BuildOptions(output: package))
        let report = try PackageValidator.validate(package, options: options)
        #expect(!report.valid)
        #expect(report.findings.map(\.rule) == [Rule.xarSignatureMissing.id])
        let unanchored = try PackageValidator.validate(package, options: ValidationOptions())
        #expect(unanchored.valid)
    }
}
