import IAPKit

/// Packages made in the test process by the library, as `iapkg build` makes them: for the tests
/// whose subject is what takes packages in (serve, fetch, the store), where starting a process per
/// package was most of their time. `iapkg build` itself is tested through the binary elsewhere.
enum InProcessBuild {
    /// Builds the content folder `folder` into the package `output`.
    static func package(_ folder: String, to output: String, level: Int32 = 7, layout: PackageLayout = .product)
        throws
    {
        _ = try PackageBuilder.build(
            folder: folder, options: BuildOptions(layout: layout, output: output, compressionLevel: level))
    }
}
