#if canImport(Glibc)
    import Glibc
#endif

/// Counters in memory shared between the supervisor and its forked children (an anonymous
/// `MAP_SHARED` mapping): the child's heartbeat and position, and per-mutator tallies.
final class SharedCounters {
    private static let currentIndexSlot = 0
    private static let startedSlot = 1
    private static let completedSlot = 2
    private static let peakRSSSlot = 3
    private static let perMutatorBase = 8
    private static let perMutatorWidth = 3
    private static let slotCount = perMutatorBase + perMutatorWidth * Mutator.allCases.count

    private let slots: UnsafeMutablePointer<UInt64>

    /// Maps the shared page; nil if the system refuses.
    init?() {
        let byteCount = Self.slotCount * MemoryLayout<UInt64>.stride
        guard let raw = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0),
            raw != MAP_FAILED
        else { return nil }
        slots = raw.bindMemory(to: UInt64.self, capacity: Self.slotCount)
        slots.initialize(repeating: 0, count: Self.slotCount)
    }

    deinit { munmap(slots, Self.slotCount * MemoryLayout<UInt64>.stride) }

    /// The index of the input a child is working on.
    var currentIndex: UInt64 {
        get { slots[Self.currentIndexSlot] }
        set { slots[Self.currentIndexSlot] = newValue }
    }

    /// Inputs started by every child so far: the heartbeat.
    var started: UInt64 { slots[Self.startedSlot] }

    /// Inputs finished (returned from every target) by every child so far.
    var completed: UInt64 { slots[Self.completedSlot] }

    /// The largest resident set (KiB) any child reported.
    var peakRSSKiB: UInt64 { slots[Self.peakRSSSlot] }

    /// Child side: input `index` starts.
    func begin(_ index: UInt64) {
        slots[Self.currentIndexSlot] = index
        slots[Self.startedSlot] &+= 1
    }

    /// Child side: an input made by `mutator` finished with `outcome`.
    func finish(_ mutator: Mutator, _ outcome: TargetOutcome) {
        slots[Self.completedSlot] &+= 1
        let base = Self.perMutatorBase + Self.perMutatorWidth * mutator.rawValue
        slots[base] &+= 1
        if outcome != .openRefused { slots[base + 1] &+= 1 }
        if outcome == .valid { slots[base + 2] &+= 1 }
    }

    /// Child side: records the current peak resident set.
    func notePeakRSS(_ kibibytes: UInt64) {
        if kibibytes > slots[Self.peakRSSSlot] { slots[Self.peakRSSSlot] = kibibytes }
    }

    /// (inputs run, inputs that opened, inputs found valid) for `mutator`.
    func tally(_ mutator: Mutator) -> (runs: UInt64, opened: UInt64, valid: UInt64) {
        let base = Self.perMutatorBase + Self.perMutatorWidth * mutator.rawValue
        return (slots[base], slots[base + 1], slots[base + 2])
    }

    /// A copy of every slot, to put back after a reproduction run that must not count.
    func snapshot() -> [UInt64] { Array(UnsafeBufferPointer(start: slots, count: Self.slotCount)) }

    /// Puts back a `snapshot()`.
    func restore(_ saved: [UInt64]) {
        for (index, value) in saved.enumerated() where index < Self.slotCount { slots[index] = value }
    }
}
