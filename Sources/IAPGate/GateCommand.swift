import ArgumentParser

/// `iapkg-gate` (run as `iapkg gate`): `serve` (the default, so `iapkg gate --root …` serves) and
/// the operator's commands over the revocation state: `revoke`, `unrevoke`, `revocations`.
package struct GateCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "iapkg-gate",
        abstract: "Serve content only to buyers: verify StoreKit 2 purchases, issue download tokens, answer nginx.",
        discussion: """
            'iapkg gate --root …' serves: it verifies purchases, issues download tokens and answers nginx's \
            auth_request (serve is the default subcommand; 'iapkg gate serve --help' lists its options). With \
            --state DIR it takes App Store Server Notifications and refuses refunded purchases; \
            'iapkg gate revoke|unrevoke --state DIR ID' decides by hand and 'iapkg gate revocations --state DIR' \
            lists what is kept.
            """,
        subcommands: [GateServeCommand.self, RevokeCommand.self, UnrevokeCommand.self, RevocationsCommand.self],
        defaultSubcommand: GateServeCommand.self)

    package init() {}
}
