// What IAPKit's public API speaks besides its own types, re-exported so that `import IAPKit` is
// enough: the rule catalogue and its findings (IAPRules), and the failed system call an
// `IAPKitError.system` carries.
@_exported import IAPRules

@_exported import struct IAPCore.SystemError
