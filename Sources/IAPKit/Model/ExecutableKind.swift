import IAPRules

/// Executable code recognised by its bytes.
public enum ExecutableKind: String, Sendable, Codable, Equatable {
    case machO = "Mach-O"
    case machOUniversal = "Mach-O universal"
    case elf = "ELF"
    case pe = "PE (Windows)"
    case webAssembly = "WebAssembly"

    /// "a" or "an", as the name needs.
    public var article: String { self == .elf ? "an" : "a" }

    /// The validation rule that reports this kind.
    public var rule: Rule {
        switch self {
        case .machO: Rule.execMacho
        case .machOUniversal: Rule.execMachoUniversal
        case .elf: Rule.execElf
        case .pe: Rule.execPe
        case .webAssembly: Rule.execWasm
        }
    }
}

/// What sniffing a file's bytes found.
public struct ContentSniff: Sendable, Equatable {
    public var executable: ExecutableKind?
    /// Starts with `#!`.
    public var isScript: Bool

    public init(executable: ExecutableKind? = nil, isScript: Bool = false) {
        self.executable = executable
        self.isScript = isScript
    }
}
