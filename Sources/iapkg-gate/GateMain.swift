import IAPGate

/// `iapkg-gate`: the purchase-checking HTTP service (`iapkg gate` runs it).
@main
enum GateMain {
    static func main() async {
        await GateCommand.main()
    }
}
