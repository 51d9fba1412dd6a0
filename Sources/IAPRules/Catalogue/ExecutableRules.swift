/// Executable code, judged by a file's bytes and by names.
public struct ExecutableRules: RuleGroup {
    public let execMacho = Rule(
        "exec-macho", .error, .executable,
        "A file is a Mach-O executable.",
        "Hosted content may not carry executable code; the file's bytes start with a Mach-O magic (judged by content, not by name). Remove the binary from Contents/ and rebuild."
    )
    public let execMachoUniversal = Rule(
        "exec-macho-universal", .error, .executable,
        "A file is a universal (fat) Mach-O binary.",
        "The file has a real fat header (1 to 30 architectures, slices inside the file): executable code, which hosted content may not carry. Remove it and rebuild."
    )
    public let execElf = Rule(
        "exec-elf", .error, .executable,
        "A file is an ELF executable.",
        "The file starts with the ELF magic: a Linux or Android binary or library, which hosted content may not carry. Remove it and rebuild."
    )
    public let execPe = Rule(
        "exec-pe", .error, .executable,
        "A file is a Windows PE executable.",
        "The file is a Windows executable (MZ with a PE header), which hosted content may not carry. Remove it and rebuild."
    )
    public let execWasm = Rule(
        "exec-wasm", .error, .executable,
        "A file is a WebAssembly module.",
        "The file starts with the WebAssembly magic: executable code, which hosted content may not carry. Remove it and rebuild."
    )
    public let execBundleName = Rule(
        "exec-bundle-name", .error, .executable,
        "An entry is named as code (.app, .framework, .dylib…).",
        "A path component ends in .app, .appex, .framework, .bundle, .plugin, .kext, .xpc or .dylib, which the system treats as code. Rename or remove it and rebuild.",
        tableNote: "`.app`, `.framework`, `.dylib`…"
    )
    public let execScript = Rule(
        "exec-script", .warning, .executable,
        "A file starts with #! (a script).",
        "A script is code if something runs it. Remove it, or keep it if the app only reads it as text.",
        tableNote: "`#!`"
    )
    public let execSharedLibrary = Rule(
        "exec-shared-library", .warning, .executable,
        "A file is named as a shared or static library (.so, .a).",
        "A .so or .a name suggests a library. Rename it if it is data, remove it if it is code.",
        tableNote: "`.so`, `.a`"
    )
    public let execModeBits = Rule(
        "exec-mode-bits", .warning, .executable,
        "A file has execute permission bits.",
        "Content is data; execute bits are never needed and are dropped on unpack. Clear them (chmod -x) and rebuild (`iapkg build` clears them)."
    )
}
