// expect: 'subscript(dynamicMember:)' is unavailable: this scope has no key property of that name
import Checkout
import Profile
import ServiceConfiguration

func bioLimit(_ checkout: ScopedConfiguration<ConfigurationScopes.Checkout>) -> Int {
    checkout.profileBioMaxLength
}
