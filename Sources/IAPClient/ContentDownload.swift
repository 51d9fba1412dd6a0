#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One download of a product's current version, as `SKDownload` was one: it reports progress,
/// can be paused, resumed and cancelled, and ends with a ``FetchReport`` or a ``FetchError``.
/// What is verified stays in the content folder when it fails, is cancelled or the process is
/// killed, and the next download resumes from there.
public final class ContentDownload: Sendable {
    private let gate: PauseGate
    private let meter: ProgressMeter
    private let task: Task<FetchReport, Error>
    /// Progress about ten times a second while the download runs (the latest value if the reader
    /// is slower); ends when the download does.
    public let progress: AsyncStream<FetchProgress>

    init(_ updater: ContentUpdater) {
        let http = HTTPExchange(
            server: updater.server, token: updater.token, timeout: updater.timeout,
            connections: updater.parallelDownloads)
        let gate = PauseGate(interrupt: { http.cancelAll() })
        let meter = ProgressMeter()
        let (stream, continuation) = AsyncStream.makeStream(
            of: FetchProgress.self, bufferingPolicy: .bufferingNewest(1))
        let transfers = Transfers(http: http, gate: gate, meter: meter, policy: updater.retry)
        let task = Task<FetchReport, Error> {
            let ticker = Task {
                while !Task.isCancelled {
                    continuation.yield(meter.snapshot(paused: gate.isPaused))
                    try? await Task.sleep(nanoseconds: 100_000_000)
                }
            }
            let result: Result<FetchReport, Error>
            do {
                result = .success(try await VersionAssembly(updater: updater, transfers: transfers).run())
            } catch {
                result = .failure(error)
            }
            ticker.cancel()
            continuation.yield(meter.snapshot(paused: false))
            continuation.finish()
            await http.close()
            return try result.get()
        }
        self.gate = gate
        self.meter = meter
        self.task = task
        self.progress = stream
    }

    /// Stops receiving; what was received stays, and ``resume()`` goes on from there.
    public func pause() { gate.pause() }

    /// Goes on after ``pause()``.
    public func resume() { gate.resume() }

    /// Stops for good: ``result()`` throws ``FetchError/cancelled``; the next download resumes.
    public func cancel() {
        gate.cancel()
        task.cancel()
    }

    /// The progress now.
    public var currentProgress: FetchProgress { meter.snapshot(paused: gate.isPaused) }

    /// Waits for the end: the report, or why it failed.
    public func result() async throws(FetchError) -> FetchReport {
        do {
            return try await task.value
        } catch let error as FetchError {
            throw error
        } catch {
            throw .cancelled
        }
    }
}
