// Named ReleaseVersion, not IAPKitVersion: Swift 6.3's symbol graph left a type named
// IAPKitVersion out of the module's symbols, so DocC could not document it.

/// The version of iapkg and IAPKit: the one place it is written.
///
/// `iapkg --version` prints it, `.ci/make-deb` reads it from the built binary and names the Debian
/// package after it, and SARIF reports carry it as the tool's version.
public enum ReleaseVersion {
    /// The current release, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
