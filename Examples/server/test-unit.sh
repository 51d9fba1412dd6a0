#!/usr/bin/env bash
# The systemd unit, checked by running it rather than by reading it:
#  1. `systemd-analyze verify` accepts iapkg-serve.service (ExecStart pointed at the binary under test);
#  2. the service runs with the unit's own arguments (its paths moved to a scratch folder), as an
#     unprivileged user holding only the unit's ambient capability (CAP_LEASE), with no_new_privs and
#     the unit's SystemCallFilter= applied with seccomp (seccomp-exec.py), while it takes packages:
#     one renamed in, one written in place by a writer that pauses longer than --settle-seconds
#     (held until closed), one dropped as a symlink (refused unfollowed), one it cannot read (left
#     where it is, logged once); it tells systemd's notify
#     socket READY=1 and WATCHDOG=1 (Type=notify, WatchdogSec=), writes its status and metrics
#     files, and stops with exit 0 on SIGTERM. A call the filter denies kills it with SIGSYS.
#
# Usage: Examples/server/test-unit.sh [IAPKG]      (default .build/debug/iapkg; needs root,
#        systemd, python3-seccomp, util-linux's setpriv)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
iapkg="$(realpath "${1:-.build/debug/iapkg}")"
unit="$here/iapkg-serve.service"
py=/usr/bin/python3   # Debian's, where python3-seccomp lives
work="$(mktemp -d /tmp/iapkg-unit-XXXXXX)"
serve_pid=""; listen_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null || true
  [ -n "$listen_pid" ] && kill "$listen_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "test-unit: FAILED: $*" >&2; [ -f "$work/serve.err" ] && tail -20 "$work/serve.err" >&2; exit 1; }

# 1. The unit as systemd reads it.
chmod 0755 "$work"
cp "$iapkg" "$work/iapkg"
sed "s|^ExecStart=/usr/bin/iapkg |ExecStart=$work/iapkg |" "$unit" > "$work/iapkg-serve.service"
systemd-analyze verify "$work/iapkg-serve.service" 2> "$work/verify.err" || { cat "$work/verify.err" >&2; fail "systemd-analyze verify"; }
if grep -v "User=iapkg\|Group=iapkg\|iapkg-serve.service:.*iapkg.*does not exist" "$work/verify.err" | grep -q .; then
  cat "$work/verify.err" >&2; fail "systemd-analyze verify warned"
fi
echo "test-unit: systemd-analyze verify: clean"

# 2. The service under the unit's filter, with the unit's own arguments.
args="$(sed -n 's|^ExecStart=/usr/bin/iapkg ||p' "$unit")"
args="${args//\/srv\/incoming/$work/incoming}"
args="${args//\/srv\/content/$work/content}"
args="${args//\/run\/iapkg/$work/run}"
mkdir -p "$work/incoming" "$work/content" "$work/run" "$work/pkgs"
chown nobody:nogroup "$work/incoming" "$work/content" "$work/run"
product=com.example.unit.pack
"$iapkg" init "$product" "$work/src" >/dev/null 2>&1
# Past 256 entries unpack creates its small files by path with openat2: the filter must allow it.
for i in $(seq 0 299); do
  mkdir -p "$work/src/Contents/levels/$((i % 7))" && echo "level $i" > "$work/src/Contents/levels/$((i % 7))/l$i.txt"
done
for v in 1.1 1.2 1.3; do
  "$iapkg" bump "$work/src" --to "$v" >/dev/null
  head -c 300000 /dev/urandom > "$work/src/Contents/data.bin"
  "$iapkg" build "$work/src" -o "$work/pkgs/$v.pkg" >/dev/null 2>&1
done

# systemd's side of Type=notify: a datagram socket that records what the service sends.
"$py" - "$work/notify" "$work/notify.log" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
import os; os.chmod(sys.argv[1], 0o777)
with open(sys.argv[2], "a") as log:
    while True:
        log.write(s.recv(4096).decode() + "\n"); log.flush()
