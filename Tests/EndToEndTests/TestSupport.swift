// Every end-to-end test runs the built binary through the shared harness (Harness, ScratchFolder,
// Fixtures); exported here so that no test file needs to import it.
@_exported import IAPTestSupport
