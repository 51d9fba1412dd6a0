#!/usr/bin/env bash
# End-to-end: refunds close the door. A real nginx (Examples/server/iapkg-gated.conf, /v1/notifications
# with no auth_request and a 64 KB body limit) in front of `iapkg gate --state`, and App Store Server
# Notifications V2 made with a test chain (make-test-transactions.py, Python's cryptography). Shows that:
#   - a REFUND stops the buyer's open token from downloading within 2 s, and the purchase and its
#     restores earn no new token (403 revoked); a repeat changes nothing; REFUND_REVERSED lets a new
#     token through; a REFUND signed before the reversal, arriving after it, changes nothing;
#   - TEST, CONSUMPTION_REQUEST, REFUND_DECLINED, an unknown type and a REFUND without a transaction
#     are acknowledged (200) and change nothing; each notification that does not verify is refused
#     (4xx) with its reason code; a body over the limit gets 413 from nginx;
#   - a second gate on the same --state takes a REVOKE and the first gate refuses the token within 2 s;
#     after kill -9 and a restart the decision stands;
#   - iapkg gate revoke / unrevoke / revocations (exit codes 0, 64, 2);
#   - Apple's App Store Server Library (SignedDataVerifier, online checks off) agrees with the gate on
#     every notification posted: verified ones got 2xx, refused ones 4xx;
# then measures the notifications per second the gate takes (distinct REFUNDs, each kept) and the
# state's size per revocation.
#
# Usage: Examples/server/test-refunds-nginx.sh [BIN_DIR] [BULK]   (defaults: .build/debug 2000)
# BIN_DIR holds iapkg and iapkg-gate. Needs nginx, curl, python3 with cryptography and
# app-store-server-library, sqlite3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(realpath "${1:-.build/debug}")"
bulk="${2:-2000}"
iapkg="$bin/iapkg"
gate_bin="$bin/iapkg-gate"
for tool in nginx curl python3 sqlite3; do
  command -v "$tool" >/dev/null || { echo "test-refunds-nginx: $tool is not installed" >&2; exit 2; }
done
python3 -c 'import appstoreserverlibrary' 2>/dev/null ||
  { echo "test-refunds-nginx: pip install app-store-server-library" >&2; exit 2; }

