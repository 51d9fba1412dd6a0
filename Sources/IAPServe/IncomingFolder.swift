import IAPKit
import IAPSystem

/// The folder packages are dropped into, and its bookkeeping folders (all on one file system):
/// a package is claimed by renaming it into `.processing/`, and handled for good when it is
/// renamed into `accepted/` or `rejected/` (the commit point), its report beside it.
///
/// A report is written first as a hidden `.NAME.report.json.pending`, the package is moved, then
/// the report is renamed to `NAME.report.json`; `recoverReports` finishes or drops what a kill
/// between those steps left. Names never clash: `NAME-1.pkg`, `NAME-2.pkg`… when one is taken.
final class IncomingFolder: Sendable {
    static let processingName = ".processing"
    static let acceptedName = "accepted"
    static let rejectedName = "rejected"
    static let reportSuffix = ".report.json"
    static let pendingSuffix = ".report.json.pending"

    let folder: DirectoryHandle
    let processing: DirectoryHandle
    let accepted: DirectoryHandle
    let rejected: DirectoryHandle

    /// Opens `path`, creating the bookkeeping folders if missing.
    init(_ path: String) throws {
        folder = try DirectoryHandle.open(path)
        processing = try folder.makeOrOpenDirectory(Self.processingName, mode: 0o700)
        accepted = try folder.makeOrOpenDirectory(Self.acceptedName, mode: 0o755)
        rejected = try folder.makeOrOpenDirectory(Self.rejectedName, mode: 0o755)
    }

    /// Whether a name dropped into the folder is a package to take: `*.pkg`, not hidden
    /// (`*.part`, `*.tmp` and hidden names are uploads still under way).
    static func isPackageName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.hasSuffix(".pkg") && name.count > 4 && !name.contains("/")
    }

    /// Why a name that looks like a package is not taken as one (nil: take it): the entry is not
    /// a regular file (never followed nor opened), or its suffix is `.PKG` in other letters.
    static func oddity(_ name: String, _ status: FileStatus) -> String? {
        if !name.hasSuffix(".pkg") {
            return "only names ending in '.pkg' (lower case) are taken; rename it to end in '.pkg'"
        }
        let kind: String
        switch status.kind {
        case .regular: return nil
        case .symlink: kind = "a symbolic link (never followed)"
        case .directory: kind = "a folder"
        case .fifo: kind = "a FIFO (named pipe)"
        case .socket: kind = "a socket"
        case .characterDevice, .blockDevice: kind = "a device"
        case .unknown: kind = "not a regular file"
        }
        return "it is \(kind), not a package file; upload the package file itself"
    }

    /// Whether a name ends in `.pkg` in any letters, not hidden: what the drop folder's odd
    /// entries are checked among.
    static func looksLikePackage(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.count > 4 && name.lowercased().hasSuffix(".pkg") && !name.contains("/")
    }

    /// Packages claimed by an earlier run and not committed: to be handled again.
    func claimed() throws -> [String] {
        try processing.names().filter(Self.isPackageName)
    }

    /// Claims `name`: true if it is now ours, false if a package of that name is being handled
    /// (try again later), nil if it is gone.
    func claim(_ name: String) throws -> Bool? {
        let claimed = try folder.renameNoReplace(name, to: name, in: processing)
        if claimed == true {
            try processing.sync()
            try folder.sync()
        }
        return claimed
    }

    /// Finishes or drops reports that a kill between writing and renaming left hidden.
    func recoverReports() throws {
        for destination in [accepted, rejected] {
            for name in try destination.names() where name.hasPrefix(".") && name.hasSuffix(Self.pendingSuffix) {
                let package = String(name.dropFirst().dropLast(Self.pendingSuffix.count))
                if destination.status(package) != nil,
                    try destination.renameNoReplace(name, to: package + Self.reportSuffix) == true
                {
                    continue
                }
                try destination.removeTree(name)
            }
            try destination.sync()
        }
    }

    /// Commits the claimed package `name` (from `.processing/`, or `source`): its report, made for
    /// the path the package will have, beside it, then the package moved into `accepted/` or
    /// `rejected/` under a free name. Returns the package's new path, or nil if it was gone.
    func commit(
        _ name: String, from source: DirectoryHandle? = nil, accepted isAccepted: Bool,
        report: (String) -> [UInt8]
    ) throws -> String? {
        let processing = source ?? self.processing
        let destination = isAccepted ? accepted : rejected
        let stem = String(name.dropLast(4))
        for attempt in 0..<100_000 {
            let target = attempt == 0 ? name : "\(stem)-\(attempt).pkg"
            let pending = "." + target + Self.pendingSuffix
            guard destination.status(target) == nil, destination.status(target + Self.reportSuffix) == nil,
                destination.status(pending) == nil
            else { continue }
            let file: FileDescriptor
            do {
                file = try destination.createFile(pending, mode: 0o644)
            } catch let error as SystemError where error.code == SystemError.Code.exists {
                continue
            }
            try file.write(report(destination.child(target)))
            try file.sync()
            switch try processing.renameNoReplace(name, to: target, in: destination) {
            case true?:
                try destination.sync()
                try processing.sync()
                _ = try destination.renameNoReplace(pending, to: target + Self.reportSuffix)
                try destination.sync()
                return destination.child(target)
            case false?:
                try destination.removeTree(pending)
            case nil:
                try destination.removeTree(pending)
                return nil
            }
        }
        throw SystemError("find a free name for", path: destination.child(name), code: SystemError.Code.exists)
    }

    /// Removes the oldest packages (with their reports) of `accepted/` and `rejected/` beyond
    /// `keep` in each, oldest by the time their report was written (the commit). Returns the paths removed.
    func pruneReports(keep: Int) throws -> [String] {
        var removed: [String] = []
        for destination in [accepted, rejected] {
            let names = try destination.names().filter { !$0.hasPrefix(".") && !$0.hasSuffix(Self.reportSuffix) }
            guard names.count > keep else { continue }
            var dated: [(name: String, time: Int64, nanoseconds: Int64)] = []
            for name in names {
                let status = destination.status(name + Self.reportSuffix) ?? destination.status(name)
                dated.append((name, status?.modificationTime ?? 0, status?.modificationNanoseconds ?? 0))
            }
            dated.sort { ($0.time, $0.nanoseconds, $0.name) < ($1.time, $1.nanoseconds, $1.name) }
            for (name, _, _) in dated.prefix(names.count - keep) {
                try destination.removeTree(name + Self.reportSuffix)
                try destination.removeTree(name)
                removed.append(destination.child(name))
            }
        }
        return removed
    }
}
