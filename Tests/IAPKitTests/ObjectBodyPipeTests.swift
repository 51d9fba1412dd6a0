import IAPSystem
import Testing

@testable import IAPKit

/// A streamed object's body between the decoding thread and the sending one: every byte arrives
/// once and in order whatever the read sizes, the producer waits while the pipe is full, a
/// producer's error reaches the sender, and a sender that stops frees a waiting producer.
@Suite struct ObjectBodyPipeTests {
    /// Everything the pipe gives, read `size` bytes at a time.
    static func drain(_ pipe: ObjectBodyPipe, size: Int) throws -> [UInt8] {
        var all: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let got = try pipe.read(into: buffer)
            if got == 0 { return all }
            all += buffer[0..<got]
        }
    }

    @Test(arguments: [1, 1000, 65_536, 300_000])
    func everyByteArrivesOnceInOrder(readSize: Int) throws {
        let bytes = (0..<(1 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 7 >> 3) }
        let pipe = ObjectBodyPipe(capacity: 100_000)
        try BackgroundThread.start {
            var offset = 0
            while offset < bytes.count {
                let count = min(70_000, bytes.count - offset)
                pipe.write(Array(bytes[offset..<(offset + count)]))
                offset += count
            }
            pipe.finish()
        }
        #expect(try Self.drain(pipe, size: readSize) == bytes)
    }

    /// Chunks go back to the pool as they are sent and are written again: what arrives is still
    /// every byte once, in order.
    @Test func chunksUsedAgainKeepEveryByte() throws {
        let pool = ChunkPool(chunkBytes: 4096, limit: 2)
        let pipe = ObjectBodyPipe(capacity: 8192, pool: pool)
        let expected = (0..<200).flatMap { [UInt8](repeating: UInt8(truncatingIfNeeded: $0), count: 4096) }
        try BackgroundThread.start {
            for index in 0..<200 {
                var chunk = pool.take()
                chunk.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: UInt8(index)) }
                pipe.write(chunk)
            }
            pipe.finish()
        }
        #expect(try Self.drain(pipe, size: 3000) == expected)
        #expect(pool.take().count == 4096)
    }

    @Test func theProducersErrorReachesTheSender() throws {
        struct Changed: Error {}
        let pipe = ObjectBodyPipe(capacity: 10)
        pipe.write([1, 2, 3])
        pipe.fail(Changed())
        #expect(throws: Changed.self) { try Self.drain(pipe, size: 2) }
    }

    @Test func aSenderThatStopsFreesAWaitingProducer() throws {
        let pipe = ObjectBodyPipe(capacity: 4)
        // The second write waits for room until the sender closes the pipe; then writes are dropped.
        let done = ConcurrentResult { [pipe.write([1, 2, 3, 4]), pipe.write([5, 6]), pipe.write([7])] }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 2, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try pipe.read(into: buffer) == 2)
        pipe.close()
        #expect(done.value() == [true, false, false])
    }
}
