#if os(Linux)
    import IAPSystem

    /// The part file being written: opened once per request, appended to or truncated.
    final class PartSink {
        private let file: FileDescriptor

        /// Opens (creating) `path`, keeping its first `keep` bytes and appending after them.
        init(path: String, keep: UInt64) throws(FetchError) {
            do {
                // From the start: one call (O_TRUNC leaves a new file alone; ext4 starts writing back
                // a file truncated to 0 as soon as it is closed, auto_da_alloc). Else cut only when it
                // holds more than `keep`.
                file = try FileDescriptor.openForWriting(path, emptied: keep == 0)
                if keep > 0 {
                    if try file.size() != keep { try file.truncate(to: keep) }
                    try file.seek(to: keep)
                }
            } catch {
                throw .local(path, "cannot be opened for writing (\(error))")
            }
        }

        /// Empties the file to write it from its start.
        func truncate() throws(FetchError) {
            do {
                try file.truncate(to: 0)
                try file.seek(to: 0)
            } catch {
                throw .local(file.path, "cannot be written (\(error))")
            }
        }

        /// Appends `bytes`.
        func write(_ bytes: UnsafeRawBufferPointer) throws(FetchError) {
            do { try file.write(bytes) } catch { throw .local(file.path, "cannot be written (\(error))") }
        }

        /// Closes the file (its descriptor closes when the sink goes away).
        func close() {}
    }

    /// The content folder's lock (`flock` on `FOLDER/.lock`), held until the object goes away.
    final class FolderLock: Sendable {
        private let file: FileDescriptor

        private init(_ file: FileDescriptor) { self.file = file }

        /// Takes the lock on the file at `path`, trying for up to 2 s; nil when another holder keeps it.
        /// A download that just ended may still hold it for a moment through a child process another
        /// thread was starting: between fork and exec the child shares the descriptor, close-on-exec or
        /// not (seen under AddressSanitizer, where exec is slow). A download really at work holds it
        /// far longer and is refused as busy.
        static func take(_ path: String) throws(FetchError) -> FolderLock? {
            do {
                // Close-on-exec (IAPSystem opens it so): a process the app starts meanwhile must not
                // inherit the descriptor, or the lock would stay held until that process ended.
                let file = try FileDescriptor.openForWriting(path)
                for _ in 0..<39 {
                    if try file.tryLockExclusively() { return FolderLock(file) }
                    LocalFiles.pause(seconds: 0.05)
                }
                return try file.tryLockExclusively() ? FolderLock(file) : nil
            } catch {
                throw .local(path, "cannot be locked (\(error))")
            }
        }

        /// Releases the lock (the descriptor closes when the object goes away).
        func release() { file.unlock() }
    }
#endif
