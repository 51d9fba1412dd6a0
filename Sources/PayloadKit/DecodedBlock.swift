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
        guard reserve(chunk.count) else { return false }
        (storage + count).copyMemory(from: source, byteCount: chunk.count)
        count += chunk.count
        return true
    }

    /// Makes room for `more` bytes after those held; false (nothing changed) past `maximumCapacity`.
    func reserve(_ more: Int) -> Bool {
        let needed = count + more
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
        return true
    }

    /// The room after the bytes held, for a decoder to write into before `commit`.
    var spare: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: storage + count, count: capacity - count)
    }

    /// Keeps `written` bytes that were written at the start of `spare`.
    func commit(_ written: Int) {
        precondition(written >= 0 && written <= capacity - count, "commit past the reserved room")
        count += written
    }
}
