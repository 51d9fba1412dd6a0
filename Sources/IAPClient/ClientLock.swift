#if os(Linux)
    import IAPSystem

    /// The lock guarding the client's shared counters and lists: a pthread mutex through IAPSystem
    /// (the Linux client links no full Foundation, whose NSLock it was); NSLock on Apple platforms.
    typealias ClientLock = ConditionLock
#else
    import Foundation

    /// The lock guarding the client's shared counters and lists.
    typealias ClientLock = NSLock
#endif
