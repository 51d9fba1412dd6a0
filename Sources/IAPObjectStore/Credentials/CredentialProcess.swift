internal import IAPSystem

#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

/// A profile's `credential_process`, run as the AWS CLI runs it: the command line split as a shell
/// would split words and quotes (no shell runs it), its standard output one JSON document
/// (`Version` 1, `AccessKeyId`, `SecretAccessKey`, optional `SessionToken` and `Expiration`).
/// What it prints is never repeated in a message: it holds the secret.
enum CredentialProcess {
    /// The document the process prints.
    private struct Document: Decodable {
        var version: Int
        var accessKeyID: String
        var secretAccessKey: String
        var sessionToken: String?
        var expiration: String?

        enum CodingKeys: String, CodingKey {
            case version = "Version"
            case accessKeyID = "AccessKeyId"
            case secretAccessKey = "SecretAccessKey"
            case sessionToken = "SessionToken"
            case expiration = "Expiration"
        }
    }

    /// The credentials `command` prints; `place` names the profile and file it came from.
    static func credentials(_ command: String, from place: String) throws(S3Error) -> S3Credentials {
        let words = split(command)
        let program = words.first ?? ""
        func failure(_ what: String) -> S3Error {
            S3Error(
                .invalidConfiguration, operation: "run credential_process", bucket: "",
                message: "credential_process `\(program)` of \(place) \(what)")
        }
        guard !program.isEmpty else { throw failure("is empty") }
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(words, outputLimit: 64 * 1024, timeout: 60) } catch {
            throw failure("could not run: \(error)")
        }
        guard result.status == 0 else { throw failure("ended with exit status \(result.status) (its messages above)") }
        guard let document = try? JSONDecoder().decode(Document.self, from: Data(result.output)) else {
            throw failure("printed no JSON document with AccessKeyId and SecretAccessKey")
        }
        guard document.version == 1 else { throw failure("printed Version \(document.version); only 1 is known") }
        var credentials = S3Credentials(
            accessKeyID: document.accessKeyID, secretAccessKey: document.secretAccessKey,
            sessionToken: document.sessionToken, source: "credential_process of \(place)")
        if let text = document.expiration {
            guard let expiration = UTCTimestamp.seconds(text) else {
                throw failure("printed an Expiration that is not an ISO 8601 UTC time (2026-11-28T13:00:00Z)")
            }
            credentials.expiration = expiration
        }
        return credentials
    }

    /// The words of `line`: split at spaces and tabs outside quotes; `'…'` keeps everything,
    /// `"…"` keeps everything but `\"` and `\\`, a backslash outside quotes keeps the next character.
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                inWord = true
                if character == "'" || character == "\"" {
                    quote = character
                } else if character == "\\" {
                    escaped = true
                } else {
                    word.append(character)
                }
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
