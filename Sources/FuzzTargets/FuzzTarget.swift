/// One parser of untrusted bytes, as libFuzzer drives it: `run` takes any bytes and must return
/// (errors and findings are the expected outcome); a trap, a sanitizer report, a hang or unbounded
/// memory is a finding.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// The xar header and TOC: `XarArchive.open` (a raw xar, or TOC XML wrapped into a valid container).
    case xar
    /// The heap data streams: one entry decoded (stored, zlib, bzip2, lzma, xz) with both checksums.
    case xarData = "xar-data"
    /// ContentInfo.plist (XML or binary property list) through `ContentInfo.read`, as validate reads it.
    case contentInfo = "contentinfo"
    /// A product archive's Distribution and PackageInfo documents.
    case productDocuments = "product-documents"
    /// A component's Bom (BOMStore).
    case bom
    /// A component's Payload: gzip, bzip2, xz or pbzx, then cpio (raw cpio is gzip'd first).
    case payload
    /// A whole package through `PackageValidator.validate` and `PackageInspector.inspect`.
    case validate
    /// A content folder described by the input, packaged with valid checksums (tree or product
    /// layout), then validated, inspected and, when valid, unpacked into a sandbox: the content rules.
    case content
    /// An Xcode project's `project.pbxproj`: the old-style property list reader and the content
    /// target's resolution (settings, paths, Resources phase).
    case pbxproj
    /// A StoreKit 2 signed transaction (compact JWS, or its header and payload JSON and signature)
    /// through `TransactionVerifier`, as `iapkg gate` verifies what an app sends.
    case jws
    /// An App Store Server Notification V2 request body (or its JWS's header and payload JSON and
    /// signature) through `NotificationVerifier`, as `iapkg gate` verifies what Apple posts.
    case notification

    /// Runs one input through the target.
    package func run(_ bytes: [UInt8]) {
        switch self {
        case .xar: XarTargets.openArchive(bytes)
        case .xarData: XarTargets.readEntryData(bytes)
        case .contentInfo: DocumentTargets.readContentInfo(bytes)
        case .productDocuments: DocumentTargets.readProductDocuments(bytes)
        case .bom: ComponentTargets.readBom(bytes)
        case .payload: ComponentTargets.readPayload(bytes)
        case .validate: PackageTargets.validate(bytes)
        case .content: ContentTargets.validateAndUnpack(bytes)
        case .pbxproj: ProjectTargets.readProject(bytes)
        case .jws: PurchaseTargets.verifyTransaction(bytes)
        case .notification: NotificationTargets.verifyNotification(bytes)
        }
    }

    /// The libFuzzer dictionary (`-dict=`) that suits the target, by file name in
    /// Tests/FuzzTargetsTests/Dictionaries: the format's element names, markers and magics.
    package var dictionaryName: String {
        switch self {
        case .xar, .xarData, .validate: "xar-toc.dict"
        case .contentInfo: "plist.dict"
        case .productDocuments: "product-documents.dict"
        case .bom: "bom.dict"
        case .payload: "payload.dict"
        case .content: "content.dict"
        case .pbxproj: "pbxproj.dict"
        case .jws: "jws.dict"
        case .notification: "notification.dict"
        }
    }
}
