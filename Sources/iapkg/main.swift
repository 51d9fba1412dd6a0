import IAPCrypto
import IAPKitCLI
import IAPSystem

// Process setup, here and nowhere else: the heap's placement of large blocks, OpenSSL's one-time
// setup, and a write past the file-size limit failing with EFBIG (a clear error, the output removed)
// instead of SIGXFSZ killing the process half-way through a file.
HeapTuning.keepLargeBlocksOutOfTheHeap()
CryptoLibrary.prepare()
FileSystem.reportFileSizeLimitAsError()
IAPCommand.main()
