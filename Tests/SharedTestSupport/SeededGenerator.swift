/// A deterministic random number generator (SplitMix64) for seeded fuzz tests: the same seed gives the same
/// inputs on every machine, so a failure found in CI can be replayed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How many iterations a fuzz test runs: `FUZZ_ITERATIONS` from the environment, else `defaultCount` (a few
/// seconds at most in `swift test`; raise it on demand, for example `FUZZ_ITERATIONS=200000 swift test`).
public func fuzzIterations(default defaultCount: Int) -> Int {
    guard let text = getEnvironment("FUZZ_ITERATIONS"), let count = Int(text), count > 0 else { return defaultCount }
    return count
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func getEnvironment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
