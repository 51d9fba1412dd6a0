#!/usr/bin/env bash
# End-to-end: `iapkg fetch` (the IAPClient library) against a real nginx (127.0.0.1, a free port,
# its own prefix) serving a version store with the example configuration, iapkg-content.conf.
# Bytes are counted on the server side, from nginx's access log ($body_bytes_sent).
#
#   1. first install of Examples/level-pack, then an update that fetches only the changed files
#      (checked against `iapkg diff`), then a run with nothing to do;
#   2. kill -9 halfway through a large file (nginx `limit_rate`), then a run that fetches only the rest;
#   3. `current` switched mid-download: the client finishes the version it started, or (the old
#      version removed) restarts on the new one; never a mix;
#   4. a file altered on the server after publishing: refused, the installed version untouched;
#   5. hostile manifests (../x, an absolute path, a duplicate path, a symlink out of Contents/,
#      a total over 2 GiB): refused, nothing written;
#   6. 500s, then recovery: retried with backoff; a token sent as `Authorization: Bearer`;
#   7. throughput against curl fetching the same files in the same run.
#
# Usage: Examples/server/test-fetch.sh [IAPKG] [IAPKG_FETCH]
#   IAPKG (default .build/debug/iapkg) publishes; the client is `IAPKG fetch` (iapkg-fetch found
#   beside IAPKG), or the program IAPKG_FETCH when given (a release build, to measure it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
iapkg="$(realpath "${1:-.build/debug/iapkg}")"
if [ -n "${2:-}" ]; then fetch_cmd=("$(realpath "$2")"); else fetch_cmd=("$iapkg" fetch); fi
fetch() { "${fetch_cmd[@]}" "$@"; }
command -v nginx >/dev/null || { echo "test-fetch: nginx is not installed (apt-get install nginx-light)" >&2; exit 2; }

