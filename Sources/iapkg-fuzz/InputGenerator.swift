/// One valid package the mutations start from.
struct Seed {
    /// A short label: "product", "tree", "bsdtar".
    var name: String
    /// The file's bytes.
    var bytes: [UInt8]
    /// The file taken apart (nil if it could not be, which would be a seed bug).
    var parts: XarParts?
    /// True when the package has a `Payload` entry (product shape).
    var hasPayload: Bool
}

/// One mutated input: its bytes and how it was made.
struct GeneratedInput {
    var bytes: [UInt8]
    var mutator: Mutator
    var seedName: String
    var description: String
}

/// Makes input number `index` of a run: a pure function of (run seed, index), so any input can be
/// made again by the supervisor to save it, or by `--run`-style reproduction.
struct InputGenerator {
    let seeds: [Seed]
    let runSeed: UInt64

    /// Input number `index`.
    func generate(_ index: UInt64) -> GeneratedInput {
        var random = SplitMix64(seed: runSeed, index: index)
        let mutator = Mutator.choose(&random)
        var seed = seeds[random.below(seeds.count)]
        if mutator == .payloadCpio, !seed.hasPayload, let product = seeds.first(where: { $0.hasPayload }) {
            seed = product
        }
        var bytes = seed.bytes
        let description: String
        switch mutator {
        case .truncate: description = ByteMutator.truncate(&bytes, &random)
        case .bitFlip: description = ByteMutator.flipBits(&bytes, &random)
        case .byteOverwrite: description = ByteMutator.overwriteBytes(&bytes, &random)
        case .interestingValue: description = ByteMutator.interestingValue(&bytes, &random)
        case .headerField: description = ByteMutator.headerField(&bytes, &random)
        case .splice: description = ByteMutator.splice(&bytes, donor: seeds[random.below(seeds.count)].bytes, &random)
        case .stacked:
            guard var parts = seed.parts else { return fallback(seed, &random) }
            var steps: [String] = []
            for _ in 0..<random.inRange(2...3) {
                let step =
                    Mutator(rawValue: random.inRange(Mutator.tocNumber.rawValue...Mutator.payloadCpio.rawValue))
                    ?? .tocText
                if let done = structural(step, &parts, &random) { steps.append("\(step.name): \(done)") }
            }
            bytes = XarSurgery.assemble(
                parts, level: Int32(random.inRange(1...9)), fixChecksum: random.chance(9, in: 10))
            if random.chance(1, in: 3) { steps.append(ByteMutator.flipBits(&bytes, &random)) }
            description = steps.joined(separator: "; ")
        default:
            guard var parts = seed.parts, let done = structural(mutator, &parts, &random) else {
                return fallback(seed, &random)
            }
            let fix = random.chance(17, in: 20)
            bytes = XarSurgery.assemble(parts, level: Int32(random.inRange(1...9)), fixChecksum: fix)
            description = done + (fix ? "" : " (TOC digest left stale)")
        }
        if bytes.count > ByteMutator.maxInputBytes { bytes.removeSubrange(ByteMutator.maxInputBytes...) }
        return GeneratedInput(bytes: bytes, mutator: mutator, seedName: seed.name, description: description)
    }

    /// A structure-aware edit of `parts`; nil when it did not apply.
    private func structural(_ mutator: Mutator, _ parts: inout XarParts, _ random: inout SplitMix64) -> String? {
        if mutator.editsTOC {
            var toc = TOCText(bytes: parts.tocXML)
            let done: String?
            switch mutator {
            case .tocNumber: done = TOCMutator.number(&toc, &random)
            case .tocDuplicateFile: done = TOCMutator.duplicateFile(&toc, &random)
            case .tocDeleteFile: done = TOCMutator.deleteFile(&toc, &random)
            case .tocMoveFile: done = TOCMutator.moveFile(&toc, &random)
            case .tocType: done = TOCMutator.type(&toc, &random)
            case .tocName: done = TOCMutator.name(&toc, &random)
            case .tocDoctype: done = TOCMutator.doctype(&toc, &random)
            case .tocEncoding: done = TOCMutator.encoding(&toc, &random)
            case .tocChecksum: done = TOCMutator.checksum(&toc, &random)
            case .tocLink: done = TOCMutator.link(&toc, &random)
            default: done = TOCMutator.text(&toc, &random)
            }
            if done != nil { parts.tocXML = toc.bytes }
            return done
        }
        switch mutator {
        case .entryContent:
            return EntryDataMutator.mutate(
                &parts, &random,
                choose: { entries, random in
                    entries.isEmpty ? nil : random.pick(entries)
                }, change: { bytes, name, random in ContentMutator.mutate(&bytes, name: name, &random) })
        case .payloadCpio:
            return EntryDataMutator.mutate(
                &parts, &random,
                choose: { entries, _ in
                    entries.first { $0.name == "Payload" }
                }, change: { bytes, _, random in CpioMutator.mutate(&bytes, &random) })
        default:
            return nil
        }
    }

    /// When a structure-aware mutation does not apply: bit flips on the seed, reported as such.
    private func fallback(_ seed: Seed, _ random: inout SplitMix64) -> GeneratedInput {
        var bytes = seed.bytes
        let description = ByteMutator.flipBits(&bytes, &random)
        return GeneratedInput(bytes: bytes, mutator: .bitFlip, seedName: seed.name, description: description)
    }
}
