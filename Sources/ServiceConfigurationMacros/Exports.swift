// `import ServiceConfigurationMacros` is enough in a file that declares keys: the macros' expansions name the
// library's types (`ServiceConfiguration.ConfigurationKey`, ...), which this import brings along.
@_exported public import ServiceConfiguration
