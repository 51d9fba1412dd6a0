#!/usr/bin/env python3
"""Write deterministic hosted-content folders for benchmarks.

Each corpus is a content root (ContentInfo.plist + Contents/) whose bytes depend only on the
corpus name and the scale, so two runs, two machines and two tools measure the same work.

    make_corpus.py DEST [--corpus small|media|text|files100k|files1m|big2g|one128m|files2k|all] [--scale 1.0]

  small      20,000 files of 1-16 KiB in nested folders (level data, JSON, icons): about 170 MiB
  media      24 large files, 85% already-compressed bytes (images, audio, video) and 15% text: about 1 GiB
  text       64 compressible files of text and JSON (books, magazines): about 512 MiB
  files100k  100,000 files of 2 KiB, 1,000 to a folder (half text, half random): about 200 MiB
  files1m    1,000,000 files of 2 KiB, 1,000 to a folder: about 2 GiB (2 GiB of disk for the data,
             about 4 GiB with ext4's 4 KiB blocks)
  big2g      16 incompressible files of 130,000,000 bytes (2,080,000,000 bytes, 1.94 GiB): its package is
             just under the 2 GiB (2,147,483,648-byte) cap on a package and on its unpacked total
  one128m    one incompressible file of 128 MiB (the fetch work's large shape)
  files2k    2,000 files of 4 KiB, 500 to a folder (the fetch work's many-small-files shape)

--scale multiplies file counts (small, files100k, files1m, files2k) or file sizes (media, text, big2g, one128m); 0.01 gives a
quick smoke set. "all" means small, media and text; the entry-count corpora are asked for by name.
"""
import argparse
import os
import random
import sys

PLIST = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>ContentVersion</key>
\t<string>1.0</string>
\t<key>IAPProductIdentifier</key>
\t<string>com.example.bench.{name}</string>
</dict>
</plist>
"""

WORDS = ("level score chapter rocket car page magazine issue image sound track the of and a to in "
         "is it that for on with as was at by this be from or have an are but not you all any can "
         "had her one our out day get has him his how man new now old see two way who boy did its "
         "let put say she too use").split()


def text_block(rng, size):
    """Readable, compressible text of exactly `size` bytes."""
    out, n = [], 0
    while n < size:
        line = " ".join(rng.choices(WORDS, k=rng.randint(6, 16))) + "\n"
        out.append(line)
        n += len(line)
    return "".join(out).encode()[:size]


def json_block(rng, size):
    """JSON-looking records, compressible, exactly `size` bytes."""
    out, n, i = [], 0, 0
    while n < size:
        rec = '{"id":%d,"name":"%s","x":%d,"y":%d,"tags":["%s","%s"]},\n' % (
            i, rng.choice(WORDS), rng.randint(0, 4096), rng.randint(0, 4096),
            rng.choice(WORDS), rng.choice(WORDS))
        out.append(rec)
        n += len(rec)
        i += 1
    return "".join(out).encode()[:size]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def write_stream(path, rng, size, kind):
    """Write `size` bytes in 4 MiB pieces so memory stays small."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    piece = 4 << 20
    with open(path, "wb") as f:
        left = size
        while left > 0:
            n = min(piece, left)
            if kind == "random":
                f.write(rng.randbytes(n))
            elif kind == "json":
                f.write(json_block(rng, n))
            else:
                f.write(text_block(rng, n))
            left -= n


def root(dest, name):
    top = os.path.join(dest, name)
    os.makedirs(os.path.join(top, "Contents"), exist_ok=True)
    write(os.path.join(top, "ContentInfo.plist"), PLIST.format(name=name).encode())
    return os.path.join(top, "Contents")


