import Foundation
import IAPTestSupport

/// A plain HTTP front of the bucket, as a CDN with origin access is: GET and HEAD of
/// `/<prefix>/<key>` are signed with the read-only identity by botocore (SigV4, a signer nobody
/// here wrote) and sent to SeaweedFS, `Range` included; the answer goes back as it came.
/// Clients of the front (`iapkg fetch`, IAPClient) hold no credentials.
final class SigningFront {
    let port: Int
    private let server: BackgroundServer

    init(_ seaweed: SeaweedServer) throws {
        port = NginxServer.freePort()
        let script = """
            import sys, urllib.request, urllib.error
            from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
            from botocore.auth import SigV4Auth
            from botocore.awsrequest import AWSRequest
            from botocore.credentials import Credentials
            origin, bucket, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
            credentials = Credentials(sys.argv[4], sys.argv[5])
            class Front(BaseHTTPRequestHandler):
                def forward(self):
                    headers = {k: v for k, v in self.headers.items() if k.lower() == 'range'}
                    request = AWSRequest(method=self.command, url=f'{origin}/{bucket}{self.path}', headers=headers)
                    SigV4Auth(credentials, 's3', 'us-east-1').add_auth(request)
                    prepared = urllib.request.Request(request.url, method=self.command, headers=dict(request.headers))
                    try:
                        response = urllib.request.urlopen(prepared)
                    except urllib.error.HTTPError as error:
                        response = error
                    body = response.read()
                    self.send_response(response.status)
                    for name, value in response.headers.items():
                        if name.lower() not in ('transfer-encoding', 'connection', 'content-length', 'server', 'date'):
                            self.send_header(name, value)
                    self.send_header('Content-Length', str(len(body)))
                    self.end_headers()
                    if self.command == 'GET':
                        self.wfile.write(body)
                do_GET = forward
                do_HEAD = forward
                def log_message(self, *args):
                    pass
            ThreadingHTTPServer(('127.0.0.1', port), Front).serve_forever()
            """
        self.server = try BackgroundServer(
            python: script,
            arguments: [
                seaweed.endpoint, SeaweedServer.bucket, String(port), SeaweedServer.reader.accessKey,
                SeaweedServer.reader.secretKey,
            ])
        _ = ServeCheck.wait(seconds: 20) {
            (try? Harness.run(["curl", "-s", "-o", "/dev/null", "http://127.0.0.1:\(self.port)/"]))?.status == 0
        }
    }

    /// The front's URL of `prefix` in the bucket.
    func base(_ prefix: String) -> String { "http://127.0.0.1:\(port)/\(prefix)" }
}
