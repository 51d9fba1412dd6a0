/* The corpus folder as iapkg's build scans it: root first, each folder before its subtree, names
 * in byte order (strcmp compares unsigned bytes). Shared by the build and unpack floors.
 * Regular files, folders and symlinks; anything else stops the program (the corpora have none). */
#ifndef FLOOR_TREE_H
#define FLOOR_TREE_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KIND_DIR = 1, KIND_FILE = 2, KIND_LINK = 3 };

/* One entry below the root: its path relative to the root ("Contents/a/b"), kind, size, mode. */
struct entry {
    char *path;
    int kind;
    unsigned long long size;
    unsigned mode;
};

struct tree {
    struct entry *items;
    size_t count, room;
};

static void die(const char *what, const char *path) {
    fprintf(stderr, "floor: %s %s: ", what, path ? path : "");
    perror(NULL);
    exit(2);
}

static void *must(void *pointer) {
    if (!pointer) die("out of memory", NULL);
    return pointer;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void tree_add(struct tree *t, char *path, int kind, unsigned long long size, unsigned mode) {
    if (t->count == t->room) {
        t->room = t->room ? t->room * 2 : 1024;
        t->items = must(realloc(t->items, t->room * sizeof *t->items));
    }
    t->items[t->count++] = (struct entry){path, kind, size, mode};
}

/* Appends the entries under `fd` (the folder at `prefix`, "" for the root) depth first. */
static void tree_walk(struct tree *t, int fd, const char *prefix) {
    DIR *dir = fdopendir(fd);
    if (!dir) die("opendir", prefix);
    size_t n = 0, room = 64;
    char **names = must(malloc(room * sizeof *names));
    struct dirent *d;
    while ((d = readdir(dir))) {
        if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..")) continue;
        if (n == room) names = must(realloc(names, (room *= 2) * sizeof *names));
        names[n++] = must(strdup(d->d_name));
    }
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (fstatat(dirfd(dir), names[i], &st, AT_SYMLINK_NOFOLLOW)) die("stat", names[i]);
        size_t len = strlen(prefix) + strlen(names[i]) + 2;
        char *path = must(malloc(len));
        snprintf(path, len, "%s%s%s", prefix, *prefix ? "/" : "", names[i]);
        if (S_ISDIR(st.st_mode)) {
            tree_add(t, path, KIND_DIR, 0, st.st_mode & 07777);
            int child = openat(dirfd(dir), names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0) die("open", path);
            tree_walk(t, child, path);
        } else if (S_ISREG(st.st_mode)) {
            tree_add(t, path, KIND_FILE, (unsigned long long)st.st_size, st.st_mode & 07777);
        } else if (S_ISLNK(st.st_mode)) {
            tree_add(t, path, KIND_LINK, (unsigned long long)st.st_size, st.st_mode & 07777);
        } else {
            fprintf(stderr, "floor: %s is neither a file, a folder nor a symlink\n", path);
            exit(2);
        }
        free(names[i]);
    }
    free(names);
    closedir(dir);
}

/* Every entry under the folder at `root`, in iapkg's order. */
static struct tree tree_scan(const char *root) {
    struct tree t = {0};
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) die("open", root);
    tree_walk(&t, fd, "");
    return t;
}

#endif
