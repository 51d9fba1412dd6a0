import IAPRules
import XMLKit

extension PropertyListError {
    /// The rule a refused ContentInfo.plist breaks: the one place a property-list error gets a rule.
    /// XMLKit's errors carry none, as XMLKit reads XML for the TOC, Distribution and PackageInfo too,
    /// where the same kind of fault breaks another family's rule; the only property list a package
    /// holds is ContentInfo.plist, so here each kind maps to a `plist-*` rule.
    var rule: Rule {
        switch kind {
        case .tooLarge: Rule.plistSize
        case .malformed, .doctype, .internalSubset, .entity, .unknownElement, .invalidStructure, .duplicateKey,
            .invalidValue, .truncated, .outOfRange, .cycle, .limit, .unsupported, .keyNotFound, .wrongType:
            Rule.plistSyntax
        }
    }

    /// The finding this error is for the ContentInfo.plist at `entry`: its rule, where, what and what to do.
    func finding(entry: String = "ContentInfo.plist") -> Finding {
        rule.finding(
            entry, "ContentInfo.plist is not a valid property list: \(self); fix it or recreate it with iapkg init")
    }
}
