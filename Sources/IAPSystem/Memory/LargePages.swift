#if canImport(Glibc)
    import Glibc
#endif

/// Room of many megabytes backed by the kernel's 2 MiB pages where it can: one page fault per
/// 2 MiB instead of one per 4 KiB. A Bom of 9 MB inflated into ordinary pages costs over 2,000
/// faults, a third of inspect's time on a 20,000-file package. Only advice: where transparent huge
/// pages are off (or set to `never`), or the room is smaller than one aligned 2 MiB span, nothing
/// changes.
package enum LargePages {
    /// The huge page size on x86-64 and arm64 with 4 KiB pages.
    static let hugePageBytes = 2 << 20

    /// Asks that the 2 MiB-aligned part of `buffer`, not yet written, be backed by huge pages.
    package static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count >= hugePageBytes else { return }
        let start = (UInt(bitPattern: base) + UInt(hugePageBytes - 1)) & ~UInt(hugePageBytes - 1)
        let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~UInt(hugePageBytes - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, Int(end - start), MADV_HUGEPAGE)
    }
}

extension Array {
    /// An empty array with room for `capacity` elements, that room advised to huge pages
    /// (``LargePages``): for lists of millions of bytes built by appending.
    package init(largeCapacity capacity: Int) {
        // With no room asked for, the initializer below would write the count of the one empty array
        // storage all threads share (ThreadSanitizer saw two serve workers do it at once).
        guard capacity > 0 else {
            self.init()
            return
        }
        self.init(unsafeUninitializedCapacity: capacity) { buffer, count in
            LargePages.advise(UnsafeMutableRawBufferPointer(buffer))
            count = 0
        }
    }
}
