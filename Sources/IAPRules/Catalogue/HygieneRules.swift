/// Clutter a package should not carry.
public struct HygieneRules: RuleGroup {
    public let hygieneJunkFile = Rule(
        "hygiene-junk-file", .warning, .hygiene,
        "Operating-system or version-control clutter (.DS_Store, ._*, .git…).",
        "Finder, archivers and version control leave files the app never reads; they waste space and may leak paths or history. Remove them; `iapkg build` leaves them out."
    )
    public let hygieneEmptyContents = Rule(
        "hygiene-empty-contents", .warning, .hygiene,
        "Contents/ is empty.",
        "A package with nothing under Contents/ delivers nothing. Add the content, or do not ship the package."
    )
    public let hygieneExtension = Rule(
        "hygiene-extension", .warning, .hygiene,
        "A package's file name does not end in .pkg.",
        "App Store uploads required the .pkg extension and tools pick a reader by it. Rename the file to end in .pkg."
    )
}
