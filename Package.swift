// swift-tools-version:6.0
import PackageDescription

/// iapkg: build, inspect, validate and unpack In-App Purchase hosted-content packages.
///
/// Linux only (Debian 12, glibc): the only platform built and tested.
///
/// Layers (imports point down): iapkg → IAPKitCLI → IAPKit → XarKit / BomKit / PayloadKit / XMLKit / XcodeKit → IAPCore → C;
/// IAPRules (the rule catalogue, findings) sits under them all and depends on nothing.
let package = Package(
    name: "iapkg",
    products: [
        .executable(name: "iapkg", targets: ["iapkg"]),
        .library(name: "IAPKit", targets: ["IAPKit"]),
        // The download client for apps and mirrors (URLSession; builds for Apple platforms too).
        .library(name: "IAPClient", targets: ["IAPClient"]),
        .executable(name: "iapkg-fetch", targets: ["iapkg-fetch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target IAPKit` (the DocC catalogue in Sources/IAPKit/IAPKit.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // SHA-256 for the download client: CryptoKit's API on every platform (CryptoKit itself on Apple's).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // C libraries, found through pkg-config; only the wrapper modules import them.
        .systemLibrary(name: "CLibArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libdeflate: whole-buffer deflate, much faster than zlib at the same ratio (block-parallel gzip).
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // bzip2 and lzma/xz decoding for xar data and Payloads (Debian's libbz2 ships no .pc file).
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"])]),
        .systemLibrary(name: "CLzma", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"])]),

        // Files, digests and zlib streams: the byte plumbing every format module shares.
        // System calls glibc hides behind _GNU_SOURCE.
        .target(name: "CShims"),
        // The rule catalogue (one `Rule` per validation rule) and the findings made from it; no dependencies,
        // so every format module can name the rule its errors break.
        .target(name: "IAPRules"),
        .target(name: "IAPCore", dependencies: ["CZlib", "COpenSSL", "CShims", "CDeflate", "CBzip2", "CLzma"]),
        // libxml2, strictly: a SAX event parser, a small element tree, property lists.
        .target(name: "XMLKit", dependencies: ["CLibXML2", "IAPCore"]),
        // The xar container: header, TOC, heap, checksums; a strict reader and a reproducible writer.
        .target(name: "XarKit", dependencies: ["IAPRules", "IAPCore", "XMLKit"]),
        // The BOMStore "bill of materials" of a component package.
        .target(name: "BomKit", dependencies: ["IAPRules", "IAPCore"]),
        // The component Payload: cpio (odc) written through libarchive; read by our own parser,
        // compressed with gzip, bzip2 or xz.
        .target(name: "PayloadKit", dependencies: ["CLibArchive", "IAPRules", "IAPCore"]),
        // Xcode projects: a strict old-style property list reader, an In-App Purchase Content target's files.
        .target(name: "XcodeKit", dependencies: ["IAPRules", "IAPCore"]),
        // What an update downloads: the plan between two versions' file lists, shared by `iapkg diff`
        // and the download client; plain Swift, no dependencies.
        .target(name: "IAPDelivery"),
        // The domain: content folders, ContentInfo, rules, build, inspect, validate, unpack.
        .target(
            name: "IAPKit",
            dependencies: [
                "IAPRules", "IAPCore", "XMLKit", "XarKit", "BomKit", "PayloadKit", "XcodeKit", "IAPDelivery",
            ]),
        // The download client: fetches a published version over HTTP (URLSession), verified, resumable,
        // in deltas, installed atomically. Foundation and swift-crypto only, so it builds for Apple platforms.
        .target(
            name: "IAPClient",
            dependencies: ["IAPDelivery", .product(name: "Crypto", package: "swift-crypto")]),
        // Commands, options, text/JSON/JUnit rendering, exit codes.
        .target(
            name: "IAPKitCLI",
            dependencies: [
                "IAPKit", "IAPRules", "XMLKit", "XarKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], exclude: ["Schemas"]),
        .executableTarget(name: "iapkg", dependencies: ["IAPCore", "IAPKitCLI"]),
        // `iapkg fetch`: full Foundation and libcurl, so an executable of its own beside `iapkg`.
        .executableTarget(
            name: "iapkg-fetch",
            dependencies: ["IAPClient", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // libFuzzer targets, one per parser of untrusted bytes (`.ci/fuzz` builds them with
        // -sanitize=fuzzer,address -DFUZZING); a plain build makes `iapkg-fuzz TARGET FILE…`, which replays inputs.
        .target(
            name: "FuzzTargets",
            dependencies: ["IAPKit", "IAPRules", "XarKit", "BomKit", "PayloadKit", "XMLKit", "XcodeKit", "IAPCore"]),
        .executableTarget(name: "iapkg-fuzz", dependencies: ["FuzzTargets", "IAPCore"], exclude: ["README.md"]),

        // What the test targets share: running the built binary, scratch folders, fixture builders.
        .target(name: "IAPTestSupport", path: "Tests/IAPTestSupport"),
        .testTarget(name: "IAPRulesTests", dependencies: ["IAPRules"]),
        .testTarget(name: "IAPClientTests", dependencies: ["IAPClient", "IAPDelivery"]),
        .testTarget(name: "IAPCoreTests", dependencies: ["IAPCore"]),
        .testTarget(name: "XMLKitTests", dependencies: ["XMLKit"]),
        .testTarget(name: "XarKitTests", dependencies: ["XarKit", "IAPRules", "IAPCore", "IAPTestSupport"]),
        .testTarget(name: "BomKitTests", dependencies: ["BomKit", "IAPCore"]),
        .testTarget(name: "PayloadKitTests", dependencies: ["PayloadKit", "IAPCore"]),
        .testTarget(name: "XcodeKitTests", dependencies: ["XcodeKit", "IAPRules"]),
        .testTarget(
            name: "IAPKitTests",
            dependencies: [
                "IAPKit", "IAPRules", "XarKit", "BomKit", "PayloadKit", "XMLKit", "IAPCore", "IAPTestSupport",
            ]),
        .testTarget(
            name: "IAPKitCLITests", dependencies: ["IAPKitCLI", "IAPKit", "IAPRules", "IAPCore", "IAPTestSupport"]),
        .testTarget(
            name: "FuzzTargetsTests",
            dependencies: ["FuzzTargets", "IAPKit", "IAPRules", "XarKit", "BomKit", "PayloadKit", "XcodeKit", "IAPCore"],
            exclude: ["Corpus", "Dictionaries", "Regressions"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["IAPKit", "IAPRules", "XarKit", "BomKit", "IAPCore", "IAPTestSupport", "IAPClient"],
            exclude: ["Fixtures"]),
    ]
)
