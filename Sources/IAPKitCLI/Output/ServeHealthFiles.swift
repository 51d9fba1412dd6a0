import FoundationEssentials
import IAPKit
import IAPServe
import IAPSystem
import Prometheus

/// Writes the service's health where a monitor reads it, each file replaced atomically: the
/// status document (`--status-file`, JSON) and the counters in the Prometheus text format
/// (`--metrics-file`, for node_exporter's textfile collector).
final class ServeHealthFiles: Sendable {
    private let status: (folder: DirectoryHandle, name: String)?
    private let metrics: (folder: DirectoryHandle, name: String)?
    private let lock = ConditionLock()

    /// Opens the folders of the two files (either may be nil: not written).
    init(statusFile: String?, metricsFile: String?) throws {
        status = try statusFile.map(Self.place)
        metrics = try metricsFile.map(Self.place)
    }

    private static func place(_ path: String) throws -> (DirectoryHandle, String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else {
            throw SystemError("write", path: path, code: SystemError.Code.isDirectory)
        }
        return (try DirectoryHandle.open(folder), name)
    }

    /// The status document (schema version 1).
    struct Document: Encodable {
        var schemaVersion = 1
        var healthy: Bool
        var startedAt: String
        var updatedAt: String
        var accepted: Int
        var rejected: Int
        var failedAttempts: Int
        var waiting: Int
        var retrying: Int
        var uploading: Int
        var lastSuccessAt: String?
        var lastErrorAt: String?
        var lastErrorFile: String?
        var lastError: String?
        var failingSince: String?
    }

    /// Writes both files for `health` (a failure to write is said on stderr, the service goes on).
    @Sendable func write(_ health: ServeHealth) {
        lock.withLock {
            do {
                if let status {
                    let document = Self.document(health)
                    try status.folder.writeAtomically(status.name, Array((try JSONOutput.encode(document) + "\n").utf8))
                }
                if let metrics { try metrics.folder.writeAtomically(metrics.name, Self.prometheusText(health)) }
            } catch {
                Console.current.err("iapkg serve: health files: \(error)")
            }
        }
    }

    static func document(_ health: ServeHealth) -> Document {
        Document(
            healthy: health.failingSince == nil, startedAt: time(health.startedAt), updatedAt: time(health.updatedAt),
            accepted: health.accepted, rejected: health.rejected, failedAttempts: health.failedAttempts,
            waiting: health.waiting, retrying: health.retrying, uploading: health.uploading,
            lastSuccessAt: health.lastSuccessAt.map(time), lastErrorAt: health.lastErrorAt.map(time),
            lastErrorFile: health.lastErrorFile, lastError: health.lastError,
            failingSince: health.failingSince.map(time))
    }

    /// The counters and gauges in the Prometheus text exposition format, rendered by swift-prometheus.
    static func prometheusText(_ health: ServeHealth) -> [UInt8] {
        let registry = PrometheusCollectorRegistry()
        /// `iapkg_serve_<name>_<unit>`, with a `# HELP` line.
        func metric(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "iapkg", subsystem: "serve", metricName: name, unitName: unit, helpText: help)
        }
        let packages = metric("packages", "total", "Packages handled, by outcome.")
        registry.makeCounter(descriptor: packages, labels: [("outcome", "accepted")])
            .increment(by: Int64(health.accepted))
        registry.makeCounter(descriptor: packages, labels: [("outcome", "rejected")])
            .increment(by: Int64(health.rejected))
        registry.makeCounter(
            descriptor: metric("failed_attempts", "total", "Attempts that failed for a passing cause.")
        )
        .increment(by: Int64(health.failedAttempts))
        let gauges: [(String, String, String, Double)] = [
            ("waiting", "packages", "Packages claimed and not yet handled.", Double(health.waiting)),
            ("retrying", "packages", "Packages waiting to be tried again.", Double(health.retrying)),
            ("uploading", "files", "Files still being written into the drop folder.", Double(health.uploading)),
            ("start_time", "seconds", "When the service started (Unix time).", Double(health.startedAt)),
            ("updated_time", "seconds", "When this file was written (Unix time).", Double(health.updatedAt)),
            (
                "last_success_time", "seconds", "When a package was last handled (Unix time; 0: never).",
                Double(health.lastSuccessAt ?? 0)
            ),
            (
                "failing_since_time", "seconds", "Since when every attempt has failed (Unix time; 0: healthy).",
                Double(health.failingSince ?? 0)
            ),
        ]
        for (name, unit, help, value) in gauges {
            registry.makeGauge(descriptor: metric(name, unit, help)).set(to: value)
        }
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }

    private static func time(_ seconds: Int64) -> String {
        Date.ISO8601FormatStyle(timeZone: .gmt).format(Date(timeIntervalSince1970: Double(seconds)))
    }
}
