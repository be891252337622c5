// config-menu: the ServiceConfiguration debug menu, and (with subcommands) its command-line tool.
import ConfigurationDebugMenu
import DemoConfiguration
import Foundation
import ServiceConfiguration

#if canImport(Glibc)
    import Glibc
#endif

Output.guardStandardDescriptors()
// `CommandLine.arguments` repairs invalid UTF-8 into U+FFFD; the raw bytes say which arguments were not text.
var malformed: Set<Int> = []
for index in 1..<Int(CommandLine.argc) {
    guard let argument = CommandLine.unsafeArgv[index] else { continue }
    let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument))
    if String(validating: bytes, as: UTF8.self) == nil { malformed.insert(index - 1) }
}
exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), malformed: malformed))
