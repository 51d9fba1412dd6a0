// The delivery documents' rules and types, owned by IAPDelivery: a product identifier's rules, and
// the `current.json` and `manifest.json` a store publishes.
@_exported import IAPDelivery
// What IAPKit's public API speaks besides its own types, re-exported so that `import IAPKit` is
// enough: the rule catalogue and its findings (IAPRules), and the failed system call an
// `IAPKitError.system` carries.
@_exported import IAPRules

@_exported import struct IAPSystem.SystemError
