/// The package's size and the size its content unpacks to.
public struct SizeRules: RuleGroup {
    public let sizePackageLimit = Rule(
        "size-package-limit", .error, .size,
        "The package is over 2 GiB (or --max-size).",
        "App Store hosted content is at most 2 GiB a package. Split the content into several products, compress it better, or raise the cap with --max-size for a server that accepts more.",
        tableNote: "over 2 GiB or `--max-size`"
    )
    public let sizeUnpackedLimit = Rule(
        "size-unpacked-limit", .error, .size,
        "The content unpacks to over 2 GiB (or --max-unpacked-size).",
        "A device must store what it unpacks, and a small package that unpacks to gigabytes is a bomb whatever its ratio. Split the content, or raise the cap with --max-unpacked-size for a server that accepts more.",
        tableNote: "unpacks to over 2 GiB or `--max-unpacked-size`"
    )
    public let sizeDeclaredBomb = Rule(
        "size-declared-bomb", .error, .size,
        "Declared sizes describe a decompression bomb.",
        "The sizes the package declares are far more than its compressed bytes could hold (or decoding ran past them), so it is refused before anything is decoded. Refuse the package; rebuild it if it is yours."
    )
    public let sizePackageNearLimit = Rule(
        "size-package-near-limit", .warning, .size,
        "The package is over 2,000,000,000 bytes, close to the 2 GiB cap.",
        "Apple's '2 GB' may mean 2,000,000,000 bytes rather than 2 GiB; a package between the two may be refused. Keep it under 2,000,000,000 bytes to be safe.",
        tableNote: "over 2,000,000,000 bytes"
    )
}
