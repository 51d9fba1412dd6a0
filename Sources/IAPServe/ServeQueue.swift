import IAPKit
import IAPSystem

/// The packages claimed into `.processing/` and not yet committed, and which one a worker takes
/// next: a product's versions lowest first, one job per product at a time.
///
/// A package is first identified (its product and version read as `inspect` reads them, after
/// its writer is known to be gone); no identified package is handed out while another is still
/// waiting to be identified, so everything claimed together (the start-up scan, a burst) is
/// ordered together. A package whose install failed for a passing reason waits out its backoff
/// and holds its product meanwhile: a higher version never overtakes it.
///
/// `@unchecked Sendable`: every stored property is read and written only under `lock`.
final class ServeQueue: @unchecked Sendable {
    /// One claimed package.
    struct Item: Sendable {
        /// Its name in `.processing/`.
        var name: String
        /// Found in `.processing/` at start or handled before: an already installed version may
        /// still have to become current.
        var resumed: Bool
        var identified = false
        var product: String?
        var version: ContentVersion?
        /// Failed attempts so far.
        var attempts = 0
        /// Not handed out before this (monotonic seconds).
        var notBefore = 0.0
        /// Its writer still held it open when last looked at: it holds up no other package.
        var writerHeld = false
        var order: Int

        /// The key that serialises jobs: the product, or the name when the product is unknown.
        var group: String { product ?? "\u{0}" + name }
    }

    private let lock = ConditionLock()
    private var items: [String: Item] = [:]
    private var busy: Set<String> = []
    private var identifying = 0
    private var stopping = false
    private var counter = 0
    /// When a package of each product was last identified (monotonic seconds).
    private var lastArrival: [String: Double] = [:]
    /// A product's packages are handed out only once none of it arrived for this long, so
    /// versions dropped together in any order are installed lowest first.
    let gatherSeconds: Double

    init(gatherSeconds: Double = 0.25) {
        self.gatherSeconds = max(0, gatherSeconds)
    }

    /// Adds a package just claimed (or found claimed at start); false if that name is already held.
    @discardableResult
    func add(_ name: String, resumed: Bool) -> Bool {
        lock.withLock {
            guard items[name] == nil else { return false }
            counter += 1
            items[name] = Item(name: name, resumed: resumed, order: counter)
            lock.broadcast()
            return true
        }
    }

    /// Packages held (claimed, not committed), and how many of them wait out a backoff.
    func counts(now: Double) -> (held: Int, retrying: Int) {
        lock.withLock { (items.count, items.values.filter { $0.attempts > 0 && $0.notBefore > now }.count) }
    }

    /// The items still held, in the order they were claimed.
    func remaining() -> [Item] {
        lock.withLock { items.values.sorted { $0.order < $1.order } }
    }

    /// Stops handing out work.
    func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
    }

    /// The next item to work on, waiting for one; nil once stopping. The item's group is busy
    /// until `identified`, `finished` or `postpone` is called for it.
    func next() -> Item? {
        lock.withLock {
            while !stopping {
                let now = MonotonicClock.seconds()
                if let item = pick(now: now) {
                    if item.identified { busy.insert(item.group) } else { identifying += 1 }
                    items[item.name]?.notBefore = .infinity  // handed out
                    return item
                }
                var due = items.values.map(\.notBefore).filter { $0 > now && $0 < .infinity }.min()
                for arrived in lastArrival.values where arrived + gatherSeconds > now {
                    due = min(due ?? .infinity, arrived + gatherSeconds)
                }
                if let due { lock.wait(seconds: due - now) } else { lock.wait() }
            }
            return nil
        }
    }

    private func pick(now: Double) -> Item? {
        let due = items.values.filter { $0.notBefore <= now }
        if let unknown = due.filter({ !$0.identified }).min(by: { $0.order < $1.order }) { return unknown }
        guard identifying == 0, items.values.allSatisfy({ $0.identified || $0.writerHeld }) else { return nil }
        // Per free product, its lowest version; that one only if due and the product is quiet.
        var lowest: [String: Item] = [:]
        for item in items.values where item.identified && !busy.contains(item.group) {
            if let other = lowest[item.group], Self.precedes(other, item) { continue }
            lowest[item.group] = item
        }
        return lowest.values.filter { $0.notBefore <= now && quiet($0, now: now) }.min { $0.order < $1.order }
    }

    private func quiet(_ item: Item, now: Double) -> Bool {
        guard let product = item.product, let arrived = lastArrival[product] else { return true }
        return now - arrived >= gatherSeconds
    }

    private static func precedes(_ a: Item, _ b: Item) -> Bool {
        switch (a.version, b.version) {
        case (let x?, let y?) where x != y: return x < y
        case (nil, _?): return true
        case (_?, nil): return false
        default: return a.order < b.order
        }
    }

    /// Records what identifying found; the item waits again for its turn.
    func identified(_ name: String, product: String?, version: ContentVersion?) {
        lock.withLock {
            identifying -= 1
            if var item = items[name] {
                item.identified = true
                item.writerHeld = false
                item.product = product
                item.version = version
                item.notBefore = 0
                items[name] = item
                if let product { lastArrival[product] = MonotonicClock.seconds() }
            }
            lock.broadcast()
        }
    }

    /// Puts an item back unidentified, to be looked at again after `seconds` (its writer was
    /// still there).
    func postpone(_ name: String, seconds: Double) {
        lock.withLock {
            identifying -= 1
            items[name]?.notBefore = MonotonicClock.seconds() + seconds
            items[name]?.writerHeld = true
            lock.broadcast()
        }
    }

    /// The item is committed (`retryAfter` nil) or failed for a passing reason and waits that long.
    func finished(_ item: Item, retryAfter: Double?) {
        lock.withLock {
            busy.remove(item.group)
            if let retryAfter, var held = items[item.name] {
                held.attempts += 1
                held.resumed = true
                held.notBefore = MonotonicClock.seconds() + retryAfter
                items[item.name] = held
            } else {
                items[item.name] = nil
            }
            if let product = item.product, !items.values.contains(where: { $0.product == product }) {
                lastArrival[product] = nil
            }
            lock.broadcast()
        }
    }
}
