import IAPCrypto
import IAPSystem
import Testing

@testable import IAPKit

/// The upload pipeline of a publish straight from a package: every job runs once, the bytes held
/// by queued and running jobs stay within the budget, and the first failure stops the rest and
/// reaches the producer, with no job still running once `finish` returns.
@Suite struct ObjectUploadPipelineTests {
    /// What the jobs did, shared by the worker threads.
    /// `@unchecked Sendable`: every field is read and written only inside `lock.withLock`.
    final class Tally: @unchecked Sendable {
        let lock = ConditionLock()
        var ran: [Int] = []
        var held = 0
        var mostHeld = 0
        var running = 0

        func start(_ bytes: Int) {
            lock.withLock {
                held += bytes
                mostHeld = max(mostHeld, held)
                running += 1
            }
        }

        func end(_ index: Int, _ bytes: Int) {
            lock.withLock {
                held -= bytes
                running -= 1
                ran.append(index)
            }
        }
    }

    struct Refused: Error, Equatable { var index: Int }

    @Test func everyJobRunsOnceWithinTheByteBudget() throws {
        let pipeline = ObjectUploadPipeline(width: 8, byteBudget: 1000)
        let tally = Tally()
        for index in 0..<400 {
            let bytes = index % 7 == 0 ? 600 : 50
            try pipeline.submit(bytes: bytes) {
                tally.start(bytes)
                _ = DigestHasher.digest(.sha256, of: [UInt8](repeating: 1, count: 16 << 10))  // some work
                tally.end(index, bytes)
            }
        }
        try pipeline.finish()
        tally.lock.withLock {
            #expect(tally.ran.sorted() == Array(0..<400))
            #expect(tally.mostHeld <= 1000)
            #expect(tally.running == 0)
        }
    }

    @Test func theFirstFailureStopsTheRestAndReachesTheProducer() throws {
        let pipeline = ObjectUploadPipeline(width: 4, byteBudget: 1 << 20)
        let tally = Tally()
        var refusedAt: Int?
        do {
            for index in 0..<10_000 {
                try pipeline.submit(bytes: 10) {
                    tally.start(10)
                    defer { tally.end(index, 10) }
                    if index == 20 { throw Refused(index: index) }
                }
                refusedAt = index
            }
            try pipeline.finish()
        } catch let error as Refused {
            #expect(error == Refused(index: 20))
        }
        #expect(throws: Refused(index: 20)) { try pipeline.finish() }
        tally.lock.withLock {
            #expect(tally.running == 0)
            #expect(tally.ran.count < 10_000)
            #expect(tally.ran.contains(20))
        }
        #expect((refusedAt ?? 0) < 9_999)
    }
}
