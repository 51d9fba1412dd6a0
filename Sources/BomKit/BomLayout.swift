/// Constants of the BOMStore format (go-macos-pkg docs/formats/bom.md, hogliux/bomutils bom.h).
enum BomLayout {
    /// File signature at offset 0.
    static let magic: [UInt8] = Array("BOMStore".utf8)
    /// The one header version there is.
    static let version: UInt32 = 1
    /// Bytes of the fixed header (magic, version, block count, index range, variables range).
    static let headerSize = 32
    /// Where block data starts: the header is padded to 512 bytes (bomutils, stuckliste).
    static let firstBlockOffset = 512

    /// Signature of a tree block.
    static let treeMagic: [UInt8] = Array("tree".utf8)
    /// Bytes of a tree block: magic, version, child, block size, path count, one unknown byte.
    static let treeBlockSize = 21
    /// Bytes before the entries of a tree node: isLeaf u16, count u16, forward u32, backward u32.
    static let nodeHeaderSize = 12
    /// Bytes of one node entry: index0 u32, index1 u32.
    static let nodeEntrySize = 8
    /// Node size of the Paths, HLIndex and Size64 trees.
    static let pageSize = 4096
    /// Node size of the empty tree each HLIndex entry points at.
    static let hardLinkSubtreePageSize = 64
    /// Node size of the VIndex tree.
    static let virtualIndexPageSize = 128

    /// Fixed part of a path record, up to and including linkNameLength.
    static let recordFixedSize = 31
    /// An older record (PackageMaker) without checksum and link length: through the byte at 22.
    static let shortestRecordSize = 23
    /// An older record that ends right after its checksum.
    static let recordChecksumEnd = 27
    /// Most architectures an older Mach-O file record lists (a fat header allows far fewer in practice).
    static let maxArchitectures: UInt32 = 64
    /// The record's "architecture" field for ordinary (non-Mach-O) entries.
    static let ordinaryArchitecture: UInt16 = 15

    /// Variable names, in the order Apple writes them.
    static let bomInfoName = "BomInfo"
    static let pathsName = "Paths"
    static let hardLinkIndexName = "HLIndex"
    static let virtualIndexName = "VIndex"
    static let size64Name = "Size64"

    /// Entries one node of the given size holds.
    static func entriesPerNode(pageSize: Int) -> Int {
        (pageSize - nodeHeaderSize) / nodeEntrySize
    }

    /// st_mode type bits.
    static let typeMask: UInt16 = 0o170000
    static let regularFileType: UInt16 = 0o100000
    static let directoryType: UInt16 = 0o040000
    static let symlinkType: UInt16 = 0o120000
    static let characterDeviceType: UInt16 = 0o020000
    static let blockDeviceType: UInt16 = 0o060000

    /// The record type byte of a kind.
    static func typeCode(of kind: BomEntry.Kind) -> UInt8 {
        switch kind {
        case .file: 1
        case .directory: 2
        case .symlink: 3
        case .device: 4
        }
    }

    /// The kind a record type byte names, nil for anything else.
    static func kind(ofTypeCode code: UInt8) -> BomEntry.Kind? {
        switch code {
        case 1: .file
        case 2: .directory
        case 3: .symlink
        case 4: .device
        default: nil
        }
    }

    /// Whether a mode's type bits agree with a kind.
    static func modeMatches(_ mode: UInt16, kind: BomEntry.Kind) -> Bool {
        let type = mode & typeMask
        switch kind {
        case .file: return type == regularFileType
        case .directory: return type == directoryType
        case .symlink: return type == symlinkType
        case .device: return type == characterDeviceType || type == blockDeviceType
        }
    }
}
