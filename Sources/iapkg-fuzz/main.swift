import FuzzTargets

#if canImport(Glibc)
    import Glibc
#endif

// iapkg-fuzz TARGET [ARGUMENTS...]: the libFuzzer targets of iapkg (FuzzTargets), one binary for all.
// Built by `.ci/fuzz` with -sanitize=fuzzer,address -DFUZZING, ARGUMENTS are libFuzzer's (flags,
// corpus folders). Built plainly, ARGUMENTS are files or folders of inputs to replay once each.

/// Writes `text` to standard error.
func printError(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Prints the usage to standard error and exits with `status`.
func usage(_ status: Int32) -> Never {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    printError("usage: iapkg-fuzz TARGET [libFuzzer flags | files and folders to replay]\ntargets: \(names)\n")
    exit(status)
}

let arguments = CommandLine.arguments
if arguments.count == 2 && ["-h", "--help"].contains(arguments[1]) { usage(0) }
if arguments.count == 2 && arguments[1] == "--list" {
    for target in FuzzTarget.allCases { print(target.rawValue, target.dictionaryName) }
    exit(0)
}
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else { usage(64) }

#if FUZZING
    /// The target every libFuzzer input goes to (set once, before the driver starts).
    nonisolated(unsafe) var selected = target

    /// libFuzzer's entry point: one input through the selected target.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }

    /// libFuzzer's driver (compiler-rt FuzzerInterface.h), run with the target name taken out of argv.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    var driverArguments: [UnsafeMutablePointer<CChar>?] = [CommandLine.unsafeArgv[0]]
    for index in 2..<Int(CommandLine.argc) { driverArguments.append(CommandLine.unsafeArgv[index]) }
    driverArguments.append(nil)
    var count = CInt(driverArguments.count - 1)
    exit(
        driverArguments.withUnsafeMutableBufferPointer { buffer in
            var base = buffer.baseAddress!
            return runDriver(&count, &base) { testOneInput($0, $1) }
        })
#else
    do {
        let count = try Replay.run(target, paths: Array(arguments.dropFirst(2))) { print($0) }
        print("\(target.rawValue): \(count) inputs ran, none crashed")
    } catch {
        printError("iapkg-fuzz: \(error)\n")
        exit(2)
    }
#endif
