// The umbrella a typical app imports: the core, the file store, server sync and etcd, as one module, so code
// written against `import ServiceConfiguration` keeps compiling. A module that needs less depends on the product it
// needs (ServiceConfigurationCore for keys and the service alone); see ARCHITECTURE.md.
//
// With the DebugOverrides trait off (`.package(..., traits: [])`) the umbrella is the core and sync only: the file
// store, its watcher, the journal, program reports and etcd are neither re-exported nor linked, so code that names
// them does not compile in such a build.
@_exported public import ServiceConfigurationCore
@_exported public import ServiceConfigurationSync

#if DebugOverrides
    @_exported public import ServiceConfigurationEtcd
    @_exported public import ServiceConfigurationFileStore
    @_exported public import ServiceConfigurationRemoteStore
#endif
