import ServiceConfiguration

// Issue 22 renamed four public types; their old names stay as deprecated aliases, so code written against them
// still compiles (with a warning naming the new name). This function is never called: it exists so that removing an
// alias, or making it another type, fails the build of the tests. It is deprecated itself, so using the old names
// here warns nobody.
@available(*, deprecated, message: "uses the old names on purpose, to prove they still compile")
private func oldNamesStillCompile(
    _ origin: ValueSource, _ reason: OverrideExpiration, _ monitor: any ServerValuesSyncing,
    _ layers: ConfigurationStatusSnapshot
) -> (ValueOrigin, OverrideExpiryReason, any ServerSyncMonitor, ConfigurationLayersReading) {
    (origin, reason, monitor, layers)
}
