#!/usr/bin/env python3
"""Posts notification bodies, one a line of FILE, to URL over CONNECTIONS keep-alive connections
(each body once), and prints how many were answered with each status and the rate:

    post-notifications.py URL FILE [CONNECTIONS]      (default 4)

`notifications: N posted in S s: R/s over C connections; statuses {200: N}`. Exit status 1 when
any answer is not 200.
"""
import http.client, json, sys, threading, time, urllib.parse

url, path = sys.argv[1], sys.argv[2]
connections = int(sys.argv[3]) if len(sys.argv) > 3 else 4
target = urllib.parse.urlsplit(url)
bodies = open(path, "rb").read().splitlines()
statuses, lock, next_index = {}, threading.Lock(), [0]


def worker():
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    while True:
        with lock:
            index = next_index[0]
            next_index[0] += 1
        if index >= len(bodies):
            break
        connection.request("POST", target.path, body=bodies[index], headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        with lock:
            statuses[response.status] = statuses.get(response.status, 0) + 1
    connection.close()


start = time.monotonic()
threads = [threading.Thread(target=worker) for _ in range(connections)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
elapsed = time.monotonic() - start
print(f"notifications: {len(bodies)} posted in {elapsed:.2f} s: {len(bodies) / elapsed:.0f}/s over {connections} "
      f"connections; statuses {json.dumps(statuses, sort_keys=True)}")
sys.exit(0 if set(statuses) == {200} else 1)
