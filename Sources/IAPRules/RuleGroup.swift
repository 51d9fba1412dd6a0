/// One file of the catalogue: its rules are the group's stored properties, collected by reflection
/// in the order they are declared, so that a rule declared is a rule listed.
public protocol RuleGroup: Sendable {}

extension RuleGroup {
    /// The group's rules, in the order the group declares them.
    var rules: [Rule] { Mirror(reflecting: self).children.compactMap { $0.value as? Rule } }
}

/// Each group once, each family's groups in the order of `RuleFamily`'s cases, and `Rule.xarMagic`
/// looked up in them.
extension Rule {
    static let containerArchive = ContainerArchiveRules()
    static let containerEntry = ContainerEntryRules()
    static let signature = SignatureRules()
    static let shape = ShapeRules()
    static let contentInfo = ContentInfoRules()
    static let size = SizeRules()
    static let executable = ExecutableRules()
    static let link = LinkRules()
    static let entry = EntryRules()
    static let hygiene = HygieneRules()
    static let store = StoreRules()
    static let pbzx = PbzxRules()
    static let xcode = XcodeRules()

    /// The groups whose rules belong to `family`, in the order of `RuleFamily`'s cases.
    static func groups(of family: RuleFamily) -> [any RuleGroup] {
        switch family {
        case .container: [containerArchive, containerEntry, signature]
        case .shape: [shape, pbzx]
        case .contentInfo: [contentInfo]
        case .size: [size]
        case .executable: [executable]
        case .links: [link]
        case .entries: [entry]
        case .hygiene: [hygiene]
        case .store: [store]
        case .xcode: [xcode]
        }
    }

    public static subscript(dynamicMember rule: KeyPath<ContainerArchiveRules, Rule>) -> Rule {
        containerArchive[keyPath: rule]
    }
    public static subscript(dynamicMember rule: KeyPath<ContainerEntryRules, Rule>) -> Rule {
        containerEntry[keyPath: rule]
    }
    public static subscript(dynamicMember rule: KeyPath<SignatureRules, Rule>) -> Rule { signature[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<ShapeRules, Rule>) -> Rule { shape[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<ContentInfoRules, Rule>) -> Rule { contentInfo[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<SizeRules, Rule>) -> Rule { size[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<ExecutableRules, Rule>) -> Rule { executable[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<LinkRules, Rule>) -> Rule { link[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<EntryRules, Rule>) -> Rule { entry[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<HygieneRules, Rule>) -> Rule { hygiene[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<StoreRules, Rule>) -> Rule { store[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<PbzxRules, Rule>) -> Rule { pbzx[keyPath: rule] }
    public static subscript(dynamicMember rule: KeyPath<XcodeRules, Rule>) -> Rule { xcode[keyPath: rule] }
}