work="$(mktemp -d /tmp/iapkg-fetch-XXXXXX)"
chmod 0755 "$work"   # nginx workers run as nobody when started by root
nginx_pid=""; bg_pid=""
cleanup() {
  [ -n "$bg_pid" ] && kill -9 "$bg_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill -QUIT "$nginx_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=nginx-for-tests.sh
source "$here/nginx-for-tests.sh"
trap 'echo "test-fetch: FAILED: a command failed at line $LINENO" >&2' ERR
failures=0
fail() { echo "test-fetch: FAILED: $*" >&2; failures=$((failures + 1)); }
pass() { echo "test-fetch: ok: $*"; }

# nginx: the example site, listening on a free port with ROOT = $work/srv; a server-level switch
# ($work/fail500 present: every request gets 500); products named *.slow.* sent at 16 MiB/s, *.slower.* at 8 MiB/s.
port="$(free_port)"
mkdir -p "$work/srv" "$work/nginx" "$work/src"
site_conf "$here/iapkg-content.conf" "$port" "$work/srv" \
    -e "0,/^server {/s||server {\n    if (-f $work/fail500) { return 500; }|" > "$work/nginx/site.conf"
grep -q "fail500" "$work/nginx/site.conf" || { echo "test-fetch: no 'server {' line in iapkg-content.conf" >&2; exit 2; }
start_nginx "$work/nginx" "    log_format fetch '\$status \$body_bytes_sent \"\$request_uri\" \"\$http_range\" \"\$http_authorization\"';
    access_log $work/nginx/logs/access.log fetch;
    map \$uri \$fetch_rate { default 0; ~\.slow\. 16m; ~\.slower\. 8m; }
    limit_rate \$fetch_rate;
    include $work/nginx/site.conf;"
base="http://127.0.0.1:$port"
wait_for_http "$base/"
log="$work/nginx/logs/access.log"

# Server-side bytes: mark the log, then sum $body_bytes_sent of the lines after the mark whose
# URI matches a pattern (grep -E), or all of them.
mark() { wc -l < "$log"; }
served() {   # served MARK [PATTERN]
  tail -n +"$(($1 + 1))" "$log" | { if [ -n "${2:-}" ]; then grep -E "$2" || true; else cat; fi; } \
    | awk '{ s += $2 } END { print s + 0 }'
}
requests() { tail -n +"$(($1 + 1))" "$log" | { grep -E "${2:-.}" || true; } | wc -l; }
publish() { "$iapkg" unpack "$@" --into "$work/srv" >/dev/null; }   # publish PKG... [options]
run_fetch() { fetch "$base" "$@"; }                              # run_fetch PRODUCT --into DIR ...
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
# The installed version folder holds exactly what its manifest lists (files by SHA-256, symlinks by target).
matches_manifest() {   # matches_manifest DIR/versions/V  MANIFEST.json
  python3 - "$1" "$2" <<'PY'
import hashlib, json, os, sys
folder, manifest = sys.argv[1], json.load(open(sys.argv[2]))
want = {f["path"]: ("file", f["sha256"]) for f in manifest["files"]}
want.update({l["path"]: ("link", l["target"]) for l in manifest["symlinks"]})
want["manifest.json"] = ("file", hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest())
have = {}
for dirpath, dirs, files in os.walk(folder):
    for name in files + [d for d in dirs if os.path.islink(os.path.join(dirpath, d))]:
        p = os.path.join(dirpath, name); rel = os.path.relpath(p, folder)
        have[rel] = ("link", os.readlink(p)) if os.path.islink(p) else ("file", hashlib.sha256(open(p, "rb").read()).hexdigest())
sys.exit(0 if have == want else 1)
PY
}

# --- 1. first install, update, nothing to do (Examples/level-pack: files, a subfolder, a symlink)
lp=com.example.game.levels.pack1
cp -a "$here/../level-pack" "$work/src/lp"
"$iapkg" build "$work/src/lp" -o "$work/lp-1.0.pkg" >/dev/null 2>&1
"$iapkg" bump "$work/src/lp" >/dev/null
echo '{"level": 2, "tiles": "updated"}' > "$work/src/lp/Contents/levels/level2.json"
"$iapkg" build "$work/src/lp" -o "$work/lp-1.1.pkg" >/dev/null 2>&1
publish "$work/lp-1.0.pkg"
m=$(mark)
run_fetch "$lp" --into "$work/app" --json > "$work/r1.json" 2>/dev/null || fail "first install exited $?"
first_total=$(served "$m"); first_files=$(served "$m" "/1\.0/Contents/|/1\.0/ContentInfo")
content_bytes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totalBytes"])' "$work/srv/$lp/1.0/manifest.json")
if [ "$first_files" = "$content_bytes" ] && matches_manifest "$work/app/versions/1.0" "$work/srv/$lp/1.0/manifest.json" \
   && [ "$(readlink "$work/app/current")" = versions/1.0 ] && [ -L "$work/app/current/Contents/latest-level.json" ]; then
  pass "first install: $first_total bytes served ($first_files of files = the version's $content_bytes bytes, the rest current.json and manifest.json)"
else fail "first install: $first_files bytes of files for $content_bytes, or the folder differs from the manifest"; fi
publish "$work/lp-1.1.pkg"
diff_json="$("$iapkg" diff "$work/srv/$lp/1.0" "$work/srv/$lp/1.1" --json)"
diff_bytes=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["downloadBytes"])' <<< "$diff_json")
# The update's requests: current.json, manifest.json and one for each file added or changed (the
# example's files all differ, so no two share a digest).
diff_requests=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(2 + sum(c["kind"] == "file" for c in d["added"] + d["changed"]))' <<< "$diff_json")
m=$(mark)
run_fetch "$lp" --into "$work/app" --json > "$work/r2.json" 2>/dev/null || fail "update exited $?"
update_total=$(served "$m"); update_files=$(served "$m" "/1\.1/Contents/|/1\.1/ContentInfo"); update_requests=$(requests "$m")
if [ "$update_files" = "$diff_bytes" ] && [ "$update_requests" = "$diff_requests" ] && [ "$(json_field "$work/r2.json" filesReused)" -ge 4 ] \
   && matches_manifest "$work/app/versions/1.1" "$work/srv/$lp/1.1/manifest.json" && [ -d "$work/app/versions/1.0" ]; then
  pass "update 1.0 -> 1.1: $update_total bytes served in $update_requests requests ($update_files of files = iapkg diff's $diff_bytes), $(json_field "$work/r2.json" filesReused) files reused, 1.0 kept"
else fail "update: $update_files bytes of files in $update_requests requests, iapkg diff says $diff_bytes in $diff_requests"; fi
m=$(mark)
run_fetch "$lp" --into "$work/app" --json > "$work/r3.json" 2>/dev/null || fail "up-to-date run exited $?"
if [ "$(json_field "$work/r3.json" action)" = up-to-date ] && [ "$(requests "$m")" = 1 ]; then
  pass "nothing to do: one request (current.json), $(served "$m") bytes"
