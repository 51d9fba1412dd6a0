#if canImport(Glibc)
    import Glibc
#endif

/// A private folder (mode 0700) under `base` (default `$TMPDIR` or /tmp), removed with everything in
/// it when the value goes away.
package final class TemporaryFolder {
    package let path: String

    package init(in base: String? = nil, prefix: String = "iapkg-") throws {
        let base = base ?? FileSystem.environment("TMPDIR") ?? "/tmp"
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else { throw SystemError("create a temporary folder in", path: base) }
        path = String(cString: made)
    }

    deinit {
        if let parent = try? DirectoryHandle.open(PathText.parent(of: path)) {
            try? parent.removeTree(PathText.lastComponent(of: path))
        }
    }
}
