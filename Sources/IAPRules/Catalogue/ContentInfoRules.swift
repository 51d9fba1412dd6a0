/// ContentInfo.plist and what an update requires of it.
public struct ContentInfoRules: RuleGroup {
    public let plistSize = Rule(
        "plist-size", .error, .contentInfo,
        "ContentInfo.plist is over the 1 MiB cap.",
        "ContentInfo.plist holds two keys and a few more; a megabyte of it is a mistake or an attack on the parser. Shrink it to what the store needs."
    )
    public let plistSyntax = Rule(
        "plist-syntax", .error, .contentInfo,
        "ContentInfo.plist is not a well-formed property list.",
        "ContentInfo.plist must be an XML (at most the standard Apple DOCTYPE, never an internal DTD) or binary property list. Fix its syntax (`plutil -lint` shows where) or write it again with `iapkg init`."
    )
    public let plistRoot = Rule(
        "plist-root", .error, .contentInfo,
        "ContentInfo.plist's root is not a dictionary.",
        "The keys IAPProductIdentifier and ContentVersion live in a top-level <dict>. Make the root a dictionary."
    )
    public let plistProductId = Rule(
        "plist-product-id", .error, .contentInfo,
        "IAPProductIdentifier is missing or not a valid product identifier.",
        "IAPProductIdentifier is a string of letters, digits, '.', '_' and '-' (at most 100, no '..', starting with a letter or a digit): the product id of App Store Connect. Set it to the product's id."
    )
    public let plistContentVersion = Rule(
        "plist-content-version", .error, .contentInfo,
        "ContentVersion is missing or not a valid version.",
        "ContentVersion is a string of one to four dot-separated numbers (1, 1.2, 1.2.3); stores compare versions by it. Set it, or use `iapkg bump`."
    )
    public let plistProductIdMismatch = Rule(
        "plist-product-id-mismatch", .error, .contentInfo,
        "The product identifier is not the one --product-id requires.",
        "--product-id names the product this package must be for; ContentInfo.plist names another. Build the right content, or pass the right --product-id."
    )
    public let plistVersionNotNewer = Rule(
        "plist-version-not-newer", .error, .contentInfo,
        "ContentVersion is not greater than --newer-than.",
        "An update must carry a greater ContentVersion than the one it replaces, or devices keep the old content. Raise it with `iapkg bump` and rebuild."
    )
}
