import Foundation
import Testing

/// Runs the built `iapkg` binary and other tools, in scratch folders, as a user would.
package enum Harness {
    /// The package's root folder (where Package.swift is).
    package static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The iapkg executable: $IAPKG_BIN, else the one built beside the test bundle.
    package static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["IAPKG_BIN"] { return path }
        var candidates: [URL] = []
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            candidates.append(dir.appendingPathComponent("iapkg"))
            dir.deleteLastPathComponent()
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/iapkg"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path ?? "iapkg"
    }()

    /// What a finished process said.
    package struct Result: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        package var stdoutData: Data

        package init(status: Int32, stdout: String, stderr: String, stdoutData: Data) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            self.stdoutData = stdoutData
        }
    }

    /// Runs `arguments` (the first is the program: "iapkg" means the built binary) in `directory`
    /// to its end, with `stdin` as its input; what it said.
    @discardableResult
    package static func run(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        stdin: Data? = nil
    ) throws -> Result {
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        let process = try start(
            arguments, in: directory, environment: environment, standardInput: input, standardOutput: out,
            standardError: err)
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }

    /// Starts `arguments` (the first is the program: "iapkg" means the built binary, anything else
    /// is looked up on PATH) in `directory` and leaves it running: the one way the tests start a
    /// process. The child gets ``childEnvironment()`` with NO_COLOR set, SOURCE_DATE_EPOCH removed
    /// and `environment` on top; its streams are the null device unless given (a `FileHandle` or a
    /// `Pipe`). The caller waits for it, signals or kills it.
    package static func start(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        standardInput: Any = FileHandle.nullDevice, standardOutput: Any = FileHandle.nullDevice,
        standardError: Any = FileHandle.nullDevice
    ) throws -> Process {
        let process = Process()
        var args = arguments
        if args.first == "iapkg" {
            process.executableURL = URL(fileURLWithPath: binary)
            args.removeFirst()
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        }
        process.arguments = args
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = childEnvironment()
        env["NO_COLOR"] = "1"
        env.removeValue(forKey: "SOURCE_DATE_EPOCH")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        return process
    }

    /// This process's environment for a child, where `.ci/sanitize`'s IAPKG_CHILD_ASAN_OPTIONS
    /// replaces ASAN_OPTIONS: the iapkg processes check their leaks, the test process does not (it
    /// reports the test fixtures' `static let` enum values as leaked: their pointers carry the
    /// enum's tag in spare bits, which LeakSanitizer's scan of globals does not recognise).
    package static func childEnvironment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        if let options = env["IAPKG_CHILD_ASAN_OPTIONS"] { env["ASAN_OPTIONS"] = options }
        return env
    }

    /// Runs a shell command line.
    @discardableResult
    package static func shell(_ command: String, in directory: String? = nil) throws -> Result {
        try run(["sh", "-c", command], in: directory)
    }
}

/// A scratch folder removed when the test ends.
package final class ScratchFolder {
    package let path: String

    package init() {
        var template = Array((NSTemporaryDirectory() + "/iapkg-e2e-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = made.map { String(cString: $0) } ?? NSTemporaryDirectory()
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the folder.
    package func at(_ name: String) -> String { path + "/" + name }

    /// Writes a file, creating its parents.
    package func write(_ name: String, _ text: String, mode: Int = 0o644) throws {
        try write(name, Data(text.utf8), mode: mode)
    }

    /// Installs an executable `name` (mode 0755) holding the bytes of the file `source`, or `text`
    /// when no source is given, written by a child process (`install`): a file this process had
    /// open for writing would be inherited by a child another test forks meanwhile, and its exec
    /// would fail with "text file busy".
    package func writeExecutable(_ name: String, copying source: String = "/dev/stdin", _ text: String = "") throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: at(name)).deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try Harness.run(["install", "-m", "755", source, at(name)], stdin: Data(text.utf8))
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": result.stderr]) }
    }

    package func write(_ name: String, _ data: Data, mode: Int = 0o644) throws {
        let url = URL(fileURLWithPath: at(name))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    /// A content folder `name` with ContentInfo.plist for `product` at `version` and the given files under Contents/.
    package func contentFolder(
        _ name: String, product: String = "com.example.test", version: String = "1.0",
        files: [String: String] = ["Contents/readme.txt": "hello\n"]
    ) throws -> String {
        try write(name + "/ContentInfo.plist", Fixtures.plist(product: product, version: version))
        try FileManager.default.createDirectory(atPath: at(name + "/Contents"), withIntermediateDirectories: true)
        for (path, text) in files { try write(name + "/" + path, text) }
        return at(name)
    }

    /// Every file below `name`, as relative path → bytes (symlinks as "-> target", folders as "x/").
    package func snapshot(_ name: String) throws -> [String: Data] {
        try ScratchFolderView(path: path).snapshot(name)
    }
}

/// Small builders for test content.
package enum Fixtures {
    /// `count` random bytes from the kernel (/dev/urandom): incompressible content, made in
    /// milliseconds where a generator called per byte takes seconds in a debug build.
    package static func randomBytes(_ count: Int) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        defer { try? handle.close() }
        let data = try handle.read(upToCount: count) ?? Data()
        return [UInt8](data)
    }

    package static func plist(product: String, version: String, extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>ContentVersion</key>
        \t<string>\(version)</string>
        \t<key>IAPProductIdentifier</key>
        \t<string>\(product)</string>\(extra)
        </dict>
        </plist>

        """
    }
}
