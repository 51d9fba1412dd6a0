#pragma once
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// copy_file_range(2), which glibc declares only under _GNU_SOURCE.
ssize_t iap_copy_file_range(int fd_in, long long *off_in, int fd_out, long long *off_out, size_t len);

/// renameat2(2) with RENAME_EXCHANGE: swaps two paths atomically.
int iap_rename_exchange(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);

/// syncfs(2): flushes the whole file system that holds `fd`.
int iap_syncfs(int fd);

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: start writing a file's dirty pages out, now.
int iap_start_writeback(int fd);

/// open(2) with O_TMPFILE: an unnamed file in `dir` that vanishes with its descriptor unless linked.
int iap_open_unnamed(const char *dir, unsigned int mode);

/// linkat(2) through /proc/self/fd: gives the unnamed file `fd` the name `path` (which must not exist).
int iap_link_unnamed(int fd, const char *path);

/// renameat2(2) with RENAME_NOREPLACE: renames only if nothing is at `newpath` (EEXIST otherwise).
int iap_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);

/// pipe2(2) with O_CLOEXEC: a pipe whose ends no program started meanwhile inherits.
int iap_pipe_cloexec(int fds[2]);

/// Installs SIGTERM and SIGINT handlers that write one byte to `fd` (a self-pipe) and nothing else,
/// and unblocks both in the calling thread.
int iap_install_stop_pipe(int fd);

/// Heap bytes in use, over every malloc arena (mallinfo2: uordblks + hblkhd).
size_t iap_heap_bytes_in_use(void);

/// mallopt(M_MMAP_THRESHOLD, bytes): blocks of at least `bytes` always come from their own mapping
/// (given back on free), and glibc stops raising the threshold by itself. Returns 1 on success.
int iap_set_mmap_threshold(size_t bytes);

/// malloc_trim(0): gives the system back every whole free page of every arena. Returns 1 if any was.
int iap_release_free_heap(void);

/// Advances the POSIX cksum(1) CRC state `crc` (polynomial 0x04C11DB7, MSB first, no inversion)
/// over `count` bytes: PCLMULQDQ folding where the processor has it, a byte table otherwise.
uint32_t iap_cksum_crc_update(uint32_t crc, const void *bytes, size_t count);

/// The same as `iap_cksum_crc_update` by the byte table only, for tests that hold the two together.
uint32_t iap_cksum_crc_update_portable(uint32_t crc, const void *bytes, size_t count);

/// Whether the folder open as `fd` has a default ACL (which new entries inherit in place of the
/// umask): 1 yes, 0 no (none, or the file system has no ACLs), -1 it cannot tell.
int iap_has_default_acl(int fd);

/// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS: opens `path`
/// (several components) below `dirfd`, refusing any symlink on the way, "..", or an absolute path.
/// -1 with ENOSYS where the kernel (before 5.6) or a filter has no openat2.
int iap_openat2_beneath(int dirfd, const char *path, int flags, unsigned int mode);
