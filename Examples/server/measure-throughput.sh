#!/usr/bin/env bash
# Throughput of `iapkg serve`: COUNT small packages (one product each) dropped at once; prints the
# seconds until every one is in accepted/ and the packages per minute.
#
# Usage: Examples/server/measure-throughput.sh [IAPKG] [COUNT] [JOBS]   (defaults: .build/debug/iapkg 100 nproc)
set -euo pipefail
iapkg="$(realpath "${1:-.build/debug/iapkg}")"
count="${2:-100}"
jobs="${3:-$(nproc)}"
work="$(mktemp -d /tmp/iapkg-throughput-XXXXXX)"
serve_pid=""
trap '[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/pkgs" "$work/incoming"
for i in $(seq 1 "$count"); do
  "$iapkg" init "com.example.throughput.p$i" "$work/src$i" >/dev/null 2>&1
  echo "level $i" > "$work/src$i/Contents/level.txt"
  head -c 20000 /dev/urandom > "$work/src$i/Contents/art.bin"
  "$iapkg" build "$work/src$i" -o "$work/pkgs/p$i.pkg" >/dev/null 2>&1
done
"$iapkg" serve --incoming "$work/incoming" --into "$work/srv" --jobs "$jobs" > "$work/serve.jsonl" 2> "$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 100); do grep -q watching "$work/serve.err" && break; sleep 0.1; done
start=$(date +%s%N)
for i in $(seq 1 "$count"); do
  cp "$work/pkgs/p$i.pkg" "$work/incoming/.p$i.tmp" && mv "$work/incoming/.p$i.tmp" "$work/incoming/p$i.pkg"
done
while [ "$(ls "$work/incoming/accepted" | grep -c '\.pkg$' || true)" -lt "$count" ]; do sleep 0.02; done
ms=$(( ($(date +%s%N) - start) / 1000000 ))
kill -TERM "$serve_pid"; wait "$serve_pid"; serve_pid=""
echo "measure-throughput: $count packages with --jobs $jobs in $ms ms: $(( count * 60000 / (ms > 0 ? ms : 1) )) packages/minute"
