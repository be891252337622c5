public import Synchronization

#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#endif

/// A small set of `Mutex`es, each guarding its own `State`, with each thread using "its" stripe.
///
/// It exists for the read cache of ``ConfigurationEngine``: a key read must cost well under 25 ns and two threads
/// must read at twice the speed of one. One lock of any kind serialises readers on one cache line (the naive
/// `Mutex<[String: String]>` design gets *slower* with a second thread); here each thread hashes to one of
/// `stripeCount` stripes, each in its own heap object padded past 128 bytes, so two threads almost never touch the
/// same line and an uncontended `Mutex` costs two atomic operations.
///
/// Priority inversion: the stripes are plain `Mutex`es, never spin locks. On Apple platforms `Mutex` is
/// `os_unfair_lock`, which records its owner so the kernel boosts a low-QoS owner that a higher-QoS thread waits
/// for; on Linux it is a priority-inheritance futex (`FUTEX_LOCK_PI`, after a bounded spin). A thread that finds
/// its stripe taken therefore sleeps and lends its priority to the owner instead of spinning against a preempted
/// owner, which is the failure that deprecated `OSSpinLock`. Contention needs two threads hashing to one stripe at
/// the same instant; critical sections only probe a hash table and never call user code.
///
/// ThreadSanitizer: on Linux `Mutex` locks inside the uninstrumented standard library, so each acquisition is
/// announced with the same `__tsan_acquire`/`__tsan_release` hooks as ``Locked`` (looked up once, at init; `nil`
/// and one predictable branch outside ThreadSanitizer).
///
/// `Sendable` is proven by the compiler (no `@unchecked`): the stripes are `let` references to final classes whose
/// only state is a `Mutex` (itself `Sendable`) and immutable padding. Reads reach a stripe through an `Unmanaged`
/// copy of its reference (`_withUnsafeGuaranteedRef`), which skips a retain and a release per read; that is sound
/// because `owners`, a `let` of this object, keeps every stripe alive as long as the object a caller is using.
@usableFromInline
final class StripedMutex<State>: Sendable {
    /// One stripe: a `Mutex` alone on its cache lines (a heap object a little over 128 bytes).
    @usableFromInline
    final class Stripe: Sendable {
        @usableFromInline let mutex: Mutex<State>
        /// Keeps the next stripe's lock word off this one's cache lines, wherever the allocator puts it.
        private let padding: (SIMD64<UInt8>, SIMD32<UInt8>) = (.zero, .zero)

        init(_ state: sending State) {
            mutex = Mutex(state)
        }
    }

    /// The stripes, unretained: `owners` holds the references.
    @usableFromInline let stripes: [Unmanaged<Stripe>]
    private let owners: [Stripe]
    @usableFromInline let mask: Int
    @usableFromInline let shift: UInt64
    @usableFromInline let tsanAcquire: ThreadSanitizerHooks.Annotation?
    @usableFromInline let tsanRelease: ThreadSanitizerHooks.Annotation?

    /// Creates `stripeCount` stripes (rounded up to a power of two), each starting with `initial()`.
    ///
    /// One stripe makes every thread share one `Mutex`: the tests use it to make ThreadSanitizer check the stripes'
    /// locking across threads.
    @usableFromInline
    init(stripeCount: Int, initial: () -> sending State) {
        var count = 1
        var bits: UInt64 = 0
        while count < stripeCount {
            count <<= 1
            bits += 1
        }
        mask = count - 1
        shift = 64 - bits
        owners = (0..<count).map { _ in Stripe(initial()) }
        stripes = owners.map { Unmanaged.passUnretained($0) }
        tsanAcquire = ThreadSanitizerHooks.acquire
        tsanRelease = ThreadSanitizerHooks.release
    }

    /// The calling thread's stripe index: a multiplicative hash of the thread's identity.
    @inlinable
    var currentStripe: Int {
        #if canImport(Darwin)
            let thread = UInt64(UInt(bitPattern: pthread_self()))
        #else
            let thread = UInt64(pthread_self())
        #endif
        return Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// Runs `body` with exclusive access to the calling thread's stripe.
    @inlinable
    func withLock<Result: Sendable>(_ body: (inout sending State) -> sending Result) -> Result {
        // `self` keeps `stripes` (a `let`) alive for the whole call, so the stripe needs no reference of its own: a
        // retain and a release would be two more atomic operations on every read.
        stripes[currentStripe & mask]._withUnsafeGuaranteedRef { stripe in
            let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(stripe).toOpaque())
            return stripe.mutex.withLock { state in
                if let tsanAcquire {
                    tsanAcquire(address)
                    defer { tsanRelease?(address) }
                    return body(&state)
                }
                return body(&state)
            }
        }
    }
}
