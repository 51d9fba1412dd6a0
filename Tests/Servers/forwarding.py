"""What the test proxies share: a request sent on to the upstream S3 server with its headers as
they came (Host too, so SigV4 signatures hold), and an answer relayed back, one request per
connection."""
import http.client
import time

# Hop-by-hop headers, and Expect: a proxy answers 100-continue itself.
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "expect", "proxy-connection"}


def send_upstream(handler, upstream, body=None):
    """Sends handler's request (method, path with query, headers, body) to upstream (host:port);
    returns the connection and its response."""
    connection = http.client.HTTPConnection(upstream, timeout=120)
    connection.putrequest(handler.command, handler.path, skip_host=True, skip_accept_encoding=True)
    for name, value in handler.headers.items():
        if name.lower() not in HOP_BY_HOP:
            connection.putheader(name, value)
    connection.endheaders(body if body else None)
    return connection, connection.getresponse()


def relay(handler, connection, response, rate=0):
    """Sends response back through handler, its body at most rate bytes a second (0: unthrottled),
    then closes both connections."""
    handler.send_response_only(response.status)
    for name, value in response.getheaders():
        if name.lower() not in HOP_BY_HOP:
            handler.send_header(name, value)
    # One request per connection: a body of unknown length then ends with the connection.
    handler.send_header("Connection", "close")
    handler.end_headers()
    handler.close_connection = True
    while handler.command != "HEAD":
        chunk = response.read(65536)
        if not chunk:
            break
        handler.wfile.write(chunk)
        if rate:
            time.sleep(len(chunk) / rate)
    connection.close()
