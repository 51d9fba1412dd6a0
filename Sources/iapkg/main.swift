import IAPBucketStore
import IAPCrypto
import IAPKitCLI
import IAPSystem

// Process setup, here and nowhere else: the heap's placement of large blocks, OpenSSL's one-time
// setup, a write past the file-size limit failing with EFBIG (a clear error, the output removed)
// instead of SIGXFSZ killing the process half-way through a file, and s3:// store URLs opened
// through the S3 client.
HeapTuning.keepLargeBlocksOutOfTheHeap()
CryptoLibrary.prepare()
FileSystem.reportFileSizeLimitAsError()
S3ObjectBucket.register()
IAPCommand.main()
