#define _GNU_SOURCE
#include <unistd.h>
#include "cshims.h"

ssize_t iap_copy_file_range(int fd_in, long long *off_in, int fd_out, long long *off_out, size_t len) {
    off_t in = off_in ? (off_t)*off_in : 0;
    ssize_t n = copy_file_range(fd_in, off_in ? &in : NULL, fd_out, NULL, len, 0);
    if (off_in) *off_in = (long long)in;
    (void)off_out;
    return n;
}

#include <stdio.h>
#include <fcntl.h>

int iap_rename_exchange(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return renameat2(olddirfd, oldpath, newdirfd, newpath, RENAME_EXCHANGE);
}

int iap_syncfs(int fd) {
    return syncfs(fd);
}

int iap_start_writeback(int fd) {
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

int iap_open_unnamed(const char *dir, unsigned int mode) {
    return open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, (mode_t)mode);
}

int iap_link_unnamed(int fd, const char *path) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}
