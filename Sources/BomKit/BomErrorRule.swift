import IAPRules

extension BomError {
    /// The rule a Bom that fails to read breaks: ``Rule/shapeBom``, whatever is wrong with it.
    package var rule: Rule { Rule.shapeBom }
}
