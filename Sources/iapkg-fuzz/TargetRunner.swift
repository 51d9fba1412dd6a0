import IAPKit
import IAPRules
import XarKit

/// What one input reached: how deep it got tells whether a mutator gets past the outer gates.
enum TargetOutcome: Int {
    /// `XarArchive.open` refused it.
    case openRefused
    /// It opened; the validator found errors.
    case opened
    /// The validator called it valid.
    case valid
}

/// Runs one file through every target: the strict reader (open, then every entry's data through
/// `readAll` or `dataStream`), the validator and the inspector. Errors are the expected result;
/// only a crash or a hang is a finding.
final class TargetRunner {
    /// Entries up to this size are read with `readAll`; larger ones are streamed.
    static let readAllLimit = 1 << 20
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)

    deinit { buffer.deallocate() }

    /// Runs the file at `path` through the targets; `log` hears each error (for `--run`).
    func run(_ path: String, log: ((String) -> Void)? = nil) -> TargetOutcome {
        var outcome = TargetOutcome.openRefused
        do {
            let archive = try XarArchive.open(path: path)
            outcome = .opened
            log?("open: \(archive.toc.files.count) entries, \(archive.findings.count) findings")
            for file in archive.toc.files where file.data != nil {
                do {
                    if let size = file.data?.size, size <= UInt64(Self.readAllLimit) {
                        _ = try archive.readAll(file, maxBytes: Self.readAllLimit)
                    } else {
                        let stream = try archive.dataStream(for: file)
                        while try stream.read(into: buffer) > 0 {}
                    }
                } catch {
                    log?("read \(file.path): \(error)")
                }
            }
        } catch {
            log?("open: \(error)")
        }
        do {
            let report = try PackageValidator.validate(path)
            if report.valid { outcome = .valid }
            log?(
                "validate: valid \(report.valid), \(report.errors) errors, \(report.warnings) warnings"
                    + (report.findings.first.map { "; first: \($0.rule): \($0.message)" } ?? ""))
        } catch {
            log?("validate: \(error)")
        }
        do {
            let report = try PackageInspector.inspect(path)
            log?("inspect: \(report.shape) \(report.files.count) files, \(report.notes.count) notes")
        } catch {
            log?("inspect: \(error)")
        }
        return outcome
    }
}
