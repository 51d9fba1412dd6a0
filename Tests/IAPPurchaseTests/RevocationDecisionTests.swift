import Foundation
import Testing

@testable import IAPPurchase

/// The ordering rule: the decision signed later wins whatever order deliveries arrive in, a repeat
/// changes nothing, and a tie revokes.
@Suite struct RevocationDecisionTests {
    let otid = "2000000000000001"

    func event(_ effect: RevocationEvent.Effect, at seconds: Double, uuid: String?) -> RevocationEvent {
        RevocationEvent(
            originalTransactionId: otid, effect: effect,
            signedDate: Date(timeIntervalSince1970: 1_795_564_800 + seconds),
            source: effect == .revoke ? "REFUND" : "REFUND_REVERSED", notificationUUID: uuid)
    }

    /// Applies `events` in order to an empty state; returns the decision left in force.
    func replay(_ events: [RevocationEvent]) -> RevocationEvent? {
        var current: RevocationEvent?
        for event in events where RevocationDecision.outcome(of: event, over: current) == .applied {
            current = event
        }
        return current
    }

    /// Every order of `items`.
    func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index -> [[T]] in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    @Test func theLaterSignedDateDecidesInEveryArrivalOrder() {
        let refund = event(.revoke, at: 0, uuid: "a")
        let reversed = event(.lift, at: 3600, uuid: "b")
        let refundAgain = event(.revoke, at: 7200, uuid: "c")
        // With repeats of each delivery mixed in.
        for order in permutations([refund, reversed, refundAgain, reversed, refund]) {
            #expect(replay(order) == refundAgain)
        }
        for order in permutations([refund, reversed, refund]) {
            #expect(replay(order) == reversed)
        }
    }

    @Test func outcomesSayWhatHappened() {
        let refund = event(.revoke, at: 0, uuid: "a")
        let reversed = event(.lift, at: 10, uuid: "b")
        #expect(RevocationDecision.outcome(of: refund, over: nil) == .applied)
        #expect(RevocationDecision.outcome(of: refund, over: refund) == .duplicate)
        #expect(RevocationDecision.outcome(of: reversed, over: refund) == .applied)
        #expect(RevocationDecision.outcome(of: refund, over: reversed) == .superseded)
        // Same millisecond, different decisions: the revocation wins either way round.
        let liftSameTime = event(.lift, at: 0, uuid: "c")
        #expect(RevocationDecision.outcome(of: liftSameTime, over: refund) == .superseded)
        #expect(RevocationDecision.outcome(of: refund, over: liftSameTime) == .applied)
    }

    @Test func anOperatorsDecisionCountsAsSignedNow() {
        let refund = event(.revoke, at: 0, uuid: "a")
        let unrevoke = RevocationEvent.byOperator(otid, effect: .lift, now: Date(timeIntervalSince1970: 1_795_565_000))
        #expect(unrevoke.source == "operator" && unrevoke.notificationUUID == nil)
        #expect(RevocationDecision.outcome(of: unrevoke, over: refund) == .applied)
        // A late retry of the refund signed before the operator decided changes nothing; a later one wins.
        #expect(RevocationDecision.outcome(of: refund, over: unrevoke) == .superseded)
        #expect(RevocationDecision.outcome(of: event(.revoke, at: 300, uuid: "d"), over: unrevoke) == .applied)
    }

    @Test func identifiersAreChecked() {
        #expect(RevocationEvent.isValidIdentifier("2000000000000001"))
        for bad in ["", "a b", String(repeating: "1", count: 65), "1\n", "ü"] {
            #expect(!RevocationEvent.isValidIdentifier(bad), "\(bad)")
        }
    }
}
