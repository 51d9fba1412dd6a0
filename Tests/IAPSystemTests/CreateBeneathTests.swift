import Testing

@testable import IAPSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `DirectoryHandle.createFile(beneath:)`, by `openat2` and by its fallback (each folder on the way
/// opened with `O_NOFOLLOW`): the same files made and the same paths refused either way.
@Suite struct CreateBeneathTests {
    /// A scratch folder holding `a/b/` and a symlink `link` → `a`, opened.
    func scratch() throws -> (TemporaryFolder, DirectoryHandle) {
        let temporary = try TemporaryFolder()
        try FileSystem.makeDirectory(temporary.path + "/a")
        try FileSystem.makeDirectory(temporary.path + "/a/b")
        #expect(symlink("a", temporary.path + "/link") == 0)
        return (temporary, try DirectoryHandle.open(temporary.path))
    }

    /// The `errno` a refused creation threw.
    func refusal(_ body: () throws -> FileDescriptor) -> Int32? {
        do {
            _ = try body()
            return nil
        } catch let error as SystemError {
            return error.code
        } catch {
            return -1
        }
    }

    @Test(arguments: [true, false]) func createsNestedFilesWithTheirBytesAndMode(kernel: Bool) throws {
        let (temporary, root) = try scratch()
        let file = try root.createFile(beneath: "a/b/new.txt", mode: 0o644, resolveInKernel: kernel)
        try file.write(Array("hello".utf8))
        #expect(try FileSystem.readSmallFile(temporary.path + "/a/b/new.txt") == Array("hello".utf8))
        #expect(FileSystem.linkStatus(temporary.path + "/a/b/new.txt")?.permissions == 0o644)
        let top = try root.createFile(beneath: "top.txt", mode: 0o644, resolveInKernel: kernel)
        try top.write(Array("x".utf8))
        #expect(FileSystem.status(temporary.path + "/top.txt")?.size == 1)
        // O_EXCL: an existing file is not opened again.
        #expect(refusal { try root.createFile(beneath: "a/b/new.txt", mode: 0o644, resolveInKernel: kernel) } == EEXIST)
    }

    @Test func namesAreCountedAndDotNamesRefused() {
        #expect(DirectoryHandle.nameCount("a") == 1)
        #expect(DirectoryHandle.nameCount("a/.../b../.c/..d") == 5)
        for path in ["", "/", "/a", "a/", "a//b", ".", "..", "a/.", "a/..", "./a", "../a", "a/./b", "a/../b"] {
            #expect(DirectoryHandle.nameCount(path) == nil, "\(path)")
        }
    }

    @Test(arguments: [true, false]) func refusesSymlinksDotDotAndAbsolutePaths(kernel: Bool) throws {
        let (temporary, root) = try scratch()
        // A symlinked folder on the way: ELOOP from openat2, ELOOP or ENOTDIR from O_NOFOLLOW.
        let throughLink = refusal { try root.createFile(beneath: "link/b/x", mode: 0o644, resolveInKernel: kernel) }
        #expect(throughLink == ELOOP || throughLink == ENOTDIR)
        #expect(FileSystem.linkStatus(temporary.path + "/a/b/x") == nil)
        // The last component a symlink: O_EXCL refuses it, nothing written through it.
        #expect(symlink("/tmp/create-beneath-outside", temporary.path + "/a/out") == 0)
        #expect(refusal { try root.createFile(beneath: "a/out", mode: 0o644, resolveInKernel: kernel) } == EEXIST)
        #expect(FileSystem.linkStatus("/tmp/create-beneath-outside") == nil)
        for path in ["a/../escape", "../escape", "/tmp/escape", "a//b", "a/./b", "", "a/b/"] {
            #expect(refusal { try root.createFile(beneath: path, mode: 0o644, resolveInKernel: kernel) } == EINVAL)
        }
        #expect(FileSystem.linkStatus(temporary.path + "/escape") == nil)
    }
}
