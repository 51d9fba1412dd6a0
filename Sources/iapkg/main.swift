import IAPCore
import IAPKitCLI

HeapTuning.keepLargeBlocksOutOfTheHeap()
IAPCommand.main()
