// expect: 'subscript(dynamicMember:)' is unavailable: no configuration key is named so here
import ServiceConfiguration

func limit(_ service: LiveConfigurationService) -> Int {
    service.checkoutMaxCartItems
}
