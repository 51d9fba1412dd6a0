import Foundation
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPObjectStore

#if canImport(Glibc)
    import Glibc
#endif

/// Memory while a large file goes up: the parts stream from the file, so the peak does not grow
/// with the part size or the number of parts in flight.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct S3UploadMemoryTests {
    /// The process's peak resident size so far (`ru_maxrss`).
    static func peakResidentBytes() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return UInt64(usage.ru_maxrss) * 1024
    }

    /// 320 MiB (IAPKG_S3_UPLOAD_MIB to change it) in 64 MiB parts, four at a time: parts held in
    /// memory would need 256 MiB. Under a sanitizer the upload runs and its bytes are checked; the
    /// peak is not held to the ceiling there.
    @Test func partsStreamFromTheFile() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let mebibytes = UInt64(ProcessInfo.processInfo.environment["IAPKG_S3_UPLOAD_MIB"] ?? "") ?? 320
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapkg-s3-big-\(UUID().uuidString)")
        let file = try FileDescriptor.createExclusive(path.path, readable: true)
        defer { try? FileManager.default.removeItem(at: path) }
        try file.truncate(to: mebibytes << 20)
        try file.write(Array("first bytes".utf8), at: 0)
        try file.write(Array("last bytes".utf8), at: (mebibytes << 20) - 10)
        let before = Self.peakResidentBytes()
        let key = fixture.key("large")
        try client.upload(
            key, file: file, length: mebibytes << 20,
            plan: S3UploadPlan(multipartThreshold: 64 << 20, partSize: 64 << 20, parallelism: 4))
        let growth = Self.peakResidentBytes() - before
        if !Sanitizer.distortsMemory { #expect(growth < 100 << 20, "peak grew \(growth >> 20) MiB") }
        #expect(try client.head(key).size == mebibytes << 20)
        #expect(
            try client.get(key, range: ((mebibytes << 20) - 10)...((mebibytes << 20) - 1)).bytes
                == Array("last bytes".utf8))
        try client.delete(key)
    }
}
