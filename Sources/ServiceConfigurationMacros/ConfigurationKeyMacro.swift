#if Macros
    /// Declares one configuration key in a ``ConfigurationScope()`` struct: its wire name, and its default as the
    /// value of the `static let` it is attached to.
    ///
    /// ```swift
    /// /// Whether Apple Pay is offered.          ← the key's summary in the menu and the manifest
    /// @ConfigurationKey("checkout.apple_pay.enabled", boolEncoding: .trueFalse)
    /// public static let checkoutApplePayEnabled = false
    /// ```
    ///
    /// The macro writes what the hand-written form spells out: a property of the scope with the same name and access
    /// (what `service.checkoutApplePayEnabled` reads), and the key type `CheckoutApplePayEnabledKey` conforming to
    /// ``ServiceConfiguration/ConfigurationKey``, with `name`, `defaultValue` (this `static let`, the one default), and
    /// each optional argument given. The codec and the debug control come from the value type, as for a hand-written
    /// key. The `static let` stays what it says: the default, as a constant (`ConfigurationScopes.Checkout
    /// .checkoutApplePayEnabled`); the live value is read from a service.
    ///
    /// - Parameters:
    ///   - name: The wire name the server uses, as a string literal: not empty, no spaces or control characters.
    ///   - summary: One line for the menu's details pane and the manifest. Default: the declaration's doc comment (its
    ///     first paragraph), else none.
    ///   - title: The menu's title. Default: derived from `name` (see ``ServiceConfiguration/ConfigurationDebugTitle``).
    ///   - boolEncoding: How a `Bool` travels (`.trueFalse`, `.oneZero`, …). Default: `"Y"`/`"N"`.
    ///   - pattern: A regular expression every wire string must match, with the format to name in errors.
    ///   - owner: Who answers for the key (a team or a person); see ``ServiceConfiguration/ConfigurationKeyLifecycle``.
    ///   - ticket: The ticket that tracks the key's rollout or removal.
    ///   - removeBy: When the key should be gone: `.date("2027-03-31")` or `.version("8.4")`; `config-menu audit`
    ///     lists it once due. A literal that is not a day or a version is reported at the line.
    ///
    /// The macro reports at the line, with a fix-it where one exists: a declaration that is not a `static let` with
    /// a default, a wire name that is not a valid string literal, a default the key's codec cannot carry when the
    /// macro can see it (`Double.nan`, a `Bool` encoding on a key that is not `Bool`), and a key outside a scope's body.
    @attached(peer, names: arbitrary)
    public macro ConfigurationKey(
        _ name: String,
        summary: String? = nil,
        title: String? = nil,
        boolEncoding: ServiceConfiguration.ConfigurationBoolEncoding? = nil,
        pattern: ServiceConfiguration.ConfigurationValuePattern? = nil,
        owner: String? = nil,
        ticket: String? = nil,
        removeBy: ServiceConfiguration.ConfigurationRemovalDue? = nil
    ) = #externalMacro(module: "ServiceConfigurationMacrosPlugin", type: "ConfigurationKeyMacro")

    /// Declares one number key with bounds: a value outside `range` is rejected from every source, and the menu's `+`
    /// and `-` move by `step`.
    ///
    /// ```swift
    /// @ConfigurationKey("checkout.cart.max_items", range: 1...500) public static let checkoutMaxCartItems = 50
    /// @ConfigurationKey("checkout.service_fee_rate", range: 0...0.2, step: 0.01) public static let checkoutServiceFee = 0.05
    /// ```
    ///
    /// Integer keys step by 1 unless `step` says otherwise; floating-point keys need a `step`. A default outside the
    /// range is reported at the line when both are literals. See ``ConfigurationKey(_:summary:title:boolEncoding:pattern:owner:ticket:removeBy:)``
    /// for the other arguments.
    @attached(peer, names: arbitrary)
    public macro ConfigurationKey<Value: Comparable & Sendable>(
        _ name: String,
        summary: String? = nil,
        title: String? = nil,
        range: ClosedRange<Value>,
        step: Value? = nil,
        owner: String? = nil,
        ticket: String? = nil,
        removeBy: ServiceConfiguration.ConfigurationRemovalDue? = nil
    ) = #externalMacro(module: "ServiceConfigurationMacrosPlugin", type: "ConfigurationKeyMacro")

    /// Declares one key with the debug control of your choice, for example a picker over fixed numbers.
    ///
    /// ```swift
    /// @ConfigurationKey("media.thumbnail_size", control: .picker([.init(128), .init(256), .init(512, title: "retina")]))
    /// public static let mediaThumbnailSize = 256
    /// ```
    ///
    /// See ``ConfigurationKey(_:summary:title:boolEncoding:pattern:owner:ticket:removeBy:)`` for the other arguments.
    @attached(peer, names: arbitrary)
    public macro ConfigurationKey<Value: Sendable>(
        _ name: String,
        summary: String? = nil,
        title: String? = nil,
        control: ServiceConfiguration.ConfigurationDebugControlType<Value>,
        pattern: ServiceConfiguration.ConfigurationValuePattern? = nil,
        owner: String? = nil,
        ticket: String? = nil,
        removeBy: ServiceConfiguration.ConfigurationRemovalDue? = nil
    ) = #externalMacro(module: "ServiceConfigurationMacrosPlugin", type: "ConfigurationKeyMacro")
#endif
