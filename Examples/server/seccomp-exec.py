#!/usr/bin/python3
"""Runs a command under the system-call filter of a systemd unit, as systemd applies it.

Usage: seccomp-exec.py UNIT COMMAND [ARG...]

Reads the unit's SystemCallFilter= lines in order, expands every @set with
`systemd-analyze syscall-filter` (sets inside sets too), and builds the list as systemd does: the
first line decides the mode (a list of allowed calls, or with `~` of denied ones); later lines add
to an allow list, and `~` lines take from it. Then loads it with libseccomp (python3-seccomp) for
the native architecture only (SystemCallArchitectures=native), killing the process on any other
call, as systemd does without SystemCallErrorNumber=, sets no_new_privs, applies
MemoryDenyWriteExecute=yes with the kernel's PR_SET_MDWE where the kernel has it, and execs COMMAND.
A call the service makes that the unit denies ends it with SIGSYS (exit status 159 in a shell).
"""
import ctypes
import os
import subprocess
import sys

import seccomp


def expand(name, seen=None):
    """The system calls a name stands for: itself, or every call of a @set (recursively)."""
    seen = set() if seen is None else seen
    if not name.startswith("@"):
        return {name}
    if name in seen:
        return set()
    seen.add(name)
    out = subprocess.run(["systemd-analyze", "syscall-filter", name], check=True, capture_output=True, text=True)
    calls = set()
    for line in out.stdout.splitlines()[1:]:
        word = line.strip()
        if word and not word.startswith("#"):
            calls |= expand(word, seen)
    return calls


def unit_filter(unit):
    """(allow_list_mode, calls) from the unit's SystemCallFilter= lines."""
    mode, calls = None, set()
    for raw in open(unit, encoding="utf-8"):
        line = raw.strip()
        if not line.startswith("SystemCallFilter="):
            continue
        value = line.split("=", 1)[1].strip()
        deny = value.startswith("~")
        names = set()
        for word in value.lstrip("~").split():
            names |= expand(word.split(":")[0])
        if mode is None:
            mode = "deny" if deny else "allow"
            calls = names
        elif (mode == "allow") == deny:
            calls -= names
        else:
            calls |= names
    return mode, calls


def main():
    unit, command = sys.argv[1], sys.argv[2:]
    mode, calls = unit_filter(unit)
    if mode is None:
        sys.exit(f"seccomp-exec: {unit} has no SystemCallFilter=")
    default = seccomp.KILL_PROCESS if mode == "allow" else seccomp.ALLOW
    action = seccomp.ALLOW if mode == "allow" else seccomp.KILL_PROCESS
    # execve must pass to start the command at all; systemd installs the filter just before it.
    if mode == "allow":
        calls |= {"execve"}
    f = seccomp.SyscallFilter(defaction=default)
    applied = 0
    for call in sorted(calls):
        try:
            f.add_rule(action, call)
            applied += 1
        except (ValueError, RuntimeError, OSError):
            pass  # not a call of this architecture
    print(f"seccomp-exec: {mode} list of {applied} system calls from {unit}", file=sys.stderr)
    f.load()
    if any(l.strip() == "MemoryDenyWriteExecute=yes" for l in open(unit, encoding="utf-8")):
        # The kernel's own form of it (Linux 6.3+): no mapping both writable and executable, ever.
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
            print(f"seccomp-exec: PR_SET_MDWE: {os.strerror(ctypes.get_errno())} (not applied)", file=sys.stderr)
        else:
            print("seccomp-exec: MemoryDenyWriteExecute applied (PR_SET_MDWE)", file=sys.stderr)
    os.execvp(command[0], command)


main()
