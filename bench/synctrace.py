"""Watch, from outside, every write and sync a process makes to one SQLite database.

The crash bench (``bench/crash.py``) uses it to prove durability: an acknowledged input must have
been synced to the log *before* the acknowledgement. A SIGKILL cannot show that (the kernel
keeps a killed process's unsynced writes, so a log with ``synchronous=OFF`` survives every kill;
only a power cut loses them), and nothing in Python can see it either: SQLite syncs from C
(``unixSync`` calls ``fdatasync``), below ``sys.addaudithook`` or a patched ``os.fsync``.

So a small ``LD_PRELOAD`` shim, compiled with the system C compiler when first needed, wraps the
libc calls SQLite's unix VFS writes and syncs with (``write``, ``pwrite``, ``pwrite64``,
``writev``, ``pwritev``, ``fsync``, ``fdatasync``). For the database named in
``HEAT_SYNC_TRACE_DB`` (a resolved path) and its ``-wal`` and ``-journal`` files, it writes one
line per completed call to the descriptor ``HEAT_SYNC_TRACE_FD``: ``~W wal`` after a write,
``~S wal`` after a sync that succeeded. A child that prints its acknowledgements to that same
descriptor (a pipe) yields one stream in the order the calls happened; :class:`SyncCheck` reads
it. (``strace`` would see the same calls, but is seldom installed and stops the process at
every system call.)

Not covered: the sync of the directory entry of a newly created file, and whether the disk
honours a sync (that takes pulling the plug on real hardware).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

TRACE_PREFIX = "~"

SHIM_SOURCE = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define REAL(name) \
    static __typeof__(&name) real_##name; \
    if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

static char db[4096];
static size_t db_len;
static int trace_fd = -1;
static int configured;

static void configure(void) {
    const char *fd = getenv("HEAT_SYNC_TRACE_FD");
    const char *path = getenv("HEAT_SYNC_TRACE_DB");
    configured = 1;
    if (fd && path && strlen(path) < sizeof db) {
        strcpy(db, path);
        db_len = strlen(db);
        trace_fd = atoi(fd);
    }
}

/* "db", "wal", "journal", or NULL when fd is none of the traced files. */
static const char *kind(int fd) {
    char link[40], path[4200];
    ssize_t n;
    if (!configured) configure();
    if (trace_fd < 0 || fd == trace_fd) return NULL;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof path - 1);
    if (n < (ssize_t)db_len || memcmp(path, db, db_len) != 0) return NULL;
    path[n] = 0;
    if (path[db_len] == 0) return "db";
    if (strcmp(path + db_len, "-wal") == 0) return "wal";
    if (strcmp(path + db_len, "-journal") == 0) return "journal";
    return NULL;
}

static void note(char op, const char *what) {
    char line[24];
    int saved = errno, n = snprintf(line, sizeof line, "~%c %s\n", op, what);
    REAL(write);
    real_write(trace_fd, line, (size_t)n);
    errno = saved;
}

ssize_t write(int fd, const void *buf, size_t count) {
    REAL(write);
    const char *what = kind(fd);
    ssize_t done = real_write(fd, buf, count);
    if (what && done > 0) note('W', what);
    return done;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    REAL(pwrite);
    const char *what = kind(fd);
    ssize_t done = real_pwrite(fd, buf, count, offset);
    if (what && done > 0) note('W', what);
    return done;
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
    REAL(pwrite64);
    const char *what = kind(fd);
    ssize_t done = real_pwrite64(fd, buf, count, offset);
    if (what && done > 0) note('W', what);
    return done;
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
    REAL(writev);
    const char *what = kind(fd);
    ssize_t done = real_writev(fd, iov, iovcnt);
    if (what && done > 0) note('W', what);
    return done;
}

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset) {
    REAL(pwritev);
    const char *what = kind(fd);
    ssize_t done = real_pwritev(fd, iov, iovcnt, offset);
    if (what && done > 0) note('W', what);
    return done;
}

int fsync(int fd) {
    REAL(fsync);
    const char *what = kind(fd);
    int failed = real_fsync(fd);
    if (what && !failed) note('S', what);
    return failed;
}

int fdatasync(int fd) {
    REAL(fdatasync);
    const char *what = kind(fd);
    int failed = real_fdatasync(fd);
    if (what && !failed) note('S', what);
    return failed;
}
"""


class TracerUnavailable(RuntimeError):
    """No C compiler to build the shim with."""


def build(folder: Path) -> Path:
    """Compile the shim into ``folder``; returns the shared library's path."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not compiler:
        raise TracerUnavailable(
            "the durability check needs a C compiler to build its LD_PRELOAD shim "
            "(Debian: sudo apt-get install gcc)")
    source, library = folder / "synctrace.c", folder / "synctrace.so"
    source.write_text(SHIM_SOURCE, encoding="ascii")
    result = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", str(library),
         str(source), "-ldl"],
        capture_output=True, text=True, check=False, timeout=120)
    if result.returncode != 0:
        raise TracerUnavailable(f"building the sync tracer failed:\n{result.stderr}")
    return library


def environment(library: Path, database: Path, fd: int = 1) -> dict[str, str]:
    """Variables that make a child process trace ``database`` to its descriptor ``fd``."""
    preload = " ".join(filter(None, [str(library), os.environ.get("LD_PRELOAD", "")]))
    return {
        "LD_PRELOAD": preload,
        "HEAT_SYNC_TRACE_DB": os.path.realpath(database),
        "HEAT_SYNC_TRACE_FD": str(fd),
    }


@dataclass
class SyncCheck:
    """Reads the child's stream line by line: trace lines, and its acknowledgements.

    An acknowledgement is durable when every write to the database, its WAL or journal before it
    was followed by a sync of that file. It must also follow at least one write to the log since
    the previous acknowledgement (one transaction each): a tracer that saw no writes would
    otherwise vouch for anything.
    """

    unsynced: set[str] = field(default_factory=set)
    writes: int = 0
    syncs: int = 0
    acknowledgements: int = 0
    violations: list[str] = field(default_factory=list)
    _writes_since_ack: int = 0

    def trace(self, line: str) -> bool:
        """Takes a trace line (True), or leaves any other line to the caller (False)."""
        if not line.startswith(TRACE_PREFIX):
            return False
        op, _, what = line[len(TRACE_PREFIX):].partition(" ")
        if op == "W":
            self.writes += 1
            self._writes_since_ack += 1
            self.unsynced.add(what)
        elif op == "S":
            self.syncs += 1
            self.unsynced.discard(what)
        else:
            raise ValueError(f"not a trace line: {line!r}")
        return True

    def acknowledged(self, what: str) -> None:
        self.acknowledgements += 1
        if self.unsynced:
            files = ", ".join(sorted(self.unsynced))
            self.violations.append(f"{what!r} acknowledged while writes to the {files} were "
                                   "not synced")
        elif not self._writes_since_ack:
            self.violations.append(f"{what!r} acknowledged with no write to the log traced "
                                   "since the previous one")
        self._writes_since_ack = 0