work="$(mktemp -d /tmp/iapkg-refunds-XXXXXX)"
chmod 0755 "$work"
gate_pid=""; second_pid=""; nginx_pid=""
cleanup() {
  for pid in "$gate_pid" "$second_pid"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  [ -n "$nginx_pid" ] && kill -QUIT "$nginx_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "test-refunds-nginx: FAIL: $*" >&2; failures=$((failures + 1)); }
say() { echo "test-refunds-nginx: $*"; }
# shellcheck source=nginx-for-tests.sh
source "$here/nginx-for-tests.sh"

mkdir -p "$work/srv"
"$iapkg" build "$here/../level-pack" -o "$work/level-pack.pkg" >/dev/null 2>&1
"$iapkg" unpack "$work/level-pack.pkg" --into "$work/srv" >/dev/null
product=com.example.game.levels.pack1
bundle=com.example.game
app_id=1234567890
buyer=2000000000000001
python3 "$here/make-test-transactions.py" "$work/tx" "$bundle" "$product" "$app_id" "$bulk" >/dev/null
notes="$work/tx/notifications"
head -c 32 /dev/urandom > "$work/gate.key"; chmod 600 "$work/gate.key"

start_gate() {   # start_gate PORT LOG: a gate on PORT with the shared state; its pid in $started
  "$gate_bin" --root "$work/srv" --listen "127.0.0.1:$1" --bundle-id "$bundle" --app-apple-id "$app_id" \
    --trust-anchor "$work/tx/root.pem" --key-file "$work/gate.key" --state "$work/state" >> "$2" 2>> "$work/gate.err" &
  started=$!
  for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$1/v1/health" && return 0; sleep 0.1; done
  echo "test-refunds-nginx: the gate did not start" >&2; cat "$work/gate.err" >&2; exit 2
}
gate_port="$(free_port)"
start_gate "$gate_port" "$work/gate.jsonl"; gate_pid=$started
port="$(free_port)"
site_conf "$here/iapkg-gated.conf" "$port" "$work/srv" -e "s|server 127.0.0.1:8089; .*|server 127.0.0.1:$gate_port;|" \
  > "$work/gated.conf"
start_nginx "$work/nginx" "    include $work/gated.conf;"
base="http://127.0.0.1:$port"
wait_for_http "$base/"

# post FILE: posts a notification body through nginx; prints "STATUS CODE OUTCOME" and records the
# status for the comparison with Apple's library.
post() {
  curl -s -o "$work/answer.json" -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary @"$1" "$base/v1/notifications" > "$work/status"
  local status code
  status="$(cat "$work/status")"
  code="$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("outcome") or d["error"]["code"])' \
    "$work/answer.json" 2>/dev/null || echo none)"
  echo "$1 $status" >> "$work/posted"
  echo "$status $code"
}
expect_post() {   # expect_post CASE "STATUS CODE"
  local got
  got="$(post "$notes/$1.json")"
  if [ "$got" = "$2" ]; then say "notification $1: $got"; else fail "notification $1 gave '$got', not '$2'"; fi
}
authorize() {   # authorize: a token for the buyer's valid transaction, or "refused CODE"
  python3 -c 'import json,sys; print(json.dumps({"signedTransaction": open(sys.argv[1]).read().strip()}))' \
    "$work/tx/valid.jws" > "$work/request.json"
  curl -s -o "$work/auth.json" -H 'Content-Type: application/json' --data-binary @"$work/request.json" "$base/v1/authorize"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("token") or "refused " + d["error"]["code"])' \
    "$work/auth.json"
}
version="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$work/srv/$product/current.json")"
file="$base/$product/$version/manifest.json"
get() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $1" "$file"; }
# until_status TOKEN STATUS: waits until a download with TOKEN answers STATUS (at most 5 s); prints the ms it took.
until_status() {
  local start now
  start="$(date +%s%N)"
  while [ "$(get "$1")" != "$2" ]; do
    now="$(date +%s%N)"
    if [ $(((now - start) / 1000000)) -gt 5000 ]; then echo timeout; return; fi
    sleep 0.05
  done
  now="$(date +%s%N)"
  echo "$(((now - start) / 1000000))"
}
within_2s() {   # within_2s LABEL TOKEN STATUS
  local ms
  ms="$(until_status "$2" "$3")"
  if [ "$ms" != timeout ] && [ "$ms" -le 2000 ]; then say "$1: $3 after $ms ms"; else fail "$1: not $3 within 2 s ($ms)"; fi
}

# 1. A buyer's token downloads; a REFUND closes the door on it and on new tokens; a repeat changes nothing.
token="$(authorize)"
[ "$(get "$token")" = 200 ] || fail "the buyer's token does not download before any refund"
expect_post refund "200 applied"
within_2s "the buyer's open token after the REFUND" "$token" 403
[ "$(authorize)" = "refused revoked" ] || fail "a refunded purchase earned a token"
expect_post refund "200 duplicate"
# 2. REFUND_REVERSED opens it again; the older REFUND arriving after it changes nothing.
expect_post refund-reversed "200 applied"
token="$(authorize)"
[ "${token#refused}" = "$token" ] || fail "no token after REFUND_REVERSED: $token"
[ "$(get "$token")" = 200 ] && say "a new token after REFUND_REVERSED downloads: 200" || fail "the new token does not download"
expect_post refund-stale "200 superseded"
[ "$(get "$token")" = 200 ] || fail "a REFUND signed before the reversal closed the door"
# 3. Acknowledged and changing nothing.
for case in test consumption-request refund-declined unknown-type refund-without-transaction; do
  expect_post "$case" "200 acknowledged"
