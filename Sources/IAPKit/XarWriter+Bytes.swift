import XarKit

extension XarWriter {
    /// Adds a file whose whole content is `bytes` (small documents: Bom, PackageInfo, Distribution).
    func addFile(path: String, mode: UInt32, mtime: String, encoding: XarWriterEncoding, bytes: [UInt8]) throws {
        try addFile(path: path, mode: mode, mtime: mtime, encoding: encoding) { sink in
            try bytes.withUnsafeBytes { try sink($0) }
        }
    }
}
