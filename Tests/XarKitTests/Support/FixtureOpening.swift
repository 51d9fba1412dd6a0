import IAPSystem
import IAPTestSupport
import XarKit

/// Opening fixtures and summarising what the reader said about them.
extension ScratchFolder {
    /// Writes `fixture` and opens it.
    func open(_ fixture: XarFixture, limits: XarLimits = .init()) throws -> XarArchive {
        let path = try write(try fixture.bytes(), to: "fixture.xar")
        return try XarArchive.open(path: path, limits: limits)
    }

    /// The rule id `open` throws for `fixture`, or nil when it opens.
    func thrownRule(_ fixture: XarFixture, limits: XarLimits = .init()) throws -> String? {
        let path = try write(try fixture.bytes(), to: "fixture.xar")
        do {
            _ = try XarArchive.open(path: path, limits: limits)
            return nil
        } catch {
            return error.rule?.id
        }
    }
}

extension XarArchive {
    /// The distinct rule ids of error findings, sorted.
    var errorRules: [String] {
        Array(Set(findings.filter { $0.severity == .error }.map(\.rule))).sorted()
    }

    /// The distinct rule ids of warning findings, sorted.
    var warningRules: [String] {
        Array(Set(findings.filter { $0.severity == .warning }.map(\.rule))).sorted()
    }

    /// The file at `path`, or a failed expectation's error.
    func requireFile(_ path: String) throws -> XarFile {
        guard let file = toc.file(atPath: path) else { throw XarError(rule: nil, "no \(path)", advice: "") }
        return file
    }

    /// The rule id a full read of `path` throws, or nil when it reads cleanly.
    func readRule(_ path: String) throws -> String? {
        do {
            _ = try readAll(try requireFile(path), maxBytes: 1 << 30)
            return nil
        } catch let error as XarError {
            return error.rule?.id
        }
    }
}

extension String {
    /// The text with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }

    /// The text with the `length` characters after the first `marker` replaced.
    func replacingAfter(_ marker: String, length: Int, with replacement: String) -> String {
        guard let range = range(of: marker) else { return self }
        let end = index(range.upperBound, offsetBy: length)
        return replacingCharacters(in: range.upperBound..<end, with: replacement)
    }
}
