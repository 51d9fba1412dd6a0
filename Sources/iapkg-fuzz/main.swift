import FuzzTargets
import IAPSystem

// iapkg-fuzz TARGET [ARGUMENTS...]: the libFuzzer targets of iapkg (FuzzTargets), one binary for all.
// Built by `.ci/fuzz` with -sanitize=fuzzer,address -DFUZZING, ARGUMENTS are libFuzzer's (flags,
// corpus folders). Built plainly, ARGUMENTS are files or folders of inputs to replay once each.

/// Prints the usage to standard error and exits with `status`.
func usage(_ status: Int32) -> Never {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    CurrentProcess.writeToStandardError(
        "usage: iapkg-fuzz TARGET [libFuzzer flags | files and folders to replay]\ntargets: \(names)\n")
    CurrentProcess.exit(status)
}

let arguments = CommandLine.arguments
if arguments.count == 2 && ["-h", "--help"].contains(arguments[1]) { usage(0) }
if arguments.count == 2 && arguments[1] == "--list" {
    for target in FuzzTarget.allCases { print(target.rawValue, target.dictionaryName) }
    CurrentProcess.exit(0)
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
    CurrentProcess.exit(
        driverArguments.withUnsafeMutableBufferPointer { buffer in
            guard var base = buffer.baseAddress else { return 2 }  // never: the array holds argv[0] and nil
            return runDriver(&count, &base) { testOneInput($0, $1) }
        })
#else
    do {
        let count = try Replay.run(target, paths: Array(arguments.dropFirst(2))) { print($0) }
        print("\(target.rawValue): \(count) inputs ran, none crashed")
    } catch {
        CurrentProcess.writeToStandardError("iapkg-fuzz: \(error)\n")
        CurrentProcess.exit(2)
    }
#endif
