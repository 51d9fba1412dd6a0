import BomKit
import IAPRules
import IAPSystem
import PayloadKit
import XMLKit
import XarKit

extension IAPKitError {
    /// The one translation of an error from a lower layer into the domain's: an `IAPKitError` as it
    /// is; a `SystemError` as ``system(_:)``; with the `path` of the package being read, a xar, Payload,
    /// Bom or ContentInfo.plist error as ``invalid(path:findings:)`` holding the finding of the rule it
    /// breaks; anything else as ``failed(_:)``, in words.
    package init(_ error: any Error, path: String? = nil) {
        switch error {
        case let error as IAPKitError: self = error
        case let error as SystemError: self = .system(error)
        case let error as XarError where path != nil:
            self = .invalid(path: path ?? "", findings: [error.finding()])
        case let error as PayloadError where path != nil:
            self = .invalid(path: path ?? "", findings: [error.rule.finding(nil, "\(error)")])
        case let error as BomError where path != nil:
            self = .invalid(path: path ?? "", findings: [error.rule.finding(nil, "\(error)")])
        case let error as PropertyListError where path != nil:
            self = .invalid(path: path ?? "", findings: [error.finding()])
        default: self = .failed("\(error)")
        }
    }
}

/// Runs `body`, translating whatever it throws with ``IAPKitError/init(_:path:)``: the boundary
/// between the format modules and the domain's commands.
package func translatingErrors<T>(path: String? = nil, _ body: () throws -> T) throws(IAPKitError) -> T {
    do {
        return try body()
    } catch {
        throw IAPKitError(error, path: path)
    }
}
