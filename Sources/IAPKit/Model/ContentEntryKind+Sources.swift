import IAPSystem
import PayloadKit
import XarKit

/// The one place where every source's kind of entry becomes a ``ContentEntry/Kind``: a file on
/// disk (``FileKind``), a xar TOC `<type>` (``XarFileType``) and a cpio header (``PayloadEntry/Kind``).
extension ContentEntry.Kind {
    /// The kind for a file system object's status.
    init(_ kind: FileKind) {
        switch kind {
        case .regular: self = .file
        case .directory: self = .directory
        case .symlink: self = .symlink
        case .fifo: self = .fifo
        case .characterDevice: self = .characterDevice
        case .blockDevice: self = .blockDevice
        case .socket: self = .socket
        case .unknown(let bits): self = .unknown("type \(String(bits, radix: 8))")
        }
    }

    /// The kind for a cpio entry.
    init(_ kind: PayloadEntry.Kind) {
        switch kind {
        case .file: self = .file
        case .directory: self = .directory
        case .symlink: self = .symlink
        case .hardlink: self = .hardlink
        case .fifo: self = .fifo
        case .characterDevice: self = .characterDevice
        case .blockDevice: self = .blockDevice
        case .socket: self = .socket
        case .unknown(let bits): self = .unknown("type \(String(bits, radix: 8))")
        }
    }

    /// The kind for a xar TOC type.
    init(_ type: XarFileType) {
        switch type {
        case .file: self = .file
        case .directory: self = .directory
        case .symlink: self = .symlink
        case .hardlink: self = .hardlink
        case .fifo: self = .fifo
        case .characterSpecial: self = .characterDevice
        case .blockSpecial: self = .blockDevice
        case .socket: self = .socket
        case .other(let name): self = .unknown(name)
        }
    }
}
