import BomKit
import IAPCompression
import IAPKit
import IAPPurchase
import PayloadKit
import Testing
import XarKit
import XcodeKit

@testable import FuzzTargets

/// The seeds reach past the first gates of their parsers, so that the fuzzer starts deep: each
/// package opens (raw or TOC XML wrapped by `XarContainer`), each entry of `xar-data` decodes,
/// each Payload lists its entries, each Bom and ContentInfo reads, each Xcode project resolves a
/// content target.
@Suite struct SeedDepthTests {
    static func seeds(_ target: FuzzTarget) throws -> [(name: String, bytes: [UInt8])] {
        try SeedReplayTests.inputs("Corpus", target).map {
            (String($0.split(separator: "/").last!), try Replay.read($0))
        }
    }

    @Test(arguments: [FuzzTarget.xar, .validate])
    func everyPackageSeedOpens(_ target: FuzzTarget) throws {
        for seed in try Self.seeds(target) {
            let path = ScratchFile.write(XarContainer.package(from: seed.bytes))
            let archive = try XarArchive.open(path: path)
            #expect(!archive.toc.files.isEmpty, "\(seed.name)")
            #expect(!archive.findings.contains { $0.rule == "xar-toc-checksum-mismatch" }, "\(seed.name)")
        }
    }

    @Test func theTOCFormOfAPackageOpensLikeThePackage() throws {
        let seeds = try Self.seeds(.xar)
        let tree = try #require(seeds.first { $0.name == "small-tree.pkg" })
        let toc = try #require(seeds.first { $0.name == "small-tree.toc" })
        let fromPackage = try XarArchive.open(path: ScratchFile.write(tree.bytes))
        let packageReport = try PackageValidator.validate(fromPackage.path)
        let fromTOC = try XarArchive.open(path: ScratchFile.write(XarContainer.package(from: toc.bytes)))
        #expect(fromTOC.toc.files.map(\.path) == fromPackage.toc.files.map(\.path))
        #expect(fromTOC.verifyAllData().isEmpty)
        #expect(packageReport.valid)
        #expect(try PackageValidator.validate(fromTOC.path).valid)
    }

    @Test func everyEntryDataSeedDecodesOrFailsAsItsControlByteSays() throws {
        for seed in try Self.seeds(.xarData) {
            let entry = EntryDataInput(seed.bytes)
            let path = ScratchFile.write(XarContainer.wrap(toc: entry.toc, heap: entry.stored))
            let archive = try XarArchive.open(path: path)
            #expect(
                !archive.findings.contains {
                    $0.severity == .error && !["xar-checksum-missing", "xar-encoding"].contains($0.rule)
                }, "\(seed.name)")
            let file = try #require(archive.toc.files.first)
            if seed.bytes[0] & 0x60 != 0 {
                // A wrong extracted checksum or a wrong declared size.
                #expect(!archive.verifyAllData().isEmpty, "\(seed.name)")
            } else {
                let bytes = try archive.readAll(file, maxBytes: 1 << 20)
                #expect(bytes.count == (seed.bytes[0] & 7 == 7 ? 64 : 660), "\(seed.name)")
                #expect(archive.verifyAllData().isEmpty, "\(seed.name)")
            }
        }
    }

    @Test func everyPayloadSeedListsItsEntries() throws {
        for seed in try Self.seeds(.payload) {
            var bytes = seed.bytes
            if seed.name.hasSuffix(".cpio") { bytes = try Deflater.compress(bytes, format: .gzip) }
            var position = 0
            let reader = try PayloadReader(maxDecodedBytes: 1 << 20) { buffer in
                let count = min(buffer.count, bytes.count - position)
                bytes.withUnsafeBytes {
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[position..<position + count]))
                }
                position += count
                return count
            }
            // Every entry lists (GNU cpio's newc-crc symlinks, check field 0, included).
            var entries = 0
            while try reader.nextEntry() != nil { entries += 1 }
            #expect(entries >= 8, "\(seed.name)")
        }
    }

    @Test func everyBomAndContentInfoSeedReads() throws {
        for seed in try Self.seeds(.bom) {
            #expect(try BomReader.read(seed.bytes).count >= 8, "\(seed.name)")
        }
        for seed in try Self.seeds(.contentInfo) {
            let (info, _) = ContentInfo.read(seed.bytes)
            #expect(info != nil, "\(seed.name)")
        }
    }

    @Test func everyProjectSeedResolvesAContentTarget() throws {
        let seeds = try Self.seeds(.pbxproj)
        #expect(seeds.count >= 3)
        for seed in seeds {
            let project = try XcodeProject.read(seed.bytes, path: "/nonexistent/\(seed.name).xcodeproj")
            #expect(!project.contentTargets.isEmpty, "\(seed.name)")
            for name in project.contentTargets {
                let target = try XcodeContentTarget.resolve(project, target: name)
                #expect(!target.resources.isEmpty, "\(seed.name) \(name)")
            }
        }
    }

    /// Each transaction seed is refused for the reason its name gives (the valid one verifies), in
    /// both forms: the fuzzer starts past the JWS parser, at the chain, the signature and the purchase.
    @Test func everyTransactionSeedReachesTheCheckItsNameSays() throws {
        let verifier = try #require(PurchaseTargets.verifier)
        let seeds = try Self.seeds(.jws)
        #expect(seeds.count >= 10)
        for seed in seeds {
            let expected = String(seed.name.split(separator: ".").first ?? "")
            do {
                _ = try verifier.verifyWithoutSuspending(PurchaseTargets.compactForm(seed.bytes)) {
                    $0 == "com.example.game.levels.pack1"
                }
                #expect(expected == "valid", "\(seed.name)")
            } catch {
                #expect(error.reason.rawValue == expected, "\(seed.name)")
            }
        }
    }

    /// Each notification seed verifies or is refused as its name says (a refusal's name is its reason
    /// code, `inner-` when the transaction inside is the wrong part), in both forms.
    @Test func everyNotificationSeedReachesTheCheckItsNameSays() throws {
        let verifier = try #require(NotificationTargets.verifier)
        let seeds = try Self.seeds(.notification)
        #expect(seeds.count >= 20)
        let verifying: Set = [
            "refund", "refund-reversed", "refund-stale", "revoke-later", "refund-reversed-last", "test",
            "consumption-request", "refund-declined", "unknown-type", "refund-without-transaction",
        ]
        for seed in seeds {
            let name = String(seed.name.split(separator: ".").first ?? "")
            let expected = name.hasPrefix("inner-") ? String(name.dropFirst(6)) : name
            do {
                _ = try verifier.verify(body: NotificationTargets.body(seed.bytes))
                #expect(verifying.contains(name), "\(seed.name)")
            } catch {
                #expect(error.reason.rawValue == expected, "\(seed.name)")
            }
        }
    }
}
