/// The content root and the parts of a product archive.
public struct ShapeRules: RuleGroup {
    public let shapeMissingContentinfo = Rule(
        "shape-missing-contentinfo", .error, .shape,
        "The content has no ContentInfo.plist at its root.",
        "Hosted content is a content root holding ContentInfo.plist and Contents/; without the plist the store cannot tell which product and version it is. Add ContentInfo.plist (`iapkg init` writes one) and rebuild."
    )
    public let shapeMissingContents = Rule(
        "shape-missing-contents", .error, .shape,
        "The content has no Contents/ folder at its root.",
        "The files an app receives live under Contents/; a package without it delivers nothing. Put the content under Contents/ and rebuild."
    )
    public let shapeContentinfoType = Rule(
        "shape-contentinfo-type", .error, .shape,
        "ContentInfo.plist is not a regular file.",
        "ContentInfo.plist must be a plain file, not a folder, a link or a device. Replace it with a regular file and rebuild."
    )
    public let shapeContentsType = Rule(
        "shape-contents-type", .error, .shape,
        "Contents is not a folder.",
        "Contents must be a folder holding the content, not a file or a link. Replace it with a folder and rebuild."
    )
    public let shapeExtraRootEntry = Rule(
        "shape-extra-root-entry", .error, .shape,
        "The content root holds something besides ContentInfo.plist and Contents/.",
        "Only ContentInfo.plist and Contents/ belong at the content root; anything else is not delivered the same way by every reader. Move it under Contents/ or remove it, and rebuild."
    )
    public let shapeProductLayout = Rule(
        "shape-product-layout", .error, .shape,
        "A product archive's entries are not Distribution and one NAME.pkg component.",
        "A product archive holds a Distribution file and exactly one component folder NAME.pkg with Bom, PackageInfo and Payload; other entries are ignored or misread by installers. Rebuild the package with `iapkg build` (or productbuild)."
    )
    public let shapeDistribution = Rule(
        "shape-distribution", .error, .shape,
        "A product archive's Distribution is missing or malformed.",
        "The Distribution file names the component and the product; it must be well-formed XML of the installer-gui-script shape. Rebuild the package."
    )
    public let shapePackageinfo = Rule(
        "shape-packageinfo", .error, .shape,
        "A component's PackageInfo is missing or malformed.",
        "PackageInfo describes the component (identifier, version, install location); it must be well-formed XML with a <pkg-info> root. Rebuild the package."
    )
    public let shapeBom = Rule(
        "shape-bom", .error, .shape,
        "A component's Bom is missing or malformed.",
        "The Bom (bill of materials) lists every path the Payload installs; a missing or undecodable Bom cannot be checked against the Payload. Rebuild the package."
    )
    public let shapePayload = Rule(
        "shape-payload", .error, .shape,
        "A component's Payload is missing or not a compressed cpio archive.",
        "The Payload carries the content as a compressed cpio (odc) archive; this one is missing, not compressed with gzip, bzip2, xz or pbzx, or not cpio. Rebuild the package."
    )
    public let shapePayloadPrefix = Rule(
        "shape-payload-prefix", .error, .shape,
        "A Payload entry lies outside ./ContentInfo.plist and ./Contents/.",
        "Every Payload path starts with ./ and lies under the content root (./ContentInfo.plist, ./Contents/…); anything else would be installed beside the content. Rebuild the package from a content folder."
    )
    public let shapeBomMismatch = Rule(
        "shape-bom-mismatch", .error, .shape,
        "The Bom disagrees with what the Payload contains.",
        "The Bom must list exactly the Payload's paths with their types, modes and sizes; a difference means one of them was changed or forged. Rebuild the package."
    )
}
