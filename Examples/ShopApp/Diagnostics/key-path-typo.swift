// expect: requires that 'NoConfigurationKeyWithThisName' conform to 'ConfigurationKey'
import Checkout
import ServiceConfiguration

func watch(_ service: some ConfigurationService) {
    _ = service.changes(of: \.checkoutMaxCartItem)
}
