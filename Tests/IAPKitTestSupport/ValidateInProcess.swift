import Foundation
import IAPKit
import IAPSystem
import IAPTestSupport

/// `validate` run in this process, through the library the CLI calls (`PackageValidator`), with the
/// few command-line options the rule tests give mapped onto `ValidationOptions`: the rule tests
/// judge the rules, not the binary, and cost no process each. What only the binary shows (exit
/// codes, streams, the document's rendering) is tested by `Validate.run` and ValidateCLITests.
package enum ValidateInProcess {
    /// The document `validate --json` writes for one input, made from the report the library returns.
    private struct Document: Encodable {
        package var schemaVersion = 1
        package var valid: Bool
        package var inputs: [ValidationReport]
        package var unreadable: [[String: String]]
    }

    /// Validates `path` with the options `extra` names (--strict, --product-id, --newer-than,
    /// --max-size, --max-unpacked-size, --trust-anchor); exit status as the CLI would give it.
    package static func run(_ path: String, _ extra: [String]) throws -> ValidateRun {
        let start = Date()
        var status: Int32 = 0
        var stderr = ""
        var document = Document(valid: true, inputs: [], unreadable: [])
        do {
            let report = try PackageValidator.validate(path, options: try options(extra))
            document.inputs = [report]
            document.valid = report.valid
            status = report.valid ? 0 : 1
        } catch {
            status = Int32(error.exitStatus)
            stderr = "iapkg: error: \(error.description)\n"
            document.valid = false
            document.unreadable = [["path": path, "message": error.description]]
        }
        let seconds = Date().timeIntervalSince(start)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(document)
        let result = Harness.Result(
            status: status, stdout: String(decoding: data, as: UTF8.self), stderr: stderr, stdoutData: data)
        let decoded = try JSONDecoder().decode(ValidateRun.Document.self, from: data)
        return ValidateRun(result: result, document: decoded, seconds: seconds)
    }

    /// The options `extra` gives, as the CLI reads them.
    private static func options(_ extra: [String]) throws(IAPKitError) -> ValidationOptions {
        var options = ValidationOptions()
        var index = 0
        func value() -> String {
            index += 1
            return index < extra.count ? extra[index] : ""
        }
        while index < extra.count {
            switch extra[index] {
            case "--strict": options.strict = true
            case "--product-id": options.productIdentifier = value()
            case "--max-size": options.maxSize = UInt64(value()) ?? 0
            case "--max-unpacked-size": options.maxUnpackedSize = UInt64(value()) ?? 0
            case "--newer-than":
                let text = value()
                if let version = ContentVersion(text) {
                    options.newerThan = version
                } else {
                    options.newerThan = try ContentVersionOfInput.read(text)
                }
            case "--trust-anchor":
                let path = value()
                let pem: [UInt8]
                do { pem = try FileSystem.readSmallFile(path) } catch { throw .system(error) }
                try options.addTrustAnchors(pem: pem)
            default: preconditionFailure("ValidateInProcess does not know the option \(extra[index])")
            }
            index += 1
        }
        return options
    }
}
