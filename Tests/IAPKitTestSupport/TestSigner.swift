import Foundation
import IAPCompression
import IAPCrypto
import IAPTestSupport
import Testing

/// Keys and certificates made once with the `openssl` command line: a root CA, a leaf it issued,
/// an expired leaf it issued, and a second, unrelated CA (2048-bit RSA all). `@unchecked Sendable`:
/// its one stored property, the folder, is set in `init` and never changed; the files in it are
/// written before `shared` is published and only read afterwards.
package final class TestPKI: @unchecked Sendable {
    package static let shared: TestPKI? = try? TestPKI()

    package let folder = ScratchFolder()

    private init() throws {
        let steps = [
            "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -subj '/CN=iapkg Test Root CA' -days 3650",
            "openssl req -x509 -newkey rsa:2048 -nodes -keyout other-ca.key -out other-ca.pem -subj '/CN=iapkg Other CA' -days 3650",
            "openssl req -new -newkey rsa:2048 -nodes -keyout leaf.key -out leaf.csr -subj '/CN=iapkg Test Signer'",
            "openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -set_serial 2 -days 365 -out leaf.pem",
            // A negative period: notAfter lies a day in the past.
            "openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -set_serial 3 -days -1 -out expired.pem",
        ]
        for step in steps {
            let result = try Harness.shell(step, in: folder.path)
            guard result.status == 0 else { throw SignerError("\(step): \(result.stderr)") }
        }
        // A static is never deinitialised: remove the keys when the test process ends.
        atexit { TestPKI.removeFolder() }
    }

    private static func removeFolder() {
        if let path = shared?.folder.path { try? FileManager.default.removeItem(atPath: path) }
    }

    /// A file of the PKI folder: "ca.pem", "leaf.key"…
    package func at(_ name: String) -> String { folder.at(name) }
}

