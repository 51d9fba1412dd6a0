import IAPKit
import IAPSystem

/// The intake, on the thread that runs the service: which entries of the drop folder are
/// complete packages, claimed into `.processing/`; which are odd (refused or skipped, said once).
extension Server {
    /// Looks at every entry of the drop folder (the start-up scan, the periodic safety net).
    func scan() {
        let names: [String]
        do {
            names = try incoming.folder.names()
        } catch {
            failed(file: nil, "scan \(options.incoming): \(error)")
            return
        }
        if lastIntakeFailure?.hasPrefix("scan ") == true { lastIntakeFailure = nil }
        let present = Set(names)
        said = said.filter { present.contains($0.key) }
        held = held.filter { present.contains($0) }
        for name in names where IncomingFolder.looksLikePackage(name) { consider(name) }
        countHeld()
    }

    /// Takes `name` if it is a complete package: a regular `*.pkg` file that no process holds open
    /// for writing and, unless it was just renamed in, unchanged for `settleSeconds` (a writer that
    /// closes and opens it again between two writes is not there for the lease to see).
    func consider(_ name: String, renamedIn: Bool = false) {
        defer { countHeld() }
        guard IncomingFolder.looksLikePackage(name), let status = incoming.folder.status(name) else {
            held.remove(name)
            return
        }
        if let oddity = IncomingFolder.oddity(name, status) {
            held.remove(name)
            if status.isRegularFile || !name.hasSuffix(".pkg") {
                sayOnce(name, oddity)
            } else {
                refuse(name, oddity)
            }
            return
        }
        let answer: WriterCheck.Answer
        do {
            answer = try WriterCheck.writers(of: name, in: incoming.folder)
        } catch let error as SystemError where error.code == SystemError.Code.noSuchFile {
            held.remove(name)
            return
        } catch {
            held.remove(name)
            sayOnce(name, "\(error); looked at again at each scan (uploads must be readable by the service)")
            return
        }
        switch answer {
        case .writing:
            held.insert(name)
            return
        case .unknown(let code):
            noteNoLease(code)
        case .none:
            break
        }
        // Not renamed in: settled too (an mtime from the future, a skewed clock, counts as settled).
        if !renamedIn, status.age >= 0, status.age < options.settleSeconds {
            held.insert(name)
            return
        }
        claim(name)
    }

    private func claim(_ name: String) {
        do {
            switch try incoming.claim(name) {
            case true?:
                lastIntakeFailure = nil
                held.remove(name)
                said[name] = nil
                queue.add(name, resumed: false)
            case false?:  // a package of that name is still in hand: looked at again later
                held.insert(name)
            case nil:
                held.remove(name)
            }
        } catch {
            held.insert(name)
            failed(file: incoming.folder.child(name), "claim: \(error)")
        }
    }

    /// Moves an odd entry (a link, a FIFO, a folder… named `*.pkg`) into `rejected/` with a
    /// report saying why, without following or opening it.
    private func refuse(_ name: String, _ reason: String) {
        let started = MonotonicClock.seconds()
        let moved: String?
        do {
            moved = try incoming.commit(name, from: incoming.folder, accepted: false) { path in
                render(ServeReportInput(path: path, validation: nil, failure: reason, unreadable: false))
            }
        } catch {
            sayOnce(name, "\(reason); it could not be moved to \(incoming.rejected.path): \(error)")
            return
        }
        guard let moved else { return }
        lock.withLock { health.recordCommit(accepted: false, at: WallClock.now().seconds) }
        sink(
            ServeEvent(
                file: name, outcome: .rejected, movedTo: moved, findings: 0, message: reason,
                seconds: MonotonicClock.seconds() - started))
        pruneReports()
        publishHealth()
    }

    /// Says `message` about `name` unless it was said already for that entry.
    private func sayOnce(_ name: String, _ message: String) {
        guard said[name] != message else { return }
        said[name] = message
        sink(
            ServeEvent(
                file: name, outcome: .skipped, movedTo: incoming.folder.child(name), findings: 0, message: message,
                seconds: 0))
    }

    private func noteNoLease(_ code: Int32) {
        guard !leaseNoted else { return }
        leaseNoted = true
        let reason = SystemError("lease", code: code).description
        note(
            "cannot tell whether a writer still holds a file open (\(reason)): files are taken once unchanged for "
                + "\(options.settleSeconds) s. Give the service CAP_LEASE (AmbientCapabilities=CAP_LEASE in its unit) "
                + "or run it as the files' owner, on a local file system.")
    }

    private func countHeld() {
        let count = held.count
        lock.withLock { health.uploading = count }
    }

    /// Records a failure that is not a package's (claiming, scanning): counted every time, said
    /// on stderr once until the intake works again (a read-only drop folder fails at every look).
    func failed(file: String?, _ message: String) {
        lock.withLock { health.recordFailure(file: file, message: message, at: WallClock.now().seconds) }
        if lastIntakeFailure != message { note(message) }
        lastIntakeFailure = message
        publishHealth()
    }

    /// Keeps `accepted/` and `rejected/` within `--keep-reports`.
    func pruneReports() {
        guard let keep = options.keepReports else { return }
        do {
            _ = try pruning.withLock { try incoming.pruneReports(keep: keep) }
        } catch {
            note("pruning \(incoming.accepted.path) and \(incoming.rejected.path): \(error)")
        }
    }
}
