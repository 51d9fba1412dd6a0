import CTestProcess
import Foundation
import Testing

/// The test process's own set-up (Tests/CTestProcess), which CONTRIBUTING.md promises: no
/// backtrace for every Swift error thrown, unless the environment asked for one.
@Suite struct TestProcessTests {
    @Test func errorBacktracesAreOffUnlessTheEnvironmentSaysOtherwise() {
        let setting = ProcessInfo.processInfo.environment["SWT_SWIFT_ERROR_BACKTRACING_ENABLED"]
        // Given from outside, the variable is the developer's; otherwise the constructor set it.
        #expect(
            iapkg_tests_backtrace_setting_was_given() != 0 || setting == "0",
            "SWT_SWIFT_ERROR_BACKTRACING_ENABLED is \(setting ?? "unset"): is CTestProcess linked into the tests?")
    }
}
