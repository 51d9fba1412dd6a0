/// What `iapkg serve` reports when a valid package cannot be installed.
public struct StoreRules: RuleGroup {
    public let unpackRefused = Rule(
        "unpack-refused", .error, .store,
        "iapkg serve refused to install a valid package (a lower version, other content under an installed version).",
        "The package passed validation, but installing it would move the store back (a version lower than the current one, without --allow-downgrade) or replace content already installed under the same version. Bump ContentVersion and rebuild, or pass --allow-downgrade if going back is meant."
    )
    public let unpackFailed = Rule(
        "unpack-failed", .error, .store,
        "iapkg serve could not install a valid package for its own reasons (an I/O error, a full disk).",
        "The package is fine, but writing it into the store failed. Fix the cause (free disk space, permissions), then drop the package into the incoming folder again."
    )
}
