import Foundation
import IAPClient
import Testing

/// A version's small files through a real nginx, asked for in batches of pipelined requests on a
/// few keep-alive connections, and every way the client leaves that path for one request a file:
/// connections the server closes after a few answers, a front that redirects every file, a file
/// altered on the server, connections closed with no answer at all.
@Suite(.serialized) struct FetchPipeliningTests {
    static let product = "com.example.pipelined"
    static let count = 300

    /// Publishes `count` small files of different sizes (two of them alike) in three folders and a
    /// 300 KiB file into `scratch/srv`; returns every file's bytes by its path under Contents.
    func publish(_ scratch: ScratchFolder) async throws -> [String: Data] {
        var texts: [String: String] = [:]
        for number in 0..<Self.count {
            let text = String(repeating: "line \(number)\n", count: number % 50 + 1)
            texts["Contents/set\(number % 3)/file\(number).txt"] = text
        }
        texts["Contents/set0/twin.txt"] = texts["Contents/set1/file1.txt"]
        let folder = try scratch.contentFolder("src", product: Self.product, files: texts)
        let large = randomBytes(300 << 10)
        try large.write(to: URL(fileURLWithPath: folder + "/Contents/large.bin"))
        try InProcessBuild.package(folder, to: scratch.at("p.pkg"), level: 1)
        let unpack = try await Harness.run(["iapkg", "unpack", scratch.at("p.pkg"), "--into", scratch.at("srv")])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        var bytes = texts.reduce(into: [String: Data]()) { $0[String($1.key.dropFirst(9))] = Data($1.value.utf8) }
        bytes["large.bin"] = large
        return bytes
    }

    /// nginx serving `scratch/srv` with `directives` in its server block and `location`'s body for
    /// the version's files; its log lines end with `$pipe` ("p": the request came pipelined) and
    /// the connection's number.
    func server(_ scratch: ScratchFolder, name: String, directives: String = "", files: String = "")
        throws -> NginxServer?
    {
        let root = scratch.at("srv")
        return try NginxServer(scratch: scratch, name: name, logFields: " $pipe $connection") { port in
            """
            server {
                listen 127.0.0.1:\(port);
                root \(root);
                \(directives)
                location ~ "^/[^/]+/[0-9][0-9.]*/Contents/" { \(files) }
            }
            """
        }
    }

    /// An updater of `product` from `server` into `scratch/app`, giving up after two tries.
    func updater(_ server: URL, _ scratch: ScratchFolder) -> ContentUpdater {
        var updater = ContentUpdater(
            server: server, productIdentifier: Self.product, folder: URL(fileURLWithPath: scratch.at("app")))
        updater.retry = RetryPolicy(attempts: 2, firstDelay: 0.05, maxDelay: 0.1)
        return updater
    }

    /// The installed files, each with the bytes published.
    func installed(_ updater: ContentUpdater, _ published: [String: Data]) -> Bool {
        published.allSatisfy { path, bytes in
            (try? Data(contentsOf: updater.contentsURL.appendingPathComponent(path))) == bytes
        }
    }

    /// The log lines of requests for the version's files.
    func fileRequests(_ server: NginxServer) -> [String] {
        server.log.filter { $0.contains("/1.0/Contents/") }
    }

    @Test func smallFilesComePipelinedInBatchesEachAskedForOnceThroughConnectionsTheServerCloses() async throws {
        let scratch = ScratchFolder()
        let published = try await publish(scratch)
        // nginx closes a connection after 7 answers: the requests sent beyond them are asked again
        // on a new connection.
        guard let server = try server(scratch, name: "nginx", directives: "keepalive_requests 7;") else { return }
        let updater = updater(server.base, scratch)
        let report = try await updater.update()
        #expect(installed(updater, published))
        // The files, the twin and ContentInfo.plist; the twin comes with its first.
        #expect(report.filesFetched == Self.count + 2 && report.files == Self.count + 3, "\(report)")
        let requests = fileRequests(server)
        // One request for each file of Contents fetched, every one answered 200.
        #expect(requests.count == Self.count + 1, "\(requests.count) requests")
        #expect(Set(requests.map { $0.split(separator: " ")[1] }).count == Self.count + 1)
        #expect(requests.allSatisfy { $0.hasPrefix("200 ") })
        // Batches are AsyncHTTPClient's transport's (the web stack's build); URLSession's
        // (IAPKG_NO_WEB=1, the sanitizer builds) sends one request at a time.
        let pipelined = requests.filter { $0.split(separator: " ").dropLast().last == "p" }
        #expect(!gateIsBuilt || pipelined.count > Self.count / 2, "\(pipelined.count) of \(requests.count) pipelined")
        let connections = Set(requests.map { $0.split(separator: " ").last! })
        #expect(connections.count >= Self.count / 7, "\(connections.count) connections")
    }

