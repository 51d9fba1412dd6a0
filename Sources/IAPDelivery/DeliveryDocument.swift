/// The names, schema version and size limits of the two documents a version store publishes for
/// clients: `<product>/current.json` (``CurrentPointer``) and `<product>/<version>/manifest.json`
/// (``VersionManifest``).
package enum DeliveryDocument {
    /// The manifest's name inside a version folder.
    package static let manifestName = "manifest.json"
    /// The pointer's name inside a product folder.
    package static let pointerName = "current.json"
    /// The schema version both documents carry.
    package static let schemaVersion = 1
    /// Largest `current.json` read: it holds four short fields.
    package static let pointerLimit = 64 * 1024
    /// Largest `manifest.json` read: about 150 bytes a file, so room for a million files.
    package static let manifestLimit = 256 * 1024 * 1024
}

/// Why a delivery document was refused: the document (`current.json`, `1.2/manifest.json`) and
/// what is wrong with it.
package struct DeliveryDocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The document's name as a reader knows it.
    package var document: String
    /// What is wrong, in a sentence.
    package var problem: String

    /// A refusal of `document` because of `problem`.
    package init(_ document: String, _ problem: String) {
        self.document = document
        self.problem = problem
    }

    /// `document: problem`.
    package var description: String { "\(document): \(problem)" }
}
