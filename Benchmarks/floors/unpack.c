/* The unpack floor: creating the corpus's files and folders with their bytes, and flushing them.
 *
 *   unpack --pack SRC BLOB          (untimed, once per corpus) the corpus as one file: per entry a
 *                                   kind byte, the path's length (2 bytes) and the path, for a
 *                                   file its size (8 bytes) and its bytes; in iapkg's order (tree.h)
 *   unpack BLOB DEST [THREADS]      (timed) DEST must be an empty folder; THREADS defaults to the
 *                                   online cores
 *
 * The timed run maps BLOB (MAP_POPULATE: it is in the page cache, as the decoded Payload is in
 * memory when iapkg writes it), makes every folder with one mkdirat(2) relative to DEST's
 * descriptor (the folders of one depth split over the threads, depth by depth), then writes every
 * file with openat(O_CREAT|O_EXCL|O_NOFOLLOW, 0644), one write(2) and close(2), the files split
 * over the threads in contiguous ranges; a file of 1 MiB or more gets its writeback started at
 * once (sync_file_range, as iapkg's writer does) so the disk works while the rest is written.
 * Last, one syncfs(2) on DEST flushes it all: the durability iapkg's unpack gives before the
 * rename that makes a version visible. Symlinks (none in the corpora) are made with symlinkat.
 *
 * Why this is the floor: 1 system call per folder, 3 per file, 1 flush; no reads, no copies, no
 * descriptor per folder, modes as iapkg sets them (0644 files, 0755 folders), both cores busy.
 *
 * What it leaves out: everything iapkg's unpack does before writing (the whole validation, whose
 * floor is the validate floor; inflating the Payload), the delivery manifest's SHA-256 of every
 * file, the version store's lock, staging folder, rename and `current` link.
 *
 * Correctness (Benchmarks/floors.py): DEST holds exactly the corpus's folders and files, byte
 * for byte.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

#include "tree.h"

static void write_all(int fd, const unsigned char *p, size_t n, const char *path) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) die("write", path);
        p += w;
        n -= (size_t)w;
    }
}

static int pack(const char *src, const char *blob) {
    struct tree t = tree_scan(src);
    int root = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int out = open(blob, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (root < 0 || out < 0) die("open", root < 0 ? src : blob);
    size_t room = 1 << 20;
    unsigned char *buffer = must(malloc(room));
    for (size_t i = 0; i < t.count; i++) {
        struct entry *e = &t.items[i];
        uint16_t len = (uint16_t)strlen(e->path);
        unsigned char kind = (unsigned char)e->kind;
        write_all(out, &kind, 1, blob);
        write_all(out, (unsigned char *)&len, 2, blob);
        write_all(out, (unsigned char *)e->path, len, blob);
        if (e->kind == KIND_DIR) continue;
        unsigned long long size = e->size;
        if (e->kind == KIND_LINK) {
            char target[4097];
            ssize_t n = readlinkat(root, e->path, target, sizeof target - 1);
            if (n < 0) die("readlink", e->path);
            size = (unsigned long long)n;
            write_all(out, (unsigned char *)&size, 8, blob);
            write_all(out, (unsigned char *)target, (size_t)n, blob);
            continue;
        }
        write_all(out, (unsigned char *)&size, 8, blob);
        int fd = openat(root, e->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) die("open", e->path);
        for (;;) {
            ssize_t r = read(fd, buffer, room);
            if (r < 0) die("read", e->path);
            if (r == 0) break;
            write_all(out, buffer, (size_t)r, blob);
        }
        close(fd);
    }
    if (fsync(out) || close(out)) die("write", blob);
    printf("%zu entries packed\n", t.count);
    return 0;
}

/* One entry of the mapped blob. */
struct item {
    char path[1025];
    int kind, depth;
    const unsigned char *bytes;
    size_t size;
};

static struct item *items;
static size_t item_count, *dirs, dir_count, *files, file_count;
static int dest_fd;
static long thread_count;
static pthread_barrier_t barrier;

