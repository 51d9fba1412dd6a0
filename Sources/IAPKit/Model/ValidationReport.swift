import IAPCrypto
import IAPRules
import XarKit

/// How strictly, and against what, `PackageValidator` judges.
public struct ValidationOptions: Sendable {
    /// Warnings count as errors.
    public var strict: Bool
    /// The product identifier the package must carry.
    public var productIdentifier: String?
    /// A version the package's ContentVersion must be greater than.
    public var newerThan: ContentVersion?
    /// Largest package accepted (default 2 GiB, Apple's cap).
    public var maxSize: UInt64
    /// Largest unpacked total accepted (default 2 GiB: a device must store it).
    public var maxUnpackedSize: UInt64
    /// For an Xcode project: the In-App Purchase Content target to judge (needed when it has several).
    public var target: String?
    /// For an Xcode project: the build configuration read (default: the target's default, Release).
    public var configuration: String?
    /// Certificates a package's signature chain must lead to; empty: signatures are verified, trust not judged.
    package var trustAnchors: [X509Certificate] = []
    /// The largest package accepted by default: 2 GiB, Apple's cap.
    public static let defaultMaxSize: UInt64 = PackageLimits.packageBytes
    /// The largest unpacked total accepted by default: 2 GiB.
    public static let defaultMaxUnpackedSize: UInt64 = PackageLimits.unpackedBytes

    public init(
        strict: Bool = false, productIdentifier: String? = nil, newerThan: ContentVersion? = nil,
        maxSize: UInt64 = ValidationOptions.defaultMaxSize,
        maxUnpackedSize: UInt64 = ValidationOptions.defaultMaxUnpackedSize
    ) {
        self.maxUnpackedSize = maxUnpackedSize
        self.strict = strict
        self.productIdentifier = productIdentifier
        self.newerThan = newerThan
        self.maxSize = maxSize
    }

    /// Adds the certificates of PEM text (`-----BEGIN CERTIFICATE-----` blocks) as trust anchors:
    /// every signature's chain must then lead to one of them, and an unsigned package fails.
    public mutating func addTrustAnchors(pem: [UInt8]) throws(IAPKitError) {
        do {
            trustAnchors += try X509Certificate.certificates(pem: pem)
        } catch {
            throw .refused("the trust anchor is not a PEM certificate: \(error.message)")
        }
    }
}

/// The verdict on one input (a .pkg or a content folder).
public struct ValidationReport: Codable, Sendable {
    /// What was validated: a package of either shape, a content folder, or an Xcode project.
    public enum Kind: String, Codable, Sendable {
        case product, tree, folder, project
    }

    public var path: String
    public var valid: Bool
    /// The package's shape ("product", "tree"), "folder" or "project"; nil when the container could not be read.
    public var shape: Kind?
    public var productIdentifier: String?
    public var contentVersion: String?
    public var errors: Int
    public var warnings: Int
    public var findings: [Finding]
    /// The package's signatures: whether each verifies, its chain, trust; absent when unsigned.
    public var signatures: [SignatureCheck]?

    /// Assembles a report; with `strict`, warnings become errors.
    init(
        path: String, shape: Kind?, info: ContentInfo?, findings: [Finding], strict: Bool,
        signatures: [XarSignatureCheck]? = nil
    ) {
        var all = findings
        if strict {
            for i in all.indices where all[i].severity == .warning { all[i].severity = .error }
        }
        self.path = path
        self.shape = shape
        self.productIdentifier = info?.productIdentifier
        self.contentVersion = info?.contentVersion.text
        self.errors = all.filter { $0.severity == .error }.count
        self.warnings = all.filter { $0.severity == .warning }.count
        self.valid = errors == 0
        self.findings = all
        self.signatures = signatures?.map(SignatureCheck.init)
    }
}
