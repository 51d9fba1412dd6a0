/// One signature of the TOC: `<signature style="RSA">` or `<x-signature style="CMS">`, as the TOC states it.
package struct XarSignature: Equatable, Sendable {
    /// The element it came from: `signature` or `x-signature`.
    package var element: String
    /// The `style` attribute as written ("RSA", "CMS").
    package var style: String
    /// Heap offset of the signature bytes, if given as a valid number.
    package var offset: UInt64?
    /// Length of the signature bytes, if given as a valid number.
    package var size: UInt64?
    /// The `<X509Certificate>` texts, base64 of DER, leaf first, exactly as written.
    package var certificateTexts: [String]
    /// The TOC line the element starts on.
    package var line: Int

    /// A signature description.
    package init(
        element: String, style: String, offset: UInt64? = nil, size: UInt64? = nil,
        certificateTexts: [String] = [], line: Int = 0
    ) {
        self.element = element
        self.style = style
        self.offset = offset
        self.size = size
        self.certificateTexts = certificateTexts
        self.line = line
    }

    /// The element as written in messages: `<signature style="RSA">`.
    package var label: String { "<\(element) style=\"\(style)\">" }
}
