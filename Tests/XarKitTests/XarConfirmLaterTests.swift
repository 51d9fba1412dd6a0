import Foundation
import IAPSystem
import IAPTestSupport
import Testing

@testable import XarKit

/// `readAllConfirmingLater`: the same bytes as `readAll`, and the same error once confirmed.
@Suite struct XarConfirmLaterTests {
    let directory: ScratchFolder
    init() throws { directory = ScratchFolder() }

    @Test func cleanEntryGivesReadAllsBytesAndConfirms() throws {
        let archive = try directory.open(XarFixture())
        let file = try archive.requireFile("hello.txt")
        let (bytes, confirm) = try archive.readAllConfirmingLater(file, maxBytes: 100)
        #expect(bytes == Array("hello, world\n".utf8))
        #expect(bytes == (try archive.readAll(file, maxBytes: 100)))
        try confirm()
    }

    @Test func extractedChecksumMismatchIsThrownByConfirm() throws {
        let archive = try directory.open(
            XarFixture.editingTOC {
                $0.replacingAfter(
                    "<extracted-checksum style=\"sha1\">", length: 40, with: String(repeating: "a", count: 40))
            })
        let (_, confirm) = try archive.readAllConfirmingLater(archive.requireFile("hello.txt"), maxBytes: 100)
        do {
            try confirm()
            Issue.record("confirmed bytes whose extracted checksum is wrong")
        } catch {
            #expect(error.rule?.id == "xar-extracted-checksum")
            #expect(error.entry == "hello.txt")
        }
    }

    @Test func archivedChecksumMismatchIsThrownByConfirm() throws {
        // The stored bytes are inflated before their archived checksum is checked (that check runs
        // beside the caller's parse): confirm() must still refuse them, naming the archived checksum.
        let archive = try directory.open(
            XarFixture.editingTOC {
                $0.replacingAfter(
                    "<archived-checksum style=\"sha1\">", length: 40, with: String(repeating: "b", count: 40))
            })
        let file = try archive.requireFile("hello.txt")
        let (_, confirm) = try archive.readAllConfirmingLater(file, maxBytes: 100)
        do {
            try confirm()
            Issue.record("confirmed bytes whose archived checksum is wrong")
        } catch {
            #expect(error.rule?.id == "xar-archived-checksum")
        }
        #expect(throws: XarError.self) { _ = try archive.readAll(file, maxBytes: 100) }
    }

    @Test func entriesOverTheCapAreRefusedAsReadAllRefusesThem() throws {
        let archive = try directory.open(XarFixture())
        #expect(throws: XarError.self) {
            _ = try archive.readAllConfirmingLater(archive.requireFile("hello.txt"), maxBytes: 4)
        }
    }
}
