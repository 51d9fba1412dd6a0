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

int iap_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return renameat2(olddirfd, oldpath, newdirfd, newpath, RENAME_NOREPLACE);
}

#include <signal.h>
#include <pthread.h>
#include <errno.h>
#include <string.h>

static volatile int iap_stop_fd = -1;

static void iap_stop_handler(int signo) {
    int saved = errno;
    unsigned char byte = (unsigned char)signo;
    if (iap_stop_fd >= 0) { ssize_t ignored = write(iap_stop_fd, &byte, 1); (void)ignored; }
    errno = saved;
}

int iap_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int iap_install_stop_pipe(int fd) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = iap_stop_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    iap_stop_fd = fd;
    if (sigaction(SIGTERM, &action, NULL) != 0) return -1;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    /* A parent may have left them blocked (Foundation's Process does): unblock in this thread,
       and threads started later inherit it. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

#include <malloc.h>

size_t iap_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

int iap_set_mmap_threshold(size_t bytes) {
    return mallopt(M_MMAP_THRESHOLD, (int)bytes);
}

int iap_release_free_heap(void) {
    return malloc_trim(0);
}

#include <sys/xattr.h>

int iap_has_default_acl(int fd) {
    if (fgetxattr(fd, "system.posix_acl_default", NULL, 0) >= 0) return 1;
    return (errno == ENODATA || errno == EOPNOTSUPP) ? 0 : -1;
}

#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define IAP_HAS_OPENAT2_H 1
#endif
#endif
#include <sys/syscall.h>

int iap_openat2_beneath(int dirfd, const char *path, int flags, unsigned int mode) {
#if defined(SYS_openat2) && defined(IAP_HAS_OPENAT2_H)
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(unsigned int)flags;
    how.mode = ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
    (void)dirfd; (void)path; (void)flags; (void)mode;
    errno = ENOSYS;
    return -1;
#endif
}
