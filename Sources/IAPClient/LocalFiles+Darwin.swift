#if !os(Linux)
    import Foundation

    /// The file-system steps repeated for every file of a version, with one system call each where
    /// FileManager makes several (at 100,000 files FileManager's extra status and attribute calls
    /// were most of an update's time): POSIX calls, as Foundation exposes them on Apple platforms.
    enum LocalFiles {
        /// The size of the regular file at `path` (a symlink is not followed), nil when there is none.
        static func regularSize(_ path: String) -> UInt64? {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return UInt64(info.st_size)
        }

        /// True when something (a file, a folder, a symlink) is at `path`.
        static func exists(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0
        }

        /// Removes the file at `path`, if there is one.
        static func remove(_ path: String) {
            _ = unlink(path)
        }

        /// Hard-links `source` to `target` (replacing what is there), or copies it where links fail.
        static func link(_ source: String, to target: String) throws(FetchError) {
            if Foundation.link(source, target) == 0 { return }
            if errno == EEXIST {
                _ = unlink(target)
                if Foundation.link(source, target) == 0 { return }
            }
            try copy(source, to: target)
        }

        /// Renames `source` to `target`, replacing a file there.
        static func move(_ source: String, to target: String) throws(FetchError) {
            guard rename(source, target) == 0 else {
                throw .local(target, "cannot be renamed into place (\(String(cString: strerror(errno))))")
            }
        }

        /// Files flushed one by one (`fsync` each); above that, every file under `folder`.
        static let flushedOneByOne = 64

        /// Flushes `paths` (files under `folder`), or when nil every file under `folder`, to disk:
        /// each file's `fsync`.
        static func flush(_ paths: [String]?, in folder: String) throws(FetchError) {
            guard let paths else {
                let walker = FileManager.default.enumerator(atPath: folder)
                var all: [String] = []
                while let name = walker?.nextObject() as? String { all.append(folder + "/" + name) }
                return try flush(all, in: folder)
            }
            for path in paths {
                guard let handle = FileHandle(forUpdatingAtPath: path) else { continue }
                defer { try? handle.close() }
                do { try handle.synchronize() } catch { throw .local(path, "cannot be flushed to disk") }
            }
        }

        /// Bytes free on the file system of `folder` (nil when it cannot be told).
        static func freeBytes(_ folder: String) -> UInt64? {
            ((try? FileManager.default.attributesOfFileSystem(forPath: folder))?[.systemFreeSize] as? NSNumber)?
                .uint64Value
        }

        /// Reads the file at `path` from its start in pieces of up to 1 MiB, handing each to `body`,
        /// until `length` bytes (the whole file when nil); returns the bytes read.
        static func read(_ path: String, length: UInt64? = nil, _ body: (UnsafeRawBufferPointer) -> Void)
            throws(FetchError) -> UInt64
        {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw .local(path, "cannot be opened for reading")
            }
            defer { try? handle.close() }
            var done: UInt64 = 0
            while length.map({ done < $0 }) ?? true {
                let want = Int(min(1 << 20, (length ?? UInt64.max) - done))
                guard let piece = try? handle.read(upToCount: want), !piece.isEmpty else { break }
                piece.withUnsafeBytes { body($0) }
                done += UInt64(piece.count)
            }
            if let length, done < length { throw .local(path, "is shorter than expected") }
            return done
        }

        /// Waits `seconds` on the calling thread.
        static func pause(seconds: Double) {
            usleep(useconds_t(seconds * 1_000_000))
        }
    }
#endif
