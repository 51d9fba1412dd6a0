/* The fetch floor: the files of a published version over loopback HTTP, written and flushed.
 *
 *   fetch HOST PORT LIST DEST [CONNECTIONS]
 *
 * LIST holds one URL path a line (/PRODUCT/VERSION/Contents/...), its file's path under DEST
 * after a tab. CONNECTIONS (default 8, as `curl -Z --parallel-max 8`) threads each keep one
 * HTTP/1.1 connection to HOST:PORT open (a new one when the server ends it with `Connection:
 * close`, as nginx does after 1,000 answers) and take the next path from a shared counter: one GET
 * (written with one send), the answer's head read and its Content-Length taken, the body read
 * with recv(2) into a 256 KiB buffer and written with write(2) to the file, created with
 * openat(O_CREAT|O_EXCL, 0644) under DEST (its folders made as they are first needed). A file
 * of 1 MiB or more gets its writeback started as it grows (sync_file_range), so the disk works
 * while the rest arrives. Last, one syncfs(2) on DEST: the durability curl's files then get from
 * `sync -f`, and iapkg fetch gives before it installs.
 *
 * Why this is the floor: per file one request, the bytes received once and written once, 3
 * system calls (open, write, close) beyond the socket's; no TLS, no proxy, no redirect, no
 * parsing beyond Content-Length.
 *
 * What it leaves out: everything fetch does around the bytes: current.json and manifest.json,
 * the manifest's checks, the SHA-256 of every file, part files and their renames into a staging
 * folder, the folder lock, the install (one rename, one link swap) and the progress report.
 *
 * Correctness (Benchmarks/floor_runs.py): DEST holds every listed file, byte for byte the
 * server's.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *host;
static int port, dest;
static char **paths, **names;
static size_t count;
static size_t next_index;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *what, const char *detail) {
    fprintf(stderr, "fetch floor: %s %s: %s\n", what, detail ? detail : "", strerror(errno));
    exit(2);
}

static int connect_to_server(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) die("socket", NULL);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) die("address", host);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) die("connect", host);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* Creates the folders above `name` (relative to DEST), each at most once a thread in a row. */
static void make_parents(const char *name, char *last) {
    const char *slash = strrchr(name, '/');
    if (!slash) return;
    size_t n = (size_t)(slash - name);
    if (strlen(last) == n && strncmp(last, name, n) == 0) return;
    char path[4096];
    memcpy(path, name, n);
    path[n] = 0;
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdirat(dest, path, 0755) != 0 && errno != EEXIST) die("mkdir", path);
        *p = '/';
    }
    if (mkdirat(dest, path, 0755) != 0 && errno != EEXIST) die("mkdir", path);
    memcpy(last, path, n + 1);
}

static void write_all(int fd, const char *p, size_t n, const char *name) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) die("write", name);
        p += w;
        n -= (size_t)w;
    }
}

static void *worker(void *unused) {
    (void)unused;
    size_t size = 256 * 1024;
    char *buffer = malloc(size), request[4608], last[4096] = "";
    int socket_fd = connect_to_server();
    size_t have = 0; /* bytes of the next answer already in buffer */
    for (;;) {
        pthread_mutex_lock(&lock);
        size_t index = next_index++;
        pthread_mutex_unlock(&lock);
        if (index >= count) break;
        int length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n", paths[index],
                              host, port);
        if (send(socket_fd, request, (size_t)length, MSG_NOSIGNAL) != length) die("send", paths[index]);
        char *end = NULL;
        while (!(end = memmem(buffer, have, "\r\n\r\n", 4))) {
            ssize_t n = recv(socket_fd, buffer + have, size - have, 0);
            if (n <= 0) die("recv head", paths[index]);
            have += (size_t)n;
        }
        if (strncmp(buffer, "HTTP/1.1 200", 12) != 0) {
            errno = EPROTO;
            die("status", paths[index]);
        }
        *end = 0;
        char *field = strcasestr(buffer, "\r\nContent-Length:");
        if (!field) {
            errno = EPROTO;
            die("no Content-Length", paths[index]);
        }
        unsigned long long body = strtoull(field + 17, NULL, 10), written = 0, started = 0;
        /* nginx ends a connection after keepalive_requests answers (1,000), saying so in the last. */
        int closing = strcasestr(buffer, "\r\nConnection: close") != NULL;
        size_t head = (size_t)(end + 4 - buffer);
        make_parents(names[index], last);
        int file = openat(dest, names[index], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (file < 0) die("create", names[index]);
        size_t first = have - head < body ? have - head : (size_t)body;
        write_all(file, buffer + head, first, names[index]);
        written = first;
        have -= head + first;
        memmove(buffer, buffer + head + first, have);
        while (written < body) {
            size_t want = body - written < size ? (size_t)(body - written) : size;
            ssize_t n = recv(socket_fd, buffer, want, 0);
            if (n <= 0) die("recv body", paths[index]);
            write_all(file, buffer, (size_t)n, names[index]);
            written += (unsigned long long)n;
            if (written - started >= (1 << 20)) {
                sync_file_range(file, (off_t)started, (off_t)(written - started), SYNC_FILE_RANGE_WRITE);
                started = written;
            }
        }
        close(file);
        if (closing) {
            close(socket_fd);
            socket_fd = connect_to_server();
            have = 0;
        }
    }
    close(socket_fd);
    free(buffer);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: fetch HOST PORT LIST DEST [CONNECTIONS]\n");
        return 64;
    }
    host = argv[1];
    port = atoi(argv[2]);
    int connections = argc > 5 ? atoi(argv[5]) : 8;
    FILE *list = fopen(argv[3], "r");
    if (!list) die("open", argv[3]);
    size_t capacity = 1024;
    paths = malloc(capacity * sizeof *paths);
    names = malloc(capacity * sizeof *names);
    char *line = NULL;
    size_t line_size = 0;
    ssize_t n;
    while ((n = getline(&line, &line_size, list)) > 0) {
        if (line[n - 1] == '\n') line[n - 1] = 0;
        char *tab = strchr(line, '\t');
        if (!tab) continue;
        *tab = 0;
        if (count == capacity) {
            capacity *= 2;
            paths = realloc(paths, capacity * sizeof *paths);
            names = realloc(names, capacity * sizeof *names);
        }
        paths[count] = strdup(line);
        names[count] = strdup(tab + 1);
        count++;
    }
    fclose(list);
    dest = open(argv[4], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dest < 0) die("open", argv[4]);
    if (connections < 1) connections = 1;
    if ((size_t)connections > count) connections = count ? (int)count : 1;
    pthread_t threads[64];
    for (int i = 0; i < connections && i < 64; i++) pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < connections && i < 64; i++) pthread_join(threads[i], NULL);
    if (syncfs(dest) != 0) die("syncfs", argv[4]);
    return 0;
}
