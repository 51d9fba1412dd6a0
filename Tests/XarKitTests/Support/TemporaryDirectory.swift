import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "/xarkit-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` to `name` inside the directory and returns the full path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let full = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// The bytes of `name` inside the directory.
    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
    }
}
