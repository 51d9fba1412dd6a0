import ArgumentParser
import IAPPurchase
import IAPRevocationState
import IAPSystem

/// Loading the gate's files: unreadable files exit 2, unusable contents are usage errors (64).
enum GateSetup {
    /// The largest PEM or key file read.
    static let maxFileSize: UInt64 = 1024 * 1024

    /// The bytes of `path`, or exit 2 saying why not.
    static func read(_ path: String, what: String) throws -> [UInt8] {
        do {
            let file = try FileDescriptor.openForReading(path)
            let size = try file.size()
            guard size <= maxFileSize else {
                say("iapkg-gate: error: \(what) \(path) is \(size) bytes; at most \(maxFileSize) are read")
                throw ExitCode(64)
            }
            return try file.read(count: Int(size), at: 0)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            say("iapkg-gate: error: cannot read \(what) \(path): \(error)")
            throw ExitCode(2)
        }
    }

    /// The trust anchors in the PEM files at `paths`.
    static func anchors(_ paths: [String]) throws -> TrustAnchors {
        let texts = try paths.map { String(decoding: try read($0, what: "trust anchor"), as: UTF8.self) }
        do {
            return try TrustAnchors(pem: texts)
        } catch {
            say("iapkg-gate: error: --trust-anchor: \(error) (give the PEM of Apple Root CA - G3)")
            throw ExitCode(64)
        }
    }

    /// The token key in `path`.
    static func tokens(_ path: String) throws -> DownloadTokens {
        let key = try read(path, what: "key file")
        if let status = FileSystem.status(path), status.permissions & 0o077 != 0 {
            say(
                "iapkg-gate: warning: \(path) is readable by others (mode \(String(status.permissions & 0o777, radix: 8))); chmod 600 it"
            )
        }
        do {
            return try DownloadTokens(key: key)
        } catch {
            say("iapkg-gate: error: --key-file \(path): \(error)")
            throw ExitCode(64)
        }
    }

    /// The revocation state in `folder`, or exit 2 saying why not.
    static func revocations(_ folder: String) throws -> SQLiteRevocationStore {
        do {
            return try SQLiteRevocationStore(folder: folder)
        } catch {
            say("iapkg-gate: error: --state: \(error)")
            throw ExitCode(2)
        }
    }

    /// A line on stderr.
    static func say(_ line: String) {
        try? errorOutput.write(Array((line + "\n").utf8))
    }
}

/// File descriptor 2, never closed.
let errorOutput = FileDescriptor(owning: 2, path: "standard error")
