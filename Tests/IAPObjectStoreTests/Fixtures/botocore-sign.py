#!/usr/bin/env python3
"""Signs S3 requests with botocore (S3SigV4Auth for headers, S3SigV4QueryAuth for presigned URLs)
at a fixed clock, so the tests can hold the Swift signer to an implementation nobody here wrote.

Reads a JSON list of cases on stdin, each {"method", "url", "headers": [[name, value], ...],
"bodyHex", "accessKey", "secretKey", "token" (or null), "region", "time" (seconds since 1970),
"presignExpires" (null for a header-signed request)}; writes a JSON list of
{"authorization"} or {"url"} in the same order."""
import datetime
import json
import sys
from unittest import mock

import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials


def sign(case):
    credentials = Credentials(case["accessKey"], case["secretKey"], case["token"])
    when = datetime.datetime.fromtimestamp(case["time"], tz=datetime.timezone.utc)
    request = AWSRequest(method=case["method"], url=case["url"], data=bytes.fromhex(case["bodyHex"]))
    for name, value in case["headers"]:
        request.headers[name] = value
    with mock.patch.object(botocore.auth, "get_current_datetime", return_value=when):
        if case["presignExpires"] is None:
            botocore.auth.S3SigV4Auth(credentials, "s3", case["region"]).add_auth(request)
            return {"authorization": request.headers["Authorization"]}
        botocore.auth.S3SigV4QueryAuth(credentials, "s3", case["region"], expires=case["presignExpires"]).add_auth(request)
        return {"url": request.url}


json.dump([sign(case) for case in json.load(sys.stdin)], sys.stdout)
