import IAPRules

/// Executable code recognised by its bytes.
package enum ExecutableKind: String, Sendable, Codable, Equatable {
    case machO = "Mach-O"
    case machOUniversal = "Mach-O universal"
    case elf = "ELF"
    case pe = "PE (Windows)"
    case webAssembly = "WebAssembly"

    /// "a" or "an", as the name needs.
    package var article: String { self == .elf ? "an" : "a" }

    /// The validation rule that reports this kind.
    package var rule: Rule {
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
package struct ContentSniff: Sendable, Equatable {
    package var executable: ExecutableKind?
    /// Starts with `#!`.
    package var isScript: Bool

    package init(executable: ExecutableKind? = nil, isScript: Bool = false) {
        self.executable = executable
        self.isScript = isScript
    }
}