/// A failed step of making a signed test package.
package struct SignerError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Signs a xar the way productsign lays it out: the TOC gains `<signature style="RSA">` (and
/// optionally `<x-signature style="CMS">`) after its `<checksum>`, and the heap becomes
/// [TOC digest][RSA signature][CMS signature, zero-padded][data…], every data offset shifted.
package struct TestSigner {
    /// The PEM private key that signs.
    package var key: String
    /// PEM certificates listed in the TOC's KeyInfo, leaf first (empty: no KeyInfo at all).
    package var certificates: [String]
    /// Adds a detached CMS `<x-signature>`, signed by the first certificate and `key`.
    package var cms = false
    /// Bytes reserved for the CMS signature (productsign reserves a fixed size too).
    package var cmsReserve = 6144
    /// Changes the RSA signature bytes before they are written.
    package var editSignature: ([UInt8]) -> [UInt8] = { $0 }
    /// Changes the bytes the CMS signature is made over (normally the TOC digest).
    package var editCMSContent: ([UInt8]) -> [UInt8] = { $0 }

    /// A signer with `key` listing `certificates`, with a CMS signature too when `cms`.
    package init(key: String, certificates: [String], cms: Bool = false) {
        self.key = key
        self.certificates = certificates
        self.cms = cms
    }

    /// Reads the unsigned SHA-1 or SHA-256 xar at `input` and writes it signed to `output`; `work` holds temporary files.
    package func sign(_ input: String, to output: String, work: ScratchFolder) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        guard bytes.count > 28, let algorithm = [1: DigestAlgorithm.sha1, 3: .sha256][bytes.uint32BE(at: 24)] else {
            throw SignerError("\(input) is not a SHA-1 or SHA-256 xar")
        }
        let compressedLength = Int(bytes.uint64BE(at: 8))
        let heapStart = 28 + compressedLength
        var text: [UInt8] = []
        let inflater = Inflater(format: .zlib)
        _ = try bytes[28..<heapStart].withUnsafeBytes { raw in try inflater.decompress(raw) { text += $0 } }
        let toc = String(decoding: text, as: UTF8.self)
        guard let checksumEnd = toc.range(of: "</checksum>\n") else { throw SignerError("the TOC has no <checksum>") }

        let rsaSize = 256
        let shift = rsaSize + (cms ? cmsReserve : 0)
        let digestSize = algorithm.byteCount
        var element = try signatureElement("signature", "RSA", offset: digestSize, size: rsaSize, work: work)
        if cms {
            element += try signatureElement(
                "x-signature", "CMS", offset: digestSize + rsaSize, size: cmsReserve, work: work)
        }
        let rest = String(toc[checksumEnd.upperBound...]).replacing(/<offset>(\d+)<\/offset>/) { match in
            "<offset>\((Int(match.output.1) ?? 0) + shift)</offset>"
        }
        let signedTOC = Array((String(toc[..<checksumEnd.upperBound]) + element + rest).utf8)
        let compressed = try Deflater.compress(signedTOC, format: .zlib)
        let digest = DigestHasher.digest(algorithm, of: compressed)

        try Data(digest).write(to: URL(fileURLWithPath: work.at("digest.bin")))
        try Data(editCMSContent(digest)).write(to: URL(fileURLWithPath: work.at("cms-content.bin")))
        try run(
            "openssl pkeyutl -sign -inkey '\(key)' -pkeyopt digest:\(algorithm.rawValue) -in digest.bin -out rsa.sig",
            work)
        var signature = editSignature([UInt8](try Data(contentsOf: URL(fileURLWithPath: work.at("rsa.sig")))))
        guard signature.count == rsaSize else {
            throw SignerError("the RSA signature is \(signature.count) bytes, not \(rsaSize)")
        }
        if cms {
            let signer = certificates.first ?? ""
            try run(
                "openssl cms -sign -binary -outform DER -in cms-content.bin -signer '\(signer)' -inkey '\(key)' -out cms.der",
                work)
            let der = [UInt8](try Data(contentsOf: URL(fileURLWithPath: work.at("cms.der"))))
            guard der.count <= cmsReserve else {
                throw SignerError("the CMS signature is \(der.count) bytes, over \(cmsReserve)")
            }
            signature += der + [UInt8](repeating: 0, count: cmsReserve - der.count)
        }

        var header: [UInt8] = Array(bytes[0..<8])
        header.appendBE(UInt64(compressed.count))
        header.appendBE(UInt64(signedTOC.count))
        header.appendBE(bytes.uint32BE(at: 24))
        let heap = Array(bytes[(heapStart + digestSize)...])
        try Data(header + compressed + digest + signature + heap).write(to: URL(fileURLWithPath: output))
    }

    /// The `<signature>` element: offset, size, and the certificates as base64 wrapped at 76 with CR LF.
    private func signatureElement(_ name: String, _ style: String, offset: Int, size: Int, work: ScratchFolder) throws
        -> String
    {
        do {
            var xml = "  <\(name) style=\"\(style)\">\n   <offset>\(offset)</offset>\n   <size>\(size)</size>\n"
            guard !certificates.isEmpty else { return xml + "  </\(name)>\n" }
            xml += "   <KeyInfo xmlns=\"http://www.w3.org/2000/09/xmldsig#\">\n    <X509Data>\n"
            for (index, pem) in certificates.enumerated() {
                try run("openssl x509 -in '\(pem)' -outform DER -out cert\(index).der", work)
                let der = try Data(contentsOf: URL(fileURLWithPath: work.at("cert\(index).der")))
                let base64 = der.base64EncodedString(options: [
                    .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
                ])
                xml += "     <X509Certificate>\(base64)</X509Certificate>\n"
            }
            return xml + "    </X509Data>\n   </KeyInfo>\n  </\(name)>\n"
        }
    }

    private func run(_ command: String, _ work: ScratchFolder) throws {
        let result = try Harness.shell(command, in: work.path)
        guard result.status == 0 else { throw SignerError("\(command): \(result.stderr)") }
    }
}
