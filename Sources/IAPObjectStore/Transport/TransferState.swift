internal import IAPSystem

/// The state libcurl's callbacks share during one transfer: the body being sent, where the response
/// goes, and what arrived. Used by one thread (the one in `curl_easy_perform`) at a time.
final class TransferState {
    let body: HTTPBody
    let sink: HTTPResponseSink
    var sent: UInt64 = 0
    var status = 0
    var headers: [String: String] = [:]
    var memory: [UInt8] = []
    var written: UInt64 = 0
    /// A failure of our own (a file that could not be read or written, a body over its limit).
    var failure: TransportFailure?

    /// Error bodies are kept up to this size: S3's XML is far smaller.
    static let errorBodyLimit = 64 * 1024

    init(body: HTTPBody, sink: HTTPResponseSink) {
        self.body = body
        self.sink = sink
    }

    /// Fills `buffer` with the next bytes of the body; the count put in, 0 at its end, nil on failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let remaining = body.count - sent
        let count = Int(min(UInt64(buffer.count), remaining))
        guard count > 0 else { return 0 }
        switch body {
        case .empty: return 0
        case .bytes(let bytes):
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[Int(sent)..<Int(sent) + count]))
            }
        case .file(let file, let offset, _):
            let got: Int
            do {
                got = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: offset + sent)
            } catch {
                failure = TransportFailure(message: "cannot read the body: \(error)", isRetryable: false)
                return nil
            }
            guard got == count else {
                failure = TransportFailure(
                    message: "\(file.path) ended before the \(body.count) bytes to send (it shrank)", isRetryable: false
                )
                return nil
            }
        case .stream(let stream, _):
            let got: Int
            do { got = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])) } catch {
                failure = TransportFailure(message: "\(error)", isRetryable: false)
                return nil
            }
            guard got > 0, got <= count else {
                failure = TransportFailure(
                    message: "the body ended after \(sent) of its \(body.count) bytes", isRetryable: false)
                return nil
            }
            sent += UInt64(got)
            return got
        }
        sent += UInt64(count)
        return count
    }

    /// Moves the body back (or on) to `offset` for a request sent again; what arrived of a response
    /// is dropped. False when `offset` is past the body's end, or elsewhere in a stream.
    func rewind(to offset: UInt64) -> Bool {
        // A stream's bytes are gone once read: it can only stay where it is.
        guard offset <= body.count, body.isReplayable || offset == sent else { return false }
        sent = offset
        memory = []
        written = 0
        return true
    }

    /// Takes the next bytes of the response body; false to stop the transfer.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard (200..<300).contains(status) else {
            // An error's body, for its XML; past the cap the first part already carries the code.
            if memory.count + bytes.count <= Self.errorBodyLimit { memory.append(contentsOf: bytes) }
            return true
        }
        switch sink {
        case .memory(let limit):
            guard memory.count + bytes.count <= limit else {
                failure = TransportFailure(message: "the response is larger than \(limit) bytes", isRetryable: false)
                return false
            }
            memory.append(contentsOf: bytes)
        case .file(let file, let offset):
            do { try file.write(Array(bytes), at: offset + written) } catch {
                failure = TransportFailure(message: "cannot write the response: \(error)", isRetryable: false)
                return false
            }
            written += UInt64(bytes.count)
        }
        return true
    }

    /// Takes one header line (or the status line, which starts a new response: after a 100 Continue).
    func receiveHeader(_ line: String) {
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = [:]
            return
        }
        guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(Substring(line.utf8[..<colon])).lowercased()
        // Bytes, not Characters: "\r\n" is one Character, which a split on "\r" would not find.
        let blanks: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        let value = line.utf8[line.utf8.index(after: colon)...].split(whereSeparator: { blanks.contains($0) })
            .map { String(Substring($0)) }.joined(separator: " ")
        headers[name] = value
    }
}
