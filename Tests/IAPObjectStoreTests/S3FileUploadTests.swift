import Foundation
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPObjectStore

/// Many files at once against a real SeaweedFS.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct S3FileUploadTests {
    /// Every regular file under `folder`, as (path, path relative to `folder`), in sorted order.
    static func files(in folder: String) -> [(path: String, relative: String)] {
        let names = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return names.sorted().compactMap { name in
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                return nil
            }
            return (path, name)
        }
    }

    @Test func aFolderGoesUpManyFilesAtOnce() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapkg-s3-\(UUID().uuidString)").path
        for index in 0..<120 {
            let sub = folder + "/Contents/level\(index % 7)"
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            try Data("file \(index)\n".utf8).write(to: URL(fileURLWithPath: sub + "/\(index).json"))
        }
        let large = (0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try Data(large).write(to: URL(fileURLWithPath: folder + "/Contents/movie.bin"))
        let local = Self.files(in: folder)
        let uploads = local.map {
            S3FileUpload(
                path: $0.path, key: fixture.key($0.relative),
                options: S3PutOptions(contentType: "application/json", cacheControl: "public, immutable"))
        }
        let plan = S3UploadPlan(multipartThreshold: 5 << 20, partSize: 5 << 20, fileParallelism: 8)
        let etags = try client.upload(files: uploads, plan: plan)
        #expect(etags.count == 121)
        let listed = try client.listAll(prefix: fixture.prefix + "/")
        #expect(listed.objects.map(\.key) == uploads.map(\.key).sorted())
        #expect(listed.objects.first { $0.key.hasSuffix("movie.bin") }?.size == UInt64(large.count))
        #expect(try client.get(fixture.key("Contents/level3/10.json")).bytes == Array("file 10\n".utf8))
        #expect(try client.head(fixture.key("Contents/level3/10.json")).cacheControl == "public, immutable")

        let missing = S3FileUpload(path: folder + "/no-such-file", key: fixture.key("missing"))
        let error = s3Error { try client.upload(files: [uploads[0], missing], plan: plan) }
        #expect(error?.description.contains(folder + "/no-such-file") == true)
    }

    /// A measurement, not a check of speed: with IAPKG_S3_UPLOAD_FOLDER set, uploads that folder to
    /// the bucket iapkg-test of the store the AWS_* variables name, under a new prefix, and prints how
    /// long it took (to compare with `aws s3 sync` and `rclone copy` of the same folder, alternately).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["IAPKG_S3_UPLOAD_FOLDER"] != nil))
    func uploadAGivenFolder() throws {
        let prefix = SeaweedServer.uniquePrefix()
        let environment = ProcessInfo.processInfo.environment
        let folder = environment["IAPKG_S3_UPLOAD_FOLDER"] ?? ""
        var configuration = try AWSEnvironment(environment).configuration()
        configuration.retry = S3RetryPolicy()
        let client = try S3Client(
            bucket: SeaweedServer.bucket, configuration: configuration,
            credentials: S3CredentialSource(environment: AWSEnvironment(environment)))
        let uploads = Self.files(in: folder).map { S3FileUpload(path: $0.path, key: prefix + "/" + $0.relative) }
        let width = Int(environment["IAPKG_S3_UPLOAD_WIDTH"] ?? "") ?? 16
        let start = Date()
        try client.upload(files: uploads, plan: S3UploadPlan(fileParallelism: width))
        print("uploaded \(uploads.count) files in \(Date().timeIntervalSince(start)) s, \(width) at a time")
        #expect(try client.listAll(prefix: prefix + "/").objects.count == uploads.count)
    }
}
