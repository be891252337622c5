public import Synchronization

#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#endif

/// A small array of spin locks, each guarding its own `State`, with each thread using "its" stripe.
///
/// This is the package's one `@unchecked Sendable` type. It exists for the read cache of
/// ``ConfigurationEngine``: a key read must cost well under 25 ns and two threads must read at twice the speed of
/// one. `Mutex` from `Synchronization` costs about 60 ns per lock/unlock on Linux (measured with Swift 6.3.1) and a
/// single lock of any kind serialises readers on one cache line. Here each thread hashes to one of `stripeCount`
/// stripes laid out 128 bytes apart, so two threads almost never touch the same line, and the uncontended lock is
/// one compare-exchange and one store.
///
/// Safety argument (why `@unchecked` is sound): `State` is reachable only through ``withLock(_:)``, which holds
/// the stripe's lock for the whole access; the lock word is an `Atomic` with acquire/release ordering; the
/// storage is allocated once in `init` and freed in `deinit`, when no other reference exists. Critical sections
/// must stay short and must not call user code (they never do: callers only probe a hash table).
@usableFromInline
final class StripedLock<State>: @unchecked Sendable {
    @usableFromInline
    struct Stripe: ~Copyable {
        @usableFromInline let lock: Atomic<UInt32>
        @usableFromInline var state: State
    }

    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let stride: Int
    @usableFromInline let mask: Int
    @usableFromInline let shift: UInt64

    /// Creates `stripeCount` stripes (rounded up to a power of two, at least two), each starting with `initial()`.
    @usableFromInline
    init(stripeCount: Int, initial: () -> State) {
        var count = 2
        var bits: UInt64 = 1
        while count < stripeCount {
            count <<= 1
            bits += 1
        }
        mask = count - 1
        shift = 64 - bits
        let size = MemoryLayout<Stripe>.stride
        stride = (size + 127) / 128 * 128
        base = .allocate(byteCount: stride * count, alignment: max(128, MemoryLayout<Stripe>.alignment))
        for index in 0..<count {
            (base + index * stride).bindMemory(to: Stripe.self, capacity: 1)
                .initialize(to: Stripe(lock: Atomic(0), state: initial()))
        }
    }

    deinit {
        for index in 0...mask {
            _ = (base + index * stride).assumingMemoryBound(to: Stripe.self).move()
        }
        base.deallocate()
    }

    /// The calling thread's stripe index: a multiplicative hash of the thread's identity.
    @inlinable
    var currentStripe: Int {
        #if canImport(Darwin)
            let thread = UInt64(UInt(bitPattern: pthread_self()))
        #else
            let thread = UInt64(pthread_self())
        #endif
        return Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Runs `body` with exclusive access to the calling thread's stripe.
    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        let stripe = (base + currentStripe * stride).assumingMemoryBound(to: Stripe.self)
        if !stripe.pointee.lock.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            Self.acquireContended(stripe)
        }
        defer { stripe.pointee.lock.store(0, ordering: .releasing) }
        return try body(&stripe.pointee.state)
    }

    /// Spins briefly, then yields the processor between attempts; contention is rare by construction.
    @usableFromInline
    static func acquireContended(_ stripe: UnsafeMutablePointer<Stripe>) {
        var spins = 0
        while true {
            if stripe.pointee.lock.load(ordering: .relaxed) == 0,
                stripe.pointee.lock.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }
}
