import Foundation
import Testing

/// A real nginx on 127.0.0.1 (a free port, its own prefix) serving `root` with the example site
/// configuration, Examples/server/iapkg-content.conf, and `limit_rate` for paths holding `.slow.`;
/// or serving a site of the test's own. Its access log (`log`) gives each request's status, URI,
/// `Range` and `Authorization`.
final class NginxServer {
    let process: Process
    let port: Int
    let prefix: String

    /// Starts nginx for `root` with its files under `scratch`; nil when nginx is not installed.
    convenience init?(root: String, scratch: ScratchFolder, rate: String = "8m") throws {
        let example = Harness.packageRoot.appendingPathComponent("Examples/server/iapkg-content.conf")
        let lines = try String(contentsOf: example, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        try self.init(scratch: scratch, name: "nginx", rate: rate) { port in
            lines.map { line -> String in
                if line.contains("# @LISTEN@") || line.trimmingCharacters(in: .whitespaces).hasPrefix("listen 80;") {
                    return "    listen 127.0.0.1:\(port);"
                }
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("root /srv/content;") {
                    return "    root \(root);"
                }
                return String(line)
            }.joined(separator: "\n")
        }
    }

    /// Starts nginx with the `server` block `site` makes for its port, its files in `scratch/name`,
    /// `logFields` (nginx variables) after each access log line's usual fields; nil when nginx is
    /// not installed.
    init?(
        scratch: ScratchFolder, name: String, rate: String = "8m", logFields: String = "",
        site: (Int) throws -> String
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else { return nil }
        prefix = scratch.at(name)
        try FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
        port = Self.freePort()
        try site(port).write(toFile: prefix + "/site.conf", atomically: true, encoding: .utf8)
        let conf = """
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/logs/error.log warn;
            events { worker_connections 64; }
            http {
                include /etc/nginx/mime.types;
                log_format requests '$status "$request_uri" "$http_range" "$http_authorization"\(logFields)';
                access_log \(prefix)/logs/access.log requests;
                map $uri $test_rate { default 0; ~\\.slow\\. \(rate); }
                limit_rate $test_rate;
                client_body_temp_path \(prefix)/body;
                proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi;
                uwsgi_temp_path \(prefix)/uwsgi;
                scgi_temp_path \(prefix)/scgi;
                include \(prefix)/site.conf;
            }
            """
        try conf.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        process = try Harness.start([
            "/usr/sbin/nginx", "-p", prefix, "-c", prefix + "/nginx.conf", "-g", "daemon off;",
        ])
        let ready = ServeCheck.wait(seconds: 10) {
            (try? Harness.run(["curl", "-s", "-o", "/dev/null", base.absoluteString]))?.status == 0
        }
        if !ready { throw CocoaError(.fileReadUnknown) }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// The server's base URL.
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The access log's lines so far: `STATUS "URI" "RANGE" "AUTHORIZATION"` (`-` for a header not sent).
    var log: [String] {
        ((try? String(contentsOfFile: prefix + "/logs/access.log", encoding: .utf8)) ?? "").split(separator: "\n")
            .map(String.init)
    }

    /// A port nothing listens on now.
    static func freePort() -> Int {
        let result = try? Harness.run([
            "python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])",
        ])
        return Int(result?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 18_080
    }
}
