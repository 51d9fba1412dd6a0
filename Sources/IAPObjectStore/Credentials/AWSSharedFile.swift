internal import IAPSystem

/// One of the AWS tools' INI files, `~/.aws/credentials` or `~/.aws/config`: sections of
/// `name = value` lines; `#` and `;` start comments; an indented line under `name =` belongs to a
/// nested block (`s3 =`), kept as `name.key`.
package struct AWSSharedFile: Sendable, Equatable {
    /// The file's path, for messages.
    package var path: String
    /// Section name (`default`, `profile dev`, `dev`) to its settings, names lower-cased.
    package var sections: [String: [String: String]]

    /// The file at `path`; an empty file when nothing is there. A file that is there but cannot be
    /// read (permissions, a folder, over 1 MiB) is an error.
    package static func read(_ path: String) throws(S3Error) -> AWSSharedFile {
        guard FileSystem.status(path) != nil else { return AWSSharedFile(path: path, sections: [:]) }
        do {
            let bytes = try FileSystem.readSmallFile(path)
            return parse(String(decoding: bytes, as: UTF8.self), path: path)
        } catch {
            throw S3Error(
                .invalidConfiguration, operation: "read AWS settings", bucket: "",
                message: "cannot read \(path): \(error); fix its permissions or point AWS_CONFIG_FILE / "
                    + "AWS_SHARED_CREDENTIALS_FILE elsewhere")
        }
    }

    /// The settings in `text`.
    package static func parse(_ text: String, path: String) -> AWSSharedFile {
        var sections: [String: [String: String]] = [:]
        var current: String?
        var nested: String?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let indented = rawLine.first == " " || rawLine.first == "\t"
            let line = rawLine.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast()).trimmingBlanks()
                nested = nil
                if let current, sections[current] == nil { sections[current] = [:] }
                continue
            }
            guard let section = current, let equals = line.firstIndex(of: "=") else { continue }
            let name = String(line[..<equals]).trimmingBlanks().lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingBlanks()
            if indented, let nested {
                sections[section, default: [:]][nested + "." + name] = value
            } else if value.isEmpty {
                nested = name
            } else {
                nested = nil
                sections[section, default: [:]][name] = value
            }
        }
        return AWSSharedFile(path: path, sections: sections)
    }

    /// The settings of `profile` in the credentials file (section `[name]`).
    package func credentialsProfile(_ profile: String) -> [String: String]? { sections[profile] }

    /// The settings of `profile` in the config file (`[default]`, or `[profile name]`; `[name]` too).
    package func configProfile(_ profile: String) -> [String: String]? {
        if profile == "default" { return sections["default"] ?? sections["profile default"] }
        return sections["profile " + profile] ?? sections[profile]
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
