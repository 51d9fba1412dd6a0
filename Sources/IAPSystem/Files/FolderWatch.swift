internal import CShims

#if canImport(Glibc)
    import Glibc
#endif

/// Watches one folder with inotify for files that became complete there: closed after writing
/// (`IN_CLOSE_WRITE`) or renamed in (`IN_MOVED_TO`). Names only; the folder is not walked.
package final class FolderWatch {
    /// The inotify descriptor, to `poll` on.
    package let descriptor: Int32
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)

    /// What one read of the descriptor said.
    package struct Batch {
        /// Names that became complete, in event order.
        package var names: [String] = []
        /// Of those, the names renamed into the folder (`IN_MOVED_TO`): complete by the uploader's word.
        package var renamedIn: Set<String> = []
        /// The kernel dropped events (`IN_Q_OVERFLOW`): the folder must be scanned again.
        package var overflowed = false
    }

    /// Starts watching `path`.
    package init(_ path: String) throws {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError("inotify_init1") }
        descriptor = fd
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_ONLYDIR)
        guard inotify_add_watch(fd, path, mask) >= 0 else {
            let error = SystemError("watch", path: path)
            close(fd)
            buffer.deallocate()
            throw error
        }
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// Reads every event waiting (never blocks).
    package func read() throws -> Batch {
        var batch = Batch()
        while true {
            let n = retryingOnInterrupt { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { return batch }
                throw SystemError("read inotify events")
            }
            if n == 0 { return batch }
            var offset = 0
            let header = 16  // wd, mask, cookie, len: four 32-bit fields
            while offset + header <= n {
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { batch.overflowed = true }
                if !nameBytes.isEmpty {
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    batch.names.append(name)
                    if mask & UInt32(IN_MOVED_TO) != 0 {
                        batch.renamedIn.insert(name)
                    } else {
                        batch.renamedIn.remove(name)  // written again after the rename
                    }
                }
                offset += header + length
            }
        }
    }
}

/// A self-pipe that SIGTERM and SIGINT write to: the signal handler does nothing else, and the
/// service sees the request as a readable descriptor in its `poll`.
package final class StopSignals {
    /// The read end, to `poll` on.
    package let descriptor: Int32
    private let writeEnd: Int32

    /// Installs the handlers (once per process).
    package init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SystemError("pipe") }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
        guard iap_install_stop_pipe(writeEnd) == 0 else { throw SystemError("sigaction") }
    }

    /// Asks for a stop as a signal would (for tests and in-process callers).
    package func request() {
        var byte: UInt8 = 0
        _ = write(writeEnd, &byte, 1)
    }

    /// True if a stop was asked for; drains the pipe.
    package func takeRequest() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 64)
        var seen = false
        while Glibc.read(descriptor, &bytes, bytes.count) > 0 { seen = true }
        return seen
    }
}

/// Waits until one of `descriptors` is readable or `milliseconds` pass; returns the readable ones.
package func waitReadable(_ descriptors: [Int32], milliseconds: Int32) -> Set<Int32> {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let n = poll(&fds, nfds_t(fds.count), milliseconds)
    guard n > 0 else { return [] }
    return Set(fds.filter { $0.revents != 0 }.map(\.fd))
}
