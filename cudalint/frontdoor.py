"""The console entry point's front door: a whole run's output replayed from the cache.

``cudalint`` (the console script, ``python -m cudalint``) starts here. For an ordinary
run with a cache directory (``--cache-dir DIR`` or ``$CUDALINT_CACHE_DIR``), paths given
and only the options :data:`_FLAGS` and :data:`_VALUED` (no ``--fix``, ``--diff``,
``--add-ignores``, ``--baseline``, ``-v``, stdin, ``--cuda-path``, ``--explain``, ``lsp``,
...), it looks for a *run entry*: the bytes an earlier identical run printed on stdout
and stderr and its exit status. When the entry is current it prints them and exits,
having imported nothing of cudalint but this module (the pre-commit hook on unchanged
files: no argument parser, no settings, no analysis modules, no libclang). Otherwise,
and for any other command line, it hands the words to :func:`cudalint.cli.main`
unchanged; when that run could have been replayed, it records it for next time.

A run entry is used only when all of these are as they were (anything else is a miss,
and a miss costs only the full run it would have been anyway):

- the run's key: the command line's words verbatim, the working directory, the cache
  directory, cudalint, libclang and Python (:func:`package_fingerprint`, the result
  cache's fingerprint), the environment variables cudalint or clang read (:data:`_ENV`),
  whether stdout and stderr are terminals and their encodings (colour, the progress
  bar, the bytes written);
- every fact of the file system the settings were made of: the full CLI's resolution of
  the run's settings (configuration files found or not, ``compile_commands.json``,
  ``.gitignore``/``.ignore`` files, directory walks, ``-p``, the files named) runs under
  :func:`recording`, which notes each path it stats, lists or reads; the entry keeps
  each path's state (a read file's digest, a listed directory's modification time, a
  stat's type, size and time), and every one must be the same. So a new, changed or
  removed configuration file, exclude or ignore file, compilation database or file of
  a walked directory is a miss: the settings (and the result cache's keys, made from
  them) are the same whenever the entry is used;
- every file of the run: its bytes have the digest the result cache's key was made of,
  and the headers it read and the directories a new header could appear in are as
  that file's result-cache entry records them (:mod:`cudalint.result_cache`).

An entry is written only when the run exited 0 or 1, every file of the run was a
complete result-cache hit or was stored in it (:data:`cudalint.result_cache.journal`),
and no fact changed during the run or in the :data:`_SLACK_NS` before it. The output
stage is recorded too (SARIF looks for the repository's ``.git``; text and SARIF read
the headers they quote). Entries live in ``DIR/runs/<key>.json``; a run entry is as
trusted as the result-cache entries beside it (see :mod:`cudalint.result_cache`).
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager, suppress

from cudalint.fingerprint import RESULT_SCHEMA, package_fingerprint
from cudalint.fingerprint import digest as _digest

TYPE_CHECKING = False  # typing costs ~1.5 ms to import; this module's users wait for it
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any, TextIO

#: The layout of a run entry; a new one makes every old entry a miss.
SCHEMA = "cudalint-run-1"
#: The variable that names the cache directory (``cudalint.frontend.cache.ENV``).
CACHE_ENV = "CUDALINT_CACHE_DIR"
#: Options with no value that an ordinary, replayable run may have.
_FLAGS = frozenset({
    "-q", "--quiet", "--exit-zero", "--statistics", "--show-all", "--isolated",
    "--respect-gitignore", "--no-respect-gitignore", "--warn-unused-ignores",
})
#: Options with a value (``--opt V``, ``--opt=V``; short ones also ``-IV``).
_VALUED = frozenset({
    "--format", "--color", "--arch", "--bank-mode", "--block-dim", "-j", "--jobs",
    "--timeout", "--cache-dir", "-I", "-D", "--std", "-p", "--compile-commands",
    "--config", "--exclude", "--select", "--extend-select", "--ignore", "--max-unknown",
})
#: Environment variables that change what a run prints (beyond the fingerprint's).
_ENV = ("NO_COLOR", "PRE_COMMIT", "HOME", "XDG_CACHE_HOME")
_ENV_PREFIXES = ("CUDALINT",)
#: A fact that changed this shortly before the run began is not recorded (a file
#: system's timestamps are coarser than its clock).
_SLACK_NS = 1_000_000_000

# --- the command line ---------------------------------------------------------------------


def plan(words: Sequence[str]) -> str | None:
    """The cache directory of a replayable run with these words, else None (an option
    this module does not know, no path, stdin, no cache directory)."""
    if words[:1] == ["lsp"]:
        return None  # the language server
    cache_dir: str | None = None
    no_cache = False
    paths = 0
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("-"):
            paths += 1
            continue
        if word in _FLAGS:
            continue
        if word == "--no-cache":
            no_cache = True
            continue
        name, eq, value = word.partition("=")
        if word.startswith("--"):
            if name not in _VALUED:
                return None
            if not eq:
                if i >= len(words):
                    return None
                value = words[i]
                i += 1
        elif word[:2] in _VALUED:
            name, value = word[:2], word[2:]
            if not value:
                if i >= len(words):
                    return None
                value = words[i]
                i += 1
        else:
            return None  # '-', '-v', a '-x.cu' file, combined short flags
        if value.startswith("-"):
            return None
        if name == "--cache-dir":
            cache_dir = value
    if no_cache or not paths:
        return None
    if cache_dir is not None:
        return os.path.abspath(cache_dir) if cache_dir else None
    return os.environ.get(CACHE_ENV) or None


def _is_tty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


def run_key(words: Sequence[str], root: str) -> str:
    """The name of the run entry of ``words`` (see the module's documentation)."""
    import json

    env = sorted(f"{k}={v}" for k, v in os.environ.items()
                 if k in _ENV or k.startswith(_ENV_PREFIXES))
    streams = [[_is_tty(s), getattr(s, "encoding", None), getattr(s, "errors", None)]
               for s in (sys.stdout, sys.stderr)]
    doc = [SCHEMA, package_fingerprint(RESULT_SCHEMA), os.getcwd(), root, list(words), env,
           streams]
    return _digest(json.dumps(doc).encode("utf-8", "surrogateescape"))


# --- facts: what the settings were made of --------------------------------------------------

#: While recording: (kind, path) of every fact, in order, once each.
_facts: dict[tuple[str, str], None] | None = None
_tasks: list[str] | None = None
_active = False
_hook_added = False


def _fact(kind: str, path: str) -> list[Any]:
    """The state of ``path`` that a ``kind`` fact compares: a stat's type (and a
    non-directory's size, time and inode), a listed directory's time, a read file's
    digest; the error number when there is none."""
    import stat as st_

    try:
        st = os.lstat(path) if kind == "lstat" else os.stat(path)
        if kind == "list":
            return ["list", st.st_mtime_ns, st.st_ino]
        if kind == "read" and st_.S_ISREG(st.st_mode):
            with open(path, "rb") as f:
                return ["read", st.st_size, st.st_mtime_ns, _digest(f.read())]
        if st_.S_ISDIR(st.st_mode):
            return ["dir"]
        if st_.S_ISLNK(st.st_mode):
            return ["lnk", os.readlink(path), st.st_mtime_ns, st.st_ino]
        return [st_.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns, st.st_ino]
    except OSError as exc:
        return ["err", exc.errno]


def _note(kind: str, path: object) -> None:
    facts = _facts
    if facts is None or isinstance(path, int):
        return
    try:
        text = os.fsdecode(os.fspath(path))  # type: ignore[call-overload]
    except TypeError:
        return
    facts.setdefault((kind, text), None)


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _active or event != "open" or len(args) < 3:
        return
    flags = args[2]
    # O_ACCMODE is not in Windows' os module; the three access modes are 0, 1, 2 there too
    if isinstance(flags, int) and flags & getattr(os, "O_ACCMODE", 3) == os.O_RDONLY:
        with suppress(Exception):  # an audit hook that raises would fail the open
            _note("read", args[0])


@contextmanager
def recording() -> Iterator[None]:
    """While the front door records a run: note every path that the code inside stats
    (``os.stat``, ``os.lstat``), lists (``os.scandir``, ``os.listdir``) or opens for
    reading. The full CLI resolves the run's settings inside it. Otherwise nothing."""
    global _active, _hook_added
    if _facts is None:
        yield
        return
    if not _hook_added:
        sys.addaudithook(_audit)
        _hook_added = True
    saved = os.stat, os.lstat, os.scandir, os.listdir

    def stat(path: Any, *a: Any, **k: Any) -> Any:
        if not a and not k.get("dir_fd"):
            _note("lstat" if k.get("follow_symlinks") is False else "stat", path)
        return saved[0](path, *a, **k)

    def lstat(path: Any, *a: Any, **k: Any) -> Any:
        if not a and not k.get("dir_fd"):
            _note("lstat", path)
        return saved[1](path, *a, **k)

    def scandir(path: Any = ".") -> Any:
        _note("list", path)
        return saved[2](path)

    def listdir(path: Any = ".") -> Any:
        _note("list", path)
        return saved[3](path)

    os.stat, os.lstat, os.scandir, os.listdir = (
        stat, lstat, scandir, listdir)
    _active = True
    try:
        yield
    finally:
        _active = False
        os.stat, os.lstat, os.scandir, os.listdir = saved


def settings_made(paths: Sequence[str]) -> None:
    """The full CLI made the run's tasks (their paths, in order); a run that never gets
    here (a usage error, ``--explain-access``) is not recorded."""
    global _tasks
    if _facts is not None:
        _tasks = list(paths)


# --- replaying and recording a run ------------------------------------------------------------


def _same_headers(headers: Sequence[Sequence[Any]], dirs: Sequence[Sequence[Any]]) -> bool:
    """:func:`cudalint.frontend.cache.unchanged`, without its imports: every header has
    its digest and every directory its modification time."""
    for path, digest in headers:
        try:
            with open(path, "rb") as f:
                now: str | None = _digest(f.read())
        except OSError:
            now = None
        if now != digest:
            return False
    for path, mtime in dirs:
        try:
            when: int | None = os.stat(path).st_mtime_ns
        except OSError:
            when = None
        if when != mtime:
            return False
    return True


def _entry_path(root: str, name: str) -> str:
    return os.path.join(root, "runs", name + ".json")


def replay(words: Sequence[str], root: str) -> tuple[str, str, int] | None:
    """(stdout, stderr, exit status) of the run entry of ``words``, when it is current."""
    import json

    try:
        with open(_entry_path(root, run_key(words, root)), "rb") as f:
            doc = json.loads(f.read())
        if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
            return None
        for kind, path, state in doc["facts"]:
            if _fact(kind, path) != state:
                return None
        for path, digest, headers, dirs in doc["files"]:
            with open(path, "rb") as f:
                if _digest(f.read()) != digest:
                    return None
            if not _same_headers(headers, dirs):
                return None
        out, err, status = doc["out"], doc["err"], doc["status"]
        if isinstance(out, str) and isinstance(err, str) and isinstance(status, int):
            return out, err, status
    except Exception:  # no entry, unreadable, malformed, a file gone: a miss
        return None
    return None


class _Tee:
    """A text stream that also keeps what is written to it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _store(words: Sequence[str], root: str, started_ns: int, out: str, err: str,
           status: int, journal: dict[str, list[Any]],
           facts: Sequence[tuple[str, str]], tasks: Sequence[str]) -> None:
    """Write the run entry, when every file of the run is in ``journal`` and no fact
    changed since shortly before the run began."""
    import json

    from cudalint.fsutil import WriteError, write_file

    if not tasks or any(path not in journal for path in tasks):
        return
    states = []
    for kind, path in facts:
        state = _fact(kind, path)
        if any(isinstance(v, int) and not isinstance(v, bool) and v > started_ns - _SLACK_NS
               for v in state[1:3]):
            return  # changed during the run, or just before it (a time in ns)
        states.append([kind, path, state])
    files = []
    for path in tasks:
        _name, digest, headers, dirs = journal[path]
        files.append([path, digest, headers, dirs])
    doc = {"schema": SCHEMA, "facts": states, "files": files, "out": out, "err": err,
           "status": status}
    try:
        os.makedirs(os.path.join(root, "runs"), exist_ok=True)
        write_file(_entry_path(root, run_key(words, root)),
                   json.dumps(doc).encode("utf-8", "surrogateescape"))
    except (OSError, WriteError, ValueError):
        return


def _tolerant(stream: TextIO | None) -> None:
    # as cudalint.cli.main: a stream that cannot encode '…' must not give a traceback
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with suppress(ValueError, OSError):
            reconfigure(errors="backslashreplace")


def silence_stdout() -> None:
    """The reader of stdout went away (``cudalint ... | head``): send the rest, and what
    Python flushes at exit, to /dev/null, so that nothing more fails."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _write(out: str, err: str) -> bool:
    try:
        sys.stdout.write(out)
        sys.stdout.flush()
        sys.stderr.write(err)
        sys.stderr.flush()
    except BrokenPipeError:  # as the full CLI: the reader went away
        silence_stdout()
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """The console script: replay a current run entry, else run the full CLI (and
    record the run when it could be replayed next time)."""
    global _facts, _tasks
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        root = plan(words)
    except Exception:
        root = None
    if root is None or _facts is not None:
        from cudalint.cli import main as cli_main

        return cli_main(words)
    _tolerant(sys.stdout)
    _tolerant(sys.stderr)
    try:
        found = replay(words, root)
    except KeyboardInterrupt:
        sys.stderr.write("cudalint: interrupted\n")
        return 130
    if found is not None:
        return found[2] if _write(found[0], found[1]) else 2

    import time

    from cudalint import result_cache
    from cudalint.cli import main as cli_main

    started = time.time_ns()
    out, err = _Tee(sys.stdout), _Tee(sys.stderr)
    saved = sys.stdout, sys.stderr
    _facts, _tasks, result_cache.journal = {}, None, {}
    try:
        sys.stdout, sys.stderr = out, err
        status = cli_main(words)
    finally:
        sys.stdout, sys.stderr = saved
        facts, tasks, journal = list(_facts), _tasks, result_cache.journal
        _facts, _tasks, result_cache.journal = None, None, None
    # 2 is also a broken pipe's status and an internal error's: never replayed
    if tasks is not None and status in (0, 1):
        with suppress(Exception):  # a cache that fails is no cache
            _store(words, root, started, "".join(out.parts), "".join(err.parts), status,
                   journal, facts, tasks)
    return status
