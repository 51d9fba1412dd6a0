import Dispatch
import IAPCrypto
import Synchronization

/// Reads a byte range of a file in chunks on a background thread, a few chunks ahead of the
/// consumer, and digests each chunk on a thread of its own: reading, hashing and whatever the
/// consumer does with the bytes (inflating, parsing) overlap. (Hashing on the reading thread made
/// it the slowest of the three: SHA-1 at ~1.9 GB/s plus the copy out of the page cache.) Memory:
/// `depth` chunks. Dropping the reader early stops both threads.
package final class ReadAheadReader {
    /// What the reader and its threads share; the threads never hold the reader itself.
    /// `@unchecked Sendable`: semaphores order every access to the mutable parts (`counts`, the
    /// buffers, the hasher; `failure`, set before the empty slot that ends the range is published,
    /// is read only after that slot is taken). A slot is written before `filled.signal()` and
    /// `toHash.signal()` and read after `filled.wait()` (consumer) and `toHash.wait()` (hasher); it
    /// is written again only after `free.wait()` (the consumer moved past it) and `hashed.wait()`
    /// (the hasher is done with it). `stop` is atomic.
    private final class Channel: @unchecked Sendable {
        let file: FileDescriptor
        let start: UInt64
        let length: UInt64
        let chunkSize: Int
        let hasher: DigestHasher?
        let buffers: [UnsafeMutableRawBufferPointer]
        /// Bytes read into each slot. Raw memory, one word per slot, ordered by the semaphores (a
        /// Swift array would not be: its uniqueness check reads the shared buffer).
        let counts: UnsafeMutablePointer<Int>
        // Semaphores start at 0 and are signalled up: libdispatch refuses to free one below its start.
        let filled = DispatchSemaphore(value: 0)
        let free = DispatchSemaphore(value: 0)
        let toHash = DispatchSemaphore(value: 0)
        let hashed = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let hasherStopped = DispatchSemaphore(value: 0)
        var failure: Error?
        /// Set when the reader goes: both threads return at their next wake-up.
        let stop = Atomic<Bool>(false)

        init(file: FileDescriptor, start: UInt64, length: UInt64, chunkSize: Int, slots: Int, hasher: DigestHasher?) {
            self.file = file
            self.start = start
            self.length = length
            self.chunkSize = chunkSize
            self.hasher = hasher
            buffers = (0..<slots).map { _ in .allocate(byteCount: chunkSize, alignment: 64) }
            counts = .allocate(capacity: slots)
            counts.initialize(repeating: 0, count: slots)
            for _ in 0..<slots {
                free.signal()
                hashed.signal()
            }
        }

        deinit {
            for buffer in buffers { buffer.deallocate() }
            counts.deallocate()
        }

        /// Waits until slot `index` may be written again; false when the reader is going.
        private func claim() -> Bool {
            free.wait()
            if hasher != nil { hashed.wait() }
            return !stop.load(ordering: .acquiring)
        }

        /// Hands slot `index`, holding `count` bytes (0: the end), to the consumer and the hasher.
        private func publish(_ index: Int, count: Int) {
            counts[index] = count
            if hasher != nil { toHash.signal() }
            filled.signal()
        }

        /// The reading thread's loop: fill free slots in order until the range is read, the file
        /// ends or the reader goes.
        func produce() {
            var index = 0
            var offset: UInt64 = 0
            defer { stopped.signal() }
            while offset < length {
                guard claim() else { return }
                let want = Int(min(UInt64(chunkSize), length - offset))
                let target = UnsafeMutableRawBufferPointer(rebasing: buffers[index][0..<want])
                let got: Int
                do {
                    got = try file.read(into: target, at: start + offset)
                } catch {
                    failure = error
                    publish(index, count: 0)
                    return
                }
                offset += UInt64(got)
                publish(index, count: got)
                index = (index + 1) % buffers.count
                if got < want {
                    // The file ended early: one empty chunk tells the consumer (and the hasher).
                    guard claim() else { return }
                    publish(index, count: 0)
                    return
                }
            }
        }

        /// The hashing thread's loop: digest each published slot in order until the range is
        /// digested, an empty slot ends it or the reader goes.
        func digest() {
            defer { hasherStopped.signal() }
            guard let hasher else { return }  // never: no thread is started without a hasher
            var index = 0
            var digested: UInt64 = 0
            while digested < length {
                toHash.wait()
                if stop.load(ordering: .acquiring) { return }
                let count = counts[index]
                if count == 0 { return }
                hasher.update(UnsafeRawBufferPointer(rebasing: buffers[index][0..<count]))
                digested += UInt64(count)
                hashed.signal()
                index = (index + 1) % buffers.count
            }
        }
    }

    private let channel: Channel
    private var consumerIndex = 0
    private var consumed: UInt64 = 0
    private var holding = false
    private var finished = false
    private var hasherJoined = false

    /// Starts reading `length` bytes at `start`; with a `hasher`, every byte read is fed to it (on
    /// a thread of its own, in order; ``waitForDigest()`` says when it has all of them).
    package init(
        file: FileDescriptor, start: UInt64, length: UInt64, chunkSize: Int = 1 << 20, depth: Int = 4,
        hasher: DigestHasher?
    ) throws {
        let channel = Channel(
            file: file, start: start, length: length, chunkSize: chunkSize, slots: max(2, depth), hasher: hasher)
        self.channel = channel
        do {
            if hasher != nil {
                try BackgroundThread.start { channel.digest() }
            } else {
                channel.hasherStopped.signal()  // nothing to digest: no thread
            }
        } catch {
            channel.stopped.signal()  // no threads: let deinit finish at once
            channel.hasherStopped.signal()
            throw error
        }
        do {
            try BackgroundThread.start { channel.produce() }
        } catch {
            channel.stop.store(true, ordering: .releasing)
            channel.toHash.signal()
            channel.hasherStopped.wait()
            channel.stopped.signal()
            channel.hasherStopped.signal()
            throw error
        }
    }

    deinit {
        channel.stop.store(true, ordering: .releasing)
        channel.free.signal()
        channel.hashed.signal()
        channel.toHash.signal()
        channel.stopped.wait()
        if !hasherJoined { channel.hasherStopped.wait() }
    }

    /// The next chunk, valid until the next call; nil at the end of the range (once the hasher has
    /// digested it all), or early if the file is shorter (compare `bytesDelivered` with the length
    /// asked for).
    package func next() throws -> UnsafeRawBufferPointer? {
        if holding {
            holding = false
            consumerIndex = (consumerIndex + 1) % channel.buffers.count
            channel.free.signal()
        }
        guard !finished, consumed < channel.length else {
            if consumed == channel.length { waitForDigest() }
            return nil
        }
        channel.filled.wait()
        let count = channel.counts[consumerIndex]
        guard count > 0 else {
            // An empty slot ends the range; the reading thread set `failure` (if any) before
            // publishing it, and writes nothing after: only here is it read.
            finished = true
            if let failure = channel.failure { throw failure }
            return nil
        }
        consumed += UInt64(count)
        holding = true
        return UnsafeRawBufferPointer(rebasing: channel.buffers[consumerIndex][0..<count])
    }

    /// Waits until the hasher has digested every byte of the range, before the caller finishes it.
    /// Only once every byte was delivered (`bytesDelivered` equals the length asked for): before
    /// that it returns at once, and the digest, incomplete, cannot match.
    package func waitForDigest() {
        guard !hasherJoined, consumed == channel.length else { return }
        channel.hasherStopped.wait()
        hasherJoined = true
    }

    /// Bytes handed to the consumer so far.
    package var bytesDelivered: UInt64 { consumed }
}
