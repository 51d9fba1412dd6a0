/// Every rule, collected from the rule groups by family in README's order: the one catalogue
/// `iapkg rules`, SARIF and README's generated table read.
extension Rule {
    /// Every rule of the catalogue, by family in README's order, each group's in declaration order.
    public static let all: [Rule] = RuleFamily.allCases.flatMap { family in groups(of: family).flatMap(\.rules) }

    /// The rule whose id is `id`, if any.
    public static func named(_ id: String) -> Rule? { byID[id] }

    private static let byID: [String: Rule] = Dictionary(
        all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
}
