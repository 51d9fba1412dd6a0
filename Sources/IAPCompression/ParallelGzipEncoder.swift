import Dispatch
import IAPSystem

/// gzip on every core: the input is cut into fixed-size blocks, each compressed by libdeflate into
/// its own gzip member on a worker thread, and the members are written in order. A stream of
/// concatenated members is standard gzip (RFC 1952 §2.2; `gzip -t`, bsdtar, cpio and zlib read it).
/// Blocks that are already compressed (images, audio, video) are stored instead of squeezed.
/// The output depends only on the input, the level and the block size, never on timing.
package final class ParallelGzipEncoder {
    /// One block in flight. `@unchecked Sendable`: the writing thread fills `input` and `count`
    /// before handing the job to a worker; the worker writes `output` and `outputCount` before
    /// `done.signal()`; the writing thread reads them only after `done.wait()`.
    private final class Job: @unchecked Sendable {
        let input: UnsafeMutableRawBufferPointer
        var count = 0
        var output: UnsafeMutableRawBufferPointer
        var outputCount = 0
        let done = DispatchSemaphore(value: 0)

        init(blockSize: Int, bound: Int) {
            input = .allocate(byteCount: blockSize, alignment: 64)
            output = .allocate(byteCount: bound, alignment: 64)
        }

        deinit {
            input.deallocate()
            output.deallocate()
        }
    }

    package let level: Int32
    package let blockSize: Int
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private let maxInFlight: Int
    private var current: Job
    private var inFlight: [Job] = []
    private var spare: [Job] = []
    private let bound: Int
    private let compressors: CompressorPool
    /// At most `workers` blocks compress at once (the queue is deeper): bounded threads and memory.
    private let running: DispatchSemaphore
    private var finished = false
    /// Bytes taken in and written out so far.
    package private(set) var totalIn: UInt64 = 0
    package private(set) var totalOut: UInt64 = 0

    /// An encoder at libdeflate `level` whose gzip bytes go to `sink` (called on the writing thread).
    package init(
        level: Int32, blockSize: Int = 1 << 20, workers: Int = ParallelGzipEncoder.defaultWorkers,
        sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.level = level
        self.blockSize = blockSize
        self.sink = sink
        self.maxInFlight = max(1, workers) * 2
        compressors = CompressorPool(level: level)
        running = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, workers) { running.signal() }
        bound = compressors.with { $0.gzipBound(blockSize) }
        current = Job(blockSize: blockSize, bound: bound)
    }

    /// Worker threads by default: the machine's cores.
    package static var defaultWorkers: Int { max(1, sysconfCores()) }

    /// Takes the next bytes of the stream.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let take = min(blockSize - current.count, bytes.count - offset)
            UnsafeMutableRawBufferPointer(rebasing: current.input[current.count..<current.count + take])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
            current.count += take
            offset += take
            totalIn += UInt64(take)
            if current.count == blockSize { try submit() }
        }
    }

    /// Compresses what is left and writes every member; the stream is complete afterwards.
    package func finish() throws {
        guard !finished else { return }
        finished = true
        if current.count > 0 || totalIn == 0 { try submit() }
        while !inFlight.isEmpty { try drainOldest() }
    }

    private func submit() throws {
        let job = current
        inFlight.append(job)
        let compressors = self.compressors
        let running = self.running
        running.wait()
        DispatchQueue.global(qos: .userInitiated).async {
            defer { running.signal() }
            let input = UnsafeRawBufferPointer(rebasing: job.input[0..<job.count])
            let stored = compressors.with(level: 1) { BlockCompressor.looksIncompressible(input, probe: $0) }
            job.outputCount = compressors.with(level: stored ? 0 : nil) { $0.gzip(input, into: job.output) }
            job.done.signal()
        }
        current = spare.popLast() ?? Job(blockSize: blockSize, bound: bound)
        current.count = 0
        while inFlight.count >= maxInFlight { try drainOldest() }
    }

    private func drainOldest() throws {
        let job = inFlight.removeFirst()
        job.done.wait()
        guard job.outputCount > 0 else {
            throw ZlibError(reason: "libdeflate could not compress a block", inputOffset: totalIn)
        }
        totalOut += UInt64(job.outputCount)
        try sink(UnsafeRawBufferPointer(rebasing: job.output[0..<job.outputCount]))
        spare.append(job)
    }
}

/// libdeflate compressors shared by the worker threads, each used by one thread at a time,
/// kept per level: the encoder's level, 1 for the incompressibility probe, 0 to store.
/// `@unchecked Sendable`: `free` is read and written only while holding `lock` (a semaphore of 1),
/// and a compressor taken from it belongs to one thread until it is put back under that lock.
final class CompressorPool: @unchecked Sendable {
    let level: Int32
    private var free: [Int32: [BlockCompressor]] = [:]
    private let lock = DispatchSemaphore(value: 1)

    init(level: Int32) { self.level = level }

    /// Runs `body` with a compressor at `level` (the encoder's own by default).
    func with<T>(level: Int32? = nil, _ body: (BlockCompressor) -> T) -> T {
        let wanted = level ?? self.level
        lock.wait()
        let compressor = free[wanted]?.popLast() ?? BlockCompressor(level: wanted)
        lock.signal()
        defer {
            lock.wait()
            free[wanted, default: []].append(compressor)
            lock.signal()
        }
        return body(compressor)
    }
}
