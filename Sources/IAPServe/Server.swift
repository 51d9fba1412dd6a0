import IAPKit
import IAPSystem

/// `iapkg serve`: watches a folder and installs each complete package that arrives, exactly once.
///
/// A file is taken only once no process holds it open for writing (`WriterCheck`), claimed by an
/// atomic rename into `.processing/`, installed through `Unpacker` (idempotent: identical content
/// is "already installed") in version order per product (`ServeQueue`), and committed by the
/// rename into `accepted/` or `rejected/`. A failure that is not the package's (a full disk, a
/// read-only ROOT, an I/O error) leaves it in `.processing/` to be tried again after a backoff.
/// After a kill at any moment, the next start handles again what `.processing/` holds and
/// finishes half-moved reports, so every package ends in exactly one place.
///
/// `@unchecked Sendable`: `health` and `running` are read and written only under `lock`; the
/// intake state (`held`, `said`, `leaseNoted`, `lastIntakeFailure`) only on the thread that calls
/// `run`; the queue is its own lock; everything else is immutable.
package final class Server: @unchecked Sendable {
    /// Renders the report kept beside a handled package.
    package typealias ReportRenderer = @Sendable (ServeReportInput) -> [UInt8]
    /// Receives each event, from the thread that handled the package.
    package typealias EventSink = @Sendable (ServeEvent) -> Void
    /// Receives the health after every change and at least every few seconds.
    package typealias HealthSink = @Sendable (ServeHealth) -> Void

    let options: ServeOptions
    let render: ReportRenderer
    let sink: EventSink
    let healthSink: HealthSink
    let incoming: IncomingFolder
    let queue: ServeQueue
    let lock = ConditionLock()
    /// Held while `accepted/` and `rejected/` are pruned (one thread at a time).
    let pruning = ConditionLock()
    var health: ServeHealth
    private var running = 0
    /// Files in the drop folder whose writer was still there (main thread only).
    var held: Set<String> = []
    /// What was said once about an entry, by name (main thread only).
    var said: [String: String] = [:]
    /// The note that read leases cannot be taken was given (main thread only).
    var leaseNoted = false
    /// The intake failure last said on stderr (main thread only).
    var lastIntakeFailure: String?
    /// Notes for people (stderr), from the intake.
    let note: @Sendable (String) -> Void

    /// Opens the incoming folder (creating `.processing/`, `accepted/`, `rejected/`) and the store.
    package init(
        options: ServeOptions, render: @escaping ReportRenderer, sink: @escaping EventSink,
        health: @escaping HealthSink = { _ in }, note: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(IAPKitError) {
        self.options = options
        self.render = render
        self.sink = sink
        self.healthSink = health
        self.note = note
        self.health = ServeHealth(startedAt: WallClock.now().seconds)
        queue = ServeQueue(gatherSeconds: options.gatherSeconds)
        incoming = try translatingErrors { try IncomingFolder(options.incoming) }
        if case .folder(let root) = StoreLocation(options.root) {  // a bucket may be down at start: retried later
            _ = try translatingErrors { try VersionStore.open(root, create: true) }
        }
    }

    /// Runs until `stop` is signalled: recovers what a killed run left, takes what arrived while
    /// down, then what arrives. `ready` is called once the start-up work is done and the folder
    /// is watched; `alive` at least every `aliveInterval` seconds from the main loop (a watchdog).
    /// Returns once every job in hand is finished.
    package func run(
        stop: StopSignals, aliveInterval: Double? = nil, ready: () -> Void = {}, alive: () -> Void = {}
    ) throws(IAPKitError) {
        try translatingErrors {
            try runUnchecked(stop: stop, aliveInterval: aliveInterval, ready: ready, alive: alive)
        }
    }

    private func runUnchecked(stop: StopSignals, aliveInterval: Double?, ready: () -> Void, alive: () -> Void) throws {
        let watch = try FolderWatch(options.incoming)  // before the first scan: nothing slips between
        try incoming.recoverReports()
        try cleanStore()
        for name in try incoming.claimed() { queue.add(name, resumed: true) }
        scan()
        for _ in 0..<options.jobs {
            lock.withLock { running += 1 }
            try BackgroundThread.start { [self] in
                work()
                lock.withLock {
                    running -= 1
                    lock.broadcast()
                }
            }
        }
        ready()
        publishHealth()
        var lastScan = MonotonicClock.seconds()
        var lastHeld = lastScan
        var lastBeat = lastScan
        while true {
            let now = MonotonicClock.seconds()
            var wait = options.rescanSeconds - (now - lastScan)
            let heldInterval = max(options.settleSeconds, 0.1)
            if !held.isEmpty { wait = min(wait, heldInterval - (now - lastHeld)) }
            wait = min(wait, aliveInterval ?? 5, 5)
            let ready = waitReadable(
                [watch.descriptor, stop.descriptor], milliseconds: Int32(max(0, min(wait, 60)) * 1000) + 1)
            if stop.takeRequest() { break }
            if ready.contains(watch.descriptor) {
                let batch = try watch.read()
                for name in Set(batch.names).sorted() { consider(name, renamedIn: batch.renamedIn.contains(name)) }
                if batch.overflowed {
                    scan()
                    lastScan = MonotonicClock.seconds()
                }
            }
            let after = MonotonicClock.seconds()
            if after - lastHeld >= heldInterval, !held.isEmpty {
                for name in held.sorted() { consider(name) }
                lastHeld = after
            }
            if after - lastScan >= options.rescanSeconds {
                scan()
                lastScan = MonotonicClock.seconds()
            }
            if after - lastBeat >= min(aliveInterval ?? 5, 5) {
                alive()
                publishHealth()
                lastBeat = after
            }
        }
        queue.stop()
        lock.withLock {
            while running > 0 { lock.wait() }
        }
        // Claimed but never started: back where the uploader left them (a later start takes them).
        for item in queue.remaining() where !item.resumed {
            _ = try? incoming.processing.renameNoReplace(item.name, to: item.name, in: incoming.folder)
        }
        try? incoming.folder.sync()
        publishHealth()
    }

    /// Removes what killed installs left in every product of a folder store (under each product's
    /// lock); in an object store, a version's leftovers go when that version is published again.
    private func cleanStore() throws {
        guard case .folder(let root) = StoreLocation(options.root) else { return }
        let store = try VersionStore.open(root, create: true)
        for product in try store.products() {
            try store.lockProduct(product, create: false).removeStaleWork()
        }
    }

    /// Sends the health, counts refreshed, to the health sink.
    func publishHealth() {
        let (waiting, retrying) = queue.counts(now: MonotonicClock.seconds())
        let snapshot = lock.withLock {
            health.waiting = waiting
            health.retrying = retrying
            health.updatedAt = WallClock.now().seconds
            return health
        }
        healthSink(snapshot)
    }

    private func work() {
        while let item = queue.next() {
            if item.identified {
                handle(item)
            } else {
                identify(item)
            }
        }
    }
}

extension String {
    /// The text with every occurrence of `path` replaced (messages name where the package is now).
    func replacingPath(_ path: String, with other: String) -> String {
        path.isEmpty ? self : replacing(path, with: other)
    }
}