else fail "up-to-date run made $(requests "$m") requests"; fi
# The --json reports against their schema (python3-jsonschema, when installed).
if python3 -c 'import jsonschema' 2>/dev/null; then
  if python3 - "$here/../../Sources/IAPKitCLI/Schemas/fetch.schema.json" "$work"/r[123].json <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
for path in sys.argv[2:]:
    jsonschema.validate(json.load(open(path)), schema)
PY
  then pass "the three --json reports match Sources/IAPKitCLI/Schemas/fetch.schema.json"
  else fail "a --json report does not match fetch.schema.json"; fi
fi

# --- 2. kill -9 halfway through a large file, then resume
slow=com.example.fetch.slow.pack
"$iapkg" init "$slow" "$work/src/slow" >/dev/null 2>&1
head -c $((48 << 20)) /dev/urandom > "$work/src/slow/Contents/large.bin"
echo small > "$work/src/slow/Contents/small.txt"
"$iapkg" build "$work/src/slow" -o "$work/slow.pkg" --level 1 >/dev/null 2>&1
publish "$work/slow.pkg"
large=$((48 << 20))
m=$(mark)
"${fetch_cmd[@]}" "$base" "$slow" --into "$work/slow-app" -q 2>/dev/null & bg_pid=$!
part="$work/slow-app/.partial/parts/$(sha256sum "$work/src/slow/Contents/large.bin" | cut -d' ' -f1)"
for _ in $(seq 1 300); do
  [ -f "$part" ] && [ "$(stat -c %s "$part")" -ge $((large / 2)) ] && break
  sleep 0.02
done
kill -9 "$bg_pid"; wait "$bg_pid" 2>/dev/null || true; bg_pid=""
had=$(stat -c %s "$part" 2>/dev/null || echo 0)
first_run=$(served "$m" "large\.bin")
m=$(mark)
run_fetch "$slow" --into "$work/slow-app" --json > "$work/r4.json" 2>/dev/null || fail "resume exited $?"
second_run=$(served "$m" "large\.bin")
if [ "$had" -gt 0 ] && [ "$had" -lt "$large" ] && [ "$second_run" = $((large - had)) ] && [ "$(requests "$m" '^200 .*large\.bin')" = 0 ] \
   && matches_manifest "$work/slow-app/versions/1.0" "$work/srv/$slow/1.0/manifest.json" && [ ! -e "$work/slow-app/.partial" ]; then
  pass "kill -9 at $had of $large bytes (nginx had sent $first_run); the second run fetched $second_run bytes of large.bin ($(requests "$m" '^206 .*large\.bin') range requests, If-Range), installed"
else fail "resume: had $had, second run fetched $second_run of $large"; fi

# The same, but the file's ETag changes meanwhile (touched on the server: same bytes, new mtime):
# If-Range fails, nginx answers 200 with the whole file, and the client takes it whole.
"${fetch_cmd[@]}" "$base" "$slow" --into "$work/slow-app2" -q 2>/dev/null & bg_pid=$!
part2="$work/slow-app2/.partial/parts/$(basename "$part")"
for _ in $(seq 1 300); do
  [ -f "$part2" ] && [ "$(stat -c %s "$part2")" -ge $((large / 4)) ] && break
  sleep 0.02
done
kill -9 "$bg_pid"; wait "$bg_pid" 2>/dev/null || true; bg_pid=""
touch -d "+1 minute" "$work/srv/$slow/1.0/Contents/large.bin"
m=$(mark)
run_fetch "$slow" --into "$work/slow-app2" -q 2>/dev/null || fail "resume after a changed ETag exited $?"
if [ "$(requests "$m" '^200 .*large\.bin')" = 1 ] && [ "$(served "$m" "large\.bin")" = "$large" ] \
   && matches_manifest "$work/slow-app2/versions/1.0" "$work/srv/$slow/1.0/manifest.json"; then
  pass "kill -9, then the file's ETag changed on the server: If-Range failed, the whole file came in one 200, installed"
else fail "If-Range: $(requests "$m" '^200 .*large\.bin') answers 200, $(served "$m" "large\.bin") bytes"; fi

