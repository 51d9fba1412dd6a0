import PayloadKit
import Testing

/// What the writers refuse, and how a failure leaves them.
@Suite struct PayloadWriterTests {
    private struct SinkBroke: Error, CustomStringConvertible { var description: String { "sink broke" } }

    private func writer() throws -> (CpioWriter, () -> [UInt8]) {
        final class Box { var bytes: [UInt8] = [] }
        let box = Box()
        let writer = try CpioWriter { box.bytes.append(contentsOf: $0) }
        return (writer, { box.bytes })
    }

    private func feed(_ bytes: [UInt8]) -> ((UnsafeRawBufferPointer) throws -> Void) throws -> Void {
        { write in try bytes.withUnsafeBytes { try write($0) } }
    }

    @Test func refusesFieldsOdcCannotHold() throws {
        let (cpio, _) = try writer()
        #expect(throws: PayloadError.invalidPath("", reason: "the path is empty")) {
            try cpio.addDirectory(path: "", mode: 0o755, modificationTime: 0)
        }
        let (cpio2, _) = try writer()
        #expect(throws: PayloadError.invalidPath("./a\0b", reason: "the path contains a NUL byte")) {
            try cpio2.addDirectory(path: "./a\0b", mode: 0o755, modificationTime: 0)
        }
        let (cpio3, _) = try writer()
        #expect(throws: PayloadError.invalidMode(path: ".", mode: 0o40755)) {
            try cpio3.addDirectory(path: ".", mode: 0o40755, modificationTime: 0)
        }
        let (cpio4, _) = try writer()
        #expect(throws: PayloadError.invalidModificationTime(path: ".", seconds: -1)) {
            try cpio4.addDirectory(path: ".", mode: 0o755, modificationTime: -1)
        }
        let (cpio5, _) = try writer()
        #expect(throws: PayloadError.invalidModificationTime(path: ".", seconds: 0o100000000000)) {
            try cpio5.addDirectory(path: ".", mode: 0o755, modificationTime: 0o100000000000)
        }
        let (cpio6, _) = try writer()
        #expect(throws: PayloadError.fileTooLarge(path: "./big", size: 1 << 33, limit: 0o77777777777)) {
            try cpio6.addFile(path: "./big", mode: 0o644, modificationTime: 0, size: 1 << 33) { _ in }
        }
        let (cpio7, _) = try writer()
        #expect(throws: PayloadError.invalidLinkTarget(path: "./l", target: "")) {
            try cpio7.addSymlink(path: "./l", target: "", mode: 0o755, modificationTime: 0)
        }
        #expect(throws: PayloadError.invalidCompressionLevel(13)) { try PayloadWriter(level: 13) { _ in } }
    }

    @Test func largestMtimeFits() throws {
        let (cpio, output) = try writer()
        try cpio.addDirectory(path: ".", mode: 0o755, modificationTime: 0o77777777777)
        try cpio.finish()
        #expect(String(decoding: output()[48..<59], as: UTF8.self) == "77777777777")
    }

    @Test func aBodyMustDeliverExactlyTheDeclaredSize() throws {
        let (short, _) = try writer()
        #expect(throws: PayloadError.sizeMismatch(path: "./f", declared: 5, delivered: 3)) {
            try short.addFile(path: "./f", mode: 0o644, modificationTime: 0, size: 5, body: self.feed([1, 2, 3]))
        }
        let (long, _) = try writer()
        #expect(throws: PayloadError.sizeMismatch(path: "./f", declared: 2, delivered: 3)) {
            try long.addFile(path: "./f", mode: 0o644, modificationTime: 0, size: 2, body: self.feed([1, 2, 3]))
        }
    }

    @Test func aFailureEndsTheWriterWithoutATrailer() throws {
        let (cpio, output) = try writer()
        try cpio.addDirectory(path: ".", mode: 0o755, modificationTime: 0)
        struct Unreadable: Error {}
        #expect(throws: PayloadError.dataSourceFailed(path: "./f", reason: "Unreadable()")) {
            try cpio.addFile(path: "./f", mode: 0o644, modificationTime: 0, size: 1) { _ in throw Unreadable() }
        }
        // The same error again, for every later call, and no trailer ever written.
        #expect(throws: PayloadError.dataSourceFailed(path: "./f", reason: "Unreadable()")) {
            try cpio.addDirectory(path: "./d", mode: 0o755, modificationTime: 0)
        }
        #expect(throws: PayloadError.dataSourceFailed(path: "./f", reason: "Unreadable()")) { try cpio.finish() }
        #expect(!String(decoding: output(), as: UTF8.self).contains("TRAILER!!!"))
    }

    @Test func anAbandonedWriterWritesNoTrailer() throws {
        final class Box { var bytes: [UInt8] = [] }
        let box = Box()
        do {
            let cpio = try CpioWriter { box.bytes.append(contentsOf: $0) }
            try cpio.addDirectory(path: ".", mode: 0o755, modificationTime: 0)
        }
        #expect(box.bytes.count == 78)
        #expect(!String(decoding: box.bytes, as: UTF8.self).contains("TRAILER!!!"))
    }

    @Test func nothingIsAcceptedAfterFinish() throws {
        let (cpio, _) = try writer()
        try cpio.finish()
        #expect(throws: PayloadError.writerFinished) {
            try cpio.addDirectory(path: ".", mode: 0o755, modificationTime: 0)
        }
        var out: [UInt8] = []
        let payload = try PayloadWriter { out.append(contentsOf: $0) }
        try payload.finish()
        #expect(throws: PayloadError.writerFinished) { try payload.finish() }
        // An empty archive is just the trailer, and reads back as no entries.
        #expect(try PayloadTestSupport.readAll(out).isEmpty)
    }

    @Test func aFailingSinkIsReported() throws {
        var calls = 0
        let payload = try PayloadWriter(level: 0) { _ in
            calls += 1
            throw SinkBroke()
        }
        // Output reaches the sink once enough 1 MiB blocks are in flight to need draining.
        let big = [UInt8](repeating: 7, count: 12 << 20)
        #expect(throws: PayloadError.outputFailed("sink broke")) {
            try payload.addFile(
                path: "./f", mode: 0o644, modificationTime: 0, size: UInt64(big.count), body: self.feed(big))
        }
        #expect(calls == 1)
        #expect(throws: PayloadError.outputFailed("sink broke")) { try payload.finish() }
    }
}
