import ArgumentParser

/// The root command: `iapkg <subcommand>`.
public struct IAPCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "iapkg",
        abstract: "Build, inspect, validate and unpack In-App Purchase hosted-content packages."
    )
    public init() {}
}
