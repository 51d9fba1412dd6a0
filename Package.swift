// swift-tools-version:6.1
import Foundation
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
        // The download client for apps and mirrors (URLSession on Apple platforms, AsyncHTTPClient on Linux).
        .library(name: "IAPClient", targets: ["IAPClient"]),
        .executable(name: "iapkg-fetch", targets: ["iapkg-fetch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target IAPKit` (the DocC catalogue in Sources/IAPKit/IAPKit.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `serve --metrics-file`: the Prometheus text format (no web stack; swift-metrics and swift-atomics only).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // SHA-256 for the download client, IAPClient, on Apple platforms (CryptoKit's API; OpenSSL's on Linux).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
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
        // The download client: fetches a published version over HTTP, verified, resumable, in deltas,
        // installed atomically. URLSession on Apple platforms; on Linux AsyncHTTPClient (added with the
        // web stack below; URLSession in IAPKG_NO_WEB=1 builds), FoundationEssentials and IAPCore.
        // SHA-256 from OpenSSL through IAPCore on Linux, from swift-crypto (CryptoKit's API) elsewhere.
        .target(
            name: "IAPClient",
            dependencies: [
                "IAPDelivery",
                .target(name: "IAPCore", condition: .when(platforms: [.linux])),
                .product(
                    name: "Crypto", package: "swift-crypto",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
            ]),
        // Commands, options, text/JSON/JUnit rendering, exit codes.
        .target(
            name: "IAPKitCLI",
            dependencies: [
                "IAPKit", "IAPRules", "XMLKit", "XarKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ], exclude: ["Schemas"]),
        .executableTarget(name: "iapkg", dependencies: ["IAPCore", "IAPKitCLI"]),
        // `iapkg fetch`: the download client and its HTTP stack (AsyncHTTPClient on swift-nio; no full
        // Foundation, ICU or libcurl), an executable of its own beside `iapkg`.
        .executableTarget(
            name: "iapkg-fetch",
            dependencies: ["IAPClient", "IAPCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // libFuzzer targets, one per parser of untrusted bytes (`.ci/fuzz` builds them with
        // -sanitize=fuzzer,address -DFUZZING); a plain build makes `iapkg-fuzz TARGET FILE…`, which replays inputs.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "IAPKit", "IAPRules", "XarKit", "BomKit", "PayloadKit", "XMLKit", "XcodeKit", "IAPCore", "IAPPurchase",
            ]),
        .executableTarget(name: "iapkg-fuzz", dependencies: ["FuzzTargets", "IAPCore"], exclude: ["README.md"]),

        // What the test targets share: running the built binary, scratch folders, fixture builders.
        .target(name: "IAPTestSupport", path: "Tests/IAPTestSupport"),
        .testTarget(name: "IAPRulesTests", dependencies: ["IAPRules"]),
        .testTarget(name: "IAPClientTests", dependencies: ["IAPClient", "IAPDelivery"]),
        .testTarget(name: "IAPCoreTests", dependencies: ["IAPCore"]),
        .testTarget(name: "XMLKitTests", dependencies: ["XMLKit"]),
        .testTarget(name: "XarKitTests", dependencies: ["XarKit", "IAPRules", "IAPCore", "IAPTestSupport"]),
        .testTarget(name: "BomKitTests", dependencies: ["BomKit", "IAPCore", "IAPTestSupport"]),
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
            dependencies: [
                "FuzzTargets", "IAPKit", "IAPRules", "XarKit", "BomKit", "PayloadKit", "XcodeKit", "IAPCore",
                "IAPPurchase",
            ],
            exclude: ["Corpus", "Dictionaries", "Regressions"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["IAPKit", "IAPRules", "XarKit", "BomKit", "IAPCore", "IAPTestSupport", "IAPClient"],
            exclude: ["Fixtures"]),
    ]
)

// The purchase verifier: StoreKit 2 signed transactions and download tokens, on OpenSSL's libcrypto
// through IAPCore (the X.509 verifier and the keys the xar signature checks use); its tests.
package.products.append(.library(name: "IAPPurchase", targets: ["IAPPurchase"]))
package.targets += [
    // StoreKit 2 signed transactions verified offline (x5c chain to a configured root, Apple's
    // marker extensions, ES256) and download tokens (HMAC-SHA256): the library face of `iapkg gate`.
    .target(name: "IAPPurchase", dependencies: ["IAPCore"]),
    // A root, intermediate and leaf shaped as Apple's StoreKit chain, made in-process with libcrypto,
    // and signed transactions made with them: for the verifier's tests and the gate's.
    .target(
        name: "IAPPurchaseTestSupport", dependencies: ["IAPPurchase", "COpenSSL"],
        path: "Tests/IAPPurchaseTestSupport"),
    .testTarget(name: "IAPPurchaseTests", dependencies: ["IAPPurchase", "IAPPurchaseTestSupport"]),
]

// The web stack (Hummingbird on swift-nio) in targets of its own: `iapkg-gate`, the HTTP service that
// `iapkg gate` runs, and its tests. IAPKG_NO_WEB=1 (the sanitizer and fuzz builds) leaves them out
// with their package dependencies, so those builds never compile a web stack.
if ProcessInfo.processInfo.environment["IAPKG_NO_WEB"] != "1" {
    package.dependencies.append(
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []))
    package.dependencies += [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ]
    // The download client's transport on Linux: AsyncHTTPClient on swift-nio (flow control, no full
    // Foundation, so iapkg-fetch links no ICU and no libcurl). Without it (IAPKG_NO_WEB=1, Apple
    // platforms) IAPClient takes URLSession.
    package.dependencies.append(.package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"))
    for target in package.targets where target.name == "IAPClient" || target.name == "IAPClientTests" {
        target.dependencies += [
            .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
            .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
        ]
    }
    package.products.append(.executable(name: "iapkg-gate", targets: ["iapkg-gate"]))
    package.targets += [
        // Routes, request limits, JSON logs and graceful shutdown of the gate; a library so tests run it in-process.
        .target(
            name: "IAPGate",
            dependencies: [
                "IAPPurchase", "IAPKit", "IAPCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "iapkg-gate", dependencies: ["IAPGate"]),
        .testTarget(
            name: "IAPGateTests",
            dependencies: ["IAPGate", "IAPPurchase", "IAPPurchaseTestSupport", "IAPTestSupport"]),
    ]
}
