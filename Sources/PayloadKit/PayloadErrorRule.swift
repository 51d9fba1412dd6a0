import IAPRules

extension PayloadError {
    /// The rule a Payload that fails this way breaks: a name that is not UTF-8 breaks
    /// ``Rule/entryNameInvalid``, decoding past the cap ``Rule/sizeDeclaredBomb``, anything else
    /// ``Rule/shapePayload`` (not a readable compressed cpio archive).
    public var rule: Rule {
        switch self {
        case .invalidEntryName: Rule.entryNameInvalid
        case .decompressionBomb: Rule.sizeDeclaredBomb
        default: Rule.shapePayload
        }
    }
}