# --- 3. current switched mid-download
sw=com.example.fetch.slower.switch
"$iapkg" init "$sw" "$work/src/sw" >/dev/null 2>&1
head -c $((16 << 20)) /dev/urandom > "$work/src/sw/Contents/a.bin"
head -c $((16 << 20)) /dev/urandom > "$work/src/sw/Contents/b.bin"
# c.bin and d.bin, the same in every version: each file comes in one request, so a removal is seen
# by the requests after it (at 8 MiB/s the four files take 8 s, publishing 1.2 takes less).
head -c $((16 << 20)) /dev/urandom > "$work/src/sw/Contents/c.bin"
head -c $((16 << 20)) /dev/urandom > "$work/src/sw/Contents/d.bin"
"$iapkg" build "$work/src/sw" -o "$work/sw-1.0.pkg" --level 1 >/dev/null 2>&1
"$iapkg" bump "$work/src/sw" >/dev/null
head -c $((16 << 20)) /dev/urandom > "$work/src/sw/Contents/a.bin"
"$iapkg" build "$work/src/sw" -o "$work/sw-1.1.pkg" --level 1 >/dev/null 2>&1
"$iapkg" bump "$work/src/sw" >/dev/null
head -c $((16 << 20)) /dev/urandom > "$work/src/sw/Contents/b.bin"
"$iapkg" build "$work/src/sw" -o "$work/sw-1.2.pkg" --level 1 >/dev/null 2>&1
publish "$work/sw-1.0.pkg"
wait_for_part() { for _ in $(seq 1 300); do ls "$1"/.partial/parts/* >/dev/null 2>&1 && break; sleep 0.02; done; sleep 0.3; }
# (a) 1.1 published while 1.0 is being fetched, 1.0 kept: the client finishes 1.0.
"${fetch_cmd[@]}" "$base" "$sw" --into "$work/sw-a" --parallel 1 --json > "$work/r5.json" 2>/dev/null & bg_pid=$!
wait_for_part "$work/sw-a"
publish "$work/sw-1.1.pkg"
status=0; wait "$bg_pid" || status=$?; bg_pid=""
if [ "$status" = 0 ] && [ "$(json_field "$work/r5.json" version)" = 1.0 ] \
   && matches_manifest "$work/sw-a/versions/1.0" "$work/srv/$sw/1.0/manifest.json"; then
  pass "current moved to 1.1 mid-download, 1.0 still served: the client finished and installed 1.0, exactly"
else fail "switch (kept): exit $status"; fi
# (b) 1.2 published with --keep 1 --keep-for 0 while 1.1 is being fetched: 1.1 disappears, the client restarts on 1.2.
"${fetch_cmd[@]}" "$base" "$sw" --into "$work/sw-b" --parallel 1 --json > "$work/r6.json" 2>/dev/null & bg_pid=$!
wait_for_part "$work/sw-b"
publish "$work/sw-1.2.pkg" --keep 1 --keep-for 0   # a server that prunes at once (iapkg keeps 24 h by default)
status=0; wait "$bg_pid" || status=$?; bg_pid=""
if [ "$status" = 0 ] && [ "$(json_field "$work/r6.json" version)" = 1.2 ] && [ ! -e "$work/srv/$sw/1.1" ] \
   && matches_manifest "$work/sw-b/versions/1.2" "$work/srv/$sw/1.2/manifest.json" && [ "$(ls "$work/sw-b/versions")" = 1.2 ]; then
  pass "current moved to 1.2 and 1.1 removed mid-download: the client restarted on 1.2 and installed it, exactly"
else fail "switch (removed): exit $status, $(cat "$work/r6.json" 2>/dev/null)"; fi

# --- 4. a file altered on the server after publishing
alt=com.example.fetch.altered
"$iapkg" init "$alt" "$work/src/alt" >/dev/null 2>&1
echo "version one" > "$work/src/alt/Contents/text.txt"
"$iapkg" build "$work/src/alt" -o "$work/alt-1.0.pkg" >/dev/null 2>&1
"$iapkg" bump "$work/src/alt" >/dev/null
echo "version two" > "$work/src/alt/Contents/text.txt"
"$iapkg" build "$work/src/alt" -o "$work/alt-1.1.pkg" >/dev/null 2>&1
publish "$work/alt-1.0.pkg"
run_fetch "$alt" --into "$work/alt-app" -q || fail "altered: first install exited $?"
publish "$work/alt-1.1.pkg"
chmod u+w "$work/srv/$alt/1.1/Contents/text.txt"
echo "version 2!!" > "$work/srv/$alt/1.1/Contents/text.txt"   # same size, other bytes
status=0; run_fetch "$alt" --into "$work/alt-app" 2> "$work/alt.err" || status=$?
if [ "$status" = 1 ] && grep -q "refused" "$work/alt.err" && [ "$(readlink "$work/alt-app/current")" = versions/1.0 ] \
   && [ ! -e "$work/alt-app/versions/1.1" ] && [ "$(cat "$work/alt-app/current/Contents/text.txt")" = "version one" ]; then
  pass "a file altered after publishing: exit 1 ($(head -c 150 "$work/alt.err")…), 1.0 still installed"
else fail "altered: exit $status: $(cat "$work/alt.err")"; fi
echo "a longer text than version two's" > "$work/srv/$alt/1.1/Contents/text.txt"   # another size
status=0; run_fetch "$alt" --into "$work/alt-app" 2> "$work/alt.err" || status=$?
if [ "$status" = 1 ] && grep -q "bytes, the manifest" "$work/alt.err" && [ "$(readlink "$work/alt-app/current")" = versions/1.0 ]; then
  pass "a file of another size: refused from its Content-Length, exit 1, 1.0 still installed"
else fail "altered size: exit $status: $(cat "$work/alt.err")"; fi

# --- 5. hostile manifests, written straight into the store (current.json with the right SHA-256)
hostile() {   # hostile NAME PYTHON-EXPRESSION-EDITING-m
  local product="com.example.hostile.$1"
  python3 - "$work/srv/$product" "$product" "$2" <<'PY'
import hashlib, json, os, sys
root, product, edit = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(root + "/1.0/Contents", exist_ok=True)
open(root + "/1.0/Contents/a.txt", "w").write("a\n")
m = {"fileCount": 1, "files": [{"mode": "0644", "path": "Contents/a.txt", "sha256": hashlib.sha256(b"a\n").hexdigest(), "size": 2}],
     "productIdentifier": product, "schemaVersion": 1, "symlinks": [], "totalBytes": 2, "version": "1.0"}
exec(edit)
m["fileCount"] = len(m["files"]); m["totalBytes"] = sum(f["size"] for f in m["files"])
data = json.dumps(m).encode()
open(root + "/1.0/manifest.json", "wb").write(data)
json.dump({"manifestSHA256": hashlib.sha256(data).hexdigest(), "productIdentifier": product, "schemaVersion": 1, "version": "1.0"},
          open(root + "/current.json", "w"))
PY
  local status=0
  mkdir -p "$work/h-$1/inner"
  run_fetch "$product" --into "$work/h-$1/inner" 2> "$work/h-$1.err" || status=$?
  if [ "$status" = 1 ] && [ ! -e "$work/h-$1/inner/current" ] && [ "$(ls -A "$work/h-$1")" = inner ] && [ ! -e "$work/x" ]; then
    pass "hostile manifest ($1): exit 1, $(sed 's/^iapkg: error: //' "$work/h-$1.err" | head -c 160)"
  else fail "hostile manifest ($1): exit $status, $(cat "$work/h-$1.err")"; fi
}
hostile dotdot 'm["files"].append(dict(m["files"][0], path="../x"))'
hostile dotdot-inner 'm["files"].append(dict(m["files"][0], path="Contents/../../x"))'
hostile absolute 'm["files"].append(dict(m["files"][0], path="/tmp/x"))'
hostile duplicate 'm["files"].append(dict(m["files"][0]))'
hostile link-out 'm["symlinks"].append({"path": "Contents/escape", "target": "../../x"})'
hostile link-chain 'm["symlinks"] += [{"path": "Contents/d/up", "target": ".."}, {"path": "Contents/d/e", "target": "up/../x"}]'
hostile link-absolute 'm["symlinks"].append({"path": "Contents/abs", "target": "/etc/passwd"})'
hostile over-2gib 'm["files"].append(dict(m["files"][0], path="Contents/huge.bin", size=3 << 30))'
hostile below-file 'm["files"].append(dict(m["files"][0], path="Contents/a.txt/b"))'

# --- 6. 500s then recovery, a server that stays down, and the token
bc=com.example.books.harbour.chapter1
"$iapkg" build "$here/../book-chapter" -o "$work/bc.pkg" >/dev/null 2>&1
publish "$work/bc.pkg"
touch "$work/fail500"
m=$(mark)
( sleep 2.5; rm -f "$work/fail500" ) &
status=0; run_fetch "$bc" --into "$work/bc-app" --token secret-token -q || status=$?
fives=$(requests "$m" '^500 ')
if [ "$status" = 0 ] && [ "$fives" -ge 2 ] && matches_manifest "$work/bc-app/versions/1.0" "$work/srv/$bc/1.0/manifest.json" \
   && [ "$(requests "$m" '^200 .*"Bearer secret-token"$')" -ge 6 ] && [ "$(requests "$m" '^200 .*"-"$')" = 0 ]; then
  pass "500s for 2.5 s ($fives answered 500), then recovery: retried with backoff and installed; every request carried the token"
else fail "500s: exit $status, $fives 500s"; fi
touch "$work/fail500"
start=$(date +%s%N)
status=0; run_fetch "$bc" --into "$work/bc-down" --attempts 3 2> "$work/down.err" || status=$?
rm -f "$work/fail500"
if [ "$status" = 2 ] && grep -q "HTTP 500" "$work/down.err" && [ ! -e "$work/bc-down/current" ]; then
  pass "a server that stays down: exit 2 after 3 tries in $(( ($(date +%s%N) - start) / 1000000 )) ms ($(head -c 120 "$work/down.err"))"
else fail "server down: exit $status: $(cat "$work/down.err")"; fi

# --- 7. throughput: iapkg fetch and curl, the same files from the same nginx, alternating, 3 runs each
#     (iapkg fetch verifies every SHA-256, flushes the version to disk and installs it; curl writes the files)
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
milliseconds() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000000 )); }
throughput() {   # throughput NAME DESCRIPTION: the content in $work/src/NAME/Contents
  local product="com.example.fetch.$1" fetch_ms=() curl_ms=() bytes files
  "$iapkg" init "$product" "$work/src/tp-$1" >/dev/null 2>&1
  cp -a "$work/tp-$1/." "$work/src/tp-$1/Contents/"
  "$iapkg" build "$work/src/tp-$1" -o "$work/tp-$1.pkg" --level 1 >/dev/null 2>&1
  publish "$work/tp-$1.pkg"
  python3 - "$work/srv/$product/1.0/manifest.json" "$base/$product/1.0" "$work/curl-$1" > "$work/curl-$1.cfg" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    print(f'url = "{sys.argv[2]}/{f["path"]}"\noutput = "{sys.argv[3]}/{f["path"]}"')
PY
  bytes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totalBytes"])' "$work/srv/$product/1.0/manifest.json")
  files=$(grep -c '^url' "$work/curl-$1.cfg")
  for _ in 1 2 3; do
    rm -rf "$work/tp-app" "$work/curl-$1"
    fetch_ms+=("$(milliseconds fetch "$base" "$product" --into "$work/tp-app" -q)")
    curl_ms+=("$(milliseconds curl -s --create-dirs -K "$work/curl-$1.cfg")")
  done
  matches_manifest "$work/tp-app/versions/1.0" "$work/srv/$product/1.0/manifest.json" || fail "throughput $1: the fetched folder differs"
  local fm cm; fm=$(median "${fetch_ms[@]}"); cm=$(median "${curl_ms[@]}")
  echo "test-fetch: throughput, $2 ($files files, $bytes bytes): iapkg fetch ${fetch_ms[*]} ms (median $fm ms," \
    "$((bytes / 1000 / (fm > 0 ? fm : 1))) MB/s), curl ${curl_ms[*]} ms (median $cm ms, $((bytes / 1000 / (cm > 0 ? cm : 1))) MB/s)"
}
mkdir -p "$work/tp-large" "$work/tp-small"
head -c $((64 << 20)) /dev/urandom > "$work/tp-large/large.bin"
for i in $(seq 1 500); do head -c 4096 /dev/urandom > "$work/tp-small/small-$i.bin"; done
throughput large "one 64 MiB file"
throughput small "500 files of 4 KiB"

if [ "$failures" -gt 0 ]; then echo "test-fetch: $failures FAILED" >&2; exit 1; fi
echo "test-fetch: all passed"
