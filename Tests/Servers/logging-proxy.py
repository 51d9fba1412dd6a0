#!/usr/bin/env python3
"""A logging HTTP proxy for the tests: forwards every GET and HEAD to UPSTREAM (host:port) with its
headers unchanged (Host too, so a presigned URL's signature still holds), sends response bodies at
most RATE bytes a second (0: unthrottled), and writes one JSON line per request to LOG: the method,
the path, the status, the Range header and the names of the request's headers. It never writes
header values other than Range, so no secret reaches the log. Prints its port, then serves until
killed.
    logging-proxy.py UPSTREAM LOG [RATE]
"""
import http.client
import http.server
import json
import sys
import threading
import time

UPSTREAM, LOG = sys.argv[1], sys.argv[2]
RATE = int(sys.argv[3]) if len(sys.argv) > 3 else 0
LOCK = threading.Lock()


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        upstream = http.client.HTTPConnection(UPSTREAM, timeout=60)
        upstream.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
        for name, value in self.headers.items():
            upstream.putheader(name, value)
        upstream.endheaders()
        response = upstream.getresponse()
        with LOCK, open(LOG, "a") as log:
            log.write(json.dumps({
                "method": self.command, "path": self.path.split("?")[0], "status": response.status,
                "range": self.headers.get("Range"), "headers": sorted(k.lower() for k in self.headers.keys()),
                "query": "?" in self.path}) + "\n")
        self.send_response_only(response.status)
        for name, value in response.getheaders():
            if name.lower() not in ("connection", "keep-alive", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        while self.command != "HEAD":
            chunk = response.read(65536)
            if not chunk:
                break
            self.wfile.write(chunk)
            if RATE:
                time.sleep(len(chunk) / RATE)
        upstream.close()

    do_GET = forward
    do_HEAD = forward

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
print(server.server_address[1], flush=True)
server.serve_forever()
