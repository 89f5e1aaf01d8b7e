"""Writing files: every file cudalint writes (``--fix``, ``--add-ignores``, ``--baseline``,
``--bank-map-svg``) goes through ``write_file``.

The new bytes go to a temporary file in the target's own directory, named
``.cudalint-<pid>-<random>.tmp`` and readable by its owner only while it is written;
they are flushed to disk (``fsync``), the temporary file gets the original's permission
bits (a new file: ``0666`` less the umask, as ``open`` gives), and it is renamed over
the target with ``os.replace``, which is atomic on POSIX file systems. A full disk, a
file-size limit (``ulimit -f``), Ctrl-C or a kill at any moment leaves either the old
file or the new one, never a truncated one. On a failure that Python sees, the
temporary file is removed; one left by a process killed with SIGKILL (which nothing can
catch) is removed by the next ``write_file`` into the same directory (``_remove_stale``).

Right before the rename the target is read again: when it no longer holds the bytes the
caller analysed (``expected``), or exists when the caller created it (``ABSENT``),
nothing is written and ``FileChanged`` says so: an edit made while cudalint ran is never
overwritten. (A write between that check and the rename, microseconds, is not seen.)

Where a write must not go (``WriteError``, nothing written):

* a file the user may not write (no write permission, or marked read-only with no write
  bit at all, as a read-only checkout is; also for root) is refused, not replaced;
* a file with more than one hard link is refused: replacing it would split the links
  (the other names would keep the old text);
* a file owned by another user is refused when its owner cannot be kept (only root can
  give a file away); its group is kept where the user may set it, and its extended
  attributes (``os.listxattr``: SELinux labels, ACLs, user attributes) are copied where
  the platform and file system support them;
* an edited file (``expected`` bytes) reached through a symbolic link is written
  through the link (the file it names is replaced, the link kept) only when that file
  lies inside one of ``within`` (the trees being linted); a link leading outside is
  refused;
* a file being created (``ABSENT``: a baseline) is refused when its name is a symbolic
  link, dangling or not: it is never written through;
* a file cudalint owns (``expected=None``: a bank-map picture) replaces a symbolic link
  at its name with the file itself, never writing through it.
"""

from __future__ import annotations

import contextlib
import enum
import os
import re
import stat
import tempfile
import time
from collections.abc import Sequence

__all__ = ["ABSENT", "TEMP_PREFIX", "TEMP_SUFFIX", "FileChanged", "WriteError", "write_file"]

TEMP_PREFIX = ".cudalint-"
TEMP_SUFFIX = ".tmp"
#: A temporary file whose process is gone is removed at once; one whose writer cannot be
#: told (no pid in its name, a pid reused or in another pid namespace) after this long.
STALE_SECONDS = 3600.0
_TEMP_NAME = re.compile(re.escape(TEMP_PREFIX) + r"(?:(\d+)-)?[A-Za-z0-9_]+"
                        + re.escape(TEMP_SUFFIX) + r"\Z")


class _Absent(enum.Enum):
    ABSENT = "absent"


#: ``expected=ABSENT``: the file must not exist (it is being created).
ABSENT = _Absent.ABSENT


class WriteError(Exception):
    """A file that was not written, and why (the original is intact)."""


class FileChanged(WriteError):
    """The file no longer holds what was analysed; it was not written."""


def write_file(path: str, data: bytes, *, expected: bytes | _Absent | None = None,
               within: Sequence[str] | None = None) -> None:
    """Replace (or create) ``path`` with ``data``, atomically.

    ``expected``: the bytes ``path`` must still hold (``FileChanged`` otherwise);
    ``ABSENT``: ``path`` must not exist, not even as a symbolic link; ``None``: no check
    (a file cudalint owns, such as a bank-map picture: a symbolic link at ``path`` is
    replaced, not followed). ``within``: with ``expected`` bytes, the directories a
    symbolic link may lead into (``None``: anywhere). Raises ``WriteError`` with a
    message naming ``path`` (see the module's documentation for what is refused).
    """
    if expected is None or expected is ABSENT:
        if expected is ABSENT and os.path.islink(path):
            raise WriteError(f"{path} is a symbolic link; not written through it")
        head, tail = os.path.split(os.path.abspath(path))
        target = os.path.join(os.path.realpath(head), tail)
    else:
        target = os.path.realpath(path)
        if within is not None and target != os.path.abspath(path) and not any(
                _inside(target, root) for root in within):
            raise WriteError(f"{path} is a symbolic link to {target}, outside the tree "
                             "being linted; not written")
    directory = os.path.dirname(target)
    st: os.stat_result | None
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {_reason(exc)}") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        st = None  # a link cudalint replaces (expected=None): a new file
    if st is not None:
        _refuse(path, target, st)
        mode = stat.S_IMODE(st.st_mode)
    else:
        mode = 0o666 & ~_umask()
    _check(path, target, expected)
    _remove_stale(directory)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=TEMP_SUFFIX,
                                   dir=directory)
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {_reason(exc)}") from None
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if st is not None:
                _keep_owner(path, tmp, st)
                _copy_xattrs(target, tmp)
            os.chmod(tmp, mode)
        except OSError as exc:
            raise WriteError(f"cannot write {path}: {_reason(exc)}") from None
        _check(path, target, expected)
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise WriteError(f"cannot write {path}: {_reason(exc)}") from None
    except BaseException:  # also Ctrl-C: never leave the temporary file
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_directory(directory)