done
[ "$(get "$token")" = 200 ] || fail "an acknowledged notification closed the door"
# 4. Refused, each with its reason code.
for case in untrusted-root signature-invalid jws-malformed bundle-mismatch environment-mismatch app-apple-id-mismatch \
    inner-untrusted-root inner-bundle-mismatch inner-signature-invalid request-malformed; do
  expected="${case#inner-}"
  got="$(post "$notes/$case.json")"
  status="${got%% *}"; code="${got#* }"
  if [ "$status" -ge 400 ] && [ "$status" -lt 500 ] && { [ "$code" = "$expected" ] || [ "$case" = inner-signature-invalid ]; }; then
    say "notification $case: refused $got"
  else
    fail "notification $case gave '$got', not 4xx $expected"
  fi
done
head -c 70000 /dev/zero | tr '\0' 'a' > "$work/big.json"
status="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$work/big.json" "$base/v1/notifications")"
[ "$status" = 413 ] && say "a 70 kB body: 413 from nginx" || fail "a 70 kB body gave $status"
[ "$(get "$token")" = 200 ] || fail "a refused notification closed the door"

# 5. A second gate on the same state takes a REVOKE; the first refuses the token within 2 s; kill -9 and restart.
second_port="$(free_port)"
start_gate "$second_port" "$work/second.jsonl"; second_pid=$started
status="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$notes/revoke-later.json" "http://127.0.0.1:$second_port/v1/notifications")"
echo "$notes/revoke-later.json $status" >> "$work/posted"
[ "$status" = 200 ] || fail "the second gate answered the REVOKE $status"
within_2s "the first gate, after a REVOKE taken by the second" "$token" 403
kill -9 "$gate_pid"; wait "$gate_pid" 2>/dev/null || true
start_gate "$gate_port" "$work/gate.jsonl"; gate_pid=$started
[ "$(get "$token")" = 403 ] && say "after kill -9 and a restart the REVOKE stands: 403" || fail "the REVOKE was lost over kill -9"
expect_post refund-reversed-last "200 applied"
token="$(authorize)"
[ "$(get "$token")" = 200 ] || fail "no download after the last REFUND_REVERSED"

# 6. The operator's commands.
"$iapkg" gate revoke --state "$work/state" "$buyer" > "$work/op.out" || fail "revoke exited $?"
within_2s "the token after 'iapkg gate revoke'" "$token" 403
"$iapkg" gate revocations --state "$work/state" --json > "$work/list.json"
python3 - "$work/list.json" "$buyer" <<'PY' || fail "the listing does not show the operator's revocation"
import json, sys
listing = json.load(open(sys.argv[1]))
assert listing["schemaVersion"] == 1
entry = [r for r in listing["revocations"] if r["originalTransactionId"] == sys.argv[2]][0]
assert entry["effect"] == "revoke" and entry["source"] == "operator", entry
PY
"$iapkg" gate unrevoke --state "$work/state" "$buyer" >/dev/null || fail "unrevoke exited $?"
within_2s "the token after 'iapkg gate unrevoke'" "$token" 200
set +e
"$iapkg" gate revoke --state "$work/state" "not an id" 2>/dev/null; bad=$?
"$iapkg" gate revoke --state "$work/nowhere" "$buyer" 2>/dev/null; missing=$?
set -e
[ "$bad" = 64 ] && [ "$missing" = 2 ] && say "revoke with a bad id: exit 64; with no state folder: exit 2" ||
  fail "revoke with a bad id exited $bad, with no state folder $missing"

# 7. Apple's App Store Server Library on every notification posted: verified ⇔ 2xx.
cut -d' ' -f1 "$work/posted" | sort -u > "$work/posted-files"
mapfile -t posted_files < "$work/posted-files"
python3 "$here/apple-verify-notifications.py" "$work/tx/root.der" "$bundle" "$app_id" "${posted_files[@]}" > "$work/apple.txt"
python3 - "$work/apple.txt" "$work/posted" <<'PY' || failures=$((failures + 1))
import sys
apple = {line.split()[0]: line.split()[1] == "verified" for line in open(sys.argv[1])}
gate = {}
for line in open(sys.argv[2]):
    path, status = line.split()
    gate.setdefault(path, set()).add(200 <= int(status) < 300)
