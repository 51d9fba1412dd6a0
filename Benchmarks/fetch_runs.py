"""The fetch work for Benchmarks/run: `iapkg fetch` (the iapkg-fetch program beside iapkg) against
curl fetching the same files from the same nginx in the same run, and the fetch floor
(Benchmarks/floors/fetch.c: the bytes over loopback, written and flushed).

Untimed, once per corpus: iapkg's package of the corpus is published with `iapkg unpack` into a
store under the work folder, and a private nginx (its own prefix, a free port on 127.0.0.1,
Examples/server/iapkg-content.conf, one worker, logs off) serves it. Timed, alternating: iapkg
fetch into an empty folder with its default settings (which verifies every byte's SHA-256 and
installs atomically after a syncfs); curl with the version's files as a config file (`url` and
`output` lines), `curl -o` for a single file and `curl -Z --parallel-max 8` for several, each
plain and "flushed" (then `sync -f` on its folder, timed together); the floor with 8 connections.
"""
import json
import os
import shutil
import socket
import subprocess
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH_DIR)
SITE = os.path.join(REPO, "Examples", "server", "iapkg-content.conf")

# Placeholders as in Benchmarks/run, plus {fetch} (iapkg-fetch), {base} (the server's URL),
# {product}, {curlrc} (curl's config of the version's files), {list} and {port} (the floor's, whose
# template is floor_runs.FLOORS["fetch"]).
IAPKG = ["{fetch}", "{base}", "{product}", "--into", "{dest}", "--quiet"]
CURL_ONE = ["sh", "-c", 'cd "$1" && curl -sS -f --create-dirs -K "$0"', "{curlrc}", "{dest}"]
CURL_MANY = ["sh", "-c", 'cd "$1" && curl -sS -f --create-dirs -Z --parallel-max 8 -K "$0"', "{curlrc}", "{dest}"]
CURL_ONE_FLUSHED = ["sh", "-c", 'cd "$1" && curl -sS -f --create-dirs -K "$0" && sync -f "$1"', "{curlrc}",
                    "{dest}"]
CURL_MANY_FLUSHED = ["sh", "-c",
                     'cd "$1" && curl -sS -f --create-dirs -Z --parallel-max 8 -K "$0" && sync -f "$1"',
                     "{curlrc}", "{dest}"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Published:
    """One corpus published into a store and served by a private nginx until stop()."""

    def __init__(self, iapkg, package, work, name):
        self.folder = os.path.join(work, "fetch-%s" % name)
        shutil.rmtree(self.folder, ignore_errors=True)
        store = os.path.join(self.folder, "store")
        os.makedirs(store)
        unpacked = subprocess.run([iapkg, "unpack", package, "--into", store], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
        if unpacked.returncode != 0:
            raise RuntimeError("iapkg unpack failed: %s" % unpacked.stderr.strip()[-300:])
        products = [p for p in os.listdir(store) if os.path.isfile(os.path.join(store, p, "current.json"))]
        if len(products) != 1:
            raise RuntimeError("the store holds %d products, not 1" % len(products))
        self.product = products[0]
        with open(os.path.join(store, self.product, "current.json")) as f:
            version = json.load(f)["version"]
        self.version = version
        with open(os.path.join(store, self.product, version, "manifest.json")) as f:
            manifest = json.load(f)
        self.files = [entry["path"] for entry in manifest["files"]]
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.curlrc = os.path.join(self.folder, "curlrc")
        self.list = os.path.join(self.folder, "list")
        with open(self.curlrc, "w") as rc, open(self.list, "w") as lst:
            for path in self.files:
                url = "/%s/%s/%s" % (self.product, version, path)
                rc.write('url = "%s%s"\noutput = "%s"\n' % (self.base, url, path))
                lst.write("%s\t%s\n" % (url, path))
        self.process = self.start_nginx(store)

    def start_nginx(self, store):
        prefix = os.path.join(self.folder, "nginx")
        os.makedirs(os.path.join(prefix, "logs"))
        with open(SITE) as f:
            site = []
            for line in f:
                stripped = line.strip()
                if stripped.startswith("listen 80;"):
                    line = "    listen 127.0.0.1:%d;\n" % self.port
                elif stripped.startswith("root /srv/content;"):
                    line = "    root %s;\n" % store
                site.append(line)
        with open(os.path.join(prefix, "site.conf"), "w") as f:
            f.writelines(site)
        with open(os.path.join(prefix, "nginx.conf"), "w") as f:
            f.write("worker_processes 1;\npid %s/nginx.pid;\nerror_log %s/logs/error.log warn;\n"
                    "events { worker_connections 1024; }\nhttp {\n    include /etc/nginx/mime.types;\n"
                    "    access_log off;\n    sendfile on;\n    client_body_temp_path %s/body;\n"
                    "    proxy_temp_path %s/proxy;\n    fastcgi_temp_path %s/fastcgi;\n    uwsgi_temp_path %s/uwsgi;\n"
                    "    scgi_temp_path %s/scgi;\n    include %s/site.conf;\n}\n" % ((prefix,) * 8))
        # nginx's workers (nobody when the master runs as root) must reach the store: every folder
        # above it gains search permission for others (a `mktemp -d` work folder is 0700).
        os.chmod(self.folder, 0o755)
        parent = os.path.dirname(os.path.abspath(self.folder))
        while parent != "/":
            mode = os.stat(parent).st_mode
            if not mode & 0o001:
                os.chmod(parent, (mode & 0o7777) | 0o001)
            parent = os.path.dirname(parent)
        process = subprocess.Popen(["nginx", "-p", prefix, "-c", os.path.join(prefix, "nginx.conf"),
                                    "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return process
            except OSError:
                time.sleep(0.1)
        process.kill()
        raise RuntimeError("nginx did not start on port %d" % self.port)

    def values(self, values, fetch):
        return dict(values, fetch=fetch, base=self.base, product=self.product, curlrc=self.curlrc,
                    list=self.list, port=str(self.port))

    def stop(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def unavailable(fetch):
    """Why the fetch work cannot run here, or None."""
    for tool in ("nginx", "curl"):
        if shutil.which(tool) is None:
            return "%s is not installed" % tool
    if not os.access(fetch, os.X_OK):
        return "no iapkg-fetch at %s" % fetch
    return None


def curl_templates(files):
    """curl plain and flushed: `curl -o` for one file, `curl -Z --parallel-max 8` for several."""
    return (CURL_ONE, CURL_ONE_FLUSHED) if files == 1 else (CURL_MANY, CURL_MANY_FLUSHED)


def check(dest, published, store_files):
    """The floor's folder holds every file of the version, byte for byte; None when it does, else why not."""
    for path in published.files:
        a, b = os.path.join(store_files, path), os.path.join(dest, path)
        if not os.path.isfile(b):
            return "%s is missing" % path
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() != fb.read():
                return "the bytes of %s differ" % path
    return None
