import IAPRules

extension PayloadError {
    /// The rule a Payload that fails this way breaks: a name that is not UTF-8 breaks
    /// ``Rule/entryNameInvalid``, decoding past the cap ``Rule/sizeDeclaredBomb``, a broken pbzx
    /// framing its `shape-pbzx-*` rule, anything else ``Rule/shapePayload`` (not a readable
    /// compressed cpio archive).
    package var rule: Rule {
        switch self {
        case .invalidEntryName: Rule.entryNameInvalid
        case .decompressionBomb: Rule.sizeDeclaredBomb
        case .malformedPbzx(let fault, _): fault.rule
        default: Rule.shapePayload
        }
    }
}

extension PbzxFault {
    /// The rule a pbzx Payload that breaks this way breaks.
    package var rule: Rule {
        switch self {
        case .header: Rule.shapePbzxHeader
        case .chunkSize: Rule.shapePbzxChunkSize
        case .truncated: Rule.shapePbzxTruncated
        case .chunkDecode: Rule.shapePbzxChunkDecode
        case .chunkEncoding: Rule.shapePbzxChunkEncoding
        case .trailing: Rule.shapePbzxTrailing
        }
    }
}
