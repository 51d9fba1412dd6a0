import Testing

@testable import IAPKit

/// The buffers a publish reads parts and chunks into: one given back is the next taken, in place
/// (no fresh memory to fault in); the pool keeps no more than its limit, nothing of another size,
/// and nothing between `empty()` and the next `take()`. A kept buffer is told from a new one by
/// the mark written into it (a new one is zeroed).
@Suite struct ChunkPoolTests {
    /// The address of `buffer`'s bytes (read without writing, which would copy a shared buffer).
    static func address(_ buffer: [UInt8]) -> UInt? {
        buffer.withUnsafeBytes { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    @Test func aBufferGivenBackIsTakenAgainInPlace() {
        let pool = ChunkPool(chunkBytes: 4096, limit: 2)
        var first = pool.take()
        #expect(first.count == 4096 && first[0] == 0)
        first[0] = 7
        let before = Self.address(first)
        pool.give(first)
        first = []  // the pool holds the only reference now
        var again = pool.take()
        again[1] = 8  // written in place: a buffer still shared would be copied here
        #expect(Self.address(again) == before)
        #expect(again[0] == 7, "its content is whatever it held")
    }

    @Test func keepsAtMostItsLimitAndOnlyItsSize() {
        let pool = ChunkPool(chunkBytes: 1024, limit: 2)
        var taken = (0..<3).map { _ in pool.take() }
        for index in taken.indices { taken[index][0] = 1 }
        for buffer in taken { pool.give(buffer) }
        pool.give([UInt8](repeating: 1, count: 10))  // another size: not kept
        taken = []
        let next = (0..<3).map { _ in pool.take() }
        #expect(next.map { $0[0] }.sorted() == [0, 1, 1], "two kept, the third made new")
        #expect(next.allSatisfy { $0.count == 1024 })
    }

    @Test func emptyLetsGoUntilTheNextTake() {
        let pool = ChunkPool(chunkBytes: 1024, limit: 4)
        var early = pool.take()
        var late = pool.take()
        early[0] = 1
        late[0] = 2
        pool.give(early)
        early = []
        pool.empty()
        pool.give(late)  // given back after empty(): dropped
        late = []
        var next = pool.take()
        #expect(next[0] == 0, "neither buffer was kept")
        next[0] = 3
        pool.give(next)  // after a take the pool keeps again
        next = []
        #expect(pool.take()[0] == 3)
    }
}
