import Foundation
import IAPRules
import IAPSystem
import Testing

/// Every encoding real xar writers produce, in packages the built binary validates and unpacks:
/// entries and Payloads compressed by the system tools. (Unknown encodings, reported once, are
/// IAPKitTests' ValidateContainerTests and ValidateProductTests.)
@Suite(.onTestThreads) struct ValidateEncodingTests {
    let scratch = ScratchFolder()

    /// `bytes` through a shell command such as `bzip2 -9 -c`.
    private func compress(_ bytes: [UInt8], _ command: String) throws -> [UInt8] {
        let input = scratch.at("in-\(UUID().uuidString)")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let result = try Harness.shell("\(command) < '\(input)' > '\(input).out'")
        #expect(result.status == 0, "\(command): \(result.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: input + ".out")))
    }

    /// A file of `text` stored with `style`, its bytes made by `command`.
    private func node(_ name: String, _ text: String, style: String, command: String) throws -> XarNode {
        var node = XarNode.file(name, text: text)
        node.encoding = style
        node.storedBytes = try compress(Array(text.utf8), command)
        return node
    }

    @Test func aTreeWithEveryEncodingIsClean() throws {
        let text = String(repeating: "level data, level data, level data\n", count: 500)
        let zlib = "python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))'"
        let nodes = [
            try node("a.txt", text, style: "application/x-bzip2", command: "bzip2 -c"),
            try node("b.txt", text, style: "application/x-lzma", command: "xz --format=lzma -c"),
            try node("c.txt", text, style: "application/x-xz", command: "xz -c"),
            try node("d.txt", text, style: "application/zlib", command: zlib),
        ]
        let path = scratch.at("encodings.pkg")
        try HostileTree.write(HostileTree.nodes(contents: nodes), to: path)
        try Validate.expectClean(path)
        let root = scratch.at("srv")
        let result = try Harness.run(["iapkg", "unpack", path, "--into", root])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["a.txt", "b.txt", "c.txt", "d.txt"] {
            let unpacked = try String(contentsOfFile: root + "/com.example.test/1.0/Contents/" + name, encoding: .utf8)
            #expect(unpacked == text, "\(name)")
        }
    }

    @Test(arguments: ["bzip2 -c", "xz -c"])
    func aProductWhosePayloadIsNotGzipValidatesAndUnpacks(_ command: String) throws {
        var package = HostileProduct(files: [
            ("readme.txt", Array("hello\n".utf8)), ("level1.dat", Array(repeating: 7, count: 70_000)),
        ])
        package.payloadOverride = try compress(OdcCpio.bytes(package.items), command)
        let path = scratch.at("payload.pkg")
        try package.write(to: path)
        try Validate.expectClean(path)
        let inspect = try Harness.run(["iapkg", "inspect", path])
        let format = command.split(separator: " ")[0]
        #expect(
            inspect.status == 0 && inspect.stdout.contains("compression  \(format)\n"),
            "\(inspect.stdout)\(inspect.stderr)")
        let root = scratch.at("srv")
        let result = try Harness.run(["iapkg", "unpack", path, "--into", root])
        #expect(result.status == 0, "\(result.stderr)")
        let level = try Data(contentsOf: URL(fileURLWithPath: root + "/com.example.test/1.0/Contents/level1.dat"))
        #expect(Array(level) == Array(repeating: 7, count: 70_000))
    }
}
