import Synchronization
import Testing

@testable import IAPSystem

/// The one progress bar `iapkg build` and `iapkg fetch` draw: silent unless enabled, coloured only
/// when asked, its text made only when drawn, its line cleared only when it was drawn.
@Suite struct ProgressBarTests {
    /// What a bar wrote, piece by piece.
    final class Written: Sendable {
        let pieces = Mutex<[String]>([])
        var all: [String] { pieces.withLock { $0 } }
        func write(_ text: String) { pieces.withLock { $0.append(text) } }
    }

    @Test func aDisabledBarWritesNothingAndMakesNoText() {
        let written = Written()
        let bar = ProgressBar(enabled: false, coloured: true, write: { written.write($0) })
        let made = Mutex(0)
        bar.update(fraction: 1) {
            made.withLock { $0 += 1 }
            return "label"
        }
        bar.finish()
        #expect(written.all.isEmpty)
        #expect(made.withLock { $0 } == 0)
    }

    @Test func theFinalStateIsDrawnThenCleared() throws {
        let written = Written()
        let bar = ProgressBar(enabled: true, coloured: false, write: { written.write($0) })
        bar.update(fraction: 1) { "8.0 KiB of 8.0 KiB" }
        bar.finish()
        let pieces = written.all
        try #require(pieces.count == 2)
        #expect(pieces[0].hasPrefix("\r" + String(repeating: "█", count: 30) + " 100% 8.0 KiB of 8.0 KiB"))
        #expect(!pieces[0].contains("\u{1B}[36m"), "no colour when not asked for (NO_COLOR)")
        #expect(pieces[1] == "\r\u{1B}[K")
    }

    @Test func colourIsOnlyWhereAsked() throws {
        let written = Written()
        let bar = ProgressBar(enabled: true, coloured: true, write: { written.write($0) })
        bar.update(fraction: 0.5) { "half" }
        let first = try #require(written.all.first)
        #expect(first.contains("\u{1B}[36m" + String(repeating: "█", count: 15) + String(repeating: "░", count: 15)))
        #expect(first.contains(" 50% half"))
    }

    @Test func aBarNeverDrawnIsNotCleared() {
        let written = Written()
        ProgressBar(enabled: true, coloured: false, write: { written.write($0) }).finish()
        #expect(written.all.isEmpty)
    }

    @Test func fractionsOutsideZeroToOneAreClamped() throws {
        let written = Written()
        let bar = ProgressBar(enabled: true, coloured: false, write: { written.write($0) })
        bar.update(fraction: 7) { "" }
        #expect(try #require(written.all.first).contains(" 100% "))
    }

    @Test func byteCountsReadAsPeopleReadThem() {
        #expect(ByteCount.text(512) == "512 bytes")
        #expect(ByteCount.text(12 * 1024) == "12.0 KiB")
        #expect(ByteCount.text(3 << 30 / 2) == "1.5 GiB")
    }
}
