import Dispatch
import IAPRules
import IAPSystem

/// The rules every content tree is held to (PackageFormat.md §6: shape, entries, code, links, hygiene),
/// whichever source the entries came from. Build, validate and unpack all call this one engine.
package enum ContentRules {
    /// The default cap on unpacked bytes: Apple's 2 GiB, since a device must store what it unpacks.
    package static let defaultMaxUnpackedBytes = PackageLimits.unpackedBytes

    /// Every finding for `entries`. The content root itself (no components) may be among them.
    /// Files (and hard links, unpacked as copies) adding up to more than `maxUnpackedBytes` are an error.
    /// From `parallelFrom` entries, the kind and code rules run on a second thread.
    package static func check(
        _ entries: [ContentEntry], maxUnpackedBytes: UInt64 = defaultMaxUnpackedBytes,
        parallelFrom: Int = parallelEntries
    ) -> [Finding] {
        var findings = FindingLog()
        let items = EntryList(entries)
        let beside = items.count >= parallelFrom ? try? Beside(items) : nil
        checkNames(items, &findings)
        checkUniqueness(items, &findings)
        checkShape(items, &findings)
        if let beside {
            findings.report(beside.findings())
        } else {
            checkKinds(items, &findings)
            checkCode(items, &findings)
        }
        checkLinks(items, &findings)
        checkHygiene(items, maxUnpackedBytes: maxUnpackedBytes, &findings)
        return findings.findings
    }

    /// Entries from which the kind and code rules run on a thread of their own beside the others
    /// (they only read the list; the findings keep the order one thread gives them).
    static let parallelEntries = 4096

    /// `checkKinds` then `checkCode` on a thread of their own. `@unchecked Sendable`: `found` is
    /// written by that thread only, and read after `done` says it has finished.
    private final class Beside: @unchecked Sendable {
        private let items: EntryList
        private var found = FindingLog()
        private let done = DispatchSemaphore(value: 0)

        /// Starts the checks; throws if the system has no thread to give (the caller runs them itself).
        init(_ items: EntryList) throws {
            self.items = items
            try BackgroundThread.start { [self] in
                checkKinds(self.items, &self.found)
                checkCode(self.items, &self.found)
                self.done.signal()
            }
        }

        /// Waits for the checks and returns what they found.
        func findings() -> [Finding] {
            done.wait()
            return found.findings
        }
    }
}
