#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LocalFiles {
    /// Copies `source` to `target` (replacing what is there): where a hard link cannot be made.
    static func copy(_ source: String, to target: String) throws(FetchError) {
        do {
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: source, toPath: target)
        } catch {
            throw .local(target, "cannot be written (\(error))")
        }
    }
}
