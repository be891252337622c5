// expect: a configuration scope is a struct: its keys are stored properties, which an enum cannot hold
// flags: macros
import ServiceConfigurationMacros

/// Keys to come.
@ConfigurationScope
enum Search {}
