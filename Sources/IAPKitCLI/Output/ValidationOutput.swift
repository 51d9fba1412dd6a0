import IAPKit

/// The validation results of one run, rendered as text, JSON, JUnit or workflow annotations.
struct ValidationOutput {
    var reports: [ValidationReport]
    var unreadable: [(path: String, message: String)]

    /// The JSON document: schemaVersion, an overall verdict, one object per input.
    struct Document: Encodable {
        var schemaVersion = 1
        var valid: Bool
        var inputs: [ValidationReport]
        var unreadable: [Unreadable]
    }

    struct Unreadable: Encodable {
        var path: String
        var message: String
    }

    var document: Document {
        Document(
            valid: unreadable.isEmpty && reports.allSatisfy(\.valid), inputs: reports,
            unreadable: unreadable.map { Unreadable(path: $0.path, message: $0.message) })
    }
}
