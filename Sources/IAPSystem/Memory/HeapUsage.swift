internal import CShims

/// What the process's heap holds, for leak checks.
package enum HeapUsage {
    /// Heap bytes in use over every malloc arena (glibc's `mallinfo2`). Unlike the resident size it
    /// does not move when the allocator keeps freed pages or gives a new thread an arena.
    package static func bytesInUse() -> Int { Int(iap_heap_bytes_in_use()) }
}
