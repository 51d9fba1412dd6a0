#pragma once
#include <stddef.h>
#include <sys/types.h>

/// copy_file_range(2), which glibc declares only under _GNU_SOURCE.
ssize_t iap_copy_file_range(int fd_in, long long *off_in, int fd_out, long long *off_out, size_t len);
