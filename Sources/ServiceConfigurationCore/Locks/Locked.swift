import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// State guarded by a `Mutex`, visible as such to ThreadSanitizer.
///
/// On Linux, `Mutex` locks with raw futex calls inside the uninstrumented standard library, so ThreadSanitizer
/// cannot see its happens-before edges and reports every guarded access as a race (checked with Swift 6.3.1: two
/// threads incrementing a `Mutex<Int>` are reported). When the process runs under ThreadSanitizer, this wrapper
/// tells it about the lock through `__tsan_acquire`/`__tsan_release`; otherwise those hooks are absent and it is a
/// plain `Mutex`. The mutual exclusion itself always comes from the `Mutex`.
package final class Locked<State: Sendable>: Sendable {
    private let mutex: Mutex<State>

    /// Creates the guarded state.
    package init(_ initial: sending State) {
        mutex = Mutex(initial)
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result: ~Copyable>(_ body: (inout sending State) throws -> sending Result) rethrows
        -> sending Result
    {
        try mutex.withLock { state in
            let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
            ThreadSanitizerHooks.acquire?(address)
            defer { ThreadSanitizerHooks.release?(address) }
            return try body(&state)
        }
    }
}

/// ThreadSanitizer's annotation entry points, found at run time; `nil` unless the process runs under it.
@usableFromInline
enum ThreadSanitizerHooks {
    @usableFromInline typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    static let acquire = lookup("__tsan_acquire")
    static let release = lookup("__tsan_release")

    private static func lookup(_ symbol: String) -> Annotation? {
        guard let handle = dlopen(nil, RTLD_NOW), let pointer = dlsym(handle, symbol) else { return nil }
        return unsafeBitCast(pointer, to: Annotation.self)
    }
}
