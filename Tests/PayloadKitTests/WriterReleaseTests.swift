import Testing

@testable import PayloadKit

/// A cpio writer that fails releases libarchive's output filter. libarchive 3.6 (Debian 12) leaks the
/// filter's state when a write handle marked failed (`archive_write_fail`) is freed, 33 bytes per
/// failed Payload, found by the `content` fuzz target under LeakSanitizer (input
/// Regressions/content/leak-empty-link-target): the handle now closes the archive with its output
/// dropped, which runs the filter's close, seen here through the client closer.
@Suite struct WriterReleaseTests {
    struct Unreadable: Error {}

    /// The ways a writer fails: refused before libarchive sees the entry, and while writing data.
    static let failures: [(String, @Sendable (CpioWriter) throws -> Void)] = [
        ("empty link target", { try $0.addSymlink(path: "./Contents", target: "", mode: 0o755, modificationTime: 0) }),
        ("empty path", { try $0.addDirectory(path: "", mode: 0o755, modificationTime: 0) }),
        (
            "unreadable data",
            { try $0.addFile(path: "./f", mode: 0o644, modificationTime: 0, size: 1) { _ in throw Unreadable() } }
        ),
    ]

    @Test(arguments: 0..<failures.count)
    func aFailedWriterClosesItsOutputFilterAndWritesNoMore(_ index: Int) throws {
        final class Output { var bytes: [UInt8] = [] }
        let output = Output()
        let cpio = try CpioWriter { output.bytes.append(contentsOf: $0) }
        try cpio.addDirectory(path: ".", mode: 0o755, modificationTime: 0)
        #expect(!cpio.handle.clientClosed)
        #expect(throws: PayloadError.self, "\(Self.failures[index].0)") { try Self.failures[index].1(cpio) }
        #expect(cpio.handle.clientClosed, "\(Self.failures[index].0)")
        #expect(!String(decoding: output.bytes, as: UTF8.self).contains("TRAILER!!!"), "no trailer after a failure")
    }

    @Test func aFinishedWriterClosesItsOutputFilter() throws {
        let cpio = try CpioWriter { _ in }
        try cpio.finish()
        #expect(cpio.handle.clientClosed)
    }
}
