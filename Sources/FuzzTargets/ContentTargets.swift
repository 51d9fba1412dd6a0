internal import IAPKit
internal import IAPSystem

/// The `content` target: a content folder described by the input (`ContentDescription`), packaged
/// with valid checksums (`ContentPackageWriter`), so that the content rules see every input; then
/// validated, inspected and, when valid, unpacked into a sandboxed version store.
enum ContentTargets {
    /// Runs one input in a sandbox of its own, removed afterwards.
    static func validateAndUnpack(_ input: [UInt8]) {
        _ = run(input, in: UnpackSandbox())
    }

    /// Builds, validates, inspects and (when valid) unpacks the package `input` describes into
    /// `sandbox`, then checks the sandbox; returns the validation report.
    static func run(_ input: [UInt8], in sandbox: UnpackSandbox) -> ValidationReport {
        let description = ContentDescription(input)
        let scratch = ScratchFile.empty()
        do {
            try ContentPackageWriter.write(description, to: scratch.file, heapFolder: sandbox.heap)
        } catch {
            preconditionFailure("cannot write the package: \(error)")
        }
        let options = validationOptions(description)
        guard let report = try? PackageValidator.validate(scratch.path, options: options) else {
            preconditionFailure("validate threw on a readable package")
        }
        _ = try? PackageInspector.inspect(scratch.path)
        guard report.valid else { return report }
        let unpack = UnpackOptions(
            strict: options.strict, maxUnpackedSize: options.maxUnpackedSize,
            productIdentifier: options.productIdentifier)
        do {
            let result = try Unpacker.unpack(scratch.path, into: sandbox.store, options: unpack)
            precondition(
                result.productIdentifier == report.productIdentifier, "unpack and validate disagree on the product")
        } catch {
            preconditionFailure("validate found the package valid, unpack refused it: \(error)")
        }
        sandbox.check()
        return report
    }

    /// `--strict`, `--product-id`, `--newer-than` and `--max-unpacked-size` as the input's options say.
    static func validationOptions(_ description: ContentDescription) -> ValidationOptions {
        var options = ValidationOptions(strict: description.options.contains("strict"))
        options.productIdentifier = description.values["id"]
        options.newerThan = description.values["newer"].flatMap(ContentVersion.init)
        if let max = description.values["max"].flatMap({ UInt64($0) }) { options.maxUnpackedSize = max }
        return options
    }
}
