/* The build floor: what `iapkg build` cannot avoid, done with nothing else around it.
 *
 *   build SRC OUT [LEVEL [BLOCK_BYTES [WORKERS]]]    (defaults 7, 1048576, the online cores)
 *
 * It reads the corpus folder SRC in the order iapkg's build scans it (tree.h), lays it out as the
 * cpio odc stream iapkg's Payload holds ("." first, then "./path" for each entry, a header before
 * each file's bytes, the TRAILER!!! entry), cuts that stream into BLOCK_BYTES blocks and compresses
 * each into its own gzip member with libdeflate at LEVEL on WORKERS threads, as iapkg's
 * ParallelGzipEncoder does: a block whose two 40 KiB samples (start and middle) shrink by less than
 * 3% at level 1 is stored (level 0) instead. The members are written to OUT in order as they come
 * (early writeback every 8 MiB, as iapkg's writer starts it) and OUT is fsync'd before exit.
 *
 * Why this is the floor: the same bytes go through the same compressor at the same level on every
 * core, the file's bytes are read straight into the block that is compressed (no copy), and the
 * result is written once and flushed, the durability iapkg gives its package. The level, block
 * size and incompressibility probe are iapkg's, so the work per block is the same.
 *
 * What it leaves out (iapkg does it, the floor does not): the Bom (built, zlib'd) and PackageInfo
 * and Distribution, the xar TOC and its digests (SHA-1 of the Payload's stored bytes), the Bom's
 * CRC of each file, the content rules checked on the source, the temporary name and the rename.
 *
 * Correctness (Benchmarks/floors.py): OUT gunzips to a cpio stream whose names and bytes are the
 * corpus's, in this order.
 */
#define _GNU_SOURCE
#include <libdeflate.h>
#include <pthread.h>

#include "tree.h"

#define SAMPLE (40 << 10)
#define WRITEBACK_BYTES (8ull << 20)

struct slot {
    unsigned char *in, *out;
    size_t in_len, out_len;
    int done;
};

static struct slot *slots;
static size_t slot_count, block_size, out_bound;
static unsigned long long submitted, taken, written_blocks;
static int finished, level;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;

/* iapkg's BlockCompressor.looksIncompressible: two 40 KiB samples at level 1 keep >= 97%. */
static int looks_incompressible(struct libdeflate_compressor *probe, const unsigned char *in, size_t n,
                                unsigned char *scratch, size_t room) {
    if (n < 4 * SAMPLE) return 0;
    size_t starts[2] = {0, n / 2};
    for (int i = 0; i < 2; i++) {
        size_t size = libdeflate_deflate_compress(probe, in + starts[i], SAMPLE, scratch, room);
        if (size == 0 || size * 100 < (size_t)SAMPLE * 97) return 0;
    }
    return 1;
}

static void *worker(void *unused) {
    (void)unused;
    struct libdeflate_compressor *deflater = libdeflate_alloc_compressor(level);
    struct libdeflate_compressor *probe = libdeflate_alloc_compressor(1);
    struct libdeflate_compressor *store = libdeflate_alloc_compressor(0);
    size_t room = libdeflate_deflate_compress_bound(probe, SAMPLE);
    unsigned char *scratch = must(malloc(room));
    if (!deflater || !probe || !store) die("libdeflate_alloc_compressor", NULL);
    for (;;) {
        pthread_mutex_lock(&lock);
        while (taken == submitted && !finished) pthread_cond_wait(&ready, &lock);
        if (taken == submitted) {
            pthread_mutex_unlock(&lock);
            break;
        }
        struct slot *s = &slots[taken++ % slot_count];
        pthread_mutex_unlock(&lock);
        struct libdeflate_compressor *c = looks_incompressible(probe, s->in, s->in_len, scratch, room) ? store : deflater;
        s->out_len = libdeflate_gzip_compress(c, s->in, s->in_len, s->out, out_bound);
        pthread_mutex_lock(&lock);
        s->done = 1;
        pthread_cond_broadcast(&done);
        pthread_mutex_unlock(&lock);
    }
    free(scratch);
    libdeflate_free_compressor(deflater);
    libdeflate_free_compressor(probe);
    libdeflate_free_compressor(store);
    return NULL;
}

static int out_fd;
static unsigned long long out_offset, flushed_offset;
static struct slot *current;

static void write_all(int fd, const unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) die("write", NULL);
        p += w;
        n -= (size_t)w;
    }
}

/* Waits for the oldest block in flight and writes its member. */
static void drain_oldest(void) {
    struct slot *s = &slots[written_blocks % slot_count];
    pthread_mutex_lock(&lock);
    while (!s->done) pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
    if (s->out_len == 0) {
        fprintf(stderr, "floor: libdeflate could not compress a block\n");
        exit(2);
    }
    write_all(out_fd, s->out, s->out_len);
    out_offset += s->out_len;
    if (out_offset - flushed_offset >= WRITEBACK_BYTES) {
        sync_file_range(out_fd, (off_t)flushed_offset, (off_t)(out_offset - flushed_offset), SYNC_FILE_RANGE_WRITE);
        flushed_offset = out_offset;
    }
    s->done = 0;
    written_blocks++;
}

