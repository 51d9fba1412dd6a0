import Foundation
import IAPSystem
import Testing

@testable import IAPKitCLI

/// The CLI's own replacements for Foundation's text helpers (it links FoundationEssentials only)
/// give what Foundation gave.
struct TextFormattingTests {
    @Test func fixedPointMatchesPrintf() {
        let values: [Double] = [
            0, 0.004, 0.005, 0.015, 0.125, 0.375, 1, 1.5, 2.675, 9.995, 10.25, 123.456, 1023.95, 1e6 + 0.5,
        ]
        for value in values {
            for places in 0...3 {
                #expect(
                    FixedPoint.text(value, places: places) == String(format: "%.\(places)f", value),
                    "\(value) to \(places) places")
            }
        }
        #expect(FixedPoint.text(-1.25, places: 1) == String(format: "%.1f", -1.25))
    }

    @Test func byteCountsReadAsBefore() {
        #expect(ByteCount.text(512) == "512 bytes")
        #expect(ByteCount.text(1536) == "1.5 KiB")
        #expect(ByteCount.text(204_800_000) == "195.3 MiB")
    }

    @Test func paddingCutsOrFillsLikeFoundation() {
        for text in ["", "abc", "exactly13char", "longer than thirteen"] {
            #expect(text.paddedOrCut(to: 13) == text.padding(toLength: 13, withPad: " ", startingAt: 0))
        }
    }

    @Test func sarifURIsEscapeAsURLPathAllowedLessThree() {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";:@")
        for path in ["p.pkg", "dir/a b.pkg", "/abs/x;y:z@w.pkg", "é/ü 100%.pkg", "a#b?c[d]{e}|f\\g\"h<i>`j^k.pkg"] {
            let expected = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
            #expect(ValidationOutput.uri(path) == (path.hasPrefix("/") ? "file://" + expected : expected), "\(path)")
        }
    }
}
