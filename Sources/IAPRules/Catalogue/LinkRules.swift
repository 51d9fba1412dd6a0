/// Symbolic and hard links.
public struct LinkRules: RuleGroup {
    public let linkAbsolute = Rule(
        "link-absolute", .error, .links,
        "A symlink's target is an absolute path.",
        "An absolute target points at the device's own files, outside the content. Make the target relative and inside Contents/, or replace the link with a copy."
    )
    public let linkEscape = Rule(
        "link-escape", .error, .links,
        "A symlink leads above the content root.",
        "Resolved through every other link of the package, the target leaves Contents/, so the app would read files outside the content. Point the link inside Contents/, or replace it with a copy."
    )
    public let linkLoop = Rule(
        "link-loop", .error, .links,
        "Symlinks form a loop.",
        "Following the links never ends; readers fail or hang. Break the loop and rebuild."
    )
    public let linkEmpty = Rule(
        "link-empty", .error, .links,
        "A symlink has an empty target.",
        "An empty target means nothing and is read differently by every system. Remove the link or give it a target."
    )
    public let linkWriteThrough = Rule(
        "link-write-through", .error, .links,
        "An entry is written through a symlink.",
        "An entry's path passes through a symlink of the same package, so unpacking would write wherever the link points. Remove the link or the entry behind it and rebuild."
    )
    public let linkHardExternal = Rule(
        "link-hard-external", .error, .links,
        "A hard link points outside the content.",
        "A hard link may only name another entry of the same package; this one names a path that is not in it. Replace it with a copy of the file and rebuild."
    )
    public let linkDangling = Rule(
        "link-dangling", .warning, .links,
        "A symlink's target does not exist in the content.",
        "The link points at nothing the package holds, so the app finds nothing there. Fix the target or remove the link."
    )
    public let linkHard = Rule(
        "link-hard", .warning, .links,
        "An entry is a hard link.",
        "Hard links inside the package are allowed, but unpack writes them as copies. Replace it with a copy (or a relative symlink) if that matters."
    )
}
