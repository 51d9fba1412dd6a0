import IAPSystem
import XMLKit

/// The two XML documents of a product archive built as `productbuild --content DIR` builds one:
/// the `Distribution` and the component's `PackageInfo` (PackageFormat.md §5 a).
package enum ProductArchiveDocuments {
    /// What iapkg writes as `generator-version` (never pretending to be pkgbuild).
    package static let generatorVersion = "iapkg-1"

    /// pkgbuild's `installKBytes`: every entry but the root, rounded up to 512-byte blocks,
    /// summed and rounded up to whole kilobytes; folders count 32 bytes per child plus two.
    package static func installKBytes(sizes: [UInt64]) -> UInt64 {
        let blocks = sizes.reduce(UInt64(0)) { $0 + ($1 + 511) / 512 }
        return (blocks * 512 + 1023) / 1024
    }

    /// The component's PackageInfo: identifier = the content folder's name, version "0".
    package static func packageInfo(componentName: String, numberOfFiles: Int, installKBytes: UInt64) -> [UInt8] {
        let id = XMLEscaping.escape(componentName)
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <pkg-info overwrite-permissions="true" relocatable="false" identifier="\(id)" postinstall-action="none" version="0" format-version="2" generator-version="\(generatorVersion)" install-location="/" auth="root">
                <payload numberOfFiles="\(numberOfFiles)" installKBytes="\(installKBytes)"/>
                <bundle-version/>
                <upgrade-bundle/>
                <update-bundle/>
                <atomic-update-bundle/>
                <strict-identifier/>
                <relocate/>
            </pkg-info>
            """
        return Array(text.utf8)
    }

    /// The Distribution productbuild synthesises into the archive for one content component.
    package static func distribution(componentName: String, installKBytes: UInt64) -> [UInt8] {
        let id = XMLEscaping.escape(componentName)
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <installer-gui-script minSpecVersion="1">
                <pkg-ref id="\(id)">
                    <bundle-version/>
                </pkg-ref>
                <options customize="never" require-scripts="false" hostArchitectures="x86_64,arm64"/>
                <choices-outline>
                    <line choice="default">
                        <line choice="\(id)"/>
                    </line>
                </choices-outline>
                <choice id="default"/>
                <choice id="\(id)" visible="false">
                    <pkg-ref id="\(id)"/>
                </choice>
                <pkg-ref id="\(id)" version="0" onConclusion="none" installKBytes="\(installKBytes)" updateKBytes="0">#\(id).pkg</pkg-ref>
            </installer-gui-script>
            """
        return Array(text.utf8)
    }

    /// What a PackageInfo says about its payload.
    package struct PackageInfoSummary: Sendable, Equatable {
        package var identifier: String?
        package var version: String?
        package var numberOfFiles: Int?
        package var installKBytes: UInt64?
        /// The install scripts `<scripts>` names (`preinstall`, `postinstall`, …); none for content.
        package var scripts: [String] = []
    }

    /// Reads a PackageInfo document strictly (no DOCTYPE, bounded).
    package static func readPackageInfo(_ bytes: [UInt8]) throws(XMLError) -> PackageInfoSummary {
        let root = try XMLElement.parse(
            bytes, doctype: .forbidden, limits: XMLLimits(maxBytes: XMLLimits.documentBytes),
            maxElements: XMLLimits.documentElements)
        guard root.name == "pkg-info" else {
            throw XMLError(.content, "the root element is <\(root.name)>, not <pkg-info>")
        }
        let payload = root.child("payload")
        // pkgbuild, productbuild and PackageMaker differ in attribute order and in the elements
        // they add (bundle-version, upgrade-bundle, relocate, payload with or without its counts,
        // their own elements); only what the component would run matters here: its scripts.
        return PackageInfoSummary(
            identifier: root.attribute("identifier"), version: root.attribute("version"),
            numberOfFiles: payload?.attribute("numberOfFiles").flatMap { Int($0) },
            installKBytes: payload?.attribute("installKBytes").flatMap { UInt64($0) },
            scripts: root.children(named: "scripts").flatMap { $0.children.map(\.name) })
    }

    /// The component names (`NAME.pkg`) a Distribution's top-level pkg-refs point at.
    package static func componentReferences(inDistribution bytes: [UInt8]) throws(XMLError) -> [String] {
        let root = try XMLElement.parse(
            bytes, doctype: .forbidden, limits: XMLLimits(maxBytes: XMLLimits.documentBytes),
            maxElements: XMLLimits.documentElements)
        guard root.name == "installer-gui-script" || root.name == "installer-script" else {
            throw XMLError(.content, "the root element is <\(root.name)>, not <installer-gui-script>")
        }
        return root.children(named: "pkg-ref").compactMap { ref in
            let text = ref.text.trimmingWhitespace()
            guard text.hasPrefix("#") else { return nil }
            return percentDecoded(String(text.dropFirst()))
        }
    }

    /// A pkg-ref location with its %XX escapes decoded (productbuild escapes spaces and other
    /// characters of component names); the text as given when the escapes are not valid UTF-8.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%"), let bytes = PercentEncoding.decode(text.utf8, keepingMalformed: true) else {
            return text
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }
}

extension String {
    /// The string without leading and trailing ASCII white space.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
