"""The scaling families of `Benchmarks/run --scaling`: one corpus shape at growing sizes.

A family is one file shape measured at several sizes, so that a line through its points shows how a
cost grows with the work and nothing else:

  bytes         big2g (16 incompressible files) at scales 1/32, 1/8, 1/2, 1: 65 MB, 260 MB, 1.04 GB, 2.08 GB
  entries-tree  files100k (files of 2 KiB, 1,000 to a folder) at 1,000, 10,000, 100,000 files, iapkg only,
                `--layout tree` (a tree TOC cannot list 1,000,000 entries; bsdtar does not depend on it)
  entries       files100k at 1,000, 10,000, 100,000 files, then files1m (1,000,000 files of the same shape)

Each point runs once (`--runs`, default 1) after one untimed warm-up at the family's first two
sizes only, with a per-run limit (`--timeout`, default TIMEOUT seconds) drawn as such. The families
run in the order above: the longest (files1m) last.
"""

TIMEOUT = 600.0

FAMILIES = {
    "bytes": {
        "axis": "bytes", "layout": "product", "peer": True, "warm_up": 2,
        "shape": "big2g: 16 incompressible files",
        "points": [("big2g", 1 / 32), ("big2g", 1 / 8), ("big2g", 0.5), ("big2g", 1.0)],
    },
    "entries-tree": {
        "axis": "entries", "layout": "tree", "peer": False, "warm_up": 2,
        "shape": "files of 2 KiB, 1,000 to a folder",
        "points": [("files100k", 0.01), ("files100k", 0.1), ("files100k", 1.0)],
    },
    "entries": {
        "axis": "entries", "layout": "product", "peer": True, "warm_up": 2,
        "shape": "files of 2 KiB, 1,000 to a folder",
        "points": [("files100k", 0.01), ("files100k", 0.1), ("files100k", 1.0), ("files1m", 1.0)],
    },
}

# The memory goals' sizes: these entry counts and above get a row in the memory table.
MEMORY_TABLE_ENTRIES = 100000


def memory_columns(documents):
    """(title, corpus, tool) for every point of MEMORY_TABLE_ENTRIES entries or more, per tool that ran."""
    columns = []
    for doc in documents:
        for corpus in doc["corpora"]:
            if corpus["entries"] < MEMORY_TABLE_ENTRIES:
                continue
            for tool in ("iapkg", "bsdtar"):
                if all(w[tool]["status"] == "skipped" for w in corpus["works"].values()):
                    continue
                title = "%s %s, %s entries" % (tool, corpus["layout"] if tool == "iapkg" else "(any layout)",
                                              "{:,}".format(corpus["entries"]))
                columns.append((title, corpus, tool))
    return columns


def memory_cell(outcome, goal):
    """Peak MiB with whether iapkg's goal holds, or why there is no figure."""
    if outcome["status"] != "ok" or not outcome["rss_kib"]:
        return outcome["status"]
    mib = max(outcome["rss_kib"]) / 1024
    return "%.1f" % mib if goal is None else "%.1f (%s)" % (mib, "yes" if mib < goal else "NO")


def memory_lines(documents, table, goal_mib):
    """The peak-memory table of the scaling runs: one row per work, one column per large point and tool."""
    columns = memory_columns(documents)
    if not columns:
        return []
    works = []
    for _, corpus, _ in columns:
        works += [w for w in corpus["works"] if w not in works]
    rows = []
    for work in works:
        row = [work]
        for _, corpus, tool in columns:
            outcome = corpus["works"].get(work, {}).get(tool)
            goal = goal_mib(corpus["entries"]) if tool == "iapkg" else None
            row.append("-" if outcome is None else memory_cell(outcome, goal))
        rows.append(row)
    return (["", "Peak memory, MiB (iapkg's goal in brackets: under 100 MiB below 500,000 entries, under 1 GiB "
             "above):", ""] + table(["work"] + [title for title, _, _ in columns], rows))
