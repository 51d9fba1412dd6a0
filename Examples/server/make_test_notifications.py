"""App Store Server Notifications V2 for the gated nginx test, made with make-test-transactions.py's
chain (Python's `cryptography`, apart from the Swift verifier): one request body per case,
{"signedPayload": "<JWS>"}, each a ResponseBodyV2DecodedPayload whose data.signedTransactionInfo is a
transaction JWS of the same chain, about the valid purchase's original transaction.

Cases, by file name (OUTDIR/<case>.json): the types the gate acts on, signed at times that make an
order (refund at now-60 s, refund-reversed at now-30 s, refund-stale at now-90 s, revoke-later at
now-10 s, refund-last at now-5 s), the types it acknowledges (test, consumption-request,
refund-declined, unknown-type, refund-without-transaction), and one refusal each (named by the gate's reason code).
"""
import json, os, uuid


def write_notifications(out, app_apple_id, bundle, payload, jws, pki, stranger, now_ms, b64url):
    """Writes the cases into `out`; `payload` and `jws` are make-test-transactions.py's builders."""
    os.makedirs(out, exist_ok=True)

    def transaction(signer=pki, refunded=False, **changes):
        fields = dict(changes)
        if refunded:
            fields.update(revocationDate=now_ms - 120000, revocationReason=0)
        return jws(signer, payload(**fields))

    def notification(kind, at_ms, signer=pki, inner=None, data=None, **changes):
        body = {"notificationType": kind, "notificationUUID": str(uuid.uuid4()), "version": "2.0",
                "signedDate": now_ms + at_ms,
                "data": {"appAppleId": app_apple_id, "bundleId": bundle, "bundleVersion": "1.0",
                         "environment": "Production"}}
        if inner is not None:
            body["data"]["signedTransactionInfo"] = inner
        body["data"].update(data or {})
        body.update(changes)
        return jws(signer, body)

    refunded = transaction(refunded=True)
    restored = transaction(transactionId="2000000000000099")
    cases = {
        "refund": notification("REFUND", -60000, inner=refunded),
        "refund-reversed": notification("REFUND_REVERSED", -30000, inner=transaction()),
        "refund-stale": notification("REFUND", -90000, inner=refunded),
        "revoke-later": notification("REVOKE", -10000, inner=transaction(refunded=True)),
        "refund-reversed-last": notification("REFUND_REVERSED", -5000, inner=restored),
        "test": notification("TEST", 0),
        "refund-without-transaction": notification("REFUND", 0),
        "consumption-request": notification("CONSUMPTION_REQUEST", 0, inner=refunded),
        "refund-declined": notification("REFUND_DECLINED", 0, inner=transaction()),
        "unknown-type": notification("SOMETHING_APPLE_ADDS_LATER", 0, inner=transaction()),
        "untrusted-root": notification("REFUND", 0, signer=stranger, inner=refunded),
        "bundle-mismatch": notification("REFUND", 0, inner=refunded, data={"bundleId": "com.example.someone.else"}),
        "environment-mismatch": notification("REFUND", 0, inner=refunded, data={"environment": "Sandbox"}),
        "app-apple-id-mismatch": notification("REFUND", 0, inner=refunded, data={"appAppleId": app_apple_id + 1}),
        "inner-untrusted-root": notification("REFUND", 0, inner=transaction(signer=stranger, refunded=True)),
        "inner-bundle-mismatch": notification("REFUND", 0, inner=transaction(refunded=True, bundleId="com.example.x")),
        "inner-signature-invalid": notification("REFUND", 0, inner=refunded[:-4] + ("AAAA" if not refunded.endswith("AAAA") else "BBBB")),
    }
    good = cases["refund"].split(".")
    altered = json.dumps({"notificationType": "REFUND_REVERSED", "notificationUUID": str(uuid.uuid4()),
                          "signedDate": now_ms, "data": {"bundleId": bundle, "environment": "Production"}})
    cases["signature-invalid"] = good[0] + "." + b64url(altered.encode()) + "." + good[2]
    cases["jws-malformed"] = good[0] + "." + good[1]
    for case, text in cases.items():
        with open(os.path.join(out, case + ".json"), "w") as f:
            json.dump({"signedPayload": text}, f)
    with open(os.path.join(out, "request-malformed.json"), "w") as f:
        f.write('{"notificationType": "REFUND"}')


def write_bulk(path, count, app_apple_id, bundle, payload, jws, pki, now_ms):
    """Writes `count` REFUND bodies, one a line, each about its own original transaction (distinct
    identifiers, distinct notificationUUIDs, signed a millisecond apart): each one the gate keeps."""
    with open(path, "w") as f:
        for index in range(count):
            original = str(3000000000000000 + index)
            inner = jws(pki, payload(originalTransactionId=original, transactionId=original,
                                     revocationDate=now_ms - 120000, revocationReason=0))
            body = {"notificationType": "REFUND", "notificationUUID": str(uuid.uuid4()), "version": "2.0",
                    "signedDate": now_ms - 100000 + index,
                    "data": {"appAppleId": app_apple_id, "bundleId": bundle, "bundleVersion": "1.0",
                             "environment": "Production", "signedTransactionInfo": inner}}
            f.write(json.dumps({"signedPayload": jws(pki, body)}) + "\n")