def make_small(dest, scale):
    rng = random.Random("small")
    contents = root(dest, "small")
    count = max(10, int(20000 * scale))
    for i in range(count):
        folder = os.path.join(contents, "levels", "%02d" % (i % 50), "%03d" % (i // 50 % 400))
        size = rng.randint(1024, 16 * 1024)
        kind = i % 3
        if kind == 0:
            write(os.path.join(folder, "level%05d.json" % i), json_block(rng, size))
        elif kind == 1:
            write(os.path.join(folder, "icon%05d.png" % i), b"\x89PNG\r\n\x1a\n" + rng.randbytes(size - 8))
        else:
            write(os.path.join(folder, "notes%05d.txt" % i), text_block(rng, size))


ENTRY_FILE_SIZE = 2048
ENTRIES_PER_FOLDER = 1000


def make_entries(dest, name, count):
    """`count` files of 2 KiB, 1,000 to a folder: even files are text, odd ones random bytes.

    Text is cut from one 1 MiB block at a random offset (cheap enough for a million files) and
    starts with the file's own number, so no two files are alike.
    """
    rng = random.Random(name)
    contents = root(dest, name)
    pool = text_block(rng, 1 << 20)
    for i in range(count):
        folder = os.path.join(contents, "data", "%04d" % (i // ENTRIES_PER_FOLDER))
        if i % ENTRIES_PER_FOLDER == 0:
            os.makedirs(folder, exist_ok=True)
        if i % 2 == 0:
            head = b"record %d\n" % i
            start = rng.randrange(len(pool) - ENTRY_FILE_SIZE)
            data = head + pool[start:start + ENTRY_FILE_SIZE - len(head)]
            path = os.path.join(folder, "r%07d.txt" % i)
        else:
            # A fixed first byte: random bytes starting "#!" or "\x7fELF" would be flagged as code.
            data = b"\x00" + rng.randbytes(ENTRY_FILE_SIZE - 1)
            path = os.path.join(folder, "r%07d.bin" % i)
        with open(path, "wb") as f:
            f.write(data)


def make_files100k(dest, scale):
    make_entries(dest, "files100k", max(10, int(100000 * scale)))


def make_files1m(dest, scale):
    make_entries(dest, "files1m", max(10, int(1000000 * scale)))


def make_media(dest, scale):
    rng = random.Random("media")
    contents = root(dest, "media")
    total = int((1 << 30) * scale)
    kinds = [("video", ".mp4", "random", 0.55), ("audio", ".m4a", "random", 0.20),
             ("images", ".jpg", "random", 0.10), ("text", ".json", "json", 0.15)]
    for folder, ext, kind, share in kinds:
        files = 6
        for j in range(files):
            size = max(1, int(total * share / files))
            write_stream(os.path.join(contents, folder, "item%02d%s" % (j, ext)), rng, size, kind)


BIG_FILES = 16
BIG_FILE_BYTES = 130000000


def make_big2g(dest, scale):
    """Random bytes (a fixed first byte, so none looks like code): deflate cannot shrink them, so the
    package is the content's size plus a little, just under 2 GiB at scale 1."""
    rng = random.Random("big2g")
    contents = root(dest, "big2g")
    size = max(1, int(BIG_FILE_BYTES * scale))
    for j in range(BIG_FILES):
        write_random(os.path.join(contents, "assets", "blob%02d.dat" % j), rng, size)


def write_random(path, rng, size):
    """`size` random bytes after a fixed first byte (so the file does not look like code), in 4 MiB writes."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"\x00")
        left = size - 1
        while left > 0:
            n = min(4 << 20, left)
            f.write(rng.randbytes(n))
            left -= n


def make_one128m(dest, scale):
    """One file of random bytes (a fixed first byte, so it does not look like code)."""
    rng = random.Random("one128m")
    write_random(os.path.join(root(dest, "one128m"), "assets", "blob.dat"), rng, max(1, int((128 << 20) * scale)))


def make_files2k(dest, scale):
    """2,000 files of 4 KiB of random bytes (a fixed first byte), 500 to a folder."""
    rng = random.Random("files2k")
    contents = root(dest, "files2k")
    for i in range(max(10, int(2000 * scale))):
        folder = os.path.join(contents, "tiles", "%02d" % (i // 500))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "t%05d.bin" % i), "wb") as f:
            f.write(b"\x00" + rng.randbytes(4095))


def make_text(dest, scale):
    rng = random.Random("text")
    contents = root(dest, "text")
    total = int((512 << 20) * scale)
    for j in range(64):
        kind = "json" if j % 4 == 0 else "text"
        ext = ".json" if kind == "json" else ".txt"
        write_stream(os.path.join(contents, "chapters", "chapter%02d%s" % (j, ext)), rng, max(1, total // 64), kind)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dest")
    p.add_argument("--corpus", default="all", choices=["small", "media", "text", "files100k", "files1m", "big2g", "one128m", "files2k",
                                                     "all"])
    p.add_argument("--scale", type=float, default=1.0)
    a = p.parse_args()
    makers = {"small": make_small, "media": make_media, "text": make_text,
              "files100k": make_files100k, "files1m": make_files1m, "big2g": make_big2g,
              "one128m": make_one128m, "files2k": make_files2k}
    for name in (["small", "media", "text"] if a.corpus == "all" else [a.corpus]):
        if os.path.exists(os.path.join(a.dest, name)):
            print("exists, left as is: %s" % os.path.join(a.dest, name), file=sys.stderr)
            continue
        makers[name](a.dest, a.scale)
        print(os.path.join(a.dest, name))


if __name__ == "__main__":
    main()
