#if os(Linux)
    import IAPCore

    /// The lock guarding the client's shared counters and lists: a pthread mutex through IAPCore
    /// (the Linux client links no full Foundation, whose NSLock it was); NSLock on Apple platforms.
    typealias ClientLock = ConditionLock
#else
    import Foundation

    /// The lock guarding the client's shared counters and lists.
    typealias ClientLock = NSLock
#endif
