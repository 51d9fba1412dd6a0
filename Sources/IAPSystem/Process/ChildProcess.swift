internal import CShims

#if canImport(Glibc)
    import Glibc
#endif

/// A program run to its end for what it prints (`posix_spawnp`): standard input from /dev/null,
/// standard output read through a pipe, standard error shared with this process (where the
/// program says what went wrong), the environment this process has.
package enum ChildProcess {
    /// How a program ended and what it printed.
    package struct Result: Sendable {
        /// Its exit status; 128 + the signal's number when a signal ended it.
        package var status: Int32
        /// Its standard output.
        package var output: [UInt8]
    }

    /// Runs `arguments` (the program, found on PATH, then its arguments) and waits for it: killed
    /// when it runs longer than `timeout` seconds or prints more than `outputLimit` bytes (an error).
    package static func run(_ arguments: [String], outputLimit: Int = 1 << 20, timeout: Double = 60)
        throws(SystemError) -> Result
    {
        guard let program = arguments.first else { throw SystemError("run a program", code: EINVAL) }
        var ends: [Int32] = [-1, -1]
        guard iap_pipe_cloexec(&ends) == 0 else { throw SystemError("make a pipe for", path: program) }
        defer { close(ends[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        var pid: pid_t = 0
        var spawned = posix_spawnp(&pid, program, &actions, nil, pointers, environ)
        // A program file still open for writing somewhere (a script just written while another
        // thread forked, which holds the descriptor until it execs) refuses to start for a moment.
        for _ in 0..<50 where spawned == ETXTBSY {
            usleep(10_000)
            spawned = posix_spawnp(&pid, program, &actions, nil, pointers, environ)
        }
        close(ends[1])
        guard spawned == 0 else { throw SystemError("start", path: program, code: spawned) }
        let read = readOutput(ends[0], limit: outputLimit, deadline: MonotonicClock.seconds() + timeout)
        if read.problem != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let problem = read.problem { throw SystemError(problem, path: program, code: read.code) }
        let exited = status & 0x7f == 0
        return Result(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output: read.output)
    }

    /// Reads `descriptor` to its end, or until `deadline` or past `limit` bytes (then `problem` says which).
    private static func readOutput(_ descriptor: Int32, limit: Int, deadline: Double)
        -> (output: [UInt8], problem: String?, code: Int32)
    {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline - MonotonicClock.seconds()
            guard left > 0 else { return (output, "wait (it ran too long) for", ETIMEDOUT) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left * 1000, 1000)) + 1)
            if ready < 0 && errno != EINTR { return (output, "read the output of", errno) }
            if ready <= 0 { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return (output, "read the output of", errno) }
            if count == 0 { return (output, nil, 0) }
            output += buffer[0..<count]
            if output.count > limit { return (output, "read (it printed over \(limit) bytes) the output of", EFBIG) }
        }
    }
}
