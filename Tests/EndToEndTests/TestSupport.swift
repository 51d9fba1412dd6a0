// Every end-to-end test runs the built binary through the shared harness (Harness, ScratchFolder,
// Fixtures) and makes its hostile packages with IAPKitTestSupport; exported here so that no test
// file needs to import them.
@_exported import IAPKitTestSupport
@_exported import IAPTestSupport
