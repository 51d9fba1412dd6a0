#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How far a download is, as SKDownload reported it: bytes done of the total, the rate and the
/// time remaining.
public struct FetchProgress: Sendable, Equatable {
    /// Bytes of the files to fetch that are here and verified or being received (resumed bytes count).
    public var bytesDone: UInt64
    /// Bytes of the files to fetch (the update plan's download; reused files are not counted).
    public var bytesTotal: UInt64
    /// Files of the version already in place (fetched or reused).
    public var filesDone: Int
    /// Files of the version.
    public var filesTotal: Int
    /// Bytes a second received over the last few seconds.
    public var bytesPerSecond: Double
    /// Seconds left at that rate (nil until there is a rate).
    public var secondsRemaining: Double?
    /// True while paused.
    public var isPaused: Bool

    /// The fraction done, 0…1.
    public var fractionDone: Double {
        bytesTotal == 0 ? 1 : Double(bytesDone) / Double(bytesTotal)
    }
}

/// Counts bytes and files for ``FetchProgress`` from every worker at once. `@unchecked Sendable`:
/// every stored property but the constant `start` is read and written only under `lock`.
final class ProgressMeter: @unchecked Sendable {
    private let lock = ClientLock()
    private var perFile: [String: UInt64] = [:]
    private var done: UInt64 = 0
    private var total: UInt64 = 0
    private var filesDone = 0
    private var filesTotal = 0
    private(set) var fetched: UInt64 = 0
    private var samples: [(time: Double, fetched: UInt64)] = []
    private let start = Date()

    /// Bytes received over the network so far.
    var bytesFetched: UInt64 { lock.withLock { fetched } }

    /// Forgets the files counted so far (a new version's plan follows); network bytes stay counted.
    func restart() {
        lock.withLock {
            perFile = [:]
            done = 0
            filesDone = 0
        }
    }

    /// Starts counting a plan of `total` bytes to fetch among `files` files.
    func plan(total: UInt64, files: Int) {
        lock.withLock {
            self.total = total
            filesTotal = files
        }
    }

    /// `path` now has `bytes` bytes here (after a restart from zero or a resumed part).
    func set(_ path: String, to bytes: UInt64) {
        lock.withLock {
            done = done - (perFile[path] ?? 0) + bytes
            perFile[path] = bytes
        }
    }

    /// `count` more bytes of `path` came over the network.
    func received(_ path: String, _ count: Int) {
        lock.withLock {
            let now = perFile[path] ?? 0
            perFile[path] = now + UInt64(count)
            done += UInt64(count)
            fetched += UInt64(count)
        }
    }

    /// A whole file of `count` bytes came over the network at once (never counted by path).
    func receivedWhole(_ count: Int) {
        lock.withLock {
            done += UInt64(count)
            fetched += UInt64(count)
        }
    }

    /// `path` is complete and verified: its bytes stay counted, its entry goes (at 100,000 files
    /// the entries of finished files would be megabytes kept to the end).
    func finished(_ path: String) {
        _ = lock.withLock { perFile.removeValue(forKey: path) }
    }

    /// One more file of the version is in place.
    func fileDone() {
        lock.withLock { filesDone += 1 }
    }

    /// The progress now, `paused` or not.
    func snapshot(paused: Bool) -> FetchProgress {
        lock.withLock {
            let now = Date().timeIntervalSince(start)
            samples.append((now, fetched))
            while let first = samples.first, now - first.time > 5, samples.count > 2 { samples.removeFirst() }
            var rate = 0.0
            if let first = samples.first, now - first.time > 0.2 {
                rate = Double(fetched - first.fetched) / (now - first.time)
            }
            let left = total > done ? total - done : 0
            return FetchProgress(
                bytesDone: done, bytesTotal: total, filesDone: filesDone, filesTotal: filesTotal, bytesPerSecond: rate,
                secondsRemaining: rate > 0 ? Double(left) / rate : nil, isPaused: paused)
        }
    }
}
