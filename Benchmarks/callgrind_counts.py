"""Instruction counts of iapkg under valgrind's callgrind: wall-clock noise cannot hide a regression.

Used by `Benchmarks/run --callgrind`. Each work runs under `valgrind --tool=callgrind` with Swift's
hashing made deterministic (SWIFT_DETERMINISTIC_HASHING=1: otherwise every process seeds its
dictionaries afresh and the count moves by a few thousand instructions), so the same binary on the
same package counts the same instructions, run after run, however loaded the machine is.

valgrind 3.19 cannot read the DWARF 5 debug information Swift 6 writes ("unhandled dwarf2 abbrev
form", then it gives up), so the binary is measured as a copy with its debug sections stripped
(`strip --strip-debug`): the same machine code, and function names still come from its symbols.
"""
import os
import shutil
import subprocess

WORKS = {
    "inspect": ["{iapkg}", "inspect", "{pkg}"],
    "validate": ["{iapkg}", "validate", "{pkg}"],
}


def total_instructions(out_file):
    """The `summary:` (or `totals:`) line of a callgrind output file: instructions executed (Ir)."""
    found = None
    with open(out_file) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                found = int(line.split()[1])
    if found is None:
        raise ValueError("no summary line in %s" % out_file)
    return found


def count(valgrind, argv, out_file):
    """Runs argv under callgrind; returns (instructions, exit code, stderr tail)."""
    env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    full = [valgrind, "--tool=callgrind", "--callgrind-out-file=" + out_file] + argv
    setarch = shutil.which("setarch")
    if setarch:  # the same addresses every run (no ASLR), so nothing address-dependent moves the count
        full = [setarch, "-R"] + full
    result = subprocess.run(full, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    tail = result.stderr.decode("utf-8", "replace")[-600:]
    if result.returncode != 0 or not os.path.isfile(out_file):
        return None, result.returncode, tail
    return total_instructions(out_file), 0, tail


def measure(iapkg, pkg, work_dir, runs, log):
    """{work: {"instructions": [per run], "status": ..., "detail": ..., "profile": last out file}}."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("run: --callgrind needs valgrind (apt-get install valgrind)")
    os.makedirs(work_dir, exist_ok=True)
    stripped = os.path.join(work_dir, "iapkg-no-debug-info")
    done = subprocess.run(["strip", "--strip-debug", "-o", stripped, iapkg])
    if done.returncode != 0:
        raise SystemExit("run: 'strip --strip-debug' of %s failed (binutils is needed)" % iapkg)
    iapkg = stripped
    results = {}
    for work, template in WORKS.items():
        argv = [part.format(iapkg=iapkg, pkg=pkg) for part in template]
        entry = {"instructions": [], "status": "ok", "detail": "", "command": argv}
        for run in range(runs):
            out_file = os.path.join(work_dir, "callgrind.%s.%d.out" % (work, run))
            log("  callgrind %s, run %d of %d" % (work, run + 1, runs))
            instructions, code, tail = count(valgrind, argv, out_file)
            if instructions is None:
                entry.update(status="FAILED", detail="exit %d: %s" % (code, tail.strip()))
                break
            entry["instructions"].append(instructions)
            entry["profile"] = out_file
        results[work] = entry
    return results


def report(results, pkg):
    """Markdown lines: the counts of every run, and whether they agree."""
    lines = ["| work | instructions (Ir) per run | repeatable |", "|---|---:|---|"]
    for work, entry in results.items():
        if entry["status"] != "ok":
            lines.append("| %s | %s | - |" % (work, entry["status"]))
            continue
        counts = entry["instructions"]
        spread = max(counts) - min(counts)
        same = "yes" if spread == 0 else "within %d (%.2f ppm)" % (spread, 1e6 * spread / max(counts))
        lines.append("| %s | %s | %s |" % (work, " / ".join("{:,}".format(c) for c in counts), same))
    lines += ["", "Package: %s. Profiles: `callgrind_annotate <work>/callgrind.WORK.N.out`." % pkg]
    return lines
