import IAPCore
import IAPKitCLI

HeapTuning.keepLargeBlocksOutOfTheHeap()
CryptoLibrary.prepare()
IAPCommand.main()
