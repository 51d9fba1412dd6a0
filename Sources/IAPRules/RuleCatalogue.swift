/// Every rule, collected from the rule groups by family in the order of `RuleFamily`'s cases: the one
/// catalogue `iapkg rules`, SARIF and the generated rule table read.
extension Rule {
    /// Every rule of the catalogue, by family in the order of `RuleFamily`'s cases, each group's in declaration order.
    public static let all: [Rule] = RuleFamily.allCases.flatMap { family in groups(of: family).flatMap(\.rules) }

    /// The rule whose id is `id`, if any.
    public static func named(_ id: String) -> Rule? { byID[id] }

    private static let byID: [String: Rule] = Dictionary(
        all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
}
