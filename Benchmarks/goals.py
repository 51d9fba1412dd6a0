"""The scale goals as tables for Benchmarks/run: peak memory per corpus, and time at 1,000,000 entries.

Peak RSS: under 100 MiB for corpora below 500,000 entries (files100k, small, media, text, big2g: a
package just under the 2 GiB cap), under 1 GiB above (files1m). Time: each work on files1m takes at
most 12 times its median on files100k, iapkg's and (for comparison, no goal) bsdtar's ratio side by side.
"""
import statistics

MEMORY_GOAL_ENTRIES = 500000
SCALING_PAIR = ("files100k", "files1m")
SCALING_GOAL = 12.0


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
