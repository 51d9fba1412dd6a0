import Foundation
import IAPCrypto
import IAPSystem
import Testing

/// A running `iapkg serve`, its output in files.
final class ServeProcess {
    let process: Process
    let outPath: String
    let errPath: String

    init(
        _ scratch: ScratchFolder, incoming: String, root: String, extra: [String] = [], tag: String = "serve",
        environment: [String: String] = [:]
    ) throws {
        outPath = scratch.at("\(tag).out")
        errPath = scratch.at("\(tag).err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process = try Harness.start(
            [
                "iapkg", "serve", "--incoming", incoming, "--into", root, "--rescan-seconds", "1", "--settle-seconds",
                "0.5",
            ]
                + extra, environment: environment,
            standardOutput: try FileHandle(forWritingTo: URL(fileURLWithPath: outPath)),
            standardError: try FileHandle(forWritingTo: URL(fileURLWithPath: errPath)))
    }

    /// A service a failed test left running is killed, so that no test run waits on it.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Sends `signal` and waits for the exit; returns the status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends `signal` and awaits the exit (waited for off the pool); returns the status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) async -> Int32 {
        kill(process.processIdentifier, signal)
        let process = self.process
        return
            (try? await Harness.offThePool { () -> Int32 in
                process.waitUntilExit()
                return process.terminationStatus
            }) ?? -1
    }

    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// The JSON lines written so far.
    var events: [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}

enum ServeCheck {
    /// Builds a package of `product` `version` with `files` (a small default), into `pkgs/NAME.pkg`.
    static func package(
        _ scratch: ScratchFolder, product: String, version: String, name: String,
        files: [String: String]? = nil
    ) throws -> String {
        let folder = try scratch.contentFolder(
            "src-\(name)", product: product, version: version,
            files: files ?? ["Contents/data.txt": "\(product) \(version)\n"])
        try FileManager.default.createDirectory(atPath: scratch.at("pkgs"), withIntermediateDirectories: true)
        let pkg = scratch.at("pkgs/\(name).pkg")
        try InProcessBuild.package(folder, to: pkg)
        return pkg
    }

    /// What the JSON Schemas find wrong in every stdout line of `serve` (serve-event.schema.json)
    /// and, if given, in its status document (serve-status.schema.json); empty when all is valid.
    static func schemaProblems(_ serve: ServeProcess, status: String? = nil) throws -> [String] {
        var problems: [String] = []
        for line in serve.stdout.split(separator: "\n") {
            let schema = OutputSchemaTests.schemas + "/serve-event.schema.json"
            if let problem = try OutputSchemaTests.violations(Data(line.utf8), schema: schema) {
                problems.append(problem)
            }
        }
        if let status {
            let schema = OutputSchemaTests.schemas + "/serve-status.schema.json"
            let data = try Data(contentsOf: URL(fileURLWithPath: status))
            if let problem = try OutputSchemaTests.violations(data, schema: schema) { problems.append(problem) }
        }
        return problems
    }

    /// The events of one outcome, in the order they were written.
    static func events(_ serve: ServeProcess, _ outcome: String) -> [[String: Any]] {
        serve.events.filter { $0["outcome"] as? String == outcome }
    }

    /// The target of the `current` link of `product` in `root`.
    static func current(_ root: String, _ product: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + product + "/current")
    }

    /// The version folders of `product` in `root` (hidden names and the pointers left out).
    static func versions(_ root: String, _ product: String) -> [String] {
        names(root + "/" + product).filter { !$0.hasPrefix(".") && !$0.hasPrefix("current") }
    }

    /// Drops `package` into `incoming` as `name` the way an uploader should: a hidden copy, renamed in.
    static func drop(_ package: String, into incoming: String, as name: String) throws {
        try renameIn(stage(package, into: incoming, as: name), as: name)
    }

    /// The first half of ``drop(_:into:as:)``: `package` copied into `incoming` under a hidden name
    /// that the service ignores; that name.
    static func stage(_ package: String, into incoming: String, as name: String) throws -> String {
        let hidden = incoming + "/." + name + ".tmp"
        try? FileManager.default.removeItem(atPath: hidden)
        try FileManager.default.copyItem(atPath: package, toPath: hidden)
        return hidden
    }

    /// The second half of ``drop(_:into:as:)``: the staged copy `hidden` renamed in as `name`.
    static func renameIn(_ hidden: String, as name: String) throws {
        let incoming = (hidden as NSString).deletingLastPathComponent
        try FileManager.default.moveItem(atPath: hidden, toPath: incoming + "/" + name)
    }

    /// Waits until `condition` holds, at most `seconds`.
    static func wait(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// Waits until `condition` holds, at most `seconds`, checking every 50 ms without holding a thread.
    static func wait(seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            await Harness.pause(0.05)
        }
        return condition()
    }

    static func names(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    static func sha256(_ data: Data) -> String {
        Hex.encode(DigestHasher.digest(.sha256, of: [UInt8](data)))
    }

    /// Problems with the installed version folder against its manifest.json (empty: every file
    /// listed is there with its size and SHA-256, and every file there is listed).
    static func manifestProblems(_ folder: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let files = try #require(manifest["files"] as? [[String: Any]])
        var problems: [String] = []
        var listed = Set<String>()
        for file in files {
            let path = try #require(file["path"] as? String)
            listed.insert(path)
            guard let bytes = FileManager.default.contents(atPath: folder + "/" + path) else {
                problems.append("missing \(path)")
                continue
            }
            if bytes.count != (file["size"] as? Int) { problems.append("size of \(path)") }
            if sha256(bytes) != file["sha256"] as? String { problems.append("sha256 of \(path)") }
        }
        if (manifest["totalBytes"] as? Int) != files.compactMap({ $0["size"] as? Int }).reduce(0, +) {
            problems.append("totalBytes")
        }
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let rel = enumerator?.nextObject() as? String {
            let attrs = try FileManager.default.attributesOfItem(atPath: folder + "/" + rel)
            if attrs[.type] as? FileAttributeType == .typeRegular, rel != "manifest.json", !listed.contains(rel) {
                problems.append("unlisted \(rel)")
            }
        }
        return problems
    }
}
