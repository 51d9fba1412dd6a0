import Foundation
import IAPKit
import Testing

/// IAPKit's face as a client sees it, with nothing but `import IAPKit`: reports speak IAPKit's own
/// types (PackageShape, EntryKind, SignatureCheck), findings and rules come re-exported, and trust
/// anchors are given as PEM bytes.
@Suite struct PublicFaceTests {
    static let example = GettingStartedTests.packageRoot.appendingPathComponent("Examples/level-pack").path

    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "iapkg-face-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func inspectSpeaksIAPKitsTypes() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
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
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = ValidationOptions()
        #expect(throws: IAPKitError.self) { try options.addTrustAnchors(pem: Array("not a certificate".utf8)) }

        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=iapkg test anchor", "-days", "2",
            "-keyout", folder + "/key.pem", "-out", folder + "/anchor.pem",
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
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
