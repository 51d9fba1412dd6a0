import ArgumentParser
import IAPPurchase
import IAPRevocationState
import IAPSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options the operator's commands share: the gate's state folder.
struct StateFolder: ParsableArguments {
    @Option(help: ArgumentHelp("The gate's --state folder.", valueName: "dir"))
    var state: String

    /// The store in the folder, which must exist (a typo must not start a state no gate reads); exit 2 if it cannot be opened.
    func open() throws -> SQLiteRevocationStore {
        guard FileSystem.status(state)?.isDirectory == true else {
            GateSetup.say("iapkg-gate: error: no state folder \(state) (the folder the gate runs with --state)")
            throw ExitCode(2)
        }
        return try GateSetup.revocations(state)
    }
}

/// What `revoke` and `unrevoke` take: the state folder and the purchase.
struct DecisionArguments: ParsableArguments {
    @OptionGroup var folder: StateFolder
    @Argument(help: ArgumentHelp("The purchase's originalTransactionId.", valueName: "original-transaction-id"))
    var originalTransactionId: String

    func validate() throws {
        guard RevocationEvent.isValidIdentifier(originalTransactionId) else {
            throw ValidationError(
                "ORIGINAL-TRANSACTION-ID is 1 to 64 letters, digits, '.', '_' or '-' (Apple's are digits), "
                    + "not '\(originalTransactionId.prefix(80))'")
        }
    }

    /// Records `effect` as an operator's decision; exit 0 when it is in force, 1 when a decision
    /// signed later keeps it out, 2 when the state cannot be written.
    func decide(_ effect: RevocationEvent.Effect) throws {
        let store = try folder.open()
        let event = RevocationEvent.byOperator(originalTransactionId, effect: effect)
        let outcome: RevocationDecision.Outcome
        do {
            outcome = try store.record(event)
        } catch {
            GateSetup.say("iapkg-gate: error: \(error)")
            throw ExitCode(2)
        }
        let done = effect == .revoke ? "revoked" : "unrevoked"
        guard outcome == .superseded, let current = try? store.decision(for: originalTransactionId) else {
            print("\(done) \(originalTransactionId) (operator, signed \(event.signedDate.formatted(.iso8601)))")
            return
        }
        GateSetup.say(
            "iapkg-gate: \(originalTransactionId) not \(done): \(current.source) signed at "
                + "\(current.signedDate.formatted(.iso8601)), later than now, is in force (check the clock)")
        throw ExitCode(1)
    }
}

/// `iapkg gate revoke --state DIR ID`: an operator's revocation, counting as signed now.
struct RevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a purchase by hand: its transactions earn no token, its tokens open nothing.",
        discussion: "Counts as signed now: a notification signed later (REFUND_REVERSED) overrides it.")

    @OptionGroup var decision: DecisionArguments

    func run() throws { try decision.decide(.revoke) }
}

/// `iapkg gate unrevoke --state DIR ID`: an operator's lifting of a revocation, counting as signed now.
struct UnrevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unrevoke",
        abstract: "Lift a purchase's revocation by hand.",
        discussion: "Counts as signed now: a notification signed later (REFUND, REVOKE) overrides it.")

    @OptionGroup var decision: DecisionArguments

    func run() throws { try decision.decide(.lift) }
}

/// `iapkg gate revocations --state DIR [--json]`: every decision kept, revoked and lifted.
struct RevocationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revocations",
        abstract: "List the decisions kept: each purchase revoked or lifted, when, and by what.")

    @OptionGroup var folder: StateFolder
    @Flag(help: "One JSON document (schemaVersion 1) on stdout.")
    var json = false

    /// The JSON document.
    struct Listing: Encodable {
        let revocations: [RevocationEvent]
        let schemaVersion = 1
    }

    func run() throws {
        let store = try folder.open()
        let decisions: [RevocationEvent]
        do {
            decisions = try store.decisions()
        } catch {
            GateSetup.say("iapkg-gate: error: \(error)")
            throw ExitCode(2)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(Listing(revocations: decisions)), as: UTF8.self))
            return
        }
        for decision in decisions {
            let fields = [
                decision.effect.rawValue, decision.originalTransactionId, decision.signedDate.formatted(.iso8601),
                decision.source, decision.notificationUUID ?? "-",
            ]
            print(fields.joined(separator: "\t"))
        }
        GateSetup.say("iapkg-gate: \(decisions.filter { $0.effect == .revoke }.count) revoked, \(decisions.count) kept")
    }
}
