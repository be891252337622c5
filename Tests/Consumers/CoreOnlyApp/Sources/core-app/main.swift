import Greeting
import ServiceConfigurationCore

// Server values as a program would receive them; overrides live in memory only.
let catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Greeting.self])
let service = LiveConfigurationService(serverValues: ["function.greeting.repeat": "3"], catalog: catalog)
print(greeting(service))