static void make_entry(struct item *it) {
    if (it->kind == KIND_DIR) {
        if (mkdirat(dest_fd, it->path, 0755)) die("mkdir", it->path);
    } else if (it->kind == KIND_LINK) {
        char target[4097];
        memcpy(target, it->bytes, it->size);
        target[it->size] = 0;
        if (symlinkat(target, dest_fd, it->path)) die("symlink", it->path);
    } else {
        int fd = openat(dest_fd, it->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) die("create", it->path);
        write_all(fd, it->bytes, it->size, it->path);
        if (it->size >= (1u << 20)) sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
        if (close(fd)) die("close", it->path);
    }
}

static void *worker(void *arg) {
    long me = (long)arg;
    /* Folders depth by depth (a folder's parent exists before it), each depth split over the threads. */
    size_t start = 0;
    while (start < dir_count) {
        size_t end = start;
        while (end < dir_count && items[dirs[end]].depth == items[dirs[start]].depth) end++;
        size_t n = end - start;
        for (size_t i = start + n * (size_t)me / (size_t)thread_count;
             i < start + n * (size_t)(me + 1) / (size_t)thread_count; i++)
            make_entry(&items[dirs[i]]);
        pthread_barrier_wait(&barrier);
        start = end;
    }
    for (size_t i = file_count * (size_t)me / (size_t)thread_count;
         i < file_count * (size_t)(me + 1) / (size_t)thread_count; i++)
        make_entry(&items[files[i]]);
    return NULL;
}

static int by_depth(const void *a, const void *b) {
    int da = items[*(const size_t *)a].depth, db = items[*(const size_t *)b].depth;
    if (da != db) return da < db ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

int main(int argc, char **argv) {
    if (argc == 4 && !strcmp(argv[1], "--pack")) return pack(argv[2], argv[3]);
    if (argc < 3) {
        fprintf(stderr, "usage: unpack --pack SRC BLOB | unpack BLOB DEST [THREADS]\n");
        return 64;
    }
    thread_count = argc > 3 ? atol(argv[3]) : sysconf(_SC_NPROCESSORS_ONLN);
    if (thread_count < 1) thread_count = 1;
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) die("open", argv[1]);
    struct stat st;
    if (fstat(fd, &st)) die("stat", argv[1]);
    const unsigned char *p = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)
                                        : NULL;
    if (p == MAP_FAILED) die("mmap", argv[1]);
    const unsigned char *end = p + st.st_size;
    size_t room = 1024;
    items = must(malloc(room * sizeof *items));
    while (p < end) {
        if (item_count == room) items = must(realloc(items, (room *= 2) * sizeof *items));
        struct item *it = &items[item_count++];
        uint16_t len;
        it->kind = *p++;
        memcpy(&len, p, 2);
        p += 2;
        if (len > 1024) die("path too long in", argv[1]);
        memcpy(it->path, p, len);
        it->path[len] = 0;
        p += len;
        it->depth = 0;
        for (uint16_t i = 0; i < len; i++) it->depth += it->path[i] == '/';
        if (it->kind != KIND_DIR) {
            unsigned long long size;
            memcpy(&size, p, 8);
            p += 8;
            it->bytes = p;
            it->size = (size_t)size;
            p += size;
        }
    }
    dirs = must(malloc((item_count + 1) * sizeof *dirs));
    files = must(malloc((item_count + 1) * sizeof *files));
    for (size_t i = 0; i < item_count; i++) {
        if (items[i].kind == KIND_DIR) dirs[dir_count++] = i;
        else if (items[i].kind == KIND_FILE) files[file_count++] = i;
    }
    qsort(dirs, dir_count, sizeof *dirs, by_depth);
    dest_fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dest_fd < 0) die("open", argv[2]);
    pthread_barrier_init(&barrier, NULL, (unsigned)thread_count);
    pthread_t *threads = must(calloc((size_t)thread_count, sizeof *threads));
    for (long i = 0; i < thread_count; i++) pthread_create(&threads[i], NULL, worker, (void *)i);
    for (long i = 0; i < thread_count; i++) pthread_join(threads[i], NULL);
    for (size_t i = 0; i < item_count; i++)  /* symlinks last, as iapkg writes them */
        if (items[i].kind == KIND_LINK) make_entry(&items[i]);
    if (syncfs(dest_fd)) die("syncfs", argv[2]);
    printf("%zu entries written\n", item_count);
    return 0;
}