    @Test func aFrontThatRedirectsEveryFileSendsTheClientToOneRequestAFile() async throws {
        let scratch = ScratchFolder()
        let published = try await publish(scratch)
        guard let storage = try server(scratch, name: "storage"),
            let front = try server(
                scratch, name: "front", files: "return 307 http://127.0.0.1:\(storage.port)$request_uri;")
        else { return }
        let updater = updater(front.base, scratch)
        let report = try await updater.update()
        #expect(installed(updater, published))
        #expect(report.filesFetched == Self.count + 2)
        // The pipeline stops at its first redirect. Until then each connection had one request in
        // flight, and the one that fetched ContentInfo.plist (not redirected here) a window more.
        let redirected = fileRequests(front)
        #expect(redirected.allSatisfy { $0.hasPrefix("307 ") })
        let wasted = redirected.count - (Self.count + 1)
        #expect(wasted <= updater.parallelDownloads + 16, "\(wasted) redirects more than files")
        #expect(fileRequests(storage).count == Self.count + 1)
    }

    @Test func aSmallFileAlteredOnTheServerIsRefusedAndNothingIsInstalled() async throws {
        let scratch = ScratchFolder()
        _ = try await publish(scratch)
        let altered = scratch.at("srv/\(Self.product)/1.0/Contents/set2/file200.txt")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: altered)
        let original = try Data(contentsOf: URL(fileURLWithPath: altered))
        try Data(original.map { $0 == UInt8(ascii: "l") ? UInt8(ascii: "L") : $0 }).write(
            to: URL(fileURLWithPath: altered))
        guard let server = try server(scratch, name: "nginx") else { return }
        let updater = updater(server.base, scratch)
        do {
            _ = try await updater.update()
            Issue.record("an altered file was installed")
        } catch {
            guard case .refused(let what, let why) = error else { throw error }
            #expect(what.hasSuffix("set2/file200.txt") && why.contains("not the manifest's"), "\(error)")
        }
        #expect(updater.installedVersion == nil)
    }

    @Test func aServerThatEndsEveryConnectionAfterOneAnswerGetsOneRequestAFile() async throws {
        let scratch = ScratchFolder()
        let published = try await publish(scratch)
        // Python's http.server answers HTTP/1.0 and closes the connection after each answer.
        let port = NginxServer.freePort()
        FileManager.default.createFile(atPath: scratch.at("http.log"), contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.at("http.log")))
        let server = try Harness.start(
            ["python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory", scratch.at("srv"), String(port)],
            standardError: log)
        defer {
            // SIGKILL: the test process may ignore SIGTERM, and Python keeps an ignored signal ignored.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let base = URL(string: "http://127.0.0.1:\(port)")!
        #expect(
            await ServeCheck.wait(seconds: 10) {
                (try? Harness.run(["curl", "-s", "-o", "/dev/null", base.absoluteString]))?.status == 0
            })
        let updater = updater(base, scratch)
        let report = try await updater.update()
        #expect(installed(updater, published))
        #expect(report.filesFetched == Self.count + 2)
        // Each connection took its first file and the batches stopped: at most one request per
        // connection was answered and not taken.
        let text = try String(contentsOfFile: scratch.at("http.log"), encoding: .utf8)
        let requests = text.split(separator: "\n").filter { $0.contains("/1.0/Contents/") }
        #expect(requests.count <= Self.count + 1 + updater.parallelDownloads, "\(requests.count) requests")
    }

    @Test func connectionsClosedWithNoAnswerEndInANetworkErrorNotAWait() async throws {
        let scratch = ScratchFolder()
        _ = try await publish(scratch)
        // 444: nginx closes the connection without an answer.
        guard let server = try server(scratch, name: "nginx", files: "return 444;") else { return }
        let updater = updater(server.base, scratch)
        let started = Date()
        do {
            _ = try await updater.update()
            Issue.record("the version was installed without its files")
        } catch {
            guard case .network = error else { throw error }
        }
        #expect(Date().timeIntervalSince(started) < 20)
        // The pipeline gave up after three connections closed unanswered; the rest were single
        // requests, tried twice each before the download ended.
        #expect(fileRequests(server).count < 60, "\(fileRequests(server).count) requests")
        #expect(updater.installedVersion == nil)
    }
}
