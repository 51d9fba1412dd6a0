#!/usr/bin/env bash
# End-to-end: a real nginx (127.0.0.1, free ports, its own prefix) with Examples/server/iapkg-gated.conf
# in front of a version store, and `iapkg gate` answering its auth_request. Shows that:
#   - a transaction signed under an untrusted root, with a broken chain, a leaf without Apple's
#     marker, a bad signature, a wrong bundle, the wrong environment, a revoked purchase, a
#     consumable, an unknown product or a malformed JWS earns no token (403 and its reason code);
#   - no token, a malformed, altered, expired, other-product or rotated-key token, a token in the
#     query string and a `..` path that names one product but reaches another are refused (401/403);
#   - a valid purchase's token downloads current.json and every file of the current version, each
#     matching manifest.json, with Cache-Control "private" (never stored by a shared cache);
#   - the gate logs one JSON line per request and never a token or a transaction; SIGTERM exits 0;
# then measures the requests per second auth_request sustains through nginx with wrk (bounded).
#
# Usage: Examples/server/test-gated-nginx.sh [BIN_DIR] [WRK_SECONDS]   (defaults: .build/debug 10)
# BIN_DIR holds iapkg and iapkg-gate. Needs nginx, curl, python3 with cryptography, wrk (for the measure).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(realpath "${1:-.build/debug}")"
wrk_seconds="${2:-10}"
iapkg="$bin/iapkg"
gate_bin="$bin/iapkg-gate"
for tool in nginx curl python3; do
  command -v "$tool" >/dev/null || { echo "test-gated-nginx: $tool is not installed" >&2; exit 2; }
done
[ -x "$gate_bin" ] || { echo "test-gated-nginx: no $gate_bin (swift build --product iapkg-gate)" >&2; exit 2; }

work="$(mktemp -d /tmp/iapkg-gated-XXXXXX)"
chmod 0755 "$work"
gate_pid=""; nginx_pid=""
cleanup() {
  [ -n "$gate_pid" ] && kill "$gate_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill -QUIT "$nginx_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "test-gated-nginx: FAIL: $*" >&2; failures=$((failures + 1)); }
# shellcheck source=nginx-for-tests.sh
source "$here/nginx-for-tests.sh"

# The store: two products, one version each.
mkdir -p "$work/srv" "$work/nginx/logs" "$work/nginx/tmp"
"$iapkg" build "$here/../level-pack" -o "$work/level-pack.pkg" >/dev/null 2>&1
"$iapkg" build "$here/../book-chapter" -o "$work/book-chapter.pkg" >/dev/null 2>&1
"$iapkg" unpack "$work/level-pack.pkg" "$work/book-chapter.pkg" --into "$work/srv" >/dev/null
product=com.example.game.levels.pack1
other=com.example.books.harbour.chapter1
bundle=com.example.game
python3 "$here/make-test-transactions.py" "$work/tx" "$bundle" "$product" >/dev/null

head -c 32 /dev/urandom > "$work/gate.key"
chmod 600 "$work/gate.key"
gate_port="$(free_port)"
start_gate() {   # start_gate KEYFILE: the gate on $gate_port, its JSON log appended to $work/gate.jsonl
  "$gate_bin" --root "$work/srv" --listen "127.0.0.1:$gate_port" --bundle-id "$bundle" \
    --trust-anchor "$work/tx/root.pem" --key-file "$1" --token-ttl 300 >> "$work/gate.jsonl" 2>> "$work/gate.err" &
  gate_pid=$!
  for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$gate_port/v1/health" && return 0; sleep 0.1; done
  echo "test-gated-nginx: the gate did not start" >&2; cat "$work/gate.err" >&2; exit 2
}
start_gate "$work/gate.key"

# nginx: the gated site, and beside it the ungated one (iapkg-content.conf) on the same store, for comparison.
port="$(free_port)"; open_port="$(free_port)"
site_conf "$here/iapkg-gated.conf" "$port" "$work/srv" -e "s|server 127.0.0.1:8089; .*|server 127.0.0.1:$gate_port;|" \
  > "$work/nginx/gated.conf"
site_conf "$here/iapkg-content.conf" "$open_port" "$work/srv" > "$work/nginx/open.conf"
start_nginx "$work/nginx" "    access_log $work/nginx/logs/access.log;
    include $work/nginx/gated.conf;
    include $work/nginx/open.conf;"
