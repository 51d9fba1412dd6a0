extension String {
    /// The text cut or padded with spaces to `width` characters, for aligned columns (what
    /// Foundation's `padding(toLength:withPad:startingAt:)` does with a space).
    func paddedOrCut(to width: Int) -> String {
        let count = self.count
        return count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
