import Foundation
import Testing

@testable import IAPClient

#if canImport(Glibc)
    import Glibc
#endif

/// The content folder's lock: one download at work at a time, and a lock held only for a moment
/// (a child process between fork and exec shares its descriptor) waited out.
@Suite struct FolderLockTests {
    func scratchFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapkg-lock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aSecondDownloadIsRefusedAsBusyAfterWaiting() throws {
        let root = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = ContentFolder(root: root)
        let first = try folder.prepare()
        let started = Date()
        #expect(throws: FetchError.busy(root)) { _ = try folder.prepare() }
        #expect(Date().timeIntervalSince(started) >= 1.5)
        first.release()
        let again = try folder.prepare()
        again.release()
    }

    @Test func aLockReleasedWithinTheWaitIsTaken() throws {
        let root = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = ContentFolder(root: root)
        try folder.prepare().release()  // makes the folders and the lock file
        let holder = open(root + "/.lock", O_WRONLY | O_CLOEXEC)
        #expect(holder >= 0 && flock(holder, LOCK_EX | LOCK_NB) == 0)
        let release = Thread {
            usleep(300_000)
            close(holder)
        }
        release.start()
        let lock = try folder.prepare()
        lock.release()
    }
}
