/* The inspect floor: process start and reading what inspect must read, nothing else.
 *
 *   inspect PKG
 *
 * It reads (pread) the 28-byte xar header and the TOC and inflates the TOC (libdeflate); reads the
 * Bom's stored bytes and inflates them (the Bom is the listing of a product package); walks the
 * Bom's "Paths" tree from its root down to the first leaf and along the leaves, counting the
 * entries; and inflates the head of the Payload (zlib, 64 KiB at most) up to ContentInfo.plist,
 * which iapkg's inspect reads there for the product and version. It prints the entry count (the
 * Bom's "." excluded, as inspect counts).
 *
 * Why this is the floor: these bytes are what inspect shows and cannot be had without reading and
 * inflating them; a C program with libdeflate and zlib starts in about a millisecond.
 *
 * What it leaves out: the digests inspect confirms (the Bom's SHA-1s, the TOC's), the check of
 * every TOC field, the Bom's names and modes decoded into rows, the rows formatted and written.
 *
 * Correctness (Benchmarks/floors.py): the count equals the corpus's entries.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "xar.h"

static unsigned char *read_at(int fd, uint64_t offset, uint64_t count) {
    unsigned char *p = malloc(count ? count : 1);
    if (!p) fail("out of memory");
    for (uint64_t done = 0; done < count;) {
        ssize_t r = pread(fd, p + done, count - done, (off_t)(offset + done));
        if (r <= 0) fail("cannot read the package");
        done += (uint64_t)r;
    }
    return p;
}

/* The Bom block `index`: its bytes and length, from the block table. */
static const unsigned char *bom_block(const unsigned char *bom, size_t size, uint32_t index, uint32_t *len) {
    uint64_t table = be(bom + 16, 4);
    if (table + 4 + 8ull * (index + 1) > size || index >= be(bom + table, 4)) fail("a Bom block index is out of range");
    uint64_t at = be(bom + table + 4 + 8ull * index, 4);
    *len = (uint32_t)be(bom + table + 8 + 8ull * index, 4);
    if (at + *len > size) fail("a Bom block lies outside the Bom");
    return bom + at;
}

/* The number of paths in the Bom's "Paths" tree, counted along its leaves. */
static uint64_t bom_paths(const unsigned char *bom, size_t size) {
    if (size < 32 || memcmp(bom, "BOMStore", 8)) fail("the Bom is not a BOMStore");
    uint64_t vars = be(bom + 24, 4), count = be(bom + vars, 4), at = vars + 4;
    uint32_t tree = UINT32_MAX, len;
    for (uint64_t i = 0; i < count && at + 5 <= size; i++) {
        uint32_t index = (uint32_t)be(bom + at, 4);
        unsigned name_len = bom[at + 4];
        if (name_len == 5 && !memcmp(bom + at + 5, "Paths", 5)) tree = index;
        at += 5 + name_len;
    }
    if (tree == UINT32_MAX) fail("the Bom has no Paths tree");
    const unsigned char *t = bom_block(bom, size, tree, &len);
    if (len < 21 || memcmp(t, "tree", 4)) fail("the Bom's Paths is not a tree");
    const unsigned char *node = bom_block(bom, size, (uint32_t)be(t + 8, 4), &len);
    while (!be(node, 2)) node = bom_block(bom, size, (uint32_t)be(node + 12, 4), &len);  /* first child */
    uint64_t paths = 0;
    for (;;) {
        paths += be(node + 2, 2);
        uint32_t forward = (uint32_t)be(node + 4, 4);
        if (!forward) break;
        node = bom_block(bom, size, forward, &len);
    }
    if (paths != be(t + 16, 4)) fail("the Bom's leaves and its path count disagree");
    return paths;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: inspect PKG\n");
        return 64;
    }
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail("cannot open the package");
    unsigned char *header = read_at(fd, 0, 28);
    struct xar_head head = xar_head(header);
    unsigned char *stored_toc = read_at(fd, head.header_size, head.toc_stored);
    char *toc = xar_toc(stored_toc, head.toc_stored, head.toc_size);
    struct xar_data e, bom_data = {0}, payload = {0};
    for (const char *cursor = toc; xar_next_data(&cursor, &e);) {
        if (!strcmp(e.name, "Bom")) bom_data = e;
        if (!strcmp(e.name, "Payload")) payload = e;
    }
    if (!bom_data.length || !payload.length) fail("no Bom or Payload in the TOC (not a product package)");
    unsigned char *stored_bom = read_at(fd, head.heap + bom_data.offset, bom_data.length);
    unsigned char *bom = malloc(bom_data.size);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    size_t got = 0;
    if (!bom || !d ||
        libdeflate_zlib_decompress(d, stored_bom, bom_data.length, bom, bom_data.size, &got) != LIBDEFLATE_SUCCESS ||
        got != bom_data.size)
        fail("the Bom does not inflate to its declared size");
    uint64_t paths = bom_paths(bom, got);

    uint64_t head_len = payload.length < 65536 ? payload.length : 65536;
    unsigned char *stored_head = read_at(fd, head.heap + payload.offset, head_len);
    static unsigned char plain[65536];
    z_stream z = {0};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) fail("zlib");
    z.next_in = stored_head;
    z.avail_in = (uInt)head_len;
    z.next_out = plain;
    z.avail_out = sizeof plain;
    int r = Z_OK;
    while (r == Z_OK && !memmem(plain, sizeof plain - z.avail_out, "ContentInfo.plist", 17)) r = inflate(&z, Z_SYNC_FLUSH);
    if (!memmem(plain, sizeof plain - z.avail_out, "ContentInfo.plist", 17)) fail("no ContentInfo.plist at the Payload's head");
    inflateEnd(&z);
    printf("%llu entries\n", (unsigned long long)(paths - 1));
    return 0;
}
