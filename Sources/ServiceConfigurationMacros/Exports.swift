// `import ServiceConfigurationMacros` is enough in a file that declares keys: the macros' expansions name the
// library's types (`ServiceConfiguration.ConfigurationKey`, ...), which this import brings along. Without the Macros
// trait the module declares no macro (a macro whose plugin is not built cannot even be declared): only this import.
@_exported public import ServiceConfiguration