base="http://127.0.0.1:$port"
wait_for_http "$base/"

# 1. Transactions: each refusal gives 403 and its reason code; the valid one a token.
authorize() {   # authorize FILE: the response body; the status in $work/status
  python3 -c 'import json,sys; print(json.dumps({"signedTransaction": open(sys.argv[1]).read().strip()}))' "$1" \
    > "$work/request.json"
  curl -s -o "$work/response.json" -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary @"$work/request.json" "$base/v1/authorize" > "$work/status"
  cat "$work/response.json"
}
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d" + sys.argv[2]))' "$work/response.json" "$1"; }
for case in "$work"/tx/*.jws; do
  name="$(basename "$case" .jws)"
  [ "$name" = valid ] && continue
  authorize "$case" >/dev/null
  code="$(field '["error"]["code"]' 2>/dev/null || echo none)"
  if [ "$(cat "$work/status")" = 403 ] && [ "$code" = "$name" ]; then
    echo "test-gated-nginx: transaction $name: refused 403 $code"
  else
    fail "transaction $name: $(cat "$work/status") $(cat "$work/response.json")"
  fi
done
status="$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary 'not json' "$base/v1/authorize")"
[ "$status" = 400 ] || fail "a body that is not JSON gave $status"
head -c 70000 /dev/zero | tr '\0' 'a' > "$work/big.json"
status="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$work/big.json" "$base/v1/authorize")"
[ "$status" = 413 ] || fail "a 70 kB body gave $status"
authorize "$work/tx/valid.jws" >/dev/null
[ "$(cat "$work/status")" = 200 ] || { fail "the valid transaction: $(cat "$work/response.json")"; exit 1; }
token="$(field '["token"]')"; version="$(field '["version"]')"; path="$(field '["path"]')"
manifest_sha="$(field '["manifestSHA256"]')"
echo "test-gated-nginx: transaction valid: 200, $product $version, token for 300 s"

# 2. Tokens: what must not open a file.
file="$base$path""manifest.json"
get() {   # get URL [CURL ARGS…]: prints the status
  local url="$1"; shift
  curl -s --path-as-is -o /dev/null -w '%{http_code}' "$@" "$url"
}
tokens="$(python3 - "$work/gate.key" "$token" "$other" <<'PY'
import base64, hashlib, hmac, json, sys, time
key, token, other = open(sys.argv[1], "rb").read(), sys.argv[2], sys.argv[3]
def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
def signed(claims):
    body = b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
    return body + "." + b64(hmac.new(key, body.encode(), hashlib.sha256).digest())
pid = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "==="))["pid"]
altered = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
print("expired", signed({"exp": int(time.time()) - 5, "pid": pid, "v": 1}))
print("other-product", signed({"exp": int(time.time()) + 300, "pid": other, "v": 1}))
print("altered", altered)
print("malformed", "not-a-token")
PY
)"
check_refused() {   # check_refused LABEL EXPECTED STATUS
  if [ "$3" = "$2" ]; then echo "test-gated-nginx: $1: refused $3"; else fail "$1 gave $3, not $2"; fi
}
check_refused "no token" 401 "$(get "$file")"
while read -r label value; do
  expected=401; [ "$label" = other-product ] && expected=403
  check_refused "$label token" "$expected" "$(get "$file" -H "Authorization: Bearer $value")"
done <<< "$tokens"
check_refused "Basic credentials" 401 "$(get "$file" -H "Authorization: Basic dXNlcjpwYXNz")"
check_refused "token in the query string" 403 "$(get "$file?token=$token")"
check_refused "other product's file" 403 "$(get "$base/$other/1.0/manifest.json" -H "Authorization: Bearer $token")"
check_refused "'..' from the bought product into another" 403 \
  "$(get "$base/$product/../$other/1.0/manifest.json" -H "Authorization: Bearer $token")"
check_refused "'%2e%2e' from the bought product into another" 403 \
  "$(get "$base/$product/%2e%2e/$other/1.0/manifest.json" -H "Authorization: Bearer $token")"
check_refused "the gate's check from outside" 404 "$(get "$base/v1/check" -H "Authorization: Bearer $token")"

# 3. The buyer downloads current.json and every file of the current version, each matching the manifest.
python3 - "$base" "$product" "$token" "$version" "$manifest_sha" <<'PY' || failures=$((failures + 1))
import hashlib, json, sys, urllib.request
base, product, token, version, manifest_sha = sys.argv[1:]
def get(path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers, response.read()
headers, body = get(f"/{product}/current.json")
pointer = json.loads(body)
assert pointer["version"] == version and pointer["manifestSHA256"] == manifest_sha, pointer
assert headers["Cache-Control"] == "private, no-cache", headers["Cache-Control"]
headers, manifest = get(f"/{product}/{version}/manifest.json")
assert hashlib.sha256(manifest).hexdigest() == manifest_sha
files = json.loads(manifest)["files"]
total = 0
for entry in files:
    headers, data = get(f"/{product}/{version}/{entry['path']}")
    assert len(data) == entry["size"] and hashlib.sha256(data).hexdigest() == entry["sha256"], entry["path"]
    cache = headers["Cache-Control"]
    assert cache == "private, max-age=31536000, immutable", cache
    total += len(data)
print(f"test-gated-nginx: buyer downloaded current.json, manifest.json and {len(files)} files ({total} bytes) "
      f"of {product} {version}: all match the manifest; Cache-Control: private, max-age=31536000, immutable")
PY

# 4. Requests per second through nginx's auth_request, against the same file ungated (wrk, bounded).
if command -v wrk >/dev/null && [ "$wrk_seconds" -gt 0 ]; then
  small="$path""manifest.json"
  gated="$(wrk -t2 -c32 -d"${wrk_seconds}s" --timeout 5s -H "Authorization: Bearer $token" "$base$small" | tee "$work/wrk-gated.txt" | awk '/Requests\/sec/ {print $2}')"
  open="$(wrk -t2 -c32 -d"${wrk_seconds}s" --timeout 5s "http://127.0.0.1:$open_port$small" | tee "$work/wrk-open.txt" | awk '/Requests\/sec/ {print $2}')"
  non2xx="$(awk '/Non-2xx/ {print $NF}' "$work/wrk-gated.txt")"
  [ -z "$non2xx" ] || fail "wrk through the gate saw $non2xx non-2xx responses"
  echo "test-gated-nginx: wrk -t2 -c32 -d${wrk_seconds}s GET $small ($(stat -c %s "$work/srv$small") bytes): gated (auth_request) $gated requests/s, ungated $open requests/s"
else
  echo "test-gated-nginx: wrk not installed or WRK_SECONDS 0: no measure"
fi

# 5. Rotating the key revokes every token; SIGTERM stops the gate with exit status 0.
kill -TERM "$gate_pid"; gate_status=0; wait "$gate_pid" || gate_status=$?; gate_pid=""
[ "$gate_status" = 0 ] || fail "the gate exited $gate_status on SIGTERM"
grep -q "iapkg-gate: stopped" "$work/gate.err" || fail "the gate did not say it stopped"
head -c 32 /dev/urandom > "$work/gate2.key"; chmod 600 "$work/gate2.key"
start_gate "$work/gate2.key"
check_refused "token issued before the key was rotated" 401 "$(get "$file" -H "Authorization: Bearer $token")"
kill -TERM "$gate_pid"; wait "$gate_pid" || true; gate_pid=""

# 6. The log: one JSON object per line, never a token or a transaction.
python3 - "$work/gate.jsonl" "$token" "$work/tx/valid.jws" <<'PY' || failures=$((failures + 1))
import json, sys
lines = open(sys.argv[1]).read().splitlines()
token, jws = sys.argv[2], open(sys.argv[3]).read().strip()
secrets = [token, token.split(".")[1], jws.split(".")[2], jws.split(".")[1][:40]]
codes = {}
for line in lines:
    record = json.loads(line)
    assert {"time", "method", "path", "status", "code", "ms"} <= record.keys(), record
    assert not any(secret in line for secret in secrets), "a secret in the log: " + line[:120]
    codes[record["code"]] = codes.get(record["code"], 0) + 1
print(f"test-gated-nginx: gate log: {len(lines)} JSON lines, no token or transaction in them; codes {codes}")
PY

if [ "$failures" -gt 0 ]; then echo "test-gated-nginx: $failures FAILED" >&2; exit 1; fi
echo "test-gated-nginx: ok"
