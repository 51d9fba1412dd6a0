import IAPPurchase

/// What the gate answers one request: a status, a stable code (also logged), the product when one
/// is known, and a JSON body.
package struct GateAnswer: Sendable, Equatable {
    /// The HTTP status.
    package let status: Int
    /// `ok` or the reason code of the refusal.
    package let code: String
    /// The product the request was about, when known.
    package let product: String?
    /// The JSON body (sorted keys, one line).
    package let body: [UInt8]
    /// Where a redirect sends the client (a presigned URL of the object store), for `307` only.
    package let location: String?

    /// An answer with `status`, `code`, `product`, `body` and, for a redirect, `location`.
    init(status: Int, code: String, product: String? = nil, body: [UInt8], location: String? = nil) {
        self.status = status
        self.code = code
        self.product = product
        self.body = body
        self.location = location
    }

    /// A refusal: `{"error":{"code":…,"message":…},"schemaVersion":1}`.
    static func refusal(_ status: Int, _ code: String, _ message: String, product: String? = nil) -> GateAnswer {
        var body = Array(#"{"error":{"code":"#.utf8)
        JSONWriter.append(code, to: &body)
        body += Array(#","message":"#.utf8)
        JSONWriter.append(message, to: &body)
        body += Array("},\"schemaVersion\":1}\n".utf8)
        return GateAnswer(status: status, code: code, product: product, body: body)
    }

    /// IAPPurchase's `refusal` answered with `status`: its code and message.
    static func refusal<Reason>(_ status: Int, _ refusal: Refusal<Reason>, product: String? = nil) -> GateAnswer {
        .refusal(status, refusal.code, refusal.message, product: product)
    }
}

/// JSON strings written straight into bytes (every control character and non-ASCII escaped, so a
/// line never breaks and a log line is one line whatever a client sent).
enum JSONWriter {
    /// Appends `text` as a quoted JSON string.
    static func append(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += Array("\\\"".utf8)
            case "\\": out += Array("\\\\".utf8)
            case "\n": out += Array("\\n".utf8)
            case "\t": out += Array("\\t".utf8)
            case " "..."~": out.append(UInt8(scalar.value))
            default:
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `text` as a quoted JSON string.
    static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
