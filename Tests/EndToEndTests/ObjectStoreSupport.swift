import Foundation
import IAPTestSupport
import Testing

/// A store prefix of its own in the shared SeaweedFS (IAPTestSupport's `SeaweedServer`), read back
/// with tools nobody here wrote: botocore (`aws s3api`) for listings and headers, curl (which signs
/// SigV4 itself) for objects.
struct BucketStore {
    let server: SeaweedServer
    /// The key prefix, `test-<uuid>`.
    let prefix: String

    /// A new prefix in the shared server.
    init() throws {
        server = try SeaweedServer.shared()
        prefix = SeaweedServer.uniquePrefix()
    }

    /// The store URL iapkg takes.
    var url: String { "s3://\(SeaweedServer.bucket)/\(prefix)" }
    /// Where the bucket's objects are, signed requests only.
    var httpBase: String { "\(server.endpoint)/\(SeaweedServer.bucket)/\(prefix)" }
    /// The publisher's environment.
    var environment: [String: String] { server.environment() }

    /// Runs the built iapkg with the publisher's credentials.
    func iapkg(_ arguments: [String], as identity: SeaweedServer.Identity = SeaweedServer.writer) throws
        -> Harness.Result
    {
        try Harness.run(["iapkg"] + arguments, environment: server.environment(identity))
    }

    /// Runs `aws s3api ARGS… --bucket BUCKET` and decodes its JSON.
    func api(_ arguments: [String]) throws -> [String: Any] {
        let result = try Harness.run(
            ["aws", "--endpoint-url", server.endpoint, "--output", "json", "s3api"] + arguments + [
                "--bucket", SeaweedServer.bucket,
            ], environment: environment)
        guard result.status == 0 else { throw BucketStoreError(message: result.stderr) }
        if result.stdoutData.isEmpty { return [:] }
        return try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] ?? [:]
    }

    /// Every key under `path` (relative to the prefix), relative to the prefix, sorted.
    func keys(_ path: String = "") throws -> [String] {
        let listed = try api(["list-objects-v2", "--prefix", prefix + "/" + path])
        return ((listed["Contents"] as? [[String: Any]]) ?? []).compactMap {
            ($0["Key"] as? String).map { String($0.dropFirst(prefix.count + 1)) }
        }.sorted()
    }

    /// The multipart uploads still open under the prefix.
    func openUploads() throws -> [String] {
        let listed = try api(["list-multipart-uploads", "--prefix", prefix + "/"])
        return ((listed["Uploads"] as? [[String: Any]]) ?? []).compactMap { $0["Key"] as? String }
    }

    /// The headers of the object at `key` (relative to the prefix).
    func head(_ key: String) throws -> [String: Any] { try api(["head-object", "--key", prefix + "/" + key]) }

    /// The object at `key` (relative to the prefix), read with a signed GET by curl; nil when absent.
    func read(_ key: String) throws -> Data? {
        let user = "\(SeaweedServer.reader.accessKey):\(SeaweedServer.reader.secretKey)"
        let result = try Harness.run([
            "curl", "-sf", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", user, "\(httpBase)/\(key)",
        ])
        return result.status == 0 ? result.stdoutData : nil
    }

    /// The SHA-256 (hex) of the object at `key`, hashed as curl streams it (a large object never
    /// sits in the test's memory, which the memory tests of the same process measure); nil when absent.
    func sha256(_ key: String) throws -> String? {
        let user = "\(SeaweedServer.reader.accessKey):\(SeaweedServer.reader.secretKey)"
        let result = try Harness.run([
            "bash", "-c",
            "set -o pipefail; curl -sf --aws-sigv4 aws:amz:us-east-1:s3 --user '\(user)' '\(httpBase)/\(key)' | sha256sum",
        ])
        return result.status == 0 ? String(result.stdout.prefix(64)) : nil
    }

    /// The version `<product>/current.json` names; nil when there is none.
    func current(_ product: String) throws -> String? {
        guard let data = try read("\(product)/current.json") else { return nil }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["version"] as? String
    }

    /// The paths `<product>/<version>/manifest.json` lists.
    func manifestPaths(_ product: String, _ version: String) throws -> [String]? {
        guard let data = try read("\(product)/\(version)/manifest.json") else { return nil }
        let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((manifest?["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
    }
}

/// A tool reading the bucket back failed.
struct BucketStoreError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A TCP forwarder from a port of its own to the shared SeaweedFS: a store that is down until
/// `start()` and down again after `stop()`, at the same endpoint.
final class StoreForwarder {
    let port: Int
    private let target: Int
    private var server: BackgroundServer?

    init(to server: SeaweedServer) {
        port = NginxServer.freePort()
        target = Int(server.endpoint.split(separator: ":").last ?? "") ?? 0
    }

    deinit { stop() }

    /// The endpoint clients use.
    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Starts forwarding.
    func start() throws {
        let script = """
            import asyncio
            async def pipe(r, w):
                try:
                    while data := await r.read(65536):
                        w.write(data); await w.drain()
                finally:
                    w.close()
            async def handle(r, w):
                tr, tw = await asyncio.open_connection('127.0.0.1', \(target))
                await asyncio.gather(pipe(r, tw), pipe(tr, w), return_exceptions=True)
            async def main():
                server = await asyncio.start_server(handle, '127.0.0.1', \(port), reuse_address=True)
                async with server: await server.serve_forever()
            asyncio.run(main())
            """
        server = try BackgroundServer(python: script, arguments: [])
        _ = ServeCheck.wait(seconds: 10) {
            (try? Harness.run(["curl", "-s", "-o", "/dev/null", endpoint]))?.status == 0
        }
    }

    /// Stops forwarding: the store is unreachable.
    func stop() { server = nil }
}

/// A Python server started apart from the test process: a launcher forks it with every inherited
/// descriptor closed and in a session of its own, prints its pid and exits. Foundation's Process
/// watches each child through a descriptor the child inherits; a long-lived child holding other
/// children's (or its own launcher's) would make their `waitUntilExit` wait for it.
final class BackgroundServer {
    let pid: Int32

    init(python script: String, arguments: [String]) throws {
        let launcher = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.setsid()
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                os.closerange(3, 65536)
                os.execvp(sys.executable, [sys.executable, '-c'] + sys.argv[1:])
            print(pid)
            """
        let result = try Harness.run(["python3", "-c", launcher, script] + arguments)
        guard let pid = Int32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BucketStoreError(message: "the server did not start: \(result.stderr)")
        }
        self.pid = pid
    }

    /// SIGKILL: it holds nothing to flush.
    deinit { kill(pid, SIGKILL) }
}
