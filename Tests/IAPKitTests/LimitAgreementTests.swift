import BomKit
import Testing
import XMLKit

@testable import IAPKit
@testable import PayloadKit

/// Each format keeps its own limits; where a format's cap stands for a package rule, it must be the
/// rule's value, so that build, validate and unpack refuse the same inputs.
@Suite struct LimitAgreementTests {
    @Test func formatCapsThatStandForPackageRulesAreTheRules() {
        #expect(BomLimits.bomEntries == PackageLimits.folderEntries)
        #expect(BomLimits.bomPathBytes == PackageLimits.pathBytes)
        #expect(BomLimits.componentBytes == PackageLimits.componentBytes)
        #expect(CpioLimits.entryAllowance == 110 + UInt64(PackageLimits.pathBytes) + 3 + 3 + 3)
        #expect(PropertyListReader.maxBytes == PackageLimits.contentInfoBytes)
    }
}
