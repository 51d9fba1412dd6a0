import Foundation

/// A ScratchFolder-like view of an existing folder that is never removed.
package struct ScratchFolderView {
    package let path: String

    package init(path: String) { self.path = path }

    package func snapshot(_ name: String) throws -> [String: Data] {
        let root = path + "/" + name
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let rel = enumerator?.nextObject() as? String {
            if rel == "manifest.json" { continue }  // the store's delivery manifest, not content
            let full = root + "/" + rel
            let attrs = try FileManager.default.attributesOfItem(atPath: full)
            switch attrs[.type] as? FileAttributeType {
            case .typeSymbolicLink?:
                result[rel] = Data(("-> " + (try FileManager.default.destinationOfSymbolicLink(atPath: full))).utf8)
            case .typeDirectory?: result[rel + "/"] = Data()
            default: result[rel] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return result
    }
}
