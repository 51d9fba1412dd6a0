"""The floors for Benchmarks/run: each work's unavoidable part as a small C program of its own
(Benchmarks/floors/*.c, see their header comments), compiled into the work folder, timed beside
iapkg and bsdtar, and checked for correctness once per corpus (a wrong floor fails the run).

Also bsdtar "flushed": bsdtar followed by `sync -f` on what it wrote, timed together, the
durability iapkg gives its output (build's fsync, unpack's syncfs).
"""
import gzip
import os
import shlex
import shutil
import subprocess

FLOORS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floors")

# iapkg build's defaults: libdeflate level 7 (BuildOptions) and 1 MiB blocks (ParallelGzipEncoder).
BUILD_LEVEL = "7"
BLOCK_BYTES = str(1 << 20)

# Each floor: its source, the libraries it links (pkg-config names), its argv template.
# Placeholders as in Benchmarks/run, plus {floor} (the binary), {fpkg} (the build floor's output)
# and {blob} (the corpus as one file, made untimed for the unpack floor).
FLOORS = {
    "build": ("build.c", ["libdeflate"], ["{floor}", "{src}", "{fpkg}", BUILD_LEVEL, BLOCK_BYTES]),
    "inspect": ("inspect.c", ["libdeflate", "zlib"], ["{floor}", "{ipkg}"]),
    "validate": ("validate.c", ["libdeflate", "libcrypto"], ["{floor}", "{ipkg}"]),
    "unpack": ("unpack.c", [], ["{floor}", "{blob}", "{dest}"]),
    # 8 connections, as curl -Z --parallel-max 8 (Benchmarks/fetch_runs.py).
    "fetch": ("fetch.c", [], ["{floor}", "127.0.0.1", "{port}", "{list}", "{dest}", "8"]),
}

# bsdtar, then `sync -f` (syncfs of the file system holding its output), in one timed shell.
FLUSHED = {
    "build": ["sh", "-c", '"$0" --format xar -cf "$1" -C "$2" . && sync -f "$1"', "{bsdtar}", "{ppkg}", "{src}"],
    "unpack": ["sh", "-c", '"$0" -xf "$1" -C "$2" && sync -f "$2"', "{bsdtar}", "{ppkg}", "{dest}"],
    # curl (the fetch work's peer: Benchmarks/fetch_runs.py), then `sync -f` on its folder.
    "fetch": ["sh", "-c", 'cd "$1" && curl -sS -f --create-dirs -Z --parallel-max 8 -K "$0" && sync -f "$1"',
              "{curlrc}", "{dest}"],
}


def compile_floors(work, works, log):
    """Compiles the floors of `works` with gcc -O2 into <work>/floors; returns {work: binary}."""
    out = os.path.join(work, "floors")
    os.makedirs(out, exist_ok=True)
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise SystemExit("run: the floors need a C compiler (apt-get install gcc), and libdeflate-dev, libssl-dev, "
                         "zlib1g-dev")
    binaries = {}
    for work in works:
        source, libraries, _ = FLOORS[work]
        flags = []
        if libraries:
            found = subprocess.run(["pkg-config", "--cflags", "--libs"] + libraries, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
            if found.returncode != 0:
                raise SystemExit("run: pkg-config found no %s for the %s floor: %s"
                                 % (" ".join(libraries), work, found.stderr.strip()))
            flags = found.stdout.split()
        binary = os.path.join(out, "floor-" + work)
        argv = [compiler, "-O2", "-Wall", "-o", binary, os.path.join(FLOORS_DIR, source)] + flags + ["-lpthread"]
        log("  %s" % shlex.join(argv))
        built = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if built.returncode != 0:
            raise SystemExit("run: compiling the %s floor failed:\n%s" % (work, built.stdout))
        binaries[work] = binary
    return binaries


def pack_corpus(binary, src, blob):
    """The corpus as one file for the unpack floor (untimed; made again for each run)."""
    made = subprocess.run([binary, "--pack", src, blob], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if made.returncode != 0:
        raise SystemExit("run: the unpack floor could not pack %s: %s" % (src, made.stderr.strip()))


def corpus_entries(src):
    """Relative path -> ("dir" | "file" | "link", bytes or target) for every entry under `src`, in
    iapkg's order: depth first, names in byte order."""
    found = []

    def walk(folder, prefix):
        for name in sorted(os.listdir(folder), key=os.fsencode):
            path = os.path.join(folder, name)
            rel = prefix + name
            if os.path.islink(path):
                found.append((rel, "link", os.readlink(path)))
            elif os.path.isdir(path):
                found.append((rel, "dir", None))
                walk(path, rel + "/")
            else:
                found.append((rel, "file", path))
    walk(src, "")
    return found


def read_exactly(stream, count):
    data = stream.read(count)
    if len(data) != count:
        raise ValueError("the stream ends early")
    return data


def check_build(fpkg, src):
    """The build floor's output gunzips to a cpio odc stream of the corpus, in order, byte for byte."""
    expected = [(".", "dir", None)] + [("./" + rel, kind, what) for rel, kind, what in corpus_entries(src)]
    with gzip.open(fpkg, "rb") as stream:
        for name, kind, what in expected + [("TRAILER!!!", None, None)]:
            header = read_exactly(stream, 76)
            if header[:6] != b"070707":
                return "no cpio odc header where %s should be" % name
            name_size, size = int(header[59:65], 8), int(header[65:76], 8)
            got = read_exactly(stream, name_size)[:-1].decode()
            if got != name:
                return "entry %r where %r should be" % (got, name)
            data = read_exactly(stream, size)
            if kind == "file":
                with open(what, "rb") as f:
                    if f.read() != data:
                        return "the bytes of %s differ" % name
            elif kind == "link" and data != os.fsencode(what):
                return "the target of %s differs" % name
        if stream.read(1):
            return "bytes after the trailer"
    return None


def check_tree(dest, src):
    """`dest` holds exactly the corpus's folders, files and links, byte for byte."""
    want, got = corpus_entries(src), corpus_entries(dest)
    if [(r, k) for r, k, _ in want] != [(r, k) for r, k, _ in got]:
        return "the entries differ (%d written, %d in the corpus)" % (len(got), len(want))
    for (rel, kind, a), (_, _, b) in zip(want, got):
        if kind == "file":
            with open(a, "rb") as fa, open(b, "rb") as fb:
                if fa.read() != fb.read():
                    return "the bytes of %s differ" % rel
        elif kind == "link" and a != b:
            return "the target of %s differs" % rel
    return None


def check(work, argv, values, entries, prepare, cleanup):
    """Runs the floor once more, untimed, and checks what it produced; None when correct, else why not."""
    prepare()
    try:
        run = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            return "exit %d: %s" % (run.returncode, run.stderr.strip()[-400:])
        if work == "build":
            return check_build(values["fpkg"], values["src"])
        if work == "unpack":
            return check_tree(values["dest"], values["src"])
        if work == "inspect":
            count = run.stdout.split()[0] if run.stdout.split() else ""
            return None if count == str(entries) else "it counted %s entries, the corpus has %d" % (count, entries)
        words = run.stdout.split()
        return None if words and words[0].isdigit() and int(words[0]) > 0 else "it compared no digests"
    except (OSError, ValueError, EOFError, gzip.BadGzipFile) as e:
        return "%s: %s" % (type(e).__name__, e)
    finally:
        cleanup()
