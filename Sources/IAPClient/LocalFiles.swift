#if os(Linux)
    import IAPSystem

    /// The file-system steps repeated for every file of a version, with one system call each, through
    /// IAPSystem (the one module that talks to the C library): Foundation's FileManager would make
    /// several, and the Linux client links no full Foundation. Apple platforms: LocalFiles+Darwin.swift.
    enum LocalFiles {
        /// The size of the regular file at `path` (a symlink is not followed), nil when there is none.
        static func regularSize(_ path: String) -> UInt64? {
            guard let status = FileSystem.linkStatus(path), status.isRegularFile else { return nil }
            return status.size
        }

        /// True when something (a file, a folder, a symlink) is at `path`.
        static func exists(_ path: String) -> Bool {
            FileSystem.linkStatus(path) != nil
        }

        /// Removes the file at `path`, if there is one.
        static func remove(_ path: String) {
            FileSystem.remove(path)
        }

        /// Hard-links `source` to `target` (replacing what is there), or copies it where links fail.
        static func link(_ source: String, to target: String) throws(FetchError) {
            do {
                try FileSystem.hardLink(source, to: target)
            } catch {
                try copy(source, to: target)
            }
        }

        /// Renames `source` to `target`, replacing a file there.
        static func move(_ source: String, to target: String) throws(FetchError) {
            do {
                try FileSystem.rename(source, to: target)
            } catch {
                throw .local(target, "cannot be renamed into place (\(error))")
            }
        }

        /// Files flushed one by one (`fsync` each); above that, the whole file system at once.
        static let flushedOneByOne = 64

        /// Flushes `paths` (files under `folder`) to disk: each file's `fsync` for a few; for many
        /// (nil: too many to list), one `syncfs` of the folder's file system (thousands of small files
        /// flush far faster in one pass than one by one, and unlike `sync` it leaves other file
        /// systems alone).
        static func flush(_ paths: [String]?, in folder: String) throws(FetchError) {
            guard let paths, paths.count <= flushedOneByOne else {
                do {
                    try DirectoryHandle.open(folder).syncFileSystem()
                } catch {
                    throw .local(folder, "cannot be flushed to disk (\(error))")
                }
                return
            }
            for path in paths {
                guard let file = try? FileDescriptor.openForReading(path) else { continue }
                do { try file.sync() } catch { throw .local(path, "cannot be flushed to disk (\(error))") }
            }
        }

        /// Bytes free on the file system of `folder` (nil when it cannot be told).
        static func freeBytes(_ folder: String) -> UInt64? {
            try? DirectoryHandle.open(folder).availableBytes()
        }

        /// Reads the file at `path` from its start in pieces of up to 1 MiB, handing each to `body`,
        /// until `length` bytes (the whole file when nil); returns the bytes read.
        static func read(_ path: String, length: UInt64? = nil, _ body: (UnsafeRawBufferPointer) -> Void)
            throws(FetchError) -> UInt64
        {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            do {
                let file = try FileDescriptor.openForReading(path)
                var done: UInt64 = 0
                while length.map({ done < $0 }) ?? true {
                    let want = Int(min(UInt64(buffer.count), (length ?? UInt64.max) - done))
                    let count = try file.readSequential(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
                    if count == 0 { break }
                    body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    done += UInt64(count)
                }
                if let length, done < length { throw FetchError.local(path, "is shorter than expected") }
                return done
            } catch let error as FetchError {
                throw error
            } catch {
                throw .local(path, "cannot be read (\(error))")
            }
        }

        /// Waits `seconds` on the calling thread.
        static func pause(seconds: Double) {
            FileSystem.sleep(seconds: seconds)
        }
    }
#endif
