internal import CShims

/// How the process's allocator places large blocks.
package enum HeapTuning {
    /// The size from which a block gets its own mapping: glibc's default, kept fixed.
    package static let largeBlockBytes = 128 << 10

    /// Keeps every block of ``largeBlockBytes`` or more in its own mapping, returned to the system
    /// when freed. glibc otherwise raises that threshold after the first such block is freed (up to
    /// 32 MiB), and later large buffers then come from the main heap, where small long-lived
    /// allocations between them keep it from shrinking: unpack of a 40,000-entry package held
    /// 290 MiB of freed heap that way while under 40 MiB was in use. Call once, before any thread.
    package static func keepLargeBlocksOutOfTheHeap() {
        _ = iap_set_mmap_threshold(largeBlockBytes)
    }

    /// Gives the system back the free pages among the heap's small blocks (`malloc_trim`): after
    /// a phase that made and dropped many of them (validation's paths and tables at 100,000
    /// entries), before a phase that needs large blocks of its own.
    package static func releaseFreeMemory() {
        _ = iap_release_free_heap()
    }
}
