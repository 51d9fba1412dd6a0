import Foundation
import IAPTestSupport

/// Bytes in and out of the shared scratch folder, as the xar tests write and read them.
extension ScratchFolder {
    /// Writes `bytes` to `name` inside the folder and returns the full path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let full = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// The bytes of `name` inside the folder.
    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
    }
}
