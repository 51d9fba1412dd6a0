import IAPRules
import IAPSystem
import XarKit

/// Which of the two shapes a package has (PackageFormat.md §5).
public enum PackageShape: String, Sendable, Codable {
    /// Distribution + NAME.pkg/{Bom, Payload, PackageInfo}.
    case product
    /// ContentInfo.plist and Contents/ as xar entries.
    case tree
}

/// A package's shape and where its parts are.
package struct PackageParts: Sendable {
    package typealias Shape = PackageShape

    package var shape: Shape
    /// NAME of the component `NAME.pkg` (product shape).
    package var componentName: String?
    package var distribution: XarFile?
    package var bom: XarFile?
    package var payload: XarFile?
    package var packageInfo: XarFile?

    /// Works out the shape from the TOC; findings say what does not fit it.
    package static func detect(_ toc: XarTOC) -> (PackageParts, [Finding]) {
        var findings: [Finding] = []
        let top = toc.files.filter { $0.parentIndex == nil }
        let components = top.filter { $0.name.hasSuffix(".pkg") && $0.type == .directory }
        let distributions = top.filter { $0.name == "Distribution" }
        guard !components.isEmpty || !distributions.isEmpty else {
            return (PackageParts(shape: .tree), [])
        }
        var parts = PackageParts(shape: .product)
        if distributions.count != 1 || distributions.first?.type != .file {
            findings.append(
                Rule.shapeProductLayout.finding(
                    "Distribution",
                    "a product archive needs exactly one Distribution file (found \(distributions.count)); rebuild the package with iapkg build"
                ))
        }
        parts.distribution = distributions.first
        if components.count != 1 {
            findings.append(
                Rule.shapeProductLayout.finding(
                    nil,
                    "a product archive needs exactly one component NAME.pkg (found \(components.count)); hosted content has a single component"
                ))
        }
        guard let component = components.first else {
            findings += nameFindings(top)
            return (parts, findings)
        }
        parts.componentName = String(component.name.dropLast(4))
        let componentIndex = toc.files.firstIndex(of: component)
        let children = toc.files.filter { $0.parentIndex != nil && $0.parentIndex == componentIndex }
        findings += nameFindings(top + children)
        if component.name == ".pkg" {
            findings.append(
                Rule.entryNameInvalid.finding(
                    component.path,
                    "the component folder '.pkg' has no NAME before '.pkg'; name it after the content folder (NAME.pkg)"
                ))
        }
        for name in ["Bom", "Payload", "PackageInfo"] {
            let matches = children.filter { $0.name == name }
            if matches.count != 1 || matches.first?.type != .file {
                findings.append(
                    Rule.shapeProductLayout.finding(
                        component.name + "/" + name,
                        "the component needs exactly one \(name) file (found \(matches.count))"))
            }
        }
        parts.bom = children.first { $0.name == "Bom" }
        parts.payload = children.first { $0.name == "Payload" }
        parts.packageInfo = children.first { $0.name == "PackageInfo" }
        for extra in children where !["Bom", "Payload", "PackageInfo"].contains(extra.name) {
            findings.append(
                Rule.shapeProductLayout.finding(
                    extra.path,
                    "a content component holds only Bom, Payload and PackageInfo; '\(extra.name)' does not belong (install scripts are not allowed)"
                ))
        }
        for extra in top where extra != component && extra.name != "Distribution" {
            findings.append(
                Rule.shapeProductLayout.finding(
                    extra.path,
                    "a hosted-content product archive holds only Distribution and one component; '\(extra.name)' does not belong"
                ))
        }
        return (parts, findings)
    }

    /// The container's own names (component folder, Distribution, Bom, PackageInfo, Payload and
    /// anything beside them) obey the rules entry names obey.
    private static func nameFindings(_ files: [XarFile]) -> [Finding] {
        files.compactMap { file in
            EntryNameRules.problem(with: file.name).map { problem in
                Rule.entryNameInvalid.finding(
                    file.path,
                    "the xar name '\(file.name)' \(problem); the package's own parts follow the entry name rules — rebuild the package"
                )
            }
        }
    }
}
