#if Macros
    internal import SwiftCompilerPlugin
    internal import SwiftSyntaxMacros

    /// The compiler plugin that implements the macros declared in `ServiceConfigurationMacros`.
    @main
    struct ServiceConfigurationMacrosPlugin: CompilerPlugin {
        let providingMacros: [any Macro.Type] = [
            ConfigurationScopeMacro.self,
            ConfigurationKeyMacro.self,
            RoutesMacro.self,
        ]
    }
#else
    /// Without the `Macros` trait the plugin is a stand-in that needs nothing: swift-syntax is not built, and the
    /// macro declarations say which trait to enable.
    @main
    enum ServiceConfigurationMacrosPlugin {
        static func main() {}
    }
#endif
