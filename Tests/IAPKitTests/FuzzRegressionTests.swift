import IAPKit
import IAPSystem
import Testing
import XarKit

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs found by the home-made mutation fuzzer that preceded the libFuzzer targets (retired in
/// f3cf06d, 2026-11-23), minimised: the reader and the validator must refuse them with findings, and the
/// inspector must throw or report, never trap. Each bug it found is fixed and its input stays here;
/// the same inputs are in Tests/FuzzTargetsTests/Regressions/{xar,validate}.
@Suite struct FuzzRegressionTests {
    /// A tree xar of two stored entries, "a" with `<length>18446744073709551615</length>` and "b" with
    /// `<length>1</length>`; TOC digest correct. Found by the mutation fuzzer, seed 7 input 2413 (toc-number).
    /// `PackageInspector.inspect` sums the lengths unchecked (PackageInspector.swift:23) and traps.
    static let storedSizeOverflow = [
        "78617221001c0001000000000000011800000000000003450000000178daed93496ec3300c45f73d85a17d2a79900780",
        "51763d417b005aa263a11e024b0d929ebeb213a701d255bbed4a84087efeff00c2eed477d1912667c761cbe267c1221a",
        "f468ecb0dfb2b7d7974dc976ea094e3829f0a356a05bd2efeea38f9c3f77b465aec59829189bc6915702f8b502673f49",
        "25e1632980af830a1adb51644d58170607ec4921f0e5057f3e909afbc097120c7abca92777f21d0d7bdfaab8ccb2bcc8",
        "3251a485a8a48cf35802bf362f1e6e16d660ab753c1c3aabd187e87cd49efcc6f989b0675c014ebab547329b9ff31a4c",
        "2b4c8924e575560b932652d60d3595cc455c56021b538a6008f88350f071f213867d7f177f540aa02fc8f84cf18e75b2",
        "b2ae7fcffa1fec3758be5c039f0fe30b638617bf42f2bb7db099e039eed370e452e51b1ba8b7c32d",
    ].joined()

    /// The same shape with lengths 0 and `<size>` 18446744073709551615 and 1. Found by the mutation fuzzer, seed 7
    /// input 1209 (toc-number). `PackageInspector.inspect` sums the sizes unchecked (PackageInspector.swift:68) and traps.
    static let unpackedSizeOverflow = [
        "78617221001c0001000000000000011600000000000003450000000178dae5934d6ec3201085f73d85c53e05ffe0d8d2",
        "84ec7a82f6006318c7a8fe93a191d3d3173b711529ddb5bbae7802cd7b6f3e0938ce5d1b9d697276e80f2c7e162ca25e",
        "0fc6f6a7037b7b7dd915eca89e60c649811fb402dd907e771f5de4fca5a503730dc64cc150d78ebc12c06f0a9cfd2495",
        "848b5500df0615d4b6a5c89a1017067bec4821f0f5047f19492defc05709063d7ebb2777f62df527df2c8137750d8c8b",
        "2ccbf75926f6e95e9452c6792cb70adb625b751cc7d66af461753e684f7ee7fc44d831ae0027ddd83399ddcffb1a4c4b",
        "4c8924e55556099326525635d5a5cc455c94026b53885000f88351e831fb0943deefcd1f9d02e82b32be50bc639d6cac",
        "abbf63fd9fc1f2f537f0e5637c018eb617bf19665e29d033adb6f4e7b3789dd4f0ecefd3223f",
    ].joined()

    /// A tree package (ContentInfo.plist + Contents/a.txt, all digests correct) whose `Contents` entry is
    /// `<type>directory</type>` but also carries `<link type="file">../..</link>`. Found by the mutation
    /// fuzzer, seed 1 input 2355 (toc-link, on Contents/data/nested in input 1448). libarchive (bsdtar -xf)
    /// extracts `Contents` as a symlink to `../..`, out of the content root; the validator says valid.
    static let linkOnDirectory = [
        "78617221001c0001000000000000017900000000000003db0000000178dab593c16edc201086ef7d0a8bfb1a8c6d6c4b",
        "b3e4502952efed031018b22836ac0c8976fbf4c5deb8da642bb54ad413bf06987ff87e0177a7692c5e708e2ef83da94a",
        "460af43a18e71ff7e4c7f7fb5d4feee41738a959420a5a823ea07e8acf5311d379c43d8907551109c1da884932a0af0a",
        "a2fb8992e7c22a806e1725583762e14cb6cb17bd9a507e0d3ea14fdfbc0de5717431015deb90ce4794cb79a0ab842918",
        "944c340dd055825149fdb6e757fe23fac77490356b81beeacb4c6be532d4f6d4ed31ea98ddb54a19060d3a61dac534a3",
        "9a0895a0667d702f68767f26d029140fa66a2aa386c1d4a2679d6e45cbfb86b51d1f74a33b55f7265bdf34ca739cd2ac",
        "b2dfe79bdf76cae82f8ce8c2f18a3e7f473fbe816edc8c3a85f9fc967cd7b61bf9d1f9a762d9db93a527916549cb32c3",
        "cef52b9b7ab351653a7d34d89ab737c98a77b98aff90aacd784d3d08ab70e04c08de7755631fb846c66cc771682ce76d",
        "6f3f94eabf37ff7baadbb2fe51ba7cd75f57f649b61e7eb5e8d312088b1efa89188d376190814648d13c3f786d6c2076",
        "657273696f6e3d22312e302220656e636f64696e673d225554462d38223f3e0a3c21444f435459504520706c69737420",
        "5055424c494320222d2f2f4170706c652f2f44544420504c49535420312e302f2f454e222022687474703a2f2f777777",
        "2e6170706c652e636f6d2f445444732f50726f70657274794c6973742d312e302e647464223e0a3c706c697374207665",
        "7273696f6e3d22312e30223e0a3c646963743e0a093c6b65793e436f6e74656e7456657273696f6e3c2f6b65793e0a09",
        "3c737472696e673e312e303c2f737472696e673e0a093c6b65793e49415050726f647563744964656e7469666965723c",
        "2f6b65793e0a093c737472696e673e636f6d2e6578616d706c652e66757a7a3c2f737472696e673e0a3c2f646963743e",
        "0a3c2f706c6973743e0a68656c6c6f0a",
    ].joined()

    /// A tree package whose Contents/ holds an entry named `a/b` (a `/` inside one `<name>`). Found by
    /// the mutation fuzzer, seed 1 input 843 (toc-name). PackageFormat.md §6 makes `/` in a name an error; bsdtar
    /// extracts it as Contents/a/b; the validator says valid.
    static let slashInName = [
        "78617221001c0001000000000000016500000000000003bb0000000178dab593516b83301485dff72bc4f736316a54b8",
        "4d1f0683bd6f3f204d6eaa4c4d315969f7eb97da5ada75b0d1b1270f1773cecd77082c775d1b6d71708ded177132a771",
        "84bdb2bae9d78bf8f5e56956c64bf1003b3908f056095035aa37f7de45ceef5b5cc4ae96492cc01ae3d00b0ae4a4c035",
        "1f2858188c02c8745080695a8c1a1de2c2c15e76281e6defb1f7cfbdb1f34ddb380f649c83df6f501cfe07324ae8ac46",
        "41799601192568e9e5399e5de4b7d8af7d2d529a0339e9e34ee3e4b8d474d5e9327213d295f40106b1caa39f393fa0ec",
        "6222400eaa6eb6a867df132824f2954eb244cbaad2292f69a1729eb332a379c12a95a942a6a50ed13746618f9d1f64c8",
        "fbbbf9ad53407f64440e1c2fe8b32ff4dd1574dd0ca8bc1df6d7e48b3c9fc89f8dd2c94892d59dc5a52cbf698e7fe98d",
        "ff436b26e0d369c58dc48a51ce59592499593185949a82619519c6f2d2dcd5daefcd7f6e6dfa8c6f901c9ee32729863f",
        "500318831cd5545a9440c79dfac5bab14016f3327e3c3f786d6c2076657273696f6e3d22312e302220656e636f64696e",
        "673d225554462d38223f3e0a3c21444f435459504520706c697374205055424c494320222d2f2f4170706c652f2f4454",
        "4420504c49535420312e302f2f454e222022687474703a2f2f7777772e6170706c652e636f6d2f445444732f50726f70",
        "657274794c6973742d312e302e647464223e0a3c706c6973742076657273696f6e3d22312e30223e0a3c646963743e0a",
        "093c6b65793e436f6e74656e7456657273696f6e3c2f6b65793e0a093c737472696e673e312e303c2f737472696e673e",
        "0a093c6b65793e49415050726f647563744964656e7469666965723c2f6b65793e0a093c737472696e673e636f6d2e65",
        "78616d706c652e66757a7a3c2f737472696e673e0a3c2f646963743e0a3c2f706c6973743e0a68656c6c6f0a",
    ].joined()

    /// Writes `hex` to `input.pkg` in `folder` (a new temporary folder when nil), runs `body` on its
    /// path, then removes both (unless `body` traps: see `removeFolder`).
    static func withInput<T>(hex: String, folder: String? = nil, _ body: (String) throws -> T) throws -> T {
        let bytes = try #require(Hex.decode(hex))
        let directory: String
        if let folder {
            mkdir(folder, 0o700)
            directory = folder
        } else {
            var template = Array("/tmp/iapkg-fuzz-regression-XXXXXX".utf8CString)
            directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        }
        defer { removeFolder(directory) }
        let file = try FileDescriptor.createExclusive(directory + "/input.pkg")
        try file.write(bytes)
        return try body(directory + "/input.pkg")
    }

    /// Removes `folder/input.pkg` and `folder`.
    static func removeFolder(_ folder: String) {
        unlink(folder + "/input.pkg")
        rmdir(folder)
    }

    /// The folder an exit-test child of process `parent` writes input `tag` into, so the parent can clean up after a trap.
    static func exitTestFolder(parent: pid_t, _ tag: String) -> String {
        "/tmp/iapkg-fuzz-regression-\(parent)-\(tag)"
    }

    @Test func storedLengthsThatOverflowAreRefusedByTheReaderAndTheValidator() throws {
        #expect(Hex.decode(Self.storedSizeOverflow)?.count == 328)
        try Self.withInput(hex: Self.storedSizeOverflow) { path in
            let archive = try XarArchive.open(path: path)
            #expect(archive.toc.files.map(\.data?.length) == [18_446_744_073_709_551_615, 1])
            #expect(archive.findings.map(\.rule) == ["xar-data-range", "xar-data-range"])
            let report = try PackageValidator.validate(path)
            #expect(!report.valid)
            #expect(report.findings.first?.rule == "xar-data-range")
        }
    }

    @Test func declaredSizesThatOverflowAreRefusedByTheValidator() throws {
        #expect(Hex.decode(Self.unpackedSizeOverflow)?.count == 326)
        try Self.withInput(hex: Self.unpackedSizeOverflow) { path in
            let archive = try XarArchive.open(path: path)
            #expect(archive.toc.files.map(\.data?.size) == [18_446_744_073_709_551_615, 1])
            #expect(archive.findings.isEmpty)
            let report = try PackageValidator.validate(path)
            #expect(!report.valid)
            #expect(report.findings.first?.rule == "size-declared-bomb")
        }
    }

    /// Runs `PackageInspector.inspect` on one of the inputs in a child process: it must exit, not trap
    /// (the fuzzer's 374 crashes were these two sums; they now saturate).
    @Test func theInspectorDoesNotTrapOnOverflowingSums() async {
        do {
            await #expect(processExitsWith: .success) {
                let folder = FuzzRegressionTests.exitTestFolder(parent: getppid(), "stored")
                try FuzzRegressionTests.withInput(hex: FuzzRegressionTests.storedSizeOverflow, folder: folder) {
                    path in
                    _ = try? PackageInspector.inspect(path)
                }
            }
            await #expect(processExitsWith: .success) {
                let folder = FuzzRegressionTests.exitTestFolder(parent: getppid(), "unpacked")
                try FuzzRegressionTests.withInput(hex: FuzzRegressionTests.unpackedSizeOverflow, folder: folder) {
                    path in
                    _ = try? PackageInspector.inspect(path)
                }
            }
        }
        Self.removeFolder(Self.exitTestFolder(parent: getpid(), "stored"))
        Self.removeFolder(Self.exitTestFolder(parent: getpid(), "unpacked"))
    }

    /// A `<link>` on an entry that is not a symlink is refused (libarchive would extract a symlink).
    @Test func aLinkOnADirectoryEntryIsRefused() throws {
        #expect(Hex.decode(Self.linkOnDirectory)?.count == 736)
        try Self.withInput(hex: Self.linkOnDirectory) { path in
            let archive = try XarArchive.open(path: path)
            #expect(archive.toc.file(atPath: "Contents")?.type == .directory)
            #expect(archive.toc.file(atPath: "Contents")?.linkTarget == "../..")
            let report = try PackageValidator.validate(path)
            #expect(!report.valid)
            #expect(report.findings.contains { $0.rule == "xar-file-type" && $0.entry == "Contents" })
        }
    }

    /// An entry name holding `/` is refused (PackageFormat.md §6, Entries).
    @Test func aSlashInsideOneNameIsRefused() throws {
        #expect(Hex.decode(Self.slashInName)?.count == 716)
        try Self.withInput(hex: Self.slashInName) { path in
            let archive = try XarArchive.open(path: path)
            #expect(archive.toc.files.map(\.name).contains("a/b"))
            let report = try PackageValidator.validate(path)
            #expect(!report.valid)
            #expect(report.findings.contains { $0.rule == "entry-name-invalid" })
        }
    }
}
