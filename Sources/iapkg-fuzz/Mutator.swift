/// Every mutation the fuzzer applies, with its weight in the random choice and its report name.
enum Mutator: Int, CaseIterable {
    case truncate, bitFlip, byteOverwrite, interestingValue, headerField, splice
    case tocNumber, tocDuplicateFile, tocDeleteFile, tocMoveFile, tocType, tocName, tocDoctype, tocEncoding
    case tocChecksum, tocLink, tocText, entryContent, payloadCpio, stacked

    /// The name used in the report and in saved files.
    var name: String {
        switch self {
        case .truncate: "truncate"
        case .bitFlip: "bit-flip"
        case .byteOverwrite: "byte-overwrite"
        case .interestingValue: "interesting-value"
        case .headerField: "header-field"
        case .splice: "splice"
        case .tocNumber: "toc-number"
        case .tocDuplicateFile: "toc-duplicate-file"
        case .tocDeleteFile: "toc-delete-file"
        case .tocMoveFile: "toc-move-file"
        case .tocType: "toc-type"
        case .tocName: "toc-name"
        case .tocDoctype: "toc-doctype"
        case .tocEncoding: "toc-encoding"
        case .tocChecksum: "toc-checksum"
        case .tocLink: "toc-link"
        case .tocText: "toc-text"
        case .entryContent: "entry-content"
        case .payloadCpio: "payload-cpio"
        case .stacked: "stacked"
        }
    }

    /// Relative frequency: byte-level mutations about 40%, structure-aware ones about 60%.
    var weight: Int {
        switch self {
        case .truncate: 8
        case .bitFlip: 10
        case .byteOverwrite: 8
        case .interestingValue: 7
        case .headerField: 5
        case .splice: 5
        case .tocNumber: 9
        case .tocDuplicateFile, .tocDeleteFile, .tocMoveFile, .tocType, .tocEncoding, .tocLink: 3
        case .tocName: 4
        case .tocDoctype: 2
        case .tocChecksum: 4
        case .tocText: 5
        case .entryContent: 9
        case .payloadCpio: 10
        case .stacked: 6
        }
    }

    /// True for the mutators that edit the inflated TOC text.
    var editsTOC: Bool { (Mutator.tocNumber.rawValue...Mutator.tocText.rawValue).contains(rawValue) }

    /// A weighted random choice.
    static func choose(_ random: inout SplitMix64) -> Mutator {
        let total = allCases.reduce(0) { $0 + $1.weight }
        var roll = random.below(total)
        for mutator in allCases {
            if roll < mutator.weight { return mutator }
            roll -= mutator.weight
        }
        return .bitFlip
    }
}
