#!/usr/bin/env python3
"""Makes a test PKI shaped as Apple's StoreKit 2 chain and signed transactions for the gated nginx test.

    make-test-transactions.py OUTDIR BUNDLE PRODUCT [APP_APPLE_ID [BULK_COUNT]]

Writes OUTDIR/root.pem (the trust anchor to give iapkg gate), OUTDIR/root.der (the same, DER),
OUTDIR/stranger-root.pem (a root nobody trusts), and one compact JWS per case in OUTDIR/<case>.jws:
a valid purchase, and one transaction for each refusal the gate must give. With APP_APPLE_ID, also
App Store Server Notifications V2 bodies ({"signedPayload": "<JWS>"}) about the valid purchase's
original transaction, in OUTDIR/notifications/<case>.json (see make_test_notifications.py); with
BULK_COUNT, that many REFUNDs of distinct purchases in OUTDIR/bulk-refunds.jsonl, one body a line. Made with Python's `cryptography`: the certificates,
the JWS and its JOSE signature are built by code written apart from the Swift verifier's.
"""
import base64, datetime, json, os, sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID

out, bundle, product = sys.argv[1], sys.argv[2], sys.argv[3]
LEAF_OID = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
INTERMEDIATE_OID = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")
START = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
END = datetime.datetime(2040, 1, 1, tzinfo=datetime.timezone.utc)
NOW_MS = int(datetime.datetime.now(datetime.timezone.utc).timestamp() * 1000)


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def certificate(subject, issuer, key, issuer_key, ca, marker=None):
    builder = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(START).not_valid_after(END)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
               # Key identifiers and a CA's key usage, as Apple's certificates carry them (OpenSSL's X509_STRICT,
               # which Apple's App Store Server Library sets, requires them).
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()),
                              critical=False))
    if ca:
        builder = builder.add_extension(x509.KeyUsage(
            digital_signature=False, content_commitment=False, key_encipherment=False, data_encipherment=False,
            key_agreement=False, key_cert_sign=True, crl_sign=True, encipher_only=False, decipher_only=False),
            critical=True)
    if marker is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(marker, b"\x05\x00"), critical=False)
    return builder.sign(issuer_key, hashes.SHA384())


def chain(root_name="Test Root CA - G3"):
    root_key, inter_key = ec.generate_private_key(ec.SECP384R1()), ec.generate_private_key(ec.SECP384R1())
    root = certificate(root_name, root_name, root_key, root_key, True)
    inter = certificate("Test WWDR G6", root_name, inter_key, root_key, True, INTERMEDIATE_OID)
    return with_leaf({"root": root, "inter": inter, "inter_key": inter_key})


def with_leaf(pki, marker=LEAF_OID):
    """`pki` with a new P-256 leaf under its intermediate (without Apple's marker when `marker` is None)."""
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    leaf = certificate("Test StoreKit", "Test WWDR G6", leaf_key, pki["inter_key"], False, marker)
    return dict(pki, leaf=leaf, leaf_key=leaf_key)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def der64(cert):
    return base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode()


def jws(pki, payload, x5c=None):
    header = {"alg": "ES256", "x5c": x5c or [der64(pki["leaf"]), der64(pki["inter"]), der64(pki["root"])]}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(payload).encode())
    r, s = decode_dss_signature(pki["leaf_key"].sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def payload(**changes):
    fields = {"bundleId": bundle, "productId": product, "environment": "Production", "type": "Non-Consumable",
              "signedDate": NOW_MS, "purchaseDate": NOW_MS - 60000, "transactionId": "2000000000000001",
              "originalTransactionId": "2000000000000001", "quantity": 1, "storefront": "USA"}
    fields.update(changes)
    return {k: v for k, v in fields.items() if v is not None}


pki, stranger, other = chain(), chain(), chain()
unmarked = with_leaf(pki, marker=None)
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "root.pem"), "wb") as f:
    f.write(pki["root"].public_bytes(serialization.Encoding.PEM))
with open(os.path.join(out, "root.der"), "wb") as f:
    f.write(pki["root"].public_bytes(serialization.Encoding.DER))
with open(os.path.join(out, "stranger-root.pem"), "wb") as f:
    f.write(stranger["root"].public_bytes(serialization.Encoding.PEM))
cases = {
    "valid": jws(pki, payload()),
    "untrusted-root": jws(stranger, payload()),
    # The other chain's leaf under this chain's intermediate and root: the issuer's signature fails.
    "chain-invalid": jws(other, payload(), [der64(other["leaf"]), der64(pki["inter"]), der64(pki["root"])]),
    "leaf-marker-missing": jws(unmarked, payload()),
    "bundle-mismatch": jws(pki, payload(bundleId="com.example.someone.else")),
    "revoked": jws(pki, payload(revocationDate=NOW_MS)),
    "environment-mismatch": jws(pki, payload(environment="Sandbox")),
    "product-unknown": jws(pki, payload(productId="com.example.not.published")),
    "not-non-consumable": jws(pki, payload(type="Consumable")),
}
valid = cases["valid"].split(".")
cases["signature-invalid"] = valid[0] + "." + b64url(json.dumps(payload(productId=product + "x")).encode()) + "." + valid[2]
cases["jws-malformed"] = valid[0] + "." + valid[1]
for case, text in cases.items():
    with open(os.path.join(out, case + ".jws"), "w") as f:
        f.write(text)
print(" ".join(sorted(cases)))
if len(sys.argv) > 4:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from make_test_notifications import write_bulk, write_notifications
    write_notifications(os.path.join(out, "notifications"), int(sys.argv[4]), bundle, payload, jws,
                        pki=pki, stranger=stranger, now_ms=NOW_MS, b64url=b64url)
    if len(sys.argv) > 5:
        write_bulk(os.path.join(out, "bulk-refunds.jsonl"), int(sys.argv[5]), int(sys.argv[4]), bundle, payload, jws,
                   pki=pki, now_ms=NOW_MS)
