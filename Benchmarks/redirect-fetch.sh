#!/usr/bin/env bash
# iapkg fetch through the gate's presigned redirect against iapkg fetch straight from the bucket (SeaweedFS,
# anonymous read), alternating, 2,000 files of 4 KiB and one 128 MiB file.
#   Benchmarks/redirect-fetch.sh BINDIR REPO [ROUNDS]   (BINDIR holds iapkg, iapkg-gate, iapkg-fetch)
set -euo pipefail
bin="$1" repo="$2" rounds="${3:-5}"
work="$(mktemp -d /tmp/rb-work.XXXX)"
gate=""; trap 'bash "$repo/Tests/Servers/seaweed-server.sh" stop "$work/weed"; [ -n "$gate" ] && kill $gate 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/weed"
cat >"$work/weed/identities.json" <<'JSON'
{"identities": [
  {"name": "writer", "credentials": [{"accessKey": "IAPKGTESTWRITER", "secretKey": "writer-secret-Zq4v9XkP2m"}],
   "actions": ["Admin", "Read", "List", "Tagging", "Write"]},
  {"name": "reader", "credentials": [{"accessKey": "IAPKGTESTREADER", "secretKey": "reader-secret-Hw7c3LbN8t"}],
   "actions": ["Read", "List"]},
  {"name": "anonymous", "actions": ["Read"]}
]}
JSON
port="$(bash "$repo/Tests/Servers/seaweed-server.sh" start "$work/weed" $$)"
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_REGION=us-east-1
python3 - "$work" <<'PY'
import os, sys
w = sys.argv[1]
for name, files in (("files2k", [(f"d{i % 4}/f{i}.bin", 4096) for i in range(2000)]), ("one128m", [("big.bin", 128 << 20)])):
    root = f"{w}/{name}"
    os.makedirs(root + "/Contents")
    open(root + "/ContentInfo.plist", "w").write(f'''<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>IAPProductIdentifier</key><string>com.example.bench.{name}</string>
<key>ContentVersion</key><string>1.0</string></dict></plist>
''')
    for path, size in files:
        p = f"{root}/Contents/{path}"
        os.makedirs(os.path.dirname(p), exist_ok=True)
        open(p, "wb").write(os.urandom(size))
PY
for name in files2k one128m; do
    "$bin/iapkg" build "$work/$name" -o "$work/$name.pkg" >/dev/null
    AWS_ACCESS_KEY_ID=IAPKGTESTWRITER AWS_SECRET_ACCESS_KEY=writer-secret-Zq4v9XkP2m \
        "$bin/iapkg" unpack "$work/$name.pkg" --into "s3://iapkg-test/bench" >/dev/null
done
head -c 32 /dev/urandom >"$work/gate.key"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=anchor -days 2 \
    -keyout "$work/anchor.key" -out "$work/anchor.pem" 2>/dev/null
AWS_ACCESS_KEY_ID=IAPKGTESTREADER AWS_SECRET_ACCESS_KEY=reader-secret-Hw7c3LbN8t \
    "$bin/iapkg" gate --root s3://iapkg-test/bench --listen 127.0.0.1:0 --bundle-id com.example.game \
    --trust-anchor "$work/anchor.pem" --key-file "$work/gate.key" >"$work/gate.log" 2>"$work/gate.err" &
gate=$!
for _ in $(seq 1 100); do grep -q "listening on" "$work/gate.err" && break; sleep 0.1; done
gate_address="$(grep -o '127.0.0.1:[0-9]*' "$work/gate.err" | head -1)"
token() {   # a download token for product $1, as DownloadTokens issues it
    python3 - "$work/gate.key" "$1" <<'PY'
import base64, hashlib, hmac, json, sys, time
key = open(sys.argv[1], "rb").read()
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
body = b64(json.dumps({"exp": int(time.time()) + 3600, "pid": sys.argv[2], "v": 1}, separators=(",", ":"), sort_keys=True).encode())
print(body + "." + b64(hmac.new(key, body.encode(), hashlib.sha256).digest()))
PY
}
now() { date +%s.%N; }
echo "shape round direct_s gate_s"
for name in files2k one128m; do
    product="com.example.bench.$name"
    t="$(token "$product")"
    for round in $(seq 1 "$rounds"); do
        rm -rf "$work/a" "$work/b"
        s=$(now); "$bin/iapkg" fetch "http://127.0.0.1:$port/iapkg-test/bench" "$product" --into "$work/a" --quiet; d=$(now)
        s2=$(now); "$bin/iapkg" fetch "http://$gate_address/v1/content" "$product" --token "$t" --into "$work/b" --quiet; d2=$(now)
        cmp -s "$work/a/current/Contents/$( [ $name = one128m ] && echo big.bin || echo d1/f1.bin)" \
            "$work/b/current/Contents/$( [ $name = one128m ] && echo big.bin || echo d1/f1.bin)"
        echo "$name $round $(echo "$d - $s" | bc) $(echo "$d2 - $s2" | bc)"
    done
done
