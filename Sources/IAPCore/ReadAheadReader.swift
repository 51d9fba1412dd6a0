import Dispatch

/// Reads a byte range of a file in chunks on a background thread, digesting each chunk there,
/// a few chunks ahead of the consumer: reading and hashing overlap with whatever the consumer
/// does with the bytes (inflating, parsing). Memory: `depth` chunks.
public final class ReadAheadReader: @unchecked Sendable {
    private let file: FileDescriptor
    private let start: UInt64
    private let length: UInt64
    private let chunkSize: Int
    private let hasher: DigestHasher?
    private var buffers: [UnsafeMutableRawBufferPointer]
    private var counts: [Int]
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let stopped = DispatchSemaphore(value: 0)
    private var failure: Error?
    private var cancelled = false
    private var consumerIndex = 0
    private var consumed: UInt64 = 0
    private var holding = false

    /// Starts reading `length` bytes at `start`; with a `hasher`, every byte read is fed to it
    /// (on the background thread, in order).
    public init(file: FileDescriptor, start: UInt64, length: UInt64, chunkSize: Int = 1 << 20, depth: Int = 4,
                hasher: DigestHasher?) throws {
        self.file = file
        self.start = start
        self.length = length
        self.chunkSize = chunkSize
        self.hasher = hasher
        let slots = max(2, depth)
        buffers = (0..<slots).map { _ in .allocate(byteCount: chunkSize, alignment: 64) }
        counts = [Int](repeating: 0, count: slots)
        free = DispatchSemaphore(value: slots)
        do {
            try BackgroundThread.start { [self] in produce() }
        } catch {
            for buffer in buffers { buffer.deallocate() }
            buffers = []
            stopped.signal()
            throw error
        }
    }

    deinit {
        cancelled = true
        free.signal()
        stopped.wait()
        for buffer in buffers { buffer.deallocate() }
        buffers = []
    }

    private func produce() {
        var index = 0
        var offset: UInt64 = 0
        defer { stopped.signal() }
        while offset < length {
            free.wait()
            if cancelled { return }
            let want = Int(min(UInt64(chunkSize), length - offset))
            let target = UnsafeMutableRawBufferPointer(rebasing: buffers[index][0..<want])
            do {
                let got = try file.read(into: target, at: start + offset)
                counts[index] = got
                hasher?.update(UnsafeRawBufferPointer(rebasing: target[0..<got]))
                offset += UInt64(got)
            } catch {
                failure = error
                counts[index] = 0
                filled.signal()
                return
            }
            let short = counts[index] < want
            filled.signal()
            index = (index + 1) % buffers.count
            if short {
                // The file ended early: one empty chunk tells the consumer.
                free.wait()
                if cancelled { return }
                counts[index] = 0
                filled.signal()
                return
            }
        }
    }

    /// The next chunk, valid until the next call; nil at the end of the range. A short file ends early:
    /// compare `bytesDelivered` with the length asked for.
    public func next() throws -> UnsafeRawBufferPointer? {
        if holding {
            holding = false
            consumerIndex = (consumerIndex + 1) % buffers.count
            free.signal()
        }
        guard consumed < length else { return nil }
        filled.wait()
        if let failure { throw failure }
        let count = counts[consumerIndex]
        guard count > 0 else {
            consumed = length
            return nil
        }
        consumed += UInt64(count)
        holding = true
        return UnsafeRawBufferPointer(rebasing: buffers[consumerIndex][0..<count])
    }

    /// Bytes handed to the consumer so far.
    public var bytesDelivered: UInt64 { consumed }
}