/* The slot to fill next, free once the oldest block in it was written. */
static void next_slot(void) {
    while (submitted - written_blocks >= slot_count) drain_oldest();
    current = &slots[submitted % slot_count];
    current->in_len = 0;
}

static void submit(void) {
    pthread_mutex_lock(&lock);
    submitted++;
    pthread_cond_signal(&ready);
    pthread_mutex_unlock(&lock);
    next_slot();
}

static void put(const void *bytes, size_t n) {
    const unsigned char *p = bytes;
    while (n > 0) {
        size_t take = block_size - current->in_len < n ? block_size - current->in_len : n;
        memcpy(current->in + current->in_len, p, take);
        current->in_len += take;
        p += take;
        n -= take;
        if (current->in_len == block_size) submit();
    }
}

/* A file's bytes read straight into the blocks. */
static void put_file(int root, const char *path, unsigned long long size) {
    int fd = openat(root, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) die("open", path);
    while (size > 0) {
        size_t room = block_size - current->in_len;
        size_t want = size < room ? (size_t)size : room;
        ssize_t r = read(fd, current->in + current->in_len, want);
        if (r <= 0) die("read", path);
        current->in_len += (size_t)r;
        size -= (unsigned long long)r;
        if (current->in_len == block_size) submit();
    }
    close(fd);
}

/* One cpio odc header and name (SUSv2 "070707"); inode numbers count up as iapkg's writer does. */
static void put_header(const char *name, unsigned mode, unsigned long long size, unsigned ino) {
    char header[77];
    size_t name_len = strlen(name) + 1;
    snprintf(header, sizeof header, "070707%06o%06o%06o%06o%06o%06o%06o%011llo%06o%011llo", 0u, ino & 0777777u,
             mode & 0777777u, 0u, 0u, 1u, 0u, 0ull, (unsigned)name_len, size);
    put(header, 76);
    put(name, name_len);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: build SRC OUT [LEVEL [BLOCK_BYTES [WORKERS]]]\n");
        return 64;
    }
    level = argc > 3 ? atoi(argv[3]) : 7;
    block_size = argc > 4 ? (size_t)atol(argv[4]) : (1u << 20);
    long workers = argc > 5 ? atol(argv[5]) : sysconf(_SC_NPROCESSORS_ONLN);
    if (workers < 1) workers = 1;
    struct tree t = tree_scan(argv[1]);
    int root = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) die("open", argv[1]);
    out_fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0) die("create", argv[2]);

    struct libdeflate_compressor *sizer = libdeflate_alloc_compressor(level);
    if (!sizer) die("libdeflate_alloc_compressor", NULL);
    out_bound = libdeflate_gzip_compress_bound(sizer, block_size);
    libdeflate_free_compressor(sizer);
    slot_count = (size_t)workers * 2;
    slots = must(calloc(slot_count, sizeof *slots));
    for (size_t i = 0; i < slot_count; i++) {
        slots[i].in = must(malloc(block_size));
        slots[i].out = must(malloc(out_bound));
    }
    pthread_t *threads = must(calloc((size_t)workers, sizeof *threads));
    for (long i = 0; i < workers; i++) pthread_create(&threads[i], NULL, worker, NULL);
    next_slot();

    put_header(".", 040755, 0, 1);
    char name[4200];
    for (size_t i = 0; i < t.count; i++) {
        struct entry *e = &t.items[i];
        snprintf(name, sizeof name, "./%s", e->path);
        if (e->kind == KIND_DIR) {
            put_header(name, 040000 | (e->mode & 0777), 0, (unsigned)i + 2);
        } else if (e->kind == KIND_FILE) {
            put_header(name, 0100000 | (e->mode & 0777), e->size, (unsigned)i + 2);
            put_file(root, e->path, e->size);
        } else {
            char target[4097];
            ssize_t n = readlinkat(root, e->path, target, sizeof target - 1);
            if (n < 0) die("readlink", e->path);
            put_header(name, 0120755, (unsigned long long)n, (unsigned)i + 2);
            put(target, (size_t)n);
        }
    }
    put_header("TRAILER!!!", 0, 0, 0);
    if (current->in_len > 0) submit();
    pthread_mutex_lock(&lock);
    finished = 1;
    pthread_cond_broadcast(&ready);
    pthread_mutex_unlock(&lock);
    while (written_blocks < submitted) drain_oldest();
    for (long i = 0; i < workers; i++) pthread_join(threads[i], NULL);
    if (fsync(out_fd)) die("fsync", argv[2]);
    if (close(out_fd)) die("close", argv[2]);
    printf("%zu entries, %llu bytes out\n", t.count + 1, out_offset);
    return 0;
}
