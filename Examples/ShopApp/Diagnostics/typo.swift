// expect: 'subscript(dynamicMember:)' is unavailable: no configuration key is named so here
import Checkout
import ServiceConfiguration

func limit(_ service: some ConfigurationService) -> Int {
    service.checkoutMaxCartItem
}
