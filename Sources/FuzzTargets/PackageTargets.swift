internal import IAPKit

/// The whole path a user's `iapkg validate` and `iapkg inspect` take on a package file.
enum PackageTargets {
    /// Validates and inspects the input (a package, or TOC XML wrapped by `XarContainer`).
    static func validate(_ input: [UInt8]) {
        let path = ScratchFile.write(XarContainer.package(from: input))
        _ = try? PackageValidator.validate(path)
        _ = try? PackageInspector.inspect(path)
    }
}
