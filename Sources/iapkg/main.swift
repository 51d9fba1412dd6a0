import IAPKitCLI

IAPCommand.main()
