import IAPCore

/// `iapkg serve`: watches a folder and installs each complete package that arrives, exactly once.
///
/// A package is claimed by an atomic rename into `.processing/`, installed through `Unpacker`
/// (idempotent: identical content is "already installed"), and committed by the rename into
/// `accepted/` or `rejected/`. After a kill at any moment, the next start handles again what
/// `.processing/` holds and finishes half-moved reports, so every package ends in exactly one place.
///
/// `@unchecked Sendable`: the work queue and the counters (`queue`, `queued`, `stopping`,
/// `running`) are read and written only under `lock`; `youngerSeen` only on the thread that calls
/// `run`; everything else is immutable.
package final class Server: @unchecked Sendable {
    /// Renders the report kept beside a handled package.
    package typealias ReportRenderer = @Sendable (ServeReportInput) -> [UInt8]
    /// Receives each event, from the worker that handled the package.
    package typealias EventSink = @Sendable (ServeEvent) -> Void

    private enum Work: Hashable {
        case arrived(String)
        case resumed(String)
    }

    private let options: ServeOptions
    private let render: ReportRenderer
    private let sink: EventSink
    private let incoming: IncomingFolder
    private let lock = ConditionLock()
    private var queue: [Work] = []
    private var queued: Set<Work> = []
    private var stopping = false
    private var running = 0
    private var youngerSeen = false  // main thread only

    /// Opens the incoming folder (creating `.processing/`, `accepted/`, `rejected/`) and the store.
    package init(options: ServeOptions, render: @escaping ReportRenderer, sink: @escaping EventSink) throws(IAPKitError)
    {
        self.options = options
        self.render = render
        self.sink = sink
        incoming = try translatingErrors { try IncomingFolder(options.incoming) }
        _ = try translatingErrors { try VersionStore.open(options.root, create: true) }
    }

    /// Runs until `stop` is signalled: recovers what a killed run left, takes what arrived while
    /// down, then what arrives. Returns once every job in hand is finished.
    package func run(stop: StopSignals) throws(IAPKitError) {
        try translatingErrors {
            try runUnchecked(stop: stop)
        }
    }

    private func runUnchecked(stop: StopSignals) throws {
        let watch = try FolderWatch(options.incoming)  // before the first scan: nothing slips between
        try incoming.recoverReports()
        try cleanStore()
        for name in try incoming.claimed() { enqueue(.resumed(name)) }
        try scan()
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
        var lastScan = PackageBuilder.monotonicSeconds()
        while true {
            // A scan that left young files looks again once they have settled.
            let interval =
                youngerSeen ? min(options.rescanSeconds, options.settleSeconds + 0.05) : options.rescanSeconds
            let wait = max(0, interval - (PackageBuilder.monotonicSeconds() - lastScan))
            let ready = waitReadable(
                [watch.descriptor, stop.descriptor], milliseconds: Int32(min(wait, 60) * 1000) + 1)
            if stop.takeRequest() { break }
            if ready.contains(watch.descriptor) {
                let batch = try watch.read()
                for name in batch.names where IncomingFolder.isPackageName(name) { enqueue(.arrived(name)) }
                if batch.overflowed {
                    try scan()
                    lastScan = PackageBuilder.monotonicSeconds()
                }
            }
            if PackageBuilder.monotonicSeconds() - lastScan >= interval {
                try scan()
                lastScan = PackageBuilder.monotonicSeconds()
            }
        }
        lock.withLock {
            stopping = true
            lock.broadcast()
            while running > 0 { lock.wait() }
        }
    }

    /// Removes what killed installs left in every product of the store (under each product's lock).
    private func cleanStore() throws {
        let store = try VersionStore.open(options.root, create: true)
        for product in try store.products() {
            try store.lockProduct(product, create: false).removeStaleWork()
        }
    }

    private func scan() throws {
        let (names, younger) = try incoming.waiting(settled: options.settleSeconds)
        youngerSeen = younger
        for name in names { enqueue(.arrived(name)) }
    }

    private func enqueue(_ work: Work) {
        lock.withLock {
            guard queued.insert(work).inserted else { return }
            queue.append(work)
            lock.broadcast()
        }
    }

    /// The next job, or nil once stopping.
    private func next() -> Work? {
        lock.withLock {
            while queue.isEmpty && !stopping { lock.wait() }
            if stopping { return nil }
            let work = queue.removeFirst()
            queued.remove(work)
            return work
        }
    }

    private func work() {
        while let item = next() {
            switch item {
            case .arrived(let name):
                // false: a package of that name is still being handled; a later scan brings it.
                guard (try? incoming.claim(name)) == true else { continue }
                handle(name)
            case .resumed(let name):
                handle(name)
            }
        }
    }

    /// Installs the claimed package `name` and commits it; a failure to commit leaves it claimed,
    /// to be handled again at the next start.
    private func handle(_ name: String) {
        let started = PackageBuilder.monotonicSeconds()
        let path = incoming.processing.child(name)
        var validation: ValidationReport?
        var input = ServeReportInput(
            path: incoming.folder.child(name), validation: nil, failure: nil, unreadable: false)
        var report: UnpackReport?
        do {
            report = try Unpacker.unpack(path, into: options.root, options: options.unpack, validation: &validation)
        } catch {
            if case .system = error { input.unreadable = true }
            if case .invalid = error {} else { input.failure = error.description.replacingPath(path, with: input.path) }
        }
        validation?.path = input.path
        input.validation = validation
        let accepted = report != nil
        let findings = validation?.findings.count ?? 0
        let moved: String?
        do {
            moved = try incoming.commit(name, accepted: accepted, report: render(input))
        } catch {
            sink(
                ServeEvent(
                    file: name, productIdentifier: validation?.productIdentifier, version: validation?.contentVersion,
                    outcome: .rejected,
                    action: nil, movedTo: path, current: nil, findings: findings,
                    message: "left in \(path) for the next start: \(error)",
                    seconds: PackageBuilder.monotonicSeconds() - started))
            return
        }
        guard let moved else { return }
        let errors = validation?.errors ?? 0
        let message = input.failure ?? (accepted ? nil : "invalid: \(errors) error\(errors == 1 ? "" : "s")")
        sink(
            ServeEvent(
                file: name, productIdentifier: validation?.productIdentifier, version: validation?.contentVersion,
                outcome: accepted ? .accepted : .rejected, action: report?.action, movedTo: moved,
                current: report?.current,
                findings: findings, message: message, seconds: PackageBuilder.monotonicSeconds() - started))
    }
}

extension String {
    /// The text with every occurrence of `path` replaced (messages name where the package arrived).
    func replacingPath(_ path: String, with other: String) -> String {
        path.isEmpty ? self : replacing(path, with: other)
    }
}
