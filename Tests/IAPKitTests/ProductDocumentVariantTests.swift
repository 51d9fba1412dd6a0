import Foundation
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// Distributions and PackageInfos as Apple's tools wrote them over the years (productbuild,
/// pkgbuild, PackageMaker): attribute orders, extra elements, counts present or absent. Every
/// such shape validates; install scripts and a second component do not.
@Suite(.onTestThreads) struct ProductDocumentVariantTests {
    let scratch = ScratchFolder()

    /// A product package named `content` whose Distribution and/or PackageInfo are replaced.
    func package(_ file: String, name: String = "content", distribution: String? = nil, packageInfo: String? = nil)
        throws -> String
    {
        var package = HostileProduct()
        package.name = name
        package.editXar = { xar in
            if let distribution { xar.nodes[0] = .file("Distribution", text: distribution) }
            if let packageInfo {
                xar.nodes[1].children.removeAll { $0.name == "PackageInfo" }
                xar.nodes[1].children.append(.file("PackageInfo", text: packageInfo))
            }
        }
        let path = scratch.at(file + ".pkg")
        try package.write(to: path)
        return path
    }

    static let distributions: [String] = [
        // productbuild --content, as the go-macos-pkg parity test records it.
        """
        <?xml version="1.0" encoding="utf-8"?>
        <installer-gui-script minSpecVersion="1">
            <pkg-ref id="content"><bundle-version/></pkg-ref>
            <options customize="never" require-scripts="false" hostArchitectures="x86_64,arm64"/>
            <choices-outline><line choice="default"><line choice="content"/></line></choices-outline>
            <choice id="default"/>
            <choice id="content" visible="false"><pkg-ref id="content"/></choice>
            <pkg-ref id="content" version="0" onConclusion="none">#content.pkg</pkg-ref>
        </installer-gui-script>
        """,
        // A titled product with domains, attributes in another order, auth and installKBytes.
        """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <installer-gui-script minSpecVersion="2">
            <title>Level Pack</title>
            <options hostArchitectures="arm64,x86_64" customize="never" require-scripts="false" rootVolumeOnly="true"/>
            <domains enable_anywhere="false" enable_currentUserHome="false" enable_localSystem="true"/>
            <volume-check><allowed-os-versions><os-version min="10.8"/></allowed-os-versions></volume-check>
            <choices-outline><line choice="com.example.content"/></choices-outline>
            <choice id="com.example.content" visible="false" title="content"><pkg-ref id="com.example.content"/></choice>
            <pkg-ref auth="root" installKBytes="12" onConclusion="none" version="1.0" id="com.example.content">
                #content.pkg
            </pkg-ref>
        </installer-gui-script>
        """,
        // PackageMaker (2011): installer-script, authoringTool attributes, auth="Root".
        """
        <?xml version="1.0" encoding="utf-8"?>
        <installer-script minSpecVersion="1.000000" authoringTool="com.apple.PackageMaker" authoringToolVersion="3.0.4" authoringToolBuild="179">
            <title>Content</title>
            <options customize="never" allow-external-scripts="no"/>
            <domains enable_localSystem="true"/>
            <choices-outline><line choice="choice0"/></choices-outline>
            <choice id="choice0" title="content" start_visible="false"><pkg-ref id="com.example.content.pkg"/></choice>
            <pkg-ref id="com.example.content.pkg" installKBytes="4" version="1" auth="Root">#content.pkg</pkg-ref>
        </installer-script>
        """,
    ]

    static let packageInfos: [String] = [
        // pkgbuild with every optional element, attributes in pkgbuild's order.
        """
        <?xml version="1.0" encoding="utf-8"?>
        <pkg-info overwrite-permissions="true" relocatable="false" identifier="com.example.content" postinstall-action="none" version="1.0" format-version="2" generator-version="InstallCmds-864.12 (25F80)" install-location="/" auth="root">
            <payload numberOfFiles="4" installKBytes="12"/>
            <bundle-version/>
            <upgrade-bundle/><update-bundle/><atomic-update-bundle/><strict-identifier/>
            <relocate/>
        </pkg-info>
        """,
        // PackageMaker: another attribute order, standalone declaration, payload attributes swapped,
        // an element of the tool's own, no scripts.
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <pkg-info format-version="2" identifier="com.example.content.pkg" version="15" install-location="/Library" auth="root">
            <mumble minclient="1.2.3"/>
            <payload installKBytes="72" numberOfFiles="11"/>
            <bundle-version><bundle id="com.example.other"/></bundle-version>
        </pkg-info>
        """,
        // No payload counts at all, an empty scripts element.
        """
        <?xml version="1.0" encoding="utf-8"?>
        <pkg-info identifier="content" version="0" format-version="2"><payload/><scripts/></pkg-info>
        """,
    ]

    @Test(arguments: distributions.indices)
    func distributionVariantsValidate(index: Int) throws {
        try Validate.expectClean(try package("dist-\(index)", distribution: Self.distributions[index]))
    }

    @Test(arguments: packageInfos.indices)
    func packageInfoVariantsValidate(index: Int) throws {
        try Validate.expectClean(try package("info-\(index)", packageInfo: Self.packageInfos[index]))
    }

    @Test func anEscapedComponentReferenceMatches() throws {
        let distribution = """
            <?xml version="1.0" encoding="utf-8"?>
            <installer-gui-script minSpecVersion="1"><pkg-ref id="x" version="0">#Level%20Pack%20%C3%A9.pkg</pkg-ref></installer-gui-script>
            """
        try Validate.expectClean(try package("escaped", name: "Level Pack é", distribution: distribution))
    }

    @Test func installScriptsInThePackageInfoAreRefused() throws {
        let info = """
            <?xml version="1.0" encoding="utf-8"?>
            <pkg-info identifier="content" version="0" format-version="2" auth="root">
                <payload numberOfFiles="4" installKBytes="12"/>
                <scripts><preinstall file="./preinstall"/><postinstall file="./postinstall" timeout="600"/></scripts>
            </pkg-info>
            """
        let run = try Validate.expectError(
            try package("scripts", packageInfo: info), Rule.shapePackageinfo, entry: "PackageInfo")
        #expect(run.findings.contains { $0.message.contains("preinstall, postinstall") }, "\(run.dump)")
    }

    @Test func aDistributionWithASecondComponentIsRefused() throws {
        let distribution = """
            <?xml version="1.0" encoding="utf-8"?>
            <installer-gui-script minSpecVersion="1">
                <pkg-ref id="a" version="0">#content.pkg</pkg-ref>
                <pkg-ref id="b" version="0">#tools.pkg</pkg-ref>
            </installer-gui-script>
            """
        let run = try Validate.expectError(
            try package("two", distribution: distribution), Rule.shapeDistribution, entry: "Distribution")
        #expect(run.findings.contains { $0.message.contains("#tools.pkg") }, "\(run.dump)")
    }
}
