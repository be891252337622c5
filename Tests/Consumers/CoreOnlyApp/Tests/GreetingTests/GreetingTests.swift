import Greeting
import ServiceConfigurationCore
import ServiceConfigurationTesting
import Testing

@Test("the greeting follows its keys, through the mock")
func greetingFollowsKeys() throws {
    let mock = MockConfigurationService(serverValues: ["function.greeting.repeat": "2"])
    #expect(greeting(mock) == "hello hello")
    try mock.setOverride(false, for: ConfigurationScopes.Greeting.EnabledKey.self)
    #expect(greeting(mock) == "")
}
