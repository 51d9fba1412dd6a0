import Foundation
import Testing

/// `iapkg gate` and `iapkg fetch` run the programs `iapkg-gate` and `iapkg-fetch` found beside
/// `iapkg` (then on PATH), with every argument passed on untouched, `--help` included.
@Suite(.onTestThreads) struct ExternalCommandTests {
    /// A copy of the built iapkg in a folder of its own, so what lies beside it is the test's choice.
    func lonelyIapkg(_ scratch: ScratchFolder) throws -> String {
        try scratch.writeExecutable("bin/iapkg", copying: Harness.binary)
        return scratch.at("bin/iapkg")
    }

    @Test(arguments: ["gate", "fetch"])
    func runsTheProgramBesideIt(command: String) throws {
        let scratch = ScratchFolder()
        let iapkg = try lonelyIapkg(scratch)
        let script = "#!/bin/sh\nprintf '%s|' \"$(basename \"$0\")\" \"$@\"\nexit 7\n"
        try scratch.writeExecutable("bin/iapkg-\(command)", script)
        let result = try Harness.run([iapkg, command, "--help", "-x", "a b", "--json"])
        #expect(result.status == 7)
        #expect(result.stdout == "iapkg-\(command)|--help|-x|a b|--json|")
    }

    @Test func findsTheProgramOnPathWhenNotBesideIt() throws {
        let scratch = ScratchFolder()
        let iapkg = try lonelyIapkg(scratch)
        try scratch.writeExecutable("path/iapkg-gate", "#!/bin/sh\necho on-path \"$@\"\n")
        let result = try Harness.run(
            [iapkg, "gate", "--listen", "127.0.0.1:0"], environment: ["PATH": scratch.at("path")])
        #expect(result.status == 0)
        #expect(result.stdout == "on-path --listen 127.0.0.1:0\n")
    }

    @Test func aMissingProgramIsExitTwoWithWhereItWasLookedFor() throws {
        let scratch = ScratchFolder()
        let iapkg = try lonelyIapkg(scratch)
        try scratch.write("bin/iapkg-fetch", "not executable\n", mode: 0o644)
        let result = try Harness.run(
            [iapkg, "fetch", "http://127.0.0.1:1/", "p"], environment: ["PATH": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("runs the program iapkg-fetch"))
        #expect(result.stderr.contains("/bin/iapkg nor on PATH"))
    }
}
