/// A growable byte buffer whose address stays fixed between resets, for handing decoded bytes to libarchive.
final class DecodedBlock {
    /// Hard ceiling on the buffer's size; the decoder never needs more than a few MiB.
    static let maximumCapacity = 16 * 1024 * 1024

    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes currently held.
    private(set) var count = 0
    /// Offset of the first held byte in the whole decoded stream.
    private(set) var startOffset: UInt64 = 0

    /// Allocates an empty block of `initialCapacity` bytes.
    init(initialCapacity: Int) {
        capacity = max(1, min(initialCapacity, Self.maximumCapacity))
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// The bytes held, valid until the next `reset` or `append`.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Empties the block; the next byte appended sits at `startOffset` of the decoded stream.
    func reset(startOffset: UInt64) {
        count = 0
        self.startOffset = startOffset
    }

    /// Appends `chunk`, growing the storage; returns false (and appends nothing) past `maximumCapacity`.
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard let source = chunk.baseAddress, !chunk.isEmpty else { return true }
        let needed = count + chunk.count
        guard needed <= Self.maximumCapacity else { return false }
        if needed > capacity {
            var newCapacity = capacity
            while newCapacity < needed { newCapacity = min(newCapacity * 2, Self.maximumCapacity) }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            grown.copyMemory(from: storage, byteCount: count)
            storage.deallocate()
            storage = grown
            capacity = newCapacity
        }
        (storage + count).copyMemory(from: source, byteCount: chunk.count)
        count = needed
        return true
    }
}
