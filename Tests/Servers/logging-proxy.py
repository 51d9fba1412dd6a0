#!/usr/bin/env python3
"""A logging HTTP proxy for the tests: forwards every GET and HEAD to UPSTREAM (host:port) with its
headers unchanged (Host too, so a presigned URL's signature still holds), sends response bodies at
most RATE bytes a second (0: unthrottled), and writes one JSON line per request to LOG: the method,
the path, the status, the Range header, the names of the request's headers, whether it carried a
query string and whether its Authorization was a bearer token. It never writes other header values,
so no secret reaches the log. Prints its port, then serves until
killed.
    logging-proxy.py UPSTREAM LOG [RATE]
"""
import http.server
import json
import os
import signal
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forwarding  # noqa: E402  (beside this script)

# The test runner may start it with signals blocked: SIGTERM must stop it.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
UPSTREAM, LOG = sys.argv[1], sys.argv[2]
RATE = int(sys.argv[3]) if len(sys.argv) > 3 else 0
LOCK = threading.Lock()


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        upstream, response = forwarding.send_upstream(self, UPSTREAM)
        with LOCK, open(LOG, "a") as log:
            log.write(json.dumps({
                "method": self.command, "path": self.path.split("?")[0], "status": response.status,
                "bearer": self.headers.get("Authorization", "").lower().startswith("bearer"),
                "range": self.headers.get("Range"), "headers": sorted(k.lower() for k in self.headers.keys()),
                "query": "?" in self.path}) + "\n")
        forwarding.relay(self, upstream, response, RATE)

    do_GET = forward
    do_HEAD = forward

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
print(server.server_address[1], flush=True)
server.serve_forever()
