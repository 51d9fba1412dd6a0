#!/usr/bin/env python3
"""A fault injector in front of an S3 server for the tests: forwards every request to UPSTREAM
(host:port) with its headers unchanged (Host too, so SigV4 signatures still hold) and its body,
except those that a rule picks. Each rule is METHOD, a regular expression searched in the path
(query included), a fault and a count: the first COUNT requests it matches get the fault.
    slowdown     answered 503 with S3's SlowDown error, never forwarded
    drop         the connection is closed before the request is forwarded (nothing lands)
    lost-answer  forwarded (the write lands), then the connection is closed without an answer
Writes one JSON line per request to LOG: method, path (without its query), the fault applied,
the status the server gave (none when not forwarded). No header value is ever logged, so no
signature or key reaches the log. Prints its port, then serves until killed.
    fault-proxy.py UPSTREAM LOG RULES_JSON
RULES_JSON: [{"method": "PUT", "path": "current\\.json$", "fault": "lost-answer", "count": 1}, ...]
"""
import http.server
import json
import os
import re
import signal
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forwarding  # noqa: E402  (beside this script)

# The test runner may start it with signals blocked: SIGTERM must stop it.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
UPSTREAM, LOG = sys.argv[1], sys.argv[2]
RULES = json.loads(sys.argv[3]) if len(sys.argv) > 3 else []
LOCK = threading.Lock()
SLOWDOWN = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code>'
            b'<Message>Please reduce your request rate.</Message><RequestId>fault-proxy</RequestId></Error>')


def pick(method, path):
    """The fault the first rule with requests left gives this request, or None; counts one use."""
    with LOCK:
        for rule in RULES:
            if rule["count"] > 0 and rule["method"] == method and re.search(rule["path"], path):
                rule["count"] -= 1
                return rule["fault"]
    return None


def log(method, path, fault, status):
    with LOCK, open(LOG, "a") as out:
        out.write(json.dumps({"method": method, "path": path.split("?")[0], "fault": fault, "status": status}) + "\n")


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        fault = pick(self.command, self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if fault == "slowdown":
            log(self.command, self.path, fault, None)
            self.send_response_only(503)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(SLOWDOWN)))
            self.end_headers()
            self.wfile.write(SLOWDOWN)
            return
        if fault == "drop":
            log(self.command, self.path, fault, None)
            self.close_connection = True
            self.connection.shutdown(2)
            return
        upstream, response = forwarding.send_upstream(self, UPSTREAM, body)
        log(self.command, self.path, fault, response.status)
        if fault == "lost-answer":
            response.read()
            upstream.close()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        forwarding.relay(self, upstream, response)

    do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = forward

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
