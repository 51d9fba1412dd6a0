import IAPKit
import IAPRules
import IAPSystem

/// The workers: identify a claimed package, then install and commit it, or keep it for another
/// attempt when what failed is not the package.
extension Server {
    /// Reads the product and version of the claimed package `item` for the queue's order, once no
    /// process holds it open for writing (a writer that opened it just before the claim is waited for).
    func identify(_ item: ServeQueue.Item) {
        if case .writing = (try? WriterCheck.writers(of: item.name, in: incoming.processing)) ?? .none {
            queue.postpone(item.name, seconds: max(0.05, min(options.settleSeconds, 1)))
            return
        }
        let report = try? PackageInspector.inspect(incoming.processing.child(item.name))
        queue.identified(
            item.name, product: report?.productIdentifier, version: report?.contentVersion.flatMap(ContentVersion.init))
    }

    /// Installs the claimed package `item` and commits it to `accepted/` or `rejected/`; a failure
    /// that is not the package's leaves it claimed, tried again after a backoff.
    func handle(_ item: ServeQueue.Item) {
        let started = MonotonicClock.seconds()
        let name = item.name
        let path = incoming.processing.child(name)
        var validation: ValidationReport?
        var failure: String?
        var unreadable = false
        var transient: String?
        var report: UnpackReport?
        var unpack = options.unpack
        unpack.activateInstalled = item.resumed
        unpack.replaceAdvice = "publish it under a new ContentVersion (serve never replaces an installed version)"
        do {
            report = try Unpacker.unpack(path, into: options.root, options: unpack, validation: &validation)
        } catch {
            switch error {
            case .system(let cause):
                transient = cause.description
            case .failed(let message) where item.attempts < 5:
                transient = message
            case .invalid
            where item.attempts < 5 && validation?.findings.contains { $0.rule == Rule.xarData.id } == true:
                transient = validation?.findings.first { $0.rule == Rule.xarData.id }?.message
            case .failed:
                unreadable = true
                failure = error.description
            case .invalid:
                break
            case .refused:
                failure = error.description
            }
        }
        if let transient {
            retry(item, because: transient, validation, started)  // it is in .processing/: the path says so
            return
        }
        let accepted = report != nil
        let moved: String?
        do {
            moved = try incoming.commit(name, accepted: accepted) { target in
                var reported = validation
                reported?.path = target
                return render(
                    ServeReportInput(
                        path: target, validation: reported, failure: failure?.replacingPath(path, with: target),
                        unreadable: unreadable))
            }
        } catch {
            retry(item, because: "commit: \(error)", validation, started)
            return
        }
        queue.finished(item, retryAfter: nil)
        guard let moved else { return }
        lock.withLock { health.recordCommit(accepted: accepted, at: WallClock.now().seconds) }
        let errors = validation?.errors ?? 0
        let message =
            failure?.replacingPath(path, with: moved)
            ?? (accepted
                ? nil : "invalid: \(errors) error\(errors == 1 ? "" : "s"); the report is \(moved).report.json")
        sink(
            ServeEvent(
                file: name, productIdentifier: validation?.productIdentifier, version: validation?.contentVersion,
                outcome: accepted ? .accepted : .rejected, action: report?.action, movedTo: moved,
                current: report?.current, findings: validation?.findings.count ?? 0, message: message,
                seconds: MonotonicClock.seconds() - started))
        pruneReports()
        publishHealth()
    }

    private func retry(
        _ item: ServeQueue.Item, because message: String, _ validation: ValidationReport?, _ started: Double
    ) {
        guard incoming.processing.status(item.name) != nil else {  // removed by hand: nothing to retry
            queue.finished(item, retryAfter: nil)
            note("\(incoming.processing.child(item.name)) is gone (removed by someone else): \(message)")
            return
        }
        let wait = options.backoff(after: item.attempts + 1)
        queue.finished(item, retryAfter: wait)
        let path = incoming.processing.child(item.name)
        lock.withLock {
            health.recordFailure(file: path, message: message, at: WallClock.now().seconds)
        }
        sink(
            ServeEvent(
                file: item.name, productIdentifier: validation?.productIdentifier ?? item.product,
                version: validation?.contentVersion ?? item.version?.text, outcome: .retrying, movedTo: path,
                findings: validation?.findings.count ?? 0,
                message: "\(message); the package waits in \(path) and is tried again",
                seconds: MonotonicClock.seconds() - started, retryIn: wait))
        publishHealth()
    }
}
