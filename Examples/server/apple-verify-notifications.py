#!/usr/bin/env python3
"""Decodes notification request bodies with Apple's own App Store Server Library (PyPI
app-store-server-library), a second implementation to compare with the gate's verdicts.

    apple-verify-notifications.py ROOT_DER BUNDLE APP_APPLE_ID BODY.json...

Prints one line per body: `<file> verified <notificationType>` or `<file> refused <status>`, where a
body verifies when SignedDataVerifier (the test root, Production, online checks off) verifies and
decodes the notification and, when it carries one, its data.signedTransactionInfo.
"""
import json, sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

root, bundle, app_apple_id = open(sys.argv[1], "rb").read(), sys.argv[2], int(sys.argv[3])
verifier = SignedDataVerifier([root], False, Environment.PRODUCTION, bundle, app_apple_id)
for path in sys.argv[4:]:
    try:
        body = json.load(open(path))
        signed_payload = body["signedPayload"] if isinstance(body, dict) else None
        if not isinstance(signed_payload, str):
            raise ValueError("no signedPayload")
        notification = verifier.verify_and_decode_notification(signed_payload)
        if notification.data is not None and notification.data.signedTransactionInfo is not None:
            verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
        print(f"{path} verified {notification.rawNotificationType}")
    except VerificationException as error:
        print(f"{path} refused {error.status.name}")
    except (ValueError, KeyError, TypeError) as error:
        print(f"{path} refused malformed")
