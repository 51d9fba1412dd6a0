import IAPSystem
import Testing

/// `LargePages` is advice: it never changes what a buffer holds or how big an array's room is.
@Suite struct LargePagesTests {
    @Test func arrayWithLargeCapacityIsEmptyWithTheRoomAskedFor() {
        for capacity in [0, 1, 4096, (2 << 20) - 1, 5 << 20] {
            var array = [UInt64](largeCapacity: capacity)
            #expect(array.isEmpty)
            #expect(array.capacity >= capacity)
            let room = array.capacity
            array.append(contentsOf: (0..<UInt64(capacity)).lazy.map { $0 &* 2_654_435_761 })
            #expect(array.capacity == room, "appending what was reserved must not grow the array")
            #expect(array.last == (capacity > 0 ? UInt64(capacity - 1) &* 2_654_435_761 : nil))
        }
    }

    @Test func advisedBufferKeepsWhatIsWrittenAtEveryOffset() {
        // 6 MiB from an arbitrary start: the aligned 2 MiB spans inside are advised, the edges not.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 6 << 20, alignment: 16)
        defer { buffer.deallocate() }
        LargePages.advise(buffer)
        LargePages.advise(UnsafeMutableRawBufferPointer(rebasing: buffer[1..<4096]))  // too small: nothing
        LargePages.advise(UnsafeMutableRawBufferPointer(start: nil, count: 0))
        for offset in stride(from: 0, to: buffer.count, by: 4093) { buffer[offset] = UInt8(truncatingIfNeeded: offset) }
        #expect(
            stride(from: 0, to: buffer.count, by: 4093).allSatisfy { buffer[$0] == UInt8(truncatingIfNeeded: $0) })
    }
}
