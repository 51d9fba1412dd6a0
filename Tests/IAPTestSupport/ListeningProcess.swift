import Foundation

/// A server started for a test (a gate, a proxy), with the first line it wrote: the one that says
/// where it listens. Terminated when released.
package final class ListeningProcess {
    /// The process.
    package let process: Process
    /// Its first line on stdout (or on stderr, when started with `lineFromStderr`).
    package let firstLine: String

    /// Starts `arguments` (the first is the program's path) with `environment` added to the tests'
    /// own, and waits for its first line; the other stream goes nowhere (a pipe nobody reads fills).
    package init(_ arguments: [String], environment: [String: String] = [:], lineFromStderr: Bool = false) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = Harness.childEnvironment().merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = lineFromStderr ? FileHandle.nullDevice : pipe
        process.standardError = lineFromStderr ? pipe : FileHandle.nullDevice
        try process.run()
        var said = Data()
        while !said.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        firstLine = String(decoding: said, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// The port in a first line such as `iapkg-gate: listening on 127.0.0.1:PORT (…)` or `PORT`:
    /// the first word that ends in a number after its last `:`.
    package var port: Int? {
        firstLine.split(separator: " ").lazy.compactMap { Int($0.split(separator: ":").last ?? "") }.first
    }

    /// Sends SIGTERM and waits; the exit status.
    @discardableResult
    package func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
