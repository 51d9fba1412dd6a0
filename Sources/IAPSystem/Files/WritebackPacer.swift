/// Asks the kernel to start writing a file out after every `step` bytes written to it
/// (`FileDescriptor.startWriteback`), so that the flush made before the file is renamed into place
/// waits for its tail only, not for all of it.
package struct WritebackPacer {
    /// The bytes between two requests, unless told otherwise.
    package static let defaultStep = 8 << 20

    private let step: Int
    private var sinceLastRequest = 0

    package init(step: Int = WritebackPacer.defaultStep) { self.step = step }

    /// Counts `count` bytes just written to `file`; starts its writeback once `step` have gathered.
    package mutating func wrote(_ count: Int, to file: FileDescriptor) {
        sinceLastRequest += count
        guard sinceLastRequest >= step else { return }
        file.startWriteback()
        sinceLastRequest = 0
    }
}
