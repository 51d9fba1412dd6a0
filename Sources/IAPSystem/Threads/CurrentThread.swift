#if canImport(Glibc)
    import Glibc
#endif

/// The calling thread, for code above IAPSystem that keeps something per thread.
package enum CurrentThread {
    /// An identifier of the calling thread, unique among the threads alive at the same time
    /// (`pthread_self`); a thread that has ended may pass its identifier on to a new one.
    package static var id: UInt { UInt(pthread_self()) }
}
