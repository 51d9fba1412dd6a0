import Dispatch

/// Reads a byte range of a file in chunks on a background thread, digesting each chunk there,
/// a few chunks ahead of the consumer: reading and hashing overlap with whatever the consumer
/// does with the bytes (inflating, parsing). Memory: `depth` chunks. Dropping the reader early
/// stops the thread.
public final class ReadAheadReader {
    /// What the reader and its thread share; the thread never holds the reader itself.
    /// `@unchecked Sendable`: the semaphores `free`, `filled` and `stopped` order every access to
    /// the mutable parts (`counts`, the buffers, `failure`, `cancelled`, the hasher): a slot is
    /// written before `filled.signal()` and read after `filled.wait()`, `cancelled` is set before
    /// `free.signal()` and read after `free.wait()`.
    private final class Channel: @unchecked Sendable {
        let file: FileDescriptor
        let start: UInt64
        let length: UInt64
        let chunkSize: Int
        let hasher: DigestHasher?
        let buffers: [UnsafeMutableRawBufferPointer]
        /// Bytes read into each slot. Raw memory, one word per slot: the producer writes a slot before
        /// `filled.signal()` and the consumer reads it after `filled.wait()`, so the semaphores order
        /// every access (a Swift array would not: its uniqueness check reads the shared buffer).
        let counts: UnsafeMutablePointer<Int>
        // Semaphores start at 0 and are signalled up: libdispatch refuses to free one below its start.
        let filled = DispatchSemaphore(value: 0)
        let free = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        var failure: Error?
        var cancelled = false

        init(file: FileDescriptor, start: UInt64, length: UInt64, chunkSize: Int, slots: Int, hasher: DigestHasher?) {
            self.file = file
            self.start = start
            self.length = length
            self.chunkSize = chunkSize
            self.hasher = hasher
            buffers = (0..<slots).map { _ in .allocate(byteCount: chunkSize, alignment: 64) }
            counts = .allocate(capacity: slots)
            counts.initialize(repeating: 0, count: slots)
            for _ in 0..<slots { free.signal() }
        }

        deinit {
            for buffer in buffers { buffer.deallocate() }
            counts.deallocate()
        }

        /// The thread's loop: fill free slots in order until the range is read, the file ends or the reader goes.
        func produce() {
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
    }

    private let channel: Channel
    private var consumerIndex = 0
    private var consumed: UInt64 = 0
    private var holding = false
    private var finished = false

    /// Starts reading `length` bytes at `start`; with a `hasher`, every byte read is fed to it
    /// (on the background thread, in order).
    public init(
        file: FileDescriptor, start: UInt64, length: UInt64, chunkSize: Int = 1 << 20, depth: Int = 4,
        hasher: DigestHasher?
    ) throws {
        let channel = Channel(
            file: file, start: start, length: length, chunkSize: chunkSize, slots: max(2, depth), hasher: hasher)
        self.channel = channel
        do {
            try BackgroundThread.start { channel.produce() }
        } catch {
            channel.stopped.signal()  // no thread: let deinit finish at once
            throw error
        }
    }

    deinit {
        channel.cancelled = true
        channel.free.signal()
        channel.stopped.wait()
    }

    /// The next chunk, valid until the next call; nil at the end of the range, or early if the file
    /// is shorter (compare `bytesDelivered` with the length asked for).
    public func next() throws -> UnsafeRawBufferPointer? {
        if holding {
            holding = false
            consumerIndex = (consumerIndex + 1) % channel.buffers.count
            channel.free.signal()
        }
        guard !finished, consumed < channel.length else { return nil }
        channel.filled.wait()
        if let failure = channel.failure {
            finished = true
            throw failure
        }
        let count = channel.counts[consumerIndex]
        guard count > 0 else {
            finished = true
            return nil
        }
        consumed += UInt64(count)
        holding = true
        return UnsafeRawBufferPointer(rebasing: channel.buffers[consumerIndex][0..<count])
    }

    /// Bytes handed to the consumer so far.
    public var bytesDelivered: UInt64 { consumed }
}