def _inside(path: str, root: str) -> bool:
    root = os.path.realpath(root)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _refuse(path: str, target: str, st: os.stat_result) -> None:
    """A write that must not happen: a read-only file, one with hard links."""
    if not stat.S_ISREG(st.st_mode):
        raise WriteError(f"cannot write {path}: not a regular file")
    if not os.access(target, os.W_OK) or not st.st_mode & 0o222:
        raise WriteError(f"{path} is read-only; not written")
    if st.st_nlink > 1:
        raise WriteError(f"{path} has {st.st_nlink} hard links, which replacing it would "
                         "split; not written (make it a file of its own first)")
    euid = os.geteuid() if hasattr(os, "geteuid") else None
    if euid is not None and euid != 0 and st.st_uid != euid:
        raise WriteError(f"{path} belongs to another user, and replacing it would make "
                         "it yours; not written")


def _keep_owner(path: str, tmp: str, st: os.stat_result) -> None:
    """Give the new file the original's owner and group (the group where allowed)."""
    chown = getattr(os, "chown", None)
    if chown is None:
        return
    try:
        chown(tmp, st.st_uid, st.st_gid)
    except OSError:
        with contextlib.suppress(OSError):
            chown(tmp, -1, st.st_gid)
        if os.stat(tmp).st_uid != st.st_uid:
            raise WriteError(f"{path}: cannot keep its owner; not written") from None


def _copy_xattrs(source: str, tmp: str) -> None:
    """The original's extended attributes, where supported (best effort per attribute:
    one the user may not set, such as ``security.*`` without privileges, is skipped)."""
    listxattr = getattr(os, "listxattr", None)
    if listxattr is None:
        return
    try:
        names = listxattr(source)
    except OSError:
        return
    for name in names:
        with contextlib.suppress(OSError):
            os.setxattr(tmp, name, os.getxattr(source, name))


def _check(path: str, target: str, expected: bytes | _Absent | None) -> None:
    if expected is None:
        return
    if expected is ABSENT:
        if os.path.lexists(target):
            raise FileChanged(f"{path} was created while cudalint ran; not written")
        return
    try:
        with open(target, "rb") as f:
            current = f.read(len(expected) + 1)
    except OSError as exc:
        raise WriteError(f"cannot read {path}: {_reason(exc)}") from None
    if current != expected:
        raise FileChanged(f"{path} changed since it was analyzed; not written")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _umask() -> int:
    """The process's umask, read without changing it where Linux tells it."""
    with contextlib.suppress(OSError, ValueError), \
            open("/proc/self/status", encoding="ascii", errors="replace") as f:
        for line in f:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_directory(directory: str) -> None:
    """Flush the rename to disk (where a directory can be opened; best effort)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _remove_stale(directory: str) -> None:
    """Remove the temporary files that killed cudalint processes left in ``directory``:
    ours (the current user's regular files named ``.cudalint-*.tmp``) whose process no
    longer runs, or older than ``STALE_SECONDS``."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    now = time.time()
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    for entry in entries:
        match = _TEMP_NAME.match(entry.name)
        if match is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or (uid is not None and st.st_uid != uid):
            continue
        pid = int(match.group(1)) if match.group(1) else None
        if now - st.st_mtime < STALE_SECONDS and (pid is None or _alive(pid)):
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # Windows' os.kill(pid, 0) kills
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's process, or not a pid
        return True
    return True