disagree = [p for p in apple if gate[p] != {apple[p]}]
for path in disagree:
    print(f"test-refunds-nginx: FAIL: Apple's library and the gate disagree on {path}", file=sys.stderr)
verified = sum(apple.values())
print(f"test-refunds-nginx: Apple's App Store Server Library agrees with the gate on all {len(apple)} notifications "
      f"posted ({verified} verified, {len(apple) - verified} refused)" if not disagree else "")
sys.exit(1 if disagree else 0)
PY

# 8. Measure, in one alternating run (so that the ratio holds on a busy machine): distinct REFUNDs, each
# verified and kept (fsync'ed), against as many REFUND_DECLINEDs, verified and acknowledged without a
# write, straight to the gate over 4 connections; then the state's size per revocation.
db="$work/state/revocations.sqlite"
sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
before="$(stat -c %s "$db")"
rows_before="$(sqlite3 "$db" 'SELECT count(*) FROM revocation;')"
say "load before measuring: $(cut -d' ' -f1-3 /proc/loadavg)"
chunk=$(( (bulk + 3) / 4 ))
split -l "$chunk" -d "$work/tx/bulk-refunds.jsonl" "$work/bulk-"
declined="$(cat "$notes/refund-declined.json")"
for _ in $(seq 1 "$chunk"); do echo "$declined"; done > "$work/declined.jsonl"
for part in "$work"/bulk-*; do
  for kind in kept acknowledged; do
    [ "$kind" = kept ] && input="$part" || input="$work/declined.jsonl"
    python3 "$here/post-notifications.py" "http://127.0.0.1:$gate_port/v1/notifications" "$input" 4 |
      sed "s/^/$kind /" >> "$work/measure.txt" || fail "a bulk notification ($kind) was not taken"
  done
done
python3 - "$work/measure.txt" <<'PY'
import re, sys
totals = {}
for line in open(sys.argv[1]):
    kind, count, seconds = re.match(r"(\w+) notifications: (\d+) posted in ([\d.]+) s", line).groups()
    total = totals.setdefault(kind, [0, 0.0])
    total[0] += int(count)
    total[1] += float(seconds)
rates = {kind: count / seconds for kind, (count, seconds) in totals.items()}
print(f"test-refunds-nginx: gate direct, 4 connections: {totals['kept'][0]} distinct REFUNDs kept at "
      f"{rates['kept']:.0f}/s, {totals['acknowledged'][0]} REFUND_DECLINEDs acknowledged at {rates['acknowledged']:.0f}/s "
      f"(keeping costs {rates['acknowledged'] / rates['kept']:.2f}x, alternating runs)")
PY
sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
after="$(stat -c %s "$db")"
rows="$(( $(sqlite3 "$db" 'SELECT count(*) FROM revocation;') - rows_before ))"
[ "$rows" = "$bulk" ] || fail "$bulk distinct REFUNDs made $rows rows"
say "state: $rows revocations took $((after - before)) bytes ($(( (after - before) / (rows > 0 ? rows : 1) )) bytes each; file $after bytes)"
say "load after measuring: $(cut -d' ' -f1-3 /proc/loadavg)"

# 9. The log: one JSON object per line, never a notification or a token.
python3 - "$work/gate.jsonl" "$token" <<'PY' || failures=$((failures + 1))
import json, sys
lines = open(sys.argv[1]).read().splitlines()
codes = {}
for line in lines:
    record = json.loads(line)
    assert sys.argv[2] not in line and "eyJ" not in line, "a secret in the log: " + line[:120]
    codes[record["code"]] = codes.get(record["code"], 0) + 1
print(f"test-refunds-nginx: gate log: {len(lines)} JSON lines, no token or JWS; codes {json.dumps(codes, sort_keys=True)}")
PY

if [ "$failures" -gt 0 ]; then echo "test-refunds-nginx: $failures FAILED" >&2; exit 1; fi
say ok
