"""The scale goals as tables for Benchmarks/run: peak memory per corpus, and time at 1,000,000 entries.

Peak RSS: under 100 MiB for corpora below 500,000 entries (files100k, small, media, text, big2g: a
package just under the 2 GiB cap), under 1 GiB above (files1m). Time: each work on files1m takes at
most 12 times its median on files100k, iapkg's and (for comparison, no goal) bsdtar's ratio side by side.

Speed, checked and reported (never asserted: one run on a shared machine is noisy): each work within
1.25x of its floor (Benchmarks/floors); never slower than plain bsdtar (speed-up >= 1.0), and at least
1.3x faster than bsdtar flushed as iapkg flushes (build, unpack); inspect of the small corpus
(20,000 files at scale 1) in a median under 25 ms.
"""
import statistics

MEMORY_GOAL_ENTRIES = 500000
SCALING_PAIR = ("files100k", "files1m")
SCALING_GOAL = 12.0


FLOOR_GOAL = 1.25
PLAIN_GOAL = 1.0
FLUSHED_GOAL = 1.3
# fetch: within 1.25x of curl then `sync -f` (fetch flushes before it installs); no goal against plain curl.
FETCH_FLUSHED_GOAL = 1 / 1.25
INSPECT_GOAL_SECONDS = 0.025
INSPECT_GOAL_CORPUS = "small"


def memory_goal_mib(entries):
    """The peak-memory goal for a corpus of `entries`: 100 MiB up to 100,000s, 1 GiB at 1,000,000."""
    return 100 if entries < MEMORY_GOAL_ENTRIES else 1024


def memory_goal_rows(works, corpora, counts, results, rss_text):
    """One row per work and corpus: iapkg's peak RSS against its goal, and whether the goal holds."""
    rows = []
    for work in works:
        for name in corpora:
            mine = results[name][work][0]
            goal = memory_goal_mib(counts[name][1])
            holds = ("yes" if max(mine.rss_kib) / 1024 < goal else "NO") if mine.usable else "-"
            rows.append([work, name, "{:,}".format(counts[name][1]), rss_text(mine), str(goal), holds])
    return rows


def ratio(small, large):
    """Median seconds of `large` over those of `small`, or None when either did not run."""
    if not (small.usable and large.usable):
        return None
    low = statistics.median(small.seconds)
    return statistics.median(large.seconds) / low if low > 0 else None


def scaling_rows(works, corpora, counts, results):
    """One row per work when both files100k and files1m were measured: the time ratios and the goal."""
    low, high = SCALING_PAIR
    if low not in corpora or high not in corpora:
        return []
    rows = []
    for work in works:
        mine = ratio(results[low][work][0], results[high][work][0])
        peer = ratio(results[low][work][1], results[high][work][1])
        entries = counts[high][1] / counts[low][1] if counts[low][1] else 0
        holds = "-" if mine is None else ("yes" if mine <= SCALING_GOAL else "NO")
        rows.append([work, "%.2fx" % entries, "-" if mine is None else "%.2fx" % mine,
                     "-" if peer is None else "%.2fx" % peer, "%gx" % SCALING_GOAL, holds])
    return rows


def report_lines(works, corpora, counts, results, rss_text, table):
    """The goal tables for the report: memory always, time scaling when both entry corpora ran."""
    out = ["", "Memory goals (iapkg's peak RSS under 100 MiB below %s entries, under 1 GiB above):"
           % "{:,}".format(MEMORY_GOAL_ENTRIES), ""]
    out += table(["work", "corpus", "entries", "iapkg peak RSS MiB", "goal MiB", "holds"],
                 memory_goal_rows(works, corpora, counts, results, rss_text))
    rows = scaling_rows(works, corpora, counts, results)
    if rows:
        out += ["", "Time goal (median time on %s at most %gx that on %s):"
                % (SCALING_PAIR[1], SCALING_GOAL, SCALING_PAIR[0]), ""]
        out += table(["work", "entries ratio", "iapkg time ratio", "bsdtar time ratio", "goal", "holds"], rows)
    return out


def holds_text(value, goal, at_most):
    """"yes" or "NO" for `value` against `goal` (at most or at least it), "-" when not measured."""
    if value is None:
        return "-"
    return "yes" if (value <= goal if at_most else value >= goal) else "NO"


def ratio_cell(value):
    return "-" if value is None else "%.2fx" % value


def speed_rows(works, corpora, results, extras):
    """One row per work and corpus: iapkg / floor, the speed-up over bsdtar plain and flushed, each
    with whether its goal holds."""
    rows = []
    for work in works:
        for name in corpora:
            mine, peer = results[name][work]
            floor, flushed = extras.get(name, {}).get(work, (None, None))
            to_floor = ratio(floor, mine) if floor is not None else None
            plain = ratio(mine, peer)
            flush = ratio(mine, flushed) if flushed is not None else None
            flushed_goal = FETCH_FLUSHED_GOAL if work == "fetch" else FLUSHED_GOAL
            plain_holds = "-" if work == "fetch" else holds_text(plain, PLAIN_GOAL, False)
            rows.append([work, name, ratio_cell(to_floor), holds_text(to_floor, FLOOR_GOAL, True),
                         ratio_cell(plain), plain_holds,
                         ratio_cell(flush), holds_text(flush, flushed_goal, False)])
    return rows


def speed_lines(works, corpora, results, extras, table):
    """The speed goals for the report: checked and told, never failing the run."""
    out = ["", "Speed goals (reported, not asserted): iapkg / floor at most %gx; speed-up over bsdtar at least "
           "%gx plain, %gx flushed (bsdtar then `sync -f`, build and unpack); fetch at least %gx curl flushed "
           "(within 1.25x of curl then `sync -f`):" % (FLOOR_GOAL, PLAIN_GOAL, FLUSHED_GOAL, FETCH_FLUSHED_GOAL),
           ""]
    out += table(["work", "corpus", "iapkg / floor", "<= %gx" % FLOOR_GOAL, "speed-up (peer/iapkg)",
                  ">= %gx" % PLAIN_GOAL, "speed-up (peer flushed/iapkg)",
                  ">= %gx (fetch %gx)" % (FLUSHED_GOAL, FETCH_FLUSHED_GOAL)],
                 speed_rows(works, corpora, results, extras))
    if "unpack" in works and "validate" in works:
        rows = []
        for name in corpora:
            mine = results[name]["unpack"][0]
            floors = [extras.get(name, {}).get(work, (None, None))[0] for work in ("validate", "unpack")]
            if mine.usable and all(f is not None and f.usable for f in floors):
                both = sum(statistics.median(f.seconds) for f in floors)
                rows.append([name, "%.3f" % both, "%.2fx" % (statistics.median(mine.seconds) / both)])
        if rows:
            out += ["", "unpack validates the whole package before writing: its time against the validate floor "
                    "plus the unpack floor (for reading; the goal is against the unpack floor):", ""]
            out += table(["corpus", "validate + unpack floors median s", "iapkg unpack / both floors"], rows)
    if "inspect" in works and INSPECT_GOAL_CORPUS in corpora and results[INSPECT_GOAL_CORPUS]["inspect"][0].usable:
        median = statistics.median(results[INSPECT_GOAL_CORPUS]["inspect"][0].seconds)
        out += ["", "Inspect of %s: median %.1f ms (goal under %.0f ms at scale 1): %s" % (
            INSPECT_GOAL_CORPUS, median * 1000, INSPECT_GOAL_SECONDS * 1000,
            "yes" if median < INSPECT_GOAL_SECONDS else "NO")]
    return out
