import IAPSystem
import Testing

@testable import IAPKit

@Suite struct ContentRulesTests {
    let base: [ContentEntry] = [
        ContentEntry(rawPath: ".", kind: .directory, permissions: 0o755),
        ContentEntry(rawPath: "./ContentInfo.plist", kind: .file, size: 300),
        ContentEntry(rawPath: "./Contents", kind: .directory, permissions: 0o755),
        ContentEntry(rawPath: "./Contents/level.json", kind: .file, size: 10),
        ContentEntry(rawPath: "./Contents/art", kind: .directory, permissions: 0o755),
        ContentEntry(rawPath: "./Contents/art/a.png", kind: .file, size: 10),
    ]

    func rules(_ extra: [ContentEntry]) -> [String] {
        ContentRules.check(base + extra).map(\.rule)
    }

    @Test func aGoodTreeIsClean() {
        #expect(ContentRules.check(base).isEmpty)
        #expect(
            rules([
                ContentEntry(rawPath: "./Contents/latest", kind: .symlink, permissions: 0o755, linkTarget: "art/a.png")
            ]).isEmpty)
    }

    @Test func shape() {
        #expect(
            ContentRules.check(Array(base.filter { $0.path != "ContentInfo.plist" })).map(\.rule) == [
                "shape-missing-contentinfo"
            ])
        #expect(rules([ContentEntry(rawPath: "./readme.txt", kind: .file)]) == ["shape-extra-root-entry"])
        #expect(rules([ContentEntry(rawPath: "./.DS_Store", kind: .file)]) == ["hygiene-junk-file"])
    }

    @Test func names() {
        #expect(
            rules([ContentEntry(rawPath: "./Contents/../../etc/passwd", kind: .file)]).contains("entry-name-invalid"))
        #expect(rules([ContentEntry(rawPath: "/etc/passwd", kind: .file)]).contains("entry-absolute-path"))
        #expect(rules([ContentEntry(rawPath: "./Contents/a\u{1}b", kind: .file)]) == ["entry-name-invalid"])
        #expect(rules([ContentEntry(rawPath: "./Contents/a\\b", kind: .file)]) == ["entry-name-invalid"])
        #expect(
            rules([ContentEntry(rawPath: "./Contents/" + String(repeating: "x", count: 256), kind: .file)]) == [
                "entry-component-length"
            ])
        #expect(rules([ContentEntry(rawPath: "./Contents/level.json", kind: .file)]) == ["entry-duplicate"])
        #expect(
            rules([
                ContentEntry(rawPath: "./Contents/caf\u{e9}", kind: .file),
                ContentEntry(rawPath: "./Contents/cafe\u{301}", kind: .file),
            ]) == ["entry-unicode-collision"])
        #expect(rules([ContentEntry(rawPath: "./Contents/Level.JSON", kind: .file)]) == ["entry-case-collision"])
        #expect(rules([ContentEntry(rawPath: "./Contents/\u{202E}gnp.exe", kind: .file)]) == ["entry-bidi"])
    }

    @Test func uniquenessFindingsComeInEntryOrderEachAgainstTheFirstOfItsKey() {
        // Three passes (exact, Unicode, case) must still read as one pass in entry order: an exact
        // duplicate is not also a collision, and each is told against the first holder of its key.
        let found = ContentRules.check(
            base + [
                ContentEntry(rawPath: "./Contents/LEVEL.json", kind: .file),  // case, against level.json
                ContentEntry(rawPath: "./Contents/caf\u{e9}", kind: .file),
                ContentEntry(rawPath: "./Contents/level.json", kind: .directory),  // exact duplicate only
                ContentEntry(rawPath: "./Contents/cafe\u{301}", kind: .file),  // Unicode, against café
                ContentEntry(rawPath: "./Contents/CAFE\u{301}", kind: .file),  // case, against café
                ContentEntry(rawPath: "./Contents/caf\u{e9}", kind: .file),  // exact duplicate only
            ])
        #expect(
            found.map(\.rule) == [
                "entry-case-collision", "entry-duplicate", "entry-unicode-collision", "entry-case-collision",
                "entry-duplicate",
            ])
        #expect(found[0].message.contains("'Contents/level.json'"), "\(found[0].message)")
        #expect(found[1].message.contains("first as file"), "\(found[1].message)")
        #expect(found[3].message.contains("'Contents/caf\u{e9}'"), "\(found[3].message)")
    }

    /// From `parallelEntries`, the kind and code rules run on a second thread: the same findings in
    /// the same order as one thread gives, with findings of every rule family interleaved.
    @Test func theSecondThreadKeepsTheFindingsAndTheirOrder() {
        var entries = base
        for i in 0..<5000 {
            entries.append(ContentEntry(rawPath: "./Contents/f\(i).txt", kind: .file, size: 10))
            switch i % 500 {
            case 1: entries.append(ContentEntry(rawPath: "./Contents/p\(i)", kind: .fifo))
            case 2:
                entries.append(
                    ContentEntry(rawPath: "./Contents/x\(i).bin", kind: .file, sniff: ContentSniff(executable: .elf)))
            case 3: entries.append(ContentEntry(rawPath: "./Contents/a\u{1}\(i)", kind: .file))
            case 4: entries.append(ContentEntry(rawPath: "./Contents/f\(i).txt", kind: .file))
            case 5: entries.append(ContentEntry(rawPath: "./.DS_Store", kind: .file))
            default: break
            }
        }
        let serial = ContentRules.check(entries, parallelFrom: .max)
        let parallel = ContentRules.check(entries, parallelFrom: 0)
        #expect(Set(serial.map(\.rule)).isSuperset(of: ["entry-special-file", "exec-elf", "entry-name-invalid"]))
        #expect(serial.count > 40)
        #expect(parallel == serial)
        #expect(ContentRules.check(entries) == serial)
    }

    @Test func kinds() {
        #expect(rules([ContentEntry(rawPath: "./Contents/p", kind: .fifo)]) == ["entry-special-file"])
        #expect(rules([ContentEntry(rawPath: "./Contents/d", kind: .characterDevice)]) == ["entry-special-file"])
        #expect(rules([ContentEntry(rawPath: "./Contents/s", kind: .file, permissions: 0o4644)]) == ["entry-setid"])
        #expect(rules([ContentEntry(rawPath: "./Contents/level.json/x", kind: .file)]) == ["entry-file-dir-conflict"])
    }

    @Test func code() {
        #expect(
            rules([ContentEntry(rawPath: "./Contents/x.bin", kind: .file, sniff: ContentSniff(executable: .elf))]) == [
                "exec-elf"
            ])
        #expect(
            rules([
                ContentEntry(rawPath: "./Contents/Game.app", kind: .directory, permissions: 0o755),
                ContentEntry(rawPath: "./Contents/Game.app/Info.plist", kind: .file),
            ]) == ["exec-bundle-name"])
        #expect(
            rules([
                ContentEntry(
                    rawPath: "./Contents/run.sh", kind: .file, permissions: 0o755, sniff: ContentSniff(isScript: true))
            ]) == ["exec-script"])
        #expect(rules([ContentEntry(rawPath: "./Contents/libx.so", kind: .file)]) == ["exec-shared-library"])
        #expect(
            rules([ContentEntry(rawPath: "./Contents/data.bin", kind: .file, permissions: 0o755)]) == ["exec-mode-bits"]
        )
    }

    @Test func links() {
        func link(_ path: String, _ target: String) -> ContentEntry {
            ContentEntry(rawPath: path, kind: .symlink, permissions: 0o755, linkTarget: target)
        }
        #expect(rules([link("./Contents/up", "../ContentInfo.plist")]) == ["link-escape"])
        #expect(rules([link("./Contents/up", "../../../etc/passwd")]) == ["link-escape"])
        #expect(rules([link("./Contents/abs", "/etc/passwd")]) == ["link-absolute"])
        #expect(rules([link("./Contents/e", "")]) == ["link-empty"])
        #expect(rules([link("./Contents/a", "b"), link("./Contents/b", "a")]).sorted() == ["link-loop", "link-loop"])
        #expect(rules([link("./Contents/gone", "nothing.txt")]) == ["link-dangling"])
        // A chain: each link alone looks harmless, together they escape.
        #expect(rules([link("./Contents/art/up", ".."), link("./Contents/out", "art/up/../..")]) == ["link-escape"])
        #expect(
            rules([link("./Contents/dir", "art"), ContentEntry(rawPath: "./Contents/dir/evil", kind: .file)]) == [
                "link-write-through"
            ])
        #expect(
            rules([ContentEntry(rawPath: "./Contents/h", kind: .hardlink, hardlinkTarget: "./Contents/level.json")])
                == ["link-hard"])
        #expect(
            rules([ContentEntry(rawPath: "./Contents/h", kind: .hardlink, hardlinkTarget: "/etc/shadow")]) == [
                "link-hard-external"
            ])
    }
}
