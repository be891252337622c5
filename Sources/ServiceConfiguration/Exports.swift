// The umbrella a typical app imports: the core, the file store, server sync and etcd, as one module, so code
// written against `import ServiceConfiguration` keeps compiling. A module that needs less depends on the product it
// needs (ServiceConfigurationCore for keys and the service alone); see ARCHITECTURE.md.
@_exported public import ServiceConfigurationCore
@_exported public import ServiceConfigurationEtcd
@_exported public import ServiceConfigurationFileStore
@_exported public import ServiceConfigurationSync
