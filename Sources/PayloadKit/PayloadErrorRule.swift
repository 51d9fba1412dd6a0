import IAPRules

extension PayloadError {
    /// The rule a Payload that fails this way breaks: a name that is not UTF-8 breaks
    /// ``Rule/entryNameInvalid``, decoding past the cap ``Rule/sizeDeclaredBomb``, anything else
    /// ``Rule/shapePayload`` (not a readable compressed cpio archive).
    public var rule: Rule {
        switch self {
        case .invalidEntryName: .entryNameInvalid
        case .decompressionBomb: .sizeDeclaredBomb
        case .malformedPbzx(let fault, _): fault.rule
        default: .shapePayload
        }
    }
}

extension PbzxFault {
    /// The rule a pbzx Payload that breaks this way breaks.
    public var rule: Rule {
        switch self {
        case .header: .shapePbzxHeader
        case .chunkSize: .shapePbzxChunkSize
        case .truncated: .shapePbzxTruncated
        case .chunkDecode: .shapePbzxChunkDecode
        case .chunkEncoding: .shapePbzxChunkEncoding
        case .trailing: .shapePbzxTrailing
        }
    }
}
