#if !os(Linux)
    import Foundation

    /// The part file being written: opened once per request, appended to or truncated.
    final class PartSink {
        private let handle: FileHandle
        private let path: String

        /// Opens (creating) `path`, keeping its first `keep` bytes and appending after them.
        init(path: String, keep: UInt64) throws(FetchError) {
            self.path = path
            // Not FileManager.createFile: it writes a temporary file, flushes it and renames it.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw .local(path, "cannot be opened for writing (\(String(cString: strerror(errno))))")
            }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            do {
                try handle.truncate(atOffset: keep)
                try handle.seek(toOffset: keep)
            } catch {
                throw .local(path, "cannot be opened for writing (\(error.localizedDescription))")
            }
        }

        /// Empties the file to write it from its start.
        func truncate() throws(FetchError) {
            do {
                try handle.truncate(atOffset: 0)
                try handle.seek(toOffset: 0)
            } catch {
                throw .local(path, "cannot be written (\(error.localizedDescription))")
            }
        }

        /// Appends `bytes`.
        func write(_ bytes: UnsafeRawBufferPointer) throws(FetchError) {
            do {
                try handle.write(contentsOf: Data(bytes))
            } catch {
                throw .local(path, "cannot be written (\(error.localizedDescription))")
            }
        }

        /// Closes the file.
        func close() {
            try? handle.close()
        }
    }

    /// The content folder's lock (`flock` on `FOLDER/.lock`), held until ``release()``.
    final class FolderLock: Sendable {
        private let handle: FileHandle

        private init(_ handle: FileHandle) { self.handle = handle }

        /// Takes the lock on the file at `path`, trying for up to 2 s; nil when another holder keeps
        /// it (a child process between fork and exec may hold it a moment after a download ends).
        static func take(_ path: String) throws(FetchError) -> FolderLock? {
            // Close-on-exec: a process the app starts meanwhile must not inherit the descriptor.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw .local(path, "cannot be opened") }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            for _ in 0..<40 {
                if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return FolderLock(handle) }
                guard errno == EWOULDBLOCK else { throw .local(path, "cannot be locked") }
                usleep(50_000)
            }
            return nil
        }

        /// Releases the lock.
        func release() {
            try? handle.close()
        }
    }
#endif
