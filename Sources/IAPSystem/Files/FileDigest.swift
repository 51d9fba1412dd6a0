import IAPCrypto

/// Digests of files read in pieces, so a file of any size costs one small buffer.
extension DigestHasher {
    /// The digest of the bytes of `file` from its current position to its end.
    package static func digest(_ algorithm: DigestAlgorithm, ofRestOf file: FileDescriptor) throws -> [UInt8] {
        let hasher = DigestHasher(algorithm)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try file.readSequential(into: buffer)
            if count == 0 { return hasher.finish() }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
