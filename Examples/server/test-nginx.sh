#!/usr/bin/env bash
# End-to-end: a real nginx (127.0.0.1, a free port, its own prefix) serving the version store that
# `iapkg serve` fills. Publishes VERSIONS versions of one product in a row by dropping packages into
# the incoming folder, while a client fetches current.json and every file of that version over HTTP
# and checks each against manifest.json (dotfiles in Contents/ too); then rolls back with `iapkg
# activate` and publishes three newer versions with --keep 2 while the client goes on reading.
# Passes with 0 mismatches and 0 failed requests, and when nginx refuses the store's own files.
#
# Usage: Examples/server/test-nginx.sh [IAPKG] [VERSIONS]     (defaults: .build/debug/iapkg 50)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
iapkg="$(realpath "${1:-.build/debug/iapkg}")"
versions="${2:-50}"
command -v nginx >/dev/null || { echo "test-nginx: nginx is not installed (apt-get install nginx-light)" >&2; exit 2; }

work="$(mktemp -d /tmp/iapkg-nginx-XXXXXX)"
chmod 0755 "$work"   # nginx workers run as nobody when started by root
serve_pid=""; client_pid=""; nginx_pid=""
cleanup() {
  [ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null || true
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill -QUIT "$nginx_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=nginx-for-tests.sh
source "$here/nginx-for-tests.sh"

port="$(free_port)"
mkdir -p "$work/incoming" "$work/srv" "$work/pkgs" "$work/nginx"
site_conf "$here/iapkg-content.conf" "$port" "$work/srv" > "$work/nginx/site.conf"
start_nginx "$work/nginx" "    access_log $work/nginx/logs/access.log;
    include $work/nginx/site.conf;"

# The packages: one product, versions 1.1 … 1.VERSIONS, a few files that change and one that does not.
product=com.example.nginx.pack
"$iapkg" init "$product" "$work/src" >/dev/null 2>&1
mkdir -p "$work/src/Contents/levels" "$work/src/Contents/.config"
head -c 200000 /dev/urandom > "$work/src/Contents/levels/shared.bin"
echo '{"volume": 3}' > "$work/src/Contents/.settings.json"   # dotfiles are content too: served
echo 'hidden' > "$work/src/Contents/.config/theme"
for i in $(seq 1 $((versions + 3))); do
  "$iapkg" bump "$work/src" --to "1.$i" >/dev/null
  printf '{"level": %d}\n' "$i" > "$work/src/Contents/levels/level.json"
  head -c $((1000 + i * 37)) /dev/urandom > "$work/src/Contents/levels/art-$((i % 7)).bin"
  "$iapkg" build "$work/src" -o "$work/pkgs/v$i.pkg" >/dev/null 2>&1
done

"$iapkg" serve --incoming "$work/incoming" --into "$work/srv" --keep 2 --rescan-seconds 5 \
  > "$work/serve.jsonl" 2> "$work/serve.err" &
serve_pid=$!

base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -s -o /dev/null "$base/" && break; sleep 0.1; done
for _ in $(seq 1 100); do grep -q watching "$work/serve.err" && break; sleep 0.1; done

# The client: fetches current.json, the manifest and every file, checks them; stops at $work/stop.
python3 - "$base/$product" "$work/stop" "$work/client.json" <<'PY' &
import hashlib, json, os, sys, time, urllib.request, urllib.error
base, stop, out = sys.argv[1], sys.argv[2], sys.argv[3]
stats = {"requests": 0, "failed": 0, "mismatches": 0, "rounds": 0, "versions": [], "errors": []}
def get(url):
    stats["requests"] += 1
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, b""
    except Exception as e:
        return 0, {}, str(e).encode()
deadline = time.time() + 600
while not os.path.exists(stop) and time.time() < deadline:
    status, headers, body = get(base + "/current.json")
    if status == 404:   # nothing published yet
        time.sleep(0.02); continue
    if status != 200 or headers.get("Cache-Control") != "no-cache":
        stats["failed"] += 1; stats["errors"].append(f"current.json {status}"); continue
    pointer = json.loads(body)
    version = pointer["version"]
    status, headers, manifest = get(f"{base}/{version}/manifest.json")
    if status != 200:
        stats["failed"] += 1; stats["errors"].append(f"{version}/manifest.json {status}"); continue
    if hashlib.sha256(manifest).hexdigest() != pointer["manifestSHA256"] or "immutable" not in headers.get("Cache-Control", ""):
        stats["mismatches"] += 1; stats["errors"].append(f"{version}/manifest.json differs"); continue
    for f in json.loads(manifest)["files"]:
        status, _, data = get(f"{base}/{version}/{f['path']}")
        if status != 200:
            stats["failed"] += 1; stats["errors"].append(f"{version}/{f['path']} {status}")
        elif len(data) != f["size"] or hashlib.sha256(data).hexdigest() != f["sha256"]:
            stats["mismatches"] += 1; stats["errors"].append(f"{version}/{f['path']} differs")
    stats["rounds"] += 1
    if version not in stats["versions"]: stats["versions"].append(version)
stats["errors"] = stats["errors"][:20]
json.dump(stats, open(out, "w"))
PY
client_pid=$!

denied=0
# Publish: drop each package (hidden copy, then rename) and wait until nginx serves its version.
latencies="$work/latencies"
for i in $(seq 1 "$versions"); do
  cp "$work/pkgs/v$i.pkg" "$work/incoming/.v$i.pkg.tmp"
  start=$(date +%s%N)
  mv "$work/incoming/.v$i.pkg.tmp" "$work/incoming/v$i.pkg"
  for _ in $(seq 1 600); do
    curl -s "$base/$product/current.json" | grep -q "\"version\":\"1.$i\"" && break
    sleep 0.01
  done
  echo $(( $(date +%s%N) - start )) >> "$latencies"
done
# A rollback while the client reads, then three newer versions with --keep 2: the rolled-back
# version is pinned until one newer than every installed one arrives, and stays while it may
# still be downloaded (--keep-for); re-delivering the newest leaves the rollback current.
rollback="1.$((versions - 2))"
"$iapkg" activate "$work/srv" "$product" "$rollback" >/dev/null
sleep 0.5
cp "$work/pkgs/v$versions.pkg" "$work/incoming/.again.tmp" && mv "$work/incoming/.again.tmp" "$work/incoming/again.pkg"
for _ in $(seq 1 600); do [ -f "$work/incoming/accepted/again.pkg" ] && break; sleep 0.01; done
curl -s "$base/$product/current.json" | grep -q "\"version\":\"$rollback\"" || { echo "test-nginx: the rollback did not hold" >&2; denied=1; }
for i in $(seq $((versions + 1)) $((versions + 3))); do
  cp "$work/pkgs/v$i.pkg" "$work/incoming/.v$i.pkg.tmp" && mv "$work/incoming/.v$i.pkg.tmp" "$work/incoming/v$i.pkg"
  for _ in $(seq 1 600); do
    curl -s "$base/$product/current.json" | grep -q "\"version\":\"1.$i\"" && break
    sleep 0.01
  done
  sleep 0.3
done
[ -d "$work/srv/$product/$rollback" ] || { echo "test-nginx: $rollback was removed" >&2; denied=1; }
sleep 0.5
touch "$work/stop"
wait "$client_pid"; client_pid=""

# Every file of a version is served, dotfiles in Contents/ included.
code=$(curl -s -o "$work/settings.json" -w '%{http_code}' "$base/$product/1.$versions/Contents/.settings.json")
if [ "$code" != 200 ] || ! cmp -s "$work/settings.json" "$work/src/Contents/.settings.json"; then
  echo "test-nginx: Contents/.settings.json was not served ($code)" >&2; denied=1
fi
# What must not be served: the store's own files (a staging and a trash folder as a killed install
# leaves them, temporary files), the `current` link, listings, `..`.
mkdir -p "$work/srv/$product/.staging-test/Contents" "$work/srv/$product/.trash-test/Contents"
echo staged > "$work/srv/$product/.staging-test/Contents/a.txt"
echo trashed > "$work/srv/$product/.trash-test/Contents/a.txt"
echo temp > "$work/srv/$product/.current.json.tmp-test"
echo temp > "$work/srv/.tmp-test"
for path in "$product/.lock" "$product/.retention" "$product/.staging-test/Contents/a.txt" \
            "$product/.trash-test/Contents/a.txt" "$product/.current.json.tmp-test" ".tmp-test" \
            "$product/1.$versions/Contents/../../.lock" "$product/%2Elock" \
            "$product/current/ContentInfo.plist" "$product/current" "$product/" "" "$product/1.$versions/" \
            "$product/1.$versions/../.lock" "../../etc/passwd"; do
  code=$(curl -s --path-as-is -o /dev/null -w '%{http_code}' "$base/$path")
  case "$code" in 200|301|302) echo "test-nginx: /$path was served ($code)" >&2; denied=1 ;; esac
done
code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT --data x "$base/$product/current.json")
[ "$code" = 403 ] || { echo "test-nginx: PUT gave $code" >&2; denied=1; }

kill -TERM "$serve_pid"; serve_status=0; wait "$serve_pid" || serve_status=$?; serve_pid=""
accepted=$(ls "$work/incoming/accepted" | grep -c '\.pkg$' || true)
python3 - "$work/client.json" "$latencies" "$versions" "$accepted" "$serve_status" "$denied" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
lat = sorted(int(x) / 1e9 for x in open(sys.argv[2]) if x.strip())
versions, accepted, serve_status, denied = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
print(f"test-nginx: {accepted}/{versions + 4} packages accepted; client: {stats['rounds']} rounds over {len(stats['versions'])} versions, "
      f"{stats['requests']} requests, {stats['failed']} failed, {stats['mismatches']} mismatches")
print(f"test-nginx: arrival to served (current.json over HTTP): median {lat[len(lat)//2]*1000:.0f} ms, "
      f"max {lat[-1]*1000:.0f} ms")
ok = stats["failed"] == 0 and stats["mismatches"] == 0 and accepted == versions + 4 and serve_status == 0 and denied == 0 \
     and len(stats["versions"]) >= 2
if not ok:
    print("test-nginx: FAILED", stats["errors"], "serve exit", serve_status, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
