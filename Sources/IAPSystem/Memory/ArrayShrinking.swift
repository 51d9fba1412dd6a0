extension Array {
    /// Gives the array storage of exactly its count when growth by doubling left more than a
    /// sixteenth of it empty (up to half: megabytes for lists of 100,000 entries). Copies once;
    /// call when the list is complete and little else is alive.
    package mutating func shrinkToFit() {
        guard capacity - count > count / 16 else { return }
        self = withUnsafeBufferPointer { Array($0) }
    }
}
