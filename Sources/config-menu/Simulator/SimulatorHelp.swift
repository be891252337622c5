/// The `--help` texts of the iOS Simulator options and of `config-menu simulators`.
extension Help {
    static let simulatorOptions = """
          --simulator BUNDLE_ID   instead of --store: the store of that app in the booted iOS Simulator
                                  (a Mac with Xcode; finds it with xcrun simctl get_app_container)
          --device UDID           with --simulator: that simulator device (a UDID or a device name);
                                  default: the booted one
          --app-name NAME         with --simulator: the store in Library/Application Support/NAME/ of the
                                  app's container; default: the only store there
        """

    static let simulatorCommands: [String: String] = [
        "simulators": """
        usage: config-menu simulators [--device UDID] [--json]

        The booted iOS Simulator devices (or the --device given) and, on each, the installed apps
        whose data container holds an override store (Library/Application Support/*/overrides.json):
        the bundle ID, the store's path, how many overrides it holds, and the command line that opens
        it. Needs xcrun (a Mac with Xcode).

          --json                  [{"udid", "name", "runtime", "state", "apps": [{"bundleID", "name",
                                  "dataContainer", "stores": [{"appName", "path", "overrides",
                                  "problem"}]}]}]

        \(exitCodes)
        """
    ]
}
