import IAPSystem
import Testing

/// A program run to its end for its output: its exit status (or the signal that ended it), a
/// program that runs too long or prints too much killed with an error, one that cannot start an error.
@Suite struct ChildProcessTests {
    @Test func theOutputAndTheExitStatusComeBack() throws {
        let result = try ChildProcess.run(["sh", "-c", "printf 'one\\ntwo'; read line; echo \"[$line]\" >&2; exit 4"])
        #expect(result.status == 4)
        #expect(result.output == Array("one\ntwo".utf8))
        #expect(try ChildProcess.run(["sh", "-c", "kill -9 $$"]).status == 128 + 9)
    }

    @Test func tooLongTooMuchOrNotThereIsAnError() {
        #expect(throws: SystemError.self) { try ChildProcess.run(["sleep", "30"], timeout: 0.2) }
        #expect(throws: SystemError.self) {
            try ChildProcess.run(["head", "-c", "100000", "/dev/zero"], outputLimit: 1000)
        }
        #expect(throws: SystemError.self) { try ChildProcess.run(["/nonexistent/program"]) }
        #expect(throws: SystemError.self) { try ChildProcess.run([]) }
    }
}
