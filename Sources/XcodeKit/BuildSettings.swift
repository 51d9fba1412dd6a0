import IAPRules

/// A target's build settings in one configuration, expanded as Xcode expands them: `$(NAME)` and
/// `${NAME}` references to the settings the target and the project define there (the target's
/// winning, `$(inherited)` in a target setting meaning the project's value) and to the built-in
/// `TARGET_NAME`, `PRODUCT_NAME` (`$(TARGET_NAME)` unless set), `PROJECT_NAME`, `SRCROOT`,
/// `SOURCE_ROOT` and `PROJECT_DIR`. Anything else is an `xcode-build-setting` finding naming it.
struct BuildSettings {
    /// Deepest chain of references followed before it is called a cycle.
    static let maxDepth = 32

    let target: [String: String]
    let project: [String: String]
    let builtIn: [String: String]
    /// The configuration's name, for messages.
    let configuration: String

    /// The expanded value of `name`, or nil when neither the target nor the project sets it.
    func value(_ name: String) throws(XcodeProjectError) -> String? {
        guard target[name] != nil || project[name] != nil || builtIn[name] != nil else { return nil }
        return try expand(name: name, depth: 0, inTarget: true, via: [])
    }

    /// Expands `name` (a setting) as the target sees it.
    private func expand(name: String, depth: Int, inTarget: Bool, via: [String]) throws(XcodeProjectError)
        -> String
    {
        guard depth < Self.maxDepth, !via.contains(name) else {
            throw failure("the settings \((via + [name]).joined(separator: " → ")) refer to each other in a cycle")
        }
        let raw: String
        var targetLevel = false
        if inTarget, let own = target[name] {
            raw = own
            targetLevel = true
        } else if let shared = project[name] {
            raw = shared
        } else if name == "PRODUCT_NAME" {
            raw = "$(TARGET_NAME)"
        } else if let fixed = builtIn[name] {
            return fixed
        } else {
            throw failure(unknown(name, via: via))
        }
        return try substitute(raw, setting: name, depth: depth, targetLevel: targetLevel, via: via + [name])
    }

    /// `text` with every `$(…)` and `${…}` reference replaced.
    private func substitute(_ text: String, setting: String, depth: Int, targetLevel: Bool, via: [String])
        throws(XcodeProjectError) -> String
    {
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest.index(after: dollar)
            guard after < rest.endIndex, rest[after] == "(" || rest[after] == "{" else {
                throw failure(
                    "\(setting) = \"\(text)\" has a '$' that starts no $(NAME) or ${NAME} reference; iapkg does not guess what it means"
                )
            }
            let close: Character = rest[after] == "(" ? ")" : "}"
            guard let end = rest[after...].firstIndex(of: close) else {
                throw failure("\(setting) = \"\(text)\" has a reference that is never closed with '\(close)'")
            }
            let reference = String(rest[rest.index(after: after)..<end])
            guard !reference.isEmpty, reference.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw failure(
                    "\(setting) = \"\(text)\" refers to '\(reference)', which is not a plain setting name (modifiers, nested references and operators are not expanded)"
                )
            }
            if reference == "inherited" {
                guard targetLevel else {
                    throw failure("\(setting) uses $(inherited), which has no value at the project level")
                }
                if project[setting] != nil {
                    out += try expand(name: setting, depth: depth + 1, inTarget: false, via: [])
                }
            } else {
                out += try expand(name: reference, depth: depth + 1, inTarget: true, via: via)
            }
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    private func unknown(_ name: String, via: [String]) -> String {
        let chain = via.isEmpty ? "" : " (through \(via.joined(separator: " → ")))"
        return
            "the build setting \(name)\(chain) is neither set in the \(configuration) configuration nor one iapkg knows (TARGET_NAME, PRODUCT_NAME, PROJECT_NAME, SRCROOT, SOURCE_ROOT, PROJECT_DIR); write its value out in the target's build settings"
    }

    private func failure(_ message: String) -> XcodeProjectError {
        XcodeProjectError(Rule.xcodeBuildSetting, XcodeProject.entry, message)
    }
}
