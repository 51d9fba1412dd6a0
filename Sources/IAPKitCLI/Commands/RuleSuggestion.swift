import IAPRules

/// The rule a mistyped id most likely meant: the fewest edits away, if few enough to be a typo.
enum RuleSuggestion {
    /// The catalogue's rule nearest to `id`, or nil when none is within a third of its length.
    static func nearest(to id: String) -> Rule? {
        let typed = Array(id.lowercased().utf8)
        let scored = Rule.all.map { (rule: $0, distance: editDistance(typed, Array($0.id.utf8))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        return best.distance <= max(2, typed.count / 3) ? best.rule : nil
    }

    /// Levenshtein distance between two byte strings.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
