/* Just enough of xar for the validate and inspect floors: the 28-byte header, the zlib'd TOC
 * (inflated with libdeflate into a NUL-terminated string) and each <file>'s <data> element.
 * It trusts the package (iapkg built it); iapkg's own reader checks every field. */
#ifndef FLOOR_XAR_H
#define FLOOR_XAR_H

#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t be(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

static void fail(const char *what) {
    fprintf(stderr, "floor: %s\n", what);
    exit(1);
}

/* The header's fields: where the TOC and the heap are. */
struct xar_head {
    uint64_t header_size, toc_stored, toc_size, heap;
};

static struct xar_head xar_head(const unsigned char *p) {
    if (memcmp(p, "xar!", 4)) fail("not a xar archive");
    struct xar_head h = {be(p + 4, 2), be(p + 8, 8), be(p + 16, 8), 0};
    h.heap = h.header_size + h.toc_stored;
    return h;
}

/* The TOC's text, inflated from its `stored` zlib bytes to exactly `size` bytes. */
static char *xar_toc(const unsigned char *stored, uint64_t stored_len, uint64_t size) {
    char *toc = malloc(size + 1);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    size_t got = 0;
    if (!toc || !d || libdeflate_zlib_decompress(d, stored, stored_len, toc, size, &got) != LIBDEFLATE_SUCCESS ||
        got != size)
        fail("the TOC does not inflate to its declared size");
    libdeflate_free_decompressor(d);
    toc[size] = 0;
    return toc;
}

/* One <data> element and the <name> of the <file> holding it. */
struct xar_data {
    char name[256];
    uint64_t offset, length, size;
    int zlib;
    unsigned char archived[20], extracted[20];
};

/* The text between <tag> and the next '<' after `from`, before `end`, or NULL. */
static const char *field(const char *from, const char *end, const char *tag) {
    const char *p = strstr(from, tag);
    return p && p < end ? p + strlen(tag) : NULL;
}

static void hex20(const char *p, unsigned char *out) {
    for (int i = 0; i < 20; i++) {
        unsigned v;
        if (!p || sscanf(p + 2 * i, "%2x", &v) != 1) fail("a checksum is not 40 hex digits");
        out[i] = (unsigned char)v;
    }
}

/* The next <data> at or after `*cursor`, its file's name being the last <name> before it. */
static int xar_next_data(const char **cursor, struct xar_data *out) {
    const char *d = strstr(*cursor, "<data>");
    if (!d) return 0;
    const char *end = strstr(d, "</data>");
    if (!end) fail("a <data> element is not closed");
    const char *name = NULL;
    for (const char *n = *cursor; (n = strstr(n, "<name")) && n < d; n++) name = n;
    memset(out, 0, sizeof *out);
    if (name) {
        name = strchr(name, '>') + 1;
        size_t len = strcspn(name, "<");
        if (len >= sizeof out->name) len = sizeof out->name - 1;
        memcpy(out->name, name, len);
    }
    const char *offset = field(d, end, "<offset>"), *length = field(d, end, "<length>"), *size = field(d, end, "<size>");
    if (!offset || !length || !size) fail("a <data> element lacks its offset, length or size");
    out->offset = strtoull(offset, NULL, 10);
    out->length = strtoull(length, NULL, 10);
    out->size = strtoull(size, NULL, 10);
    const char *style = field(d, end, "<encoding style=\"");
    out->zlib = style && !strncmp(style, "application/x-gzip", 18);
    const char *archived = field(d, end, "<archived-checksum style=\"sha1\">");
    const char *extracted = field(d, end, "<extracted-checksum style=\"sha1\">");
    if (!extracted) extracted = field(d, end, "<unarchived-checksum style=\"sha1\">");
    hex20(archived, out->archived);
    hex20(extracted, out->extracted);
    *cursor = end;
    return 1;
}

#endif
