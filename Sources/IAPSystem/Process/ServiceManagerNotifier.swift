#if canImport(Glibc)
    import Glibc
#endif

/// The systemd notification protocol (`sd_notify`): one datagram of `KEY=VALUE` lines to the
/// `AF_UNIX` socket named by `NOTIFY_SOCKET` (a path, or an abstract name written with a leading
/// `@`). Without that variable every call does nothing, so the service runs the same outside
/// systemd.
package final class ServiceManagerNotifier: Sendable {
    private let address: [UInt8]?
    /// Half the watchdog interval systemd asks for (`WATCHDOG_USEC`, for this process only), in
    /// seconds; nil without a watchdog.
    package let watchdogInterval: Double?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from the environment.
    package init() {
        let socket = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
        if let socket, socket.hasPrefix("/") || socket.hasPrefix("@"), socket.utf8.count < 108 {
            var bytes = Array(socket.utf8)
            if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
            address = bytes
        } else {
            address = nil
        }
        let pid = getenv("WATCHDOG_PID").flatMap { Int32(String(cString: $0)) }
        if let usec = getenv("WATCHDOG_USEC").flatMap({ UInt64(String(cString: $0)) }), usec > 0,
            pid == nil || pid == getpid()
        {
            watchdogInterval = Double(usec) / 2_000_000
        } else {
            watchdogInterval = nil
        }
    }

    /// True when a service manager listens.
    package var isActive: Bool { address != nil }

    /// Sends `state` (`READY=1`, `WATCHDOG=1`, `STOPPING=1`, `STATUS=…`, one per line); false if
    /// it could not be sent (the service goes on either way).
    @discardableResult
    package func notify(_ state: String) -> Bool {
        guard let address else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var target = sockaddr_un()
        target.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &target.sun_path) { path in
            for (i, byte) in address.enumerated() { path[i] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + address.count)
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                sendto(fd, message, message.count, Int32(MSG_NOSIGNAL), raw, length)
            }
        }
        return sent == message.count
    }
}
