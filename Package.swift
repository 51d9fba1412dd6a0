// swift-tools-version:6.1
import Foundation
import PackageDescription

/// iapkg: build, inspect, validate and unpack In-App Purchase hosted-content packages.
///
/// Linux only (Debian 12, glibc): the only platform built and tested.
///
/// Layers (imports point down): iapkg → IAPKitCLI → IAPServe → IAPKit → XarKit / BomKit / PayloadKit / XMLKit /
/// XcodeKit → IAPCompression → IAPSystem → IAPCrypto → C; IAPGate → IAPPurchase, IAPDelivery;
/// IAPRules (the rule catalogue, findings) sits under them all and depends on nothing.
let package = Package(
    name: "iapkg",
    products: [
        .executable(name: "iapkg", targets: ["iapkg"]),
        .library(name: "IAPKit", targets: ["IAPKit"]),
        // The download client for apps and mirrors (URLSession on Apple platforms, AsyncHTTPClient on Linux).
        .library(name: "IAPClient", targets: ["IAPClient"]),
        // manifest.json and current.json: the documents every store publishes and every client reads.
        .library(name: "IAPDelivery", targets: ["IAPDelivery"]),
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
        // OpenSSL's libcrypto behind owner classes: digests, HMAC, X.509 chains, signature checks.
        .target(name: "IAPCrypto", dependencies: ["COpenSSL"]),
        // The operating system: files and folders by descriptor, processes, threads, memory, the
        // folder watcher and systemd's notifier; text helpers. The only module that calls the system.
        .target(name: "IAPSystem", dependencies: ["CShims", "IAPCrypto"]),
        // zlib, libdeflate, bzip2 and xz: streaming decoders and the parallel gzip and xz encoders.
        .target(name: "IAPCompression", dependencies: ["CZlib", "CDeflate", "CBzip2", "CLzma", "IAPSystem"]),
        // libxml2, strictly: a SAX event parser, a small element tree, property lists.
        .target(name: "XMLKit", dependencies: ["CLibXML2", "IAPSystem"]),
        // The xar container: header, TOC, heap, checksums; a strict reader and a reproducible writer.
        .target(name: "XarKit", dependencies: ["IAPRules", "IAPSystem", "IAPCompression", "IAPCrypto", "XMLKit"]),
        // The BOMStore "bill of materials" of a component package.
        .target(name: "BomKit", dependencies: ["IAPRules", "IAPSystem", "CShims"]),
        // The component Payload: cpio (odc) written through libarchive; read by our own parser,
        // compressed with gzip, bzip2 or xz.
        .target(name: "PayloadKit", dependencies: ["CLibArchive", "IAPRules", "IAPSystem", "IAPCompression"]),
        // Xcode projects: a strict old-style property list reader, an In-App Purchase Content target's files.
        .target(name: "XcodeKit", dependencies: ["IAPRules", "IAPSystem"]),
        // The delivery documents, owned here for the store, the gate and the client: `current.json` and
        // `manifest.json` (types, the bytes a store writes, strict decoding, the path and product-id
        // rules, their JSON Schemas), and the plan an update downloads. Swift and FoundationEssentials only.
        .target(name: "IAPDelivery", exclude: ["Schemas"]),
        // The domain: content folders, ContentInfo, rules, build, inspect, validate, unpack.
        .target(
            name: "IAPKit",
            dependencies: [
                "IAPRules", "IAPSystem", "IAPCrypto", "XMLKit", "XarKit", "BomKit", "PayloadKit", "XcodeKit", "IAPDelivery",
            ]),
        // `iapkg serve`: the drop-folder daemon (intake, a queue per product, retries on a full disk,
        // retention, health), publishing through IAPKit's version store.
        .target(name: "IAPServe", dependencies: ["IAPKit", "IAPRules", "IAPSystem"]),
        // The download client: fetches a published version over HTTP, verified, resumable, in deltas,
        // installed atomically. URLSession on Apple platforms; on Linux AsyncHTTPClient (added with the
        // web stack below; URLSession in IAPKG_NO_WEB=1 builds), FoundationEssentials and IAPSystem.
        // SHA-256 from OpenSSL through IAPCrypto on Linux, from swift-crypto (CryptoKit's API) elsewhere.
        .target(
            name: "IAPClient",
            dependencies: [
                "IAPDelivery",
                .target(name: "IAPCrypto", condition: .when(platforms: [.linux])),
                .target(name: "IAPSystem", condition: .when(platforms: [.linux])),
                .product(
                    name: "Crypto", package: "swift-crypto",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
            ]),
        // Commands, options, text/JSON/JUnit rendering, exit codes.
        .target(
            name: "IAPKitCLI",
            dependencies: [
                "IAPKit", "IAPServe", "IAPRules", "IAPSystem", "IAPCrypto", "XMLKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ], exclude: ["Schemas"]),
        .executableTarget(name: "iapkg", dependencies: ["IAPSystem", "IAPCrypto", "IAPKitCLI", "IAPBucketStore"]),
        // `iapkg fetch`: the download client and its HTTP stack (AsyncHTTPClient on swift-nio; no full
        // Foundation, ICU or libcurl), an executable of its own beside `iapkg`.
        .executableTarget(
            name: "iapkg-fetch",
            dependencies: ["IAPClient", "IAPSystem", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // libFuzzer targets, one per parser of untrusted bytes (`.ci/fuzz` builds them with
        // -sanitize=fuzzer,address -DFUZZING); a plain build makes `iapkg-fuzz TARGET FILE…`, which replays inputs.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "IAPKit", "IAPRules", "XarKit", "BomKit", "PayloadKit", "XMLKit", "XcodeKit", "IAPSystem", "IAPCompression",
                "IAPCrypto", "IAPPurchase",
            ]),
        .executableTarget(name: "iapkg-fuzz", dependencies: ["FuzzTargets", "IAPSystem"], exclude: ["README.md"]),

        // What the test targets share: the one way a test starts a process (the built binary or any
        // other program), scratch folders, and the fixtures' one xar writer, one odc writer and one
        // seeded generator.
        .target(
            name: "IAPTestSupport", dependencies: ["IAPSystem", "IAPCompression", "IAPCrypto", "CTestProcess"],
            path: "Tests/IAPTestSupport"),
        // The test process's own set-up, before Swift Testing starts: no backtrace for every error
        // thrown (SWT_SWIFT_ERROR_BACKTRACING_ENABLED=1 brings it back; test_process.c says why).
        .target(name: "CTestProcess", path: "Tests/CTestProcess"),
        // Packages made by hand to break one rule each (trees, product archives, encoded names) and
        // validate's verdicts judged in process or through the binary: for IAPKit's tests and the end-to-end tests.
        .target(
            name: "IAPKitTestSupport",
            dependencies: ["IAPTestSupport", "IAPKit", "IAPRules", "BomKit", "IAPCompression", "IAPSystem"],
            path: "Tests/IAPKitTestSupport"),
        .testTarget(name: "IAPRulesTests", dependencies: ["IAPRules"]),
        .testTarget(name: "IAPClientTests", dependencies: ["IAPClient", "IAPDelivery"]),
        .testTarget(name: "IAPDeliveryTests", dependencies: ["IAPDelivery"]),
        .testTarget(name: "IAPSystemTests", dependencies: ["IAPSystem", "IAPCrypto"]),
        .testTarget(name: "IAPCompressionTests", dependencies: ["IAPCompression", "IAPSystem", "IAPCrypto", "IAPTestSupport"]),
        .testTarget(name: "IAPCryptoTests", dependencies: ["IAPCrypto", "IAPSystem"]),
        .testTarget(name: "XMLKitTests", dependencies: ["XMLKit"]),
        .testTarget(
            name: "XarKitTests",
            dependencies: ["XarKit", "IAPRules", "IAPSystem", "IAPCompression", "IAPCrypto", "IAPTestSupport"]),
        .testTarget(name: "BomKitTests", dependencies: ["BomKit", "IAPSystem", "IAPTestSupport"]),
        .testTarget(
            name: "PayloadKitTests", dependencies: ["PayloadKit", "IAPSystem", "IAPCompression", "IAPCrypto", "IAPTestSupport"]),
        .testTarget(name: "XcodeKitTests", dependencies: ["XcodeKit", "IAPRules"]),
        .testTarget(
            name: "IAPKitTests",
            dependencies: [
                "IAPKit", "IAPRules", "XarKit", "BomKit", "PayloadKit", "XMLKit", "IAPSystem", "IAPCompression", "IAPCrypto",
                "IAPTestSupport", "IAPKitTestSupport",
            ]),
        .testTarget(
            name: "IAPKitCLITests", dependencies: ["IAPKitCLI", "IAPKit", "IAPRules", "IAPSystem", "IAPTestSupport"]),
        .testTarget(
            name: "FuzzTargetsTests",
            dependencies: [
                "FuzzTargets", "IAPKit", "IAPRules", "XarKit", "BomKit", "PayloadKit", "XcodeKit", "IAPSystem", "IAPCompression",
                "IAPPurchase",
            ],
            exclude: ["Corpus", "Dictionaries", "Regressions"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "IAPKit", "IAPRules", "XarKit", "BomKit", "IAPSystem", "IAPCompression", "IAPCrypto", "IAPTestSupport",
                "IAPKitTestSupport", "IAPClient", "IAPPurchase", "CTestProcess",
            ],
            exclude: ["Fixtures"]),
    ]
)

// The purchase verifier: StoreKit 2 signed transactions and download tokens, on OpenSSL's libcrypto
// through IAPCrypto (the X.509 verifier and the keys the xar signature checks use); its tests.
package.products.append(.library(name: "IAPPurchase", targets: ["IAPPurchase"]))
package.targets += [
    // StoreKit 2 signed transactions verified offline (x5c chain to a configured root, Apple's
    // marker extensions, ES256) and download tokens (HMAC-SHA256): the library face of `iapkg gate`.
    .target(name: "IAPPurchase", dependencies: ["IAPCrypto"]),
    // What App Store Server Notifications decided (revocations), kept in SQLite in WAL mode: durable
    // before a notification is answered, shared by the gates of one host.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "IAPRevocationState", dependencies: ["IAPPurchase", "IAPSystem", "CSQLite", "IAPObjectStore"]),
    .testTarget(
        name: "IAPRevocationStateTests",
        dependencies: ["IAPRevocationState", "IAPPurchase", "IAPObjectStore", "IAPTestSupport"]),
    // A root, intermediate and leaf shaped as Apple's StoreKit chain, made in-process with libcrypto,
    // and signed transactions made with them: for the verifier's tests and the gate's.
    .target(
        name: "IAPPurchaseTestSupport", dependencies: ["IAPPurchase", "COpenSSL"],
        path: "Tests/IAPPurchaseTestSupport"),
    .testTarget(name: "IAPPurchaseTests", dependencies: ["IAPPurchase", "IAPPurchaseTestSupport"]),
]

// The object store: an S3 client (our own SigV4 signer, Debian's libcurl for the transport, credentials
// and endpoint as the AWS tools read them) for the version store in a bucket and the gate's presigned URLs.
package.targets += [
    .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .target(
        name: "IAPObjectStore", dependencies: ["CCurl", "IAPSystem", "IAPCrypto", "XMLKit"], exclude: ["README.md"]),
    .testTarget(
        name: "IAPObjectStoreTests", dependencies: ["IAPObjectStore", "IAPSystem", "IAPCrypto", "IAPTestSupport"],
        exclude: ["Fixtures"]),
    // The version store in a bucket: IAPKit's ObjectBucket on this client, registered by the iapkg
    // executable so that every command taking a store ROOT takes s3://BUCKET/PREFIX.
    .target(name: "IAPBucketStore", dependencies: ["IAPKit", "IAPSystem", "IAPObjectStore"]),
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
                "IAPPurchase", "IAPRevocationState", "IAPDelivery", "IAPSystem", "IAPObjectStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "iapkg-gate", dependencies: ["IAPGate"]),
        .testTarget(
            name: "IAPGateTests",
            dependencies: [
                "IAPGate", "IAPPurchase", "IAPRevocationState", "IAPDelivery", "IAPPurchaseTestSupport",
                "IAPTestSupport", "IAPObjectStore",
            ]),
    ]
}
