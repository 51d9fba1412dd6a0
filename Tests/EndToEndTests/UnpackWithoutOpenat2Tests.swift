import Foundation
import Testing

/// Unpack creates its many small files by path with `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`;
/// where the kernel has no openat2 (before Linux 5.6: `ENOSYS`) or a seccomp filter refuses it
/// (`EPERM`, as container runtimes answer), it opens each folder on the way instead. Both give
/// the same tree and the same manifest.json.
@Suite struct UnpackWithoutOpenat2Tests {
    /// Runs `iapkg ARGS` with openat2 answered by `errno` (python3-seccomp, as the CI installs it).
    func runRefusingOpenat2(errno: String, _ arguments: [String]) throws -> Harness.Result {
        try Harness.run(
            [
                "/usr/bin/python3", "-c",
                """
                import errno, os, sys, seccomp
                f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
                f.add_rule(seccomp.ERRNO(getattr(errno, sys.argv[1])), "openat2")
                f.load()
                os.execv(sys.argv[2], sys.argv[2:])
                """,
                errno, Harness.binary,
            ] + arguments)
    }

    @Test(arguments: ["ENOSYS", "EPERM"]) func theFallbackWritesTheSameTree(errno: String) throws {
        let scratch = ScratchFolder()
        var files: [String: String] = [:]
        for i in 0..<300 { files["Contents/d\(i % 7)/e\(i % 5)/g\(i % 3)/f\(i).txt"] = "file \(i)\n" }
        files["Contents/top.txt"] = "top\n"
        let folder = try scratch.contentFolder("src", product: "com.example.beneath", files: files)
        let pkg = scratch.at("beneath.pkg")
        let built = try Harness.run(["iapkg", "build", folder, "-o", pkg])
        #expect(built.status == 0, "\(built.stderr)")

        let direct = try Harness.run(["iapkg", "unpack", pkg, "--into", scratch.at("direct")])
        #expect(direct.status == 0, "\(direct.stderr)")
        let fallback = try runRefusingOpenat2(errno: errno, ["unpack", pkg, "--into", scratch.at("fallback")])
        #expect(fallback.status == 0, "\(fallback.stderr)")
        let version = "/com.example.beneath/1.0"
        let compared = try Harness.run(["diff", "-r", scratch.at("direct") + version, scratch.at("fallback") + version])
        #expect(compared.status == 0, "\(compared.stdout)")
        let file = try String(
            contentsOfFile: scratch.at("fallback") + version + "/Contents/d3/e0/g1/f10.txt", encoding: .utf8)
        #expect(file == "file 10\n")
    }
}
