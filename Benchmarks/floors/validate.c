/* The validate floor: the digests and the inflation iapkg's rules require of a package, nothing else.
 *
 *   validate PKG
 *
 * It maps PKG (MAP_POPULATE: a warm page cache, as in the benchmark), inflates the TOC (libdeflate)
 * and then, on two threads, as iapkg's validate splits the work:
 *   - digests: the SHA-1 (OpenSSL libcrypto, as iapkg) of the compressed TOC, compared with the
 *     one at the heap offset the TOC gives; for every <data>, the SHA-1 of its stored bytes
 *     (archived-checksum) and, for a zlib'd one (the Bom, PackageInfo, Distribution), the inflation
 *     and the SHA-1 of the decoded bytes (extracted-checksum). A stored entry's extracted checksum
 *     is the same digest of the same bytes; iapkg computes it once too (XarDataStream);
 *   - inflation: every gzip member of the Payload (a stored entry whose bytes start 1f 8b; a tree
 *     package has none),
 *     libdeflate checking each member's CRC-32 and length, the decoded cpio discarded.
 * The rules require exactly these: both checksums of every data entry, the TOC's digest, and the
 * Payload decoded to the end, since its content is judged by its decoded bytes (FORMAT.md §6).
 *
 * Why this is the floor: each byte is hashed once and inflated once with the libraries iapkg
 * uses, with no copy out of the page cache, on both cores (on two cores, the two halves of the
 * work run side by side; the slower one is the floor's time).
 *
 * What it leaves out: parsing the cpio stream and the Bom and comparing them, the content rules
 * (names, code sniffing of each file's first bytes, links, sizes), ContentInfo.plist, the report.
 *
 * Correctness: it exits 1 unless every digest equals the TOC's and every member inflates; it
 * prints how many digests it compared (Benchmarks/floors.py checks that count).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xar.h"

static const unsigned char *map;
static size_t map_size;
static struct xar_head head;
static struct xar_data *entries;
static size_t entry_count;
static const unsigned char *toc_digest_at;
static int compared;
static unsigned long long payload_out, members;

static void sha1(const void *p, size_t n, unsigned char out[20]) {
    unsigned int len = 20;
    if (!EVP_Digest(p, n, out, &len, EVP_sha1(), NULL)) fail("SHA-1 failed");
}

static const unsigned char *stored(const struct xar_data *e) {
    if (head.heap + e->offset + e->length > map_size) fail("a data range lies outside the file");
    return map + head.heap + e->offset;
}

static void *digests(void *unused) {
    (void)unused;
    unsigned char digest[20];
    sha1(map + head.header_size, head.toc_stored, digest);
    if (memcmp(digest, toc_digest_at, 20)) fail("the TOC's digest differs from the heap's");
    compared++;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    for (size_t i = 0; i < entry_count; i++) {
        struct xar_data *e = &entries[i];
        sha1(stored(e), e->length, digest);
        if (memcmp(digest, e->archived, 20)) fail("an archived-checksum differs");
        compared++;
        if (e->zlib) {
            unsigned char *out = malloc(e->size ? e->size : 1);
            size_t got = 0;
            if (!out || libdeflate_zlib_decompress(d, stored(e), e->length, out, e->size, &got) != LIBDEFLATE_SUCCESS ||
                got != e->size)
                fail("a zlib entry does not inflate to its declared size");
            sha1(out, got, digest);
            free(out);
        } else if (e->size != e->length) {
            fail("a stored entry's size differs from its length");
        }
        if (memcmp(digest, e->extracted, 20)) fail("an extracted-checksum differs");
        compared++;
    }
    libdeflate_free_decompressor(d);
    return NULL;
}

static void *inflate_payloads(void *unused) {
    (void)unused;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    size_t room = (1u << 20) + 4096;
    unsigned char *out = malloc(room);
    for (size_t i = 0; i < entry_count; i++) {
        const struct xar_data *e = &entries[i];
        const unsigned char *p = stored(e);
        if (e->zlib || e->length < 2 || p[0] != 0x1f || p[1] != 0x8b) continue;
        size_t left = e->length;
        while (left > 0) {
            size_t in = 0, got = 0;
            enum libdeflate_result r = libdeflate_gzip_decompress_ex(d, p, left, out, room, &in, &got);
            if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
                out = realloc(out, room *= 2);
                if (!out) fail("out of memory");
                continue;
            }
            if (r != LIBDEFLATE_SUCCESS) fail("a Payload member does not inflate (or its CRC-32 differs)");
            p += in;
            left -= in;
            payload_out += got;
            members++;
        }
    }
    free(out);
    libdeflate_free_decompressor(d);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: validate PKG\n");
        return 64;
    }
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) fail("cannot open the package");
    map_size = (size_t)st.st_size;
    map = mmap(NULL, map_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (map == MAP_FAILED || map_size < 28) fail("cannot map the package");
    head = xar_head(map);
    if (head.heap > map_size) fail("the TOC lies outside the file");
    char *toc = xar_toc(map + head.header_size, head.toc_stored, head.toc_size);
    const char *checksum = strstr(toc, "<checksum style=\"sha1\">");
    const char *at = checksum ? strstr(checksum, "<offset>") : NULL;
    if (!at) fail("the TOC has no SHA-1 <checksum>");
    toc_digest_at = map + head.heap + strtoull(at + 8, NULL, 10);
    size_t room = 16;
    entries = malloc(room * sizeof *entries);
    for (const char *cursor = toc; entries;) {
        if (entry_count == room) entries = realloc(entries, (room *= 2) * sizeof *entries);
        if (!entries || !xar_next_data(&cursor, &entries[entry_count])) break;
        entry_count++;
    }
    if (!entries) fail("out of memory");
    pthread_t other;
    pthread_create(&other, NULL, inflate_payloads, NULL);
    digests(NULL);
    pthread_join(other, NULL);
    printf("%d digests equal the TOC's; %zu data entries; Payload: %llu gzip members, %llu bytes inflated\n", compared,
           entry_count, members, payload_out);
    return 0;
}
