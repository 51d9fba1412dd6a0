import Foundation
import IAPRules
import IAPSystem
import Testing

/// A "/" followed by a combining mark ("/\u{301}") is one grapheme to Swift's String but a separator
/// to the kernel, bsdtar and the installer. Paths and link targets are split at "/" bytes, so a link
/// cannot hide its ".." steps inside such graphemes, and names that start with a combining mark are
/// judged as the one component every other reader sees.
@Suite(.onTestThreads) struct CombiningMarkPathTests {
    let scratch = ScratchFolder()
    /// From Contents/a/l, the kernel walks up three levels past two folders named "\u{301}d" and
    /// "\u{301}e" (out of the version folder); a grapheme split saw two names and stayed in Contents/.
    static let hiddenSteps = "../\u{301}d/../\u{301}e/../../../x"

    @Test func aLinkHidingItsStepsEscapesInAFolder() throws {
        let folder = try scratch.contentFolder(
            "hidden",
            files: ["Contents/x": "x", "Contents/\u{301}d/f": "f", "Contents/\u{301}e/f": "f", "Contents/a/f": "f"])
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/Contents/a/l", withDestinationPath: Self.hiddenSteps)
        try Validate.expectError(folder, Rule.linkEscape, entry: "Contents/a/l")
        let build = try Harness.run(["iapkg", "build", folder, "-o", scratch.at("hidden.pkg")])
        #expect(build.status == 1, "build must refuse what validate refuses: \(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.at("hidden.pkg")))
    }

    /// A name that starts with a combining mark is one ordinary component to every reader: built,
    /// validated and unpacked in both layouts, where a grapheme split once refused it as holding "/".
    @Test func namesStartingWithACombiningMarkRoundTrip() throws {
        let folder = try scratch.contentFolder("marks", files: ["Contents/\u{301}d/f": "f", "Contents/a/g": "g"])
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/Contents/a/l", withDestinationPath: "../\u{301}d/f")
        try Validate.expectClean(folder)
        for layout in ["product", "tree"] {
            let package = scratch.at("marks-\(layout).pkg")
            let build = try Harness.run(["iapkg", "build", folder, "--layout", layout, "-o", package])
            #expect(build.status == 0, "\(build.stderr)")
            try Validate.expectClean(package)
            let root = scratch.at("store-\(layout)")
            let unpack = try Harness.run(["iapkg", "unpack", package, "--into", root])
            #expect(unpack.status == 0, "\(unpack.stderr)")
            let link = root + "/com.example.test/current/Contents/a/l"
            #expect(try String(contentsOfFile: link, encoding: .utf8) == "f")
        }
    }
}
