import Foundation

/// The sanitizer the suite runs under, and how much repeated work a test does under it.
package enum Sanitizer {
    /// `IAPKG_SANITIZER` ("address" or "thread"), which `.ci/sanitize` sets; nil in a plain run.
    package static let name: String? = ProcessInfo.processInfo.environment["IAPKG_SANITIZER"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// How many rounds a test repeats work whose every round runs the same code: all of them in a
    /// plain run, a fifth under a sanitizer, which reports a fault the first time the code runs and
    /// makes every round several times slower (ThreadSanitizer 5–15x).
    package static func rounds(_ full: Int) -> Int { name == nil ? full : max(1, full / 5) }

    /// True under a sanitizer, whose shadow memory and quarantine of freed blocks (ASan keeps up to
    /// 256 MiB) make a process's resident size no measure of what the code holds.
    package static var distortsMemory: Bool { name != nil }
}
