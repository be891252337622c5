// config-menu: the ServiceConfiguration debug menu, and (with subcommands) its command-line tool.
import ConfigurationDebugMenu
import DemoConfiguration
import Foundation
import ServiceConfiguration

#if canImport(Glibc)
    import Glibc
#endif

exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