PY
listen_pid=$!
for _ in $(seq 1 50); do [ -S "$work/notify" ] && break; sleep 0.1; done

# shellcheck disable=SC2086  # the unit's arguments, split as systemd splits them (no quotes in them)
NOTIFY_SOCKET="$work/notify" WATCHDOG_USEC=2000000 \
  setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all,+lease --ambient-caps=-all,+lease \
    --bounding-set=-all,+lease \
  "$py" "$here/seccomp-exec.py" "$unit" "$work/iapkg" $args --rescan-seconds 1 --settle-seconds 0.5 \
  > "$work/serve.out" 2> "$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 100); do grep -q "READY=1" "$work/notify.log" 2>/dev/null && break; sleep 0.1; done
grep -q "READY=1" "$work/notify.log" || fail "no READY=1 on the notify socket"

# An upload renamed in; one written in place (owned by root, not by the service: the lease needs
# CAP_LEASE) by a writer that pauses 2 s mid-file; a symlink.
cp "$work/pkgs/1.1.pkg" "$work/incoming/.a.part" && mv "$work/incoming/.a.part" "$work/incoming/a.pkg"
for _ in $(seq 1 100); do [ -f "$work/incoming/accepted/a.pkg" ] && break; sleep 0.1; done
ln -s /etc/passwd "$work/incoming/link.pkg"
install -m 0600 "$work/pkgs/1.3.pkg" "$work/incoming/secret.pkg"   # root's, unreadable to the service
exec 3> "$work/incoming/slow.pkg"
head -c 20000 "$work/pkgs/1.2.pkg" >&3
sleep 2
[ -f "$work/incoming/slow.pkg" ] || fail "a file still open for writing was taken"
tail -c +20001 "$work/pkgs/1.2.pkg" >&3
exec 3>&-
for _ in $(seq 1 100); do [ -f "$work/incoming/accepted/slow.pkg" ] && break; sleep 0.1; done
for _ in $(seq 1 100); do grep -q "WATCHDOG=1" "$work/notify.log" && break; sleep 0.1; done

kill -TERM "$serve_pid"; status=0; wait "$serve_pid" || status=$?; serve_pid=""
[ "$status" = 0 ] || fail "the service exited with status $status (159: killed by SIGSYS, a system call the unit denies)"
[ -f "$work/incoming/accepted/a.pkg" ] || fail "a.pkg was not accepted"
[ -f "$work/incoming/accepted/slow.pkg" ] || fail "slow.pkg was not accepted after its writer closed it"
[ -L "$work/incoming/rejected/link.pkg" ] || fail "link.pkg was not refused"
[ "$(readlink "$work/content/$product/current")" = 1.2 ] || fail "current is not 1.2"
[ "$(cat "$work/content/$product/1.2/Contents/levels/3/l10.txt")" = "level 10" ] || fail "a small file was not written"
grep -q "WATCHDOG=1" "$work/notify.log" || fail "no WATCHDOG=1 on the notify socket"
[ -f "$work/incoming/secret.pkg" ] || fail "an unreadable file was moved"
[ "$(grep '"file":"secret.pkg"' "$work/serve.out" | grep -c '"outcome":"skipped"')" = 1 ] ||
  fail "the unreadable file was not logged once as skipped: $(grep secret "$work/serve.out")"
grep -q '"accepted" : 2' "$work/run/status.json" || fail "status.json: $(cat "$work/run/status.json")"
grep -q 'iapkg_serve_packages_total{outcome="accepted"} 2' "$work/run/iapkg.prom" || fail "iapkg.prom"
grep -q "cannot tell whether a writer" "$work/serve.err" && fail "the lease could not be taken with CAP_LEASE"
grep "^seccomp-exec:" "$work/serve.err" | sed 's/^/test-unit: /'
echo "test-unit: the service ran under the unit's filter as nobody with CAP_LEASE: 2 accepted, 1 refused, READY=1 and WATCHDOG=1 sent, exit 0"
