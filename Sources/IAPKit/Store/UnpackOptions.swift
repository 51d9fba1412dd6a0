import IAPRules
import IAPSystem

/// How `Unpacker` installs packages into a version store.
public struct UnpackOptions: Sendable {
    /// Point `current` at the new version (unless it is lower and downgrades are not allowed).
    public var activate: Bool
    /// Keep at most this many versions per product (never removing the current one).
    public var keep: Int?
    /// Install a version lower than the current one.
    public var allowDowngrade: Bool
    /// Replace an installed version whose content differs.
    public var force: Bool
    /// Validate with warnings as errors.
    public var strict: Bool
    /// Largest unpacked total accepted (default 2 GiB).
    public var maxUnpackedSize: UInt64
    /// The product identifier a package must have (nil: any).
    public var productIdentifier: String?
    /// With `allowDowngrade`, also point `current` at a lower version (false: `current` only moves up).
    public var activateLowerVersions = true
    /// `keep` never removes a version that was current less than this many seconds ago (apps that
    /// read `current.json` before the switch may still be downloading it).
    public var keepFor: Int64 = UnpackOptions.defaultKeepFor
    /// Let a version found already installed with identical content become current as a new one
    /// would (the service sets it when it handles a package again after a kill or a failure, which
    /// may have stopped before `current` moved). Otherwise re-delivering a version never moves
    /// `current`; nor does it ever while an operator's rollback is pinned.
    package var activateInstalled = false
    /// What a refusal of different content under an installed version tells the user to do.
    package var replaceAdvice = "pass --force to replace it"

    /// The default of `keepFor`: one day.
    public static let defaultKeepFor: Int64 = 86_400

    public init(
        activate: Bool = true, keep: Int? = nil, allowDowngrade: Bool = false, force: Bool = false,
        strict: Bool = false,
        maxUnpackedSize: UInt64 = ValidationOptions.defaultMaxUnpackedSize, productIdentifier: String? = nil
    ) {
        self.productIdentifier = productIdentifier
        self.maxUnpackedSize = maxUnpackedSize
        self.activate = activate
        self.keep = keep
        self.allowDowngrade = allowDowngrade
        self.force = force
        self.strict = strict
    }
}

/// What unpacking one package did.
public struct UnpackReport: Codable, Sendable {
    /// `installed`, `already-installed` (identical content was there) or `replaced` (--force).
    public enum Action: String, Codable, Sendable {
        case installed
        case alreadyInstalled = "already-installed"
        case replaced
    }

    public var path: String
    public var productIdentifier: String
    public var version: String
    public var action: Action
    /// Where the version's folder is.
    public var folder: String
    /// The version `current` points to afterwards.
    public var current: String?
    /// Versions removed by --keep.
    public var removed: [String]
    public var files: Int
    public var bytes: UInt64
    public var seconds: Double
    public var warnings: [Finding]
}
