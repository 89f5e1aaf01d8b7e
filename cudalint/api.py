"""The pipeline as a library: analyze files and get plain results back.

``check_file`` runs one file through frontend → model → rules; ``check_paths`` expands
directories and never lets one file's failure stop the others (as pyflakes'
``api.checkPath`` does); ``run_tasks`` analyzes files with their own options, in
worker processes when asked, and returns the reports in the order of the tasks.
Nothing here prints.
"""

from __future__ import annotations

import contextlib
import fnmatch
import multiprocessing
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from cudalint.budget import (
    HARD_FACTOR,
    HARD_GRACE,
    MAX_WAIT,
    NOT_ANALYZED,
    Budget,
    BudgetExceeded,
    ForkedWorker,
    abandoned_threads,
    can_fork,
    cap_worker,
    cpu_capped,
    format_seconds,
    read_regular,
    run_bounded,
    thread_start_failed,
    worker_cpu_cap,
    worker_memory_cap,
)
from cudalint.diagnostics import Diagnostic
from cudalint.frontend import (
    FrontendError,
    adopt_precompiled_shims,
    parse_file,
    precompiled_shims,
    prepare_fork,
)
from cudalint.ir import TranslationUnit
from cudalint.model.proof import analyze
from cudalint.model.results import AccessResult
from cudalint.options import Options
from cudalint.rules import DEFAULT_SELECTION, FileContext, RuleSelection, run_rules

__all__ = [
    "CUDA_SUFFIXES",
    "HEADER_SUFFIXES",
    "ExcludeMatcher",
    "FileReport",
    "FileTask",
    "check_file",
    "check_paths",
    "check_unit",
    "dedupe_reports",
    "discovered_headers",
    "expand_paths",
    "is_header",
    "run_tasks",
]

#: File name endings picked up when a directory is given.
CUDA_SUFFIXES = (".cu", ".cuh")
#: Header endings picked up in a directory only when the file holds device code that can
#: be analysed on its own (a ``__global__`` kernel or a ``__shared__`` declaration).
HEADER_SUFFIXES = (".h", ".hpp", ".inl")
_DEVICE_CODE_MARKERS = (b"__global__", b"__shared__")
#: How much of a header the discovery check reads.
_DEVICE_CODE_SCAN_BYTES = 4 << 20


@dataclass
class FileReport:
    """What cudalint found in one file."""

    #: The path as the user gave it (or as found under a given directory).
    path: str
    #: The parsed unit; None when the file could not be analyzed.
    unit: TranslationUnit | None = None
    #: One per access x bank mode x instantiation, as the model returned them.
    results: list[AccessResult] = field(default_factory=list)
    #: Diagnostics of the selected rules, sorted by position and code.
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Why the file could not be analyzed; None when it was.
    error: str | None = None
    #: The file's bytes, for source excerpts (None when unreadable).
    source: bytes | None = None
    #: Diagnostics dropped by suppression comments or the baseline.
    suppressed: int = 0
    #: For a header found in a directory and not analysed on its own: the file of the
    #: same run that includes it, in whose analysis its code was analysed.
    covered_by: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def diagnostic_sort_key(d: Diagnostic) -> tuple[str, int, int, str, int, int, int, str, str]:
    r = d.result
    return (
        d.file,
        d.line,
        d.column,
        d.code,
        d.end_line,
        d.end_column,
        r.bank_mode if r else 0,
        (r.access.instantiation or "") if r else "",
        d.message,
    )


def _read(path: str) -> bytes:
    """The file's bytes; only a regular file is read (a FIFO would block forever, a
    device such as /dev/zero never end): :func:`cudalint.budget.read_regular`."""
    return read_regular(path)


def check_file(
    path: str,
    options: Options,
    contents: bytes | None = None,
    *,
    selection: RuleSelection = DEFAULT_SELECTION,
    headers: Mapping[str, bytes] | None = None,
) -> FileReport:
    """Analyze one file (or ``contents`` under the name ``path``). Never raises.

    ``headers`` replace the text of included files (by path) for this analysis.

    The analysis runs under ``options.timeout`` (see :mod:`cudalint.budget`): a file
    that runs out of time keeps the results proved so far and gets an error.
    """

    def hard_timeout() -> FileReport:
        return FileReport(path=path, error=_timeout_error(options.timeout, None))

    try:
        return run_bounded(
            lambda budget: _check_file(path, options, contents, selection, budget, headers),
            options.timeout,
            on_hard_timeout=hard_timeout,
        )
    except Exception as exc:  # the thread could not be started, or the like
        return FileReport(path=path, error=_internal_error(path, exc))


def _internal_error(path: str, exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return f"{path}: the source is nested too deeply to analyze"
    if isinstance(exc, MemoryError):
        return f"{path}: out of memory while analyzing the file"
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return f"internal error analyzing {path}: {detail}; please report"


def _timeout_error(seconds: float | None, missed: tuple[int, int] | None) -> str:
    text = f"analysis stopped after {format_seconds(seconds or 0)} of CPU time (--timeout)"
    if missed is None:
        return text + "; the file was not analyzed"
    return (
        f"{text}; {missed[0]} of {missed[1]} shared accesses were not analyzed "
        "(reported as unknown)"
    )


#: ``#include``, ``#include_next``, ``#import`` and ``#embed`` of a quoted or bracketed name.
_INCLUDE_RE = re.compile(
    rb'^[ \t]*#[ \t]*(?:include_next|include|import|embed)[ \t]*([<"])([^>"\r\n]+)[>"]',
    re.MULTILINE,
)
#: clang options whose next argument (or joined value) is a file that clang reads.
_FILE_FLAGS = ("-include", "--include", "-imacros", "--imacros", "-include-pch")
#: clang options that add a directory to the include search.
_DIR_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter", "--include-directory")
#: At most this many project files are scanned for the includes of one file.
_MAX_SCANNED = 4000


def _special_file(path: str) -> str | None:
    """What ``path`` is when it exists and is neither a regular file nor a directory
    (a FIFO, a device, a socket), following symbolic links; None otherwise."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device")


def _clang_inputs(options: Options) -> tuple[list[str], list[str]]:
    """The files (``-include``, ``@file``) and include directories that ``options``'
    clang arguments name."""
    files: list[str] = []
    dirs = list(options.include_dirs)
    args = list(options.extra_args)
    i = 0
    while i < len(args):
        arg = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else None
        if arg.startswith("@") and len(arg) > 1:
            files.append(arg[1:])
        for flags, out in ((_FILE_FLAGS, files), (_DIR_FLAGS, dirs)):
            for flag in flags:
                if arg == flag and nxt is not None:
                    out.append(nxt)
                    i += 1
                elif arg.startswith(flag + "=") or (arg.startswith(flag) and arg != flag
                                                    and flag in ("-I", "-isystem", "-iquote")):
                    out.append(arg[len(flag):].removeprefix("="))
        i += 1
    return files, dirs


def _unreadable_input(path: str, source: bytes, options: Options,
                      headers: Mapping[str, bytes] | None = None) -> str | None:
    """An error when clang would read a device, FIFO or socket for this file: one named
    by ``-include``/``@file`` in its arguments, or by an ``#include`` of the file or of
    a project header it includes (followed as clang would, through the file's own
    directory and the include directories; names built by macros are not followed).

    clang reads whatever such a name gives until it ends: ``/dev/zero`` never does, a
    FIFO blocks, ``/dev/stdin`` in the language server is its protocol stream. The scan
    is cheap (a regular expression over the project's headers, each once); the memory
    and CPU caps of the worker processes bound what it cannot see.
    """
    files, dirs = _clang_inputs(options)
    for name in files:
        kind = _special_file(name)
        if kind is not None:
            return f"refusing to let clang read {name}: {kind}, not a regular file"
    todo: list[tuple[str, bytes]] = [(path, source)]
    seen = {_abs(path)}
    while todo and len(seen) < _MAX_SCANNED:
        current, text = todo.pop()
        if b"include" not in text and b"import" not in text and b"embed" not in text:
            continue
        here = os.path.dirname(current) or "."
        for m in _INCLUDE_RE.finditer(text):
            try:
                name = m.group(2).decode("utf-8").strip()
            except UnicodeDecodeError:
                continue
            if os.path.isabs(name):
                candidates = [name]
            else:
                candidates = ([os.path.join(here, name)] if m.group(1) == b'"' else [])
                candidates += [os.path.join(d, name) for d in dirs]
            for candidate in candidates:
                kind = _special_file(candidate)
                if kind is not None:
                    return (f"refusing to let clang read {candidate} (#include "
                            f"{m.group(1).decode()}{name}{'>' if m.group(1) == b'<' else chr(34)} "
                            f"in {current}): {kind}, not a regular file")
                key = _abs(candidate)
                if key in seen or not os.path.isfile(candidate):
                    continue
                seen.add(key)
                if headers is not None and candidate in headers:
                    todo.append((candidate, headers[candidate]))
                    continue
                with contextlib.suppress(OSError):
                    todo.append((candidate, read_regular(candidate)))
                break  # the first one found is the one clang includes
    return None


def _looks_binary(source: bytes) -> bool:
    """A NUL byte in the first 8 KiB: an object file or image, not source (as git and
    grep decide). clang would read it as a stream of errors."""
    return b"\0" in source[:8192]


def _utf8_name(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_file(
    path: str, options: Options, contents: bytes | None, selection: RuleSelection,
    budget: Budget, headers: Mapping[str, bytes] | None = None,
) -> FileReport:
    report = FileReport(path=path)
    try:
        if contents is None:
            if os.path.isdir(path):
                report.error = "is a directory"
                return report
            try:
                report.source = _read(path)
            except OSError as exc:
                report.error = f"cannot read file: {exc.strerror or exc}"
                return report
        else:
            report.source = contents
        if report.source.startswith((b"\xff\xfe", b"\xfe\xff")):
            report.error = "not a source file: UTF-16 or UTF-32 text (save it as UTF-8)"
            return report
        if _looks_binary(report.source):
            report.error = "not a source file (it contains NUL bytes)"
            return report
        if not _utf8_name(path):
            # libclang takes file names as UTF-8 only (this one is held as surrogate
            # escapes): an error for this file, not an internal error
            report.error = "cannot analyze a file whose name is not UTF-8 (rename it)"
            return report
        refused = _unreadable_input(path, report.source, options, headers)
        if refused is not None:
            report.error = refused
            return report
        try:
            unit = (parse_file(path, options, contents=report.source, headers=headers)
                    if headers else parse_file(path, options, contents=report.source))
        except FrontendError as exc:
            report.error = str(exc) or "cannot parse file"
            return report
        _analyze_unit(report, unit, options, selection, budget)
    except BudgetExceeded:
        _failed(report, _timeout_error(budget.seconds, None))
    except Exception as exc:  # one file's bug must not stop the others
        _failed(report, _internal_error(path, exc))
    return report


def _failed(report: FileReport, error: str) -> None:
    report.unit = None
    report.results = []
    report.diagnostics = []
    report.error = error


def _analyze_unit(
    report: FileReport, unit: TranslationUnit, options: Options, selection: RuleSelection,
    budget: Budget,
) -> None:
    """Everything after the frontend: model and rules on ``unit``, into ``report``.

    ``check_file`` runs it on the unit it parses, ``check_unit`` on a unit read back from
    its JSON (:mod:`cudalint.irjson`); ``report.source`` (None there) only feeds fixes.
    """
    if not unit.parsed:
        report.error = "; ".join(n.message for n in unit.notes) or "cannot parse file"
        return
    report.unit = unit
    report.results = list(analyze(unit, options))
    ctx = FileContext(path=report.path, unit=unit, results=report.results, options=options,
                      source=report.source)
    report.diagnostics = sorted(run_rules(ctx, selection), key=diagnostic_sort_key)
    missed = sum(1 for r in report.results if r.reason == NOT_ANALYZED)
    if missed:
        report.error = _timeout_error(budget.seconds, (missed, len(report.results)))
    elif budget.expired:
        # the accesses were analysed, but time ran out while the fixes were re-checked:
        # a fix whose re-check did not finish is not offered, which must not pass silently
        report.error = (f"analysis stopped after {format_seconds(budget.seconds or 0)} of CPU"
                        " time (--timeout) while re-checking fixes; every access was"
                        " analyzed, but some fixes may not be offered")


def check_unit(
    path: str,
    unit: TranslationUnit,
    options: Options,
    *,
    selection: RuleSelection = DEFAULT_SELECTION,
    source: bytes | None = None,
) -> FileReport:
    """``check_file`` from an already parsed unit (no frontend, no file read). Never raises.

    The report is the one ``check_file(path, options, selection=selection)`` gives for
    the source ``unit`` was parsed from: same results and diagnostics, except that fixes
    with edits need the file's bytes (``source``; without them such fixes are None).
    """

    def run(budget: Budget) -> FileReport:
        report = FileReport(path=path, source=source)
        try:
            _analyze_unit(report, unit, options, selection, budget)
        except BudgetExceeded:
            _failed(report, _timeout_error(budget.seconds, None))
        except Exception as exc:  # one file's bug must not stop the others
            _failed(report, _internal_error(path, exc))
        return report

    try:
        return run_bounded(
            run, options.timeout,
            on_hard_timeout=lambda: FileReport(path=path,
                                               error=_timeout_error(options.timeout, None)),
        )
    except Exception as exc:  # the thread could not be started, or the like
        return FileReport(path=path, error=_internal_error(path, exc))


class ExcludeMatcher:
    """``--exclude``/``exclude`` globs, each relative to a base directory.

    A pattern excludes a path when it matches the path relative to its base, or the
    name of the path or of any directory above it (below the base): ``build`` excludes
    every directory called build, ``*.gen.cu`` every such file, ``third_party/*`` the
    directory at the base. ``*`` also matches ``/``, as in ruff's and flake8's globs.
    """

    def __init__(self, patterns: Iterable[tuple[str, str]] = ()) -> None:
        self.patterns = [
            (p.rstrip("/").replace(os.sep, "/"), os.path.abspath(base)) for p, base in patterns
        ]

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def __call__(self, path: str) -> bool:
        absolute = os.path.abspath(path)
        for pattern, base in self.patterns:
            try:
                rel = os.path.relpath(absolute, base).replace(os.sep, "/")
            except ValueError:  # another drive
                rel = absolute.replace(os.sep, "/")
            parts = [p for p in rel.split("/") if p not in ("", ".")]
            if parts and parts[0] == "..":
                # Outside the base: only names can match.
                parts = [os.path.basename(absolute)]
                if fnmatch.fnmatchcase(parts[0], pattern):
                    return True
                continue
            for k in range(1, len(parts) + 1):
                if fnmatch.fnmatchcase(parts[k - 1], pattern) or fnmatch.fnmatchcase(
                    "/".join(parts[:k]), pattern
                ):
                    return True
        return False


def _walk(
    directory: str, errors: list[tuple[str, str]], exclude: Callable[[str], bool] | None
) -> list[str]:
    def onerror(exc: OSError) -> None:
        errors.append((str(exc.filename or directory), exc.strerror or str(exc)))

    found: list[str] = []
    for root, dirs, files in os.walk(directory, onerror=onerror):
        dirs[:] = sorted(
            d for d in dirs
            if not d.startswith(".") and not (exclude and exclude(os.path.join(root, d)))
        )
        found.extend(
            path
            for path in (
                _joined(root, f)
                for f in files
                if f.endswith(CUDA_SUFFIXES + HEADER_SUFFIXES) and not f.startswith(".")
            )
            if not (exclude and exclude(path))
            and (path.endswith(CUDA_SUFFIXES) or _has_device_code(path))
        )
    return sorted(found)


def _joined(root: str, name: str) -> str:
    # ``cudalint .`` shows ``src/a.cu``, not ``./src/a.cu``: the spelling the headers that
    # files include are shown in (see cudalint.frontend.walker.display_path).
    path = os.path.join(root, name)
    if path.startswith("." + os.sep):
        path = path[2:]
    return path


def _has_device_code(path: str) -> bool:
    """A cheap text check that a header found in a directory holds a kernel or a shared
    array (a plain C/C++ header analysed on its own gives nothing but noise)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return False
            data = f.read(_DEVICE_CODE_SCAN_BYTES)
    except OSError:
        return False
    return any(m in data for m in _DEVICE_CODE_MARKERS)


def expand_paths(
    paths: Iterable[str], exclude: Callable[[str], bool] | None = None
) -> list[tuple[str, str | None]]:
    """Files to analyze, each with an error when it cannot even be listed.

    Given files are kept as given (even when missing, so that ``check_file`` reports
    them) unless ``exclude`` matches them; directories are recursed into for
    ``.cu``/``.cuh`` files, and ``.h``/``.hpp``/``.inl`` files that contain
    ``__global__`` or ``__shared__``, in sorted order, skipping hidden (``.name``) and
    excluded files and directories.
    """
    seen: set[str] = set()
    out: list[tuple[str, str | None]] = []
    for path in paths:
        candidates: list[tuple[str, str | None]]
        if exclude is not None and path not in ("-", "") and exclude(path):
            continue
        if os.path.isdir(path):
            errors: list[tuple[str, str]] = []
            files = _walk(path, errors, exclude)
            candidates = [(f, None) for f in files]
            candidates += [(p, f"cannot read directory: {why}") for p, why in errors]
        else:
            candidates = [(path, None)]
        for candidate, error in candidates:
            key = os.path.normpath(os.path.abspath(candidate))
            if key not in seen:
                seen.add(key)
                out.append((candidate, error))
    return out


@dataclass(frozen=True)
class FileTask:
    """One file to analyze, with its own options (configuration, compile command)."""

    path: str
    options: Options
    selection: RuleSelection = DEFAULT_SELECTION
    #: The source when it does not come from the file (stdin).
    contents: bytes | None = None
    #: Known before analysis: the file cannot be analyzed (e.g. an unlistable directory).
    error: str | None = None
    #: A header that directory discovery found (not named on the command line): its
    #: analysis on its own is skipped when a file of the same run includes it
    #: (``run_tasks``).
    discovered: bool = False


def _run_task(task: FileTask) -> FileReport:
    if task.error is not None:
        return FileReport(path=task.path, error=task.error)
    with _clang_stderr() as said:
        report = check_file(task.path, task.options, task.contents, selection=task.selection)
    text = said()
    if text:
        # libclang's crash recovery writes a multi-KB dump (its whole command line and
        # the unsaved file) straight to file descriptor 2: one short line instead.
        first = text.strip().splitlines()[0][:CLANG_STDERR_CHARS] if text.strip() else ""
        if "crash detected" in text and report.error is not None:
            report.error += " (libclang crashed on it; its crash dump is left out)"
        elif first:
            sys.stderr.write(f"cudalint: {task.path}: libclang said: {first}\n")
    return report


#: The most characters of what libclang writes to stderr that are passed on.
CLANG_STDERR_CHARS = 200


@contextlib.contextmanager
def _clang_stderr() -> Iterator[Callable[[], str]]:
    """Capture what native code writes to file descriptor 2 while the block runs
    (best effort: without a temporary file or descriptor 2, nothing is captured)."""
    captured: list[str] = []
    try:
        sink = tempfile.TemporaryFile()  # noqa: SIM115 (closed by the with below)
    except OSError:
        yield lambda: ""
        return
    with sink:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
        except (OSError, ValueError, AttributeError):
            yield lambda: ""
            return
        try:
            os.dup2(sink.fileno(), 2)
            try:
                yield lambda: captured[0] if captured else ""
            finally:
                os.dup2(saved, 2)
        finally:
            os.close(saved)
        with contextlib.suppress(OSError):
            sink.seek(0)
            captured.append(sink.read(64 * 1024).decode("utf-8", "replace"))


#: Called with (files done, files in all) as files finish.
Progress = Callable[[int, int], None]


def _pool_context() -> multiprocessing.context.BaseContext:
    # A fresh server process forks the workers: they do not inherit this process's
    # libclang state or threads (as "fork" would), and start faster than with "spawn".
    if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        # cudalint.fixes is imported lazily (by the first conflict); importing it in the
        # server once saves every worker its import
        ctx.set_forkserver_preload(["cudalint.api", "cudalint.fixes"])
        _start_helpers(forkserver=True)
        return ctx
    _start_helpers(forkserver=False)
    return multiprocessing.get_context("spawn")


_helpers_lock = threading.Lock()


def _start_helpers(forkserver: bool) -> None:
    """Start multiprocessing's helper processes (the resource tracker, the fork server)
    so that they cannot import code from the current directory.

    Each is a new interpreter run as ``python -c 'from multiprocessing... import main'``,
    which puts the directory it starts in first on ``sys.path``: run from a linted
    repository, a ``multiprocessing/`` package planted there would run. They start here,
    once per process, from the standard library's own directory (where ``''`` finds
    nothing new). The fork server's children, the workers, get this process's
    ``sys.path`` and working directory from multiprocessing, so paths still resolve as
    the user gave them. (The "spawn" workers of Windows start as the same kind of
    ``-c`` interpreter: ``PYTHONSAFEPATH`` keeps the current directory off their path on
    Python 3.11+.)
    """
    from multiprocessing import forkserver as server
    from multiprocessing import resource_tracker

    safe = os.path.dirname(os.path.abspath(os.__file__))
    with _helpers_lock:
        if not forkserver:
            os.environ.setdefault("PYTHONSAFEPATH", "1")
        try:
            back: int | str = os.open(".", os.O_RDONLY)
        except OSError:
            try:
                back = os.getcwd()
            except OSError:  # the current directory is gone: nothing can be found in it
                back = ""
        try:
            if back != "":
                os.chdir(safe)
            resource_tracker.ensure_running()
            if forkserver:
                server.ensure_running()
        finally:
            if isinstance(back, int):
                os.fchdir(back)
                os.close(back)
            elif back:
                os.chdir(back)


def _crash_report(task: FileTask, exc: BaseException) -> FileReport:
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return FileReport(
        path=task.path,
        error=f"internal error analyzing {task.path}: {detail}; please report",
    )


def _run_pool(
    tasks: Sequence[FileTask], indices: Sequence[int], workers: int,
    finished: Callable[[int, FileReport | None], None],
) -> list[tuple[int, int | None]]:
    """Run ``indices`` in a pool; ``finished(i, None)`` when the pool broke under task i.
    Returns the workers that died: (exit code, index of the task it was running or
    None)."""
    context = _pool_context()
    # The workers' temporary files (libclang's precompiled shim, the empty toolkit
    # directory) go into one directory of this run, removed here: a worker ends with
    # os._exit (no atexit, no finalizers) or is killed, and cannot clean up itself.
    try:
        run_dir: str | None = tempfile.mkdtemp(prefix="cudalint-run-")
    except OSError:
        run_dir = None
    try:
        return _run_pool_in(tasks, indices, workers, finished, context, run_dir)
    finally:
        if run_dir is not None:
            _remove_run_dir(run_dir)


def _remove_run_dir(run_dir: str) -> None:
    """Remove the run's directory; after Ctrl-C, terminated workers may still be writing
    in it for a moment (a second at most is spent on them)."""
    deadline = time.monotonic() + 1.0
    while True:
        shutil.rmtree(run_dir, ignore_errors=True)
        if not os.path.lexists(run_dir) or time.monotonic() > deadline:
            return
        time.sleep(0.05)


def _worker_init(run_dir: str | None, main_pid: int | None = None,
                 memory: int | None = None) -> None:
    """In a worker: temporary files under the run's directory (``_run_pool``), the
    memory cap (:func:`cudalint.budget.cap_worker`), and an end when the main process
    is gone (killed, or stopped while this worker was deep in libclang)."""
    global _marker_dir
    if run_dir is not None:
        tempfile.tempdir = run_dir
        os.environ["TMPDIR"] = run_dir  # libclang's own temporary files
        _marker_dir = run_dir
    cap_worker(memory)
    if main_pid is not None:
        threading.Thread(target=_watch_main, args=(main_pid, os.getppid()),
                         name="cudalint-watch", daemon=True).start()


def _watch_main(main_pid: int, parent: int) -> None:
    """Exit this worker as soon as the main process (or the fork server, its parent)
    has gone: a worker must not outlive the run that started it (killed with SIGKILL,
    the main process cannot stop its workers itself)."""
    started = _process_start(main_pid)
    while True:
        time.sleep(0.25)
        if _process_gone(main_pid, started) or os.getppid() != parent:
            if _marker_dir is not None:  # the main process cannot remove it now
                shutil.rmtree(_marker_dir, ignore_errors=True)
            os._exit(1)


def _process_start(pid: int) -> tuple[str, str] | None:
    """(state, start time) of ``pid`` from /proc (None where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return fields[0], fields[19]
    except (OSError, IndexError):
        return None


def _process_gone(pid: int, started: tuple[str, str] | None) -> bool:
    """Whether ``pid`` has ended: no such process, a zombie (its parent has not yet
    reaped it), or another process that reuses the number."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        pass
    if started is None:
        return False
    now = _process_start(pid)
    return now is None or now[0] in ("Z", "X") or now[1] != started[1]


#: In a worker: the run's directory, where ``_run_task_capped`` leaves its marker.
_marker_dir: str | None = None


def _run_task_capped(task: FileTask, index: int = -1) -> FileReport:
    """``_run_task`` in a worker, under the per-file CPU cap; a worker left with an
    abandoned analysis thread (stuck past the backstop) ends once its report is sent,
    so that the thread cannot go on using CPU or memory while later files run.

    While the file is analysed, ``<run dir>/worker-<pid>`` holds ``index``: when the
    worker dies, the main process knows which file killed it (``_deaths``)."""
    marker = (os.path.join(_marker_dir, f"worker-{os.getpid()}")
              if _marker_dir is not None else None)
    if marker is not None:
        with contextlib.suppress(OSError), open(marker, "w", encoding="ascii") as f:
            f.write(str(index))
    with cpu_capped(worker_cpu_cap(task.options.timeout)):
        report = _run_task(task)
    if thread_start_failed():
        # out of address space (an abandoned analysis holds it): end without a report;
        # the main process runs this worker's files again in fresh workers
        os._exit(3)
    if marker is not None:
        with contextlib.suppress(OSError):
            os.unlink(marker)
    if abandoned_threads():
        threading.Thread(target=_exit_soon, name="cudalint-exit", daemon=True).start()
    return report


def _exit_soon() -> None:
    time.sleep(0.5)  # the report is sent by then; the pool's next files go elsewhere
    os._exit(3)


def _died(exitcode: int | None, cpu_cap: float | None, memory: int | None) -> str:
    """Why a worker process that ended with ``exitcode`` died, for its file's error."""
    if exitcode is None or exitcode >= 0:
        return "the analysis process died"
    number = -exitcode
    name = _signal_name(number)
    if name == "SIGXCPU" and cpu_cap is not None:
        return (f"analysis stopped: it used more than {format_seconds(cpu_cap)} of CPU "
                "time, the analysis process's cap (see --timeout); the file was not "
                "analyzed")
    mem = f"{memory / (1 << 30):.3g} GiB" if memory is not None else None
    if name in ("SIGABRT", "SIGKILL", "SIGSEGV") and mem is not None:
        return (f"the analysis process died ({name}): libclang crashed or needed more "
                f"than the worker's {mem} of memory (CUDALINT_WORKER_MEMORY)")
    return f"the analysis process died ({name})"


def _capped(exitcode: int) -> bool:
    """Whether a worker ended with ``exitcode`` was killed by its CPU cap."""
    return exitcode < 0 and _signal_name(-exitcode) == "SIGXCPU"


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _run_pool_in(
    tasks: Sequence[FileTask], indices: Sequence[int], workers: int,
    finished: Callable[[int, FileReport | None], None],
    context: multiprocessing.context.BaseContext, run_dir: str | None,
) -> list[tuple[int, int | None]]:
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_worker_init,
                               initargs=(run_dir, os.getpid(), worker_memory_cap(workers)))
    processes: dict[int, multiprocessing.process.BaseProcess] = {}

    def known() -> list[multiprocessing.process.BaseProcess]:
        processes.update(_processes_of(pool))
        return list(processes.values())

    try:
        with _sigterm_stops():
            futures: dict[Future[FileReport], int] = {
                pool.submit(_run_task_capped, tasks[i], i): i for i in indices
            }
            known()
            for future in _as_completed(futures):
                i = futures[future]
                known()
                try:
                    finished(i, future.result())
                except BrokenProcessPool:
                    finished(i, None)
                except Exception as exc:  # the report did not pickle, or the like
                    finished(i, _crash_report(tasks[i], exc))
    except BaseException:
        # Ctrl-C, SIGTERM or a failing progress callback: do not wait for the queued
        # files, nor for the ones being analysed (whose workers write in the run's
        # directory, and may be deep in libclang where SIGTERM is not enough).
        _stop_pool(pool, known())
        raise
    pool.shutdown(wait=True)
    return _deaths(processes, run_dir)


def _deaths(processes: Mapping[int, multiprocessing.process.BaseProcess],
            run_dir: str | None) -> list[tuple[int, int | None]]:
    """The workers of ``processes`` that died (not a normal exit), each with the index
    of the task it was running when its marker (``_run_task_capped``) says so."""
    out: list[tuple[int, int | None]] = []
    for pid, process in processes.items():
        code = process.exitcode
        if code is None or code == 0:
            continue
        index: int | None = None
        if run_dir is not None:
            marker = os.path.join(run_dir, f"worker-{pid}")
            with contextlib.suppress(OSError, ValueError), open(marker, encoding="ascii") as f:
                index = int(f.read().strip())
        out.append((code, index if index is not None and index >= 0 else None))
    return out


def _processes_of(pool: ProcessPoolExecutor) -> dict[int, multiprocessing.process.BaseProcess]:
    """The pool's worker processes by pid (a copy: its manager thread changes them)."""
    for _ in range(3):
        try:
            return dict(getattr(pool, "_processes", None) or {})
        except RuntimeError:  # changed while copied
            continue
    return {}


def _stop_pool(pool: ProcessPoolExecutor,
               processes: Sequence[multiprocessing.process.BaseProcess]) -> None:
    """Stop ``pool`` now: its queued files cancelled, its workers terminated (killed
    when they do not end within a second), and its manager thread not waited for at
    exit (the interpreter's exit would otherwise hang on it)."""
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    deadline = time.monotonic() + 1.0
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)
    with contextlib.suppress(Exception):
        from concurrent.futures import process as futures_process

        thread = getattr(pool, "_executor_manager_thread", None)
        wakeups = getattr(futures_process, "_threads_wakeups", None)
        if thread is not None and isinstance(wakeups, dict):
            wakeup = wakeups.pop(thread, None)
            if wakeup is not None:
                wakeup.wakeup()


class _Terminated(SystemExit):
    """SIGTERM while worker processes run: unwinds as Ctrl-C does, so that they are
    stopped, then exits with 128 + SIGTERM as the signal would have."""


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While the body runs (on the main thread): SIGTERM raises :class:`_Terminated`."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, _frame: object) -> None:
        raise _Terminated(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signal.SIGTERM, previous)


class IsolatedChecker:
    """Analyses one file at a time in a worker process kept from call to call, under
    the workers' CPU and memory caps: for a long-lived caller (the language server), in
    which a file spinning or allocating inside libclang would otherwise go on for good,
    one more thread per edit. A worker that dies is replaced at the next call; when no
    worker process can be started, the file is analysed in this process.
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._run_dir: str | None = None
        self._lock = threading.Lock()

    def check(self, task: FileTask) -> FileReport:
        with self._lock:
            try:
                pool = self._pool if self._pool is not None else self._start()
                future = pool.submit(_run_task_capped, task, 0)
            except _POOL_FAILURES:
                self._stop()
                return _run_task(task)
            processes = _processes_of(pool)
            try:
                return future.result()
            except BrokenProcessPool:
                processes.update(_processes_of(pool))
                self._stop()
                code = next((p.exitcode for p in processes.values()
                             if p.exitcode not in (None, 0)), None)
                why = _died(code, worker_cpu_cap(task.options.timeout), worker_memory_cap(1))
                if code is None or not _capped(code):
                    why = f"internal error analyzing {task.path}: {why}; please report"
                return FileReport(path=task.path, error=why)
            except Exception as exc:  # the report did not pickle, or the like
                return _crash_report(task, exc)

    def _start(self) -> ProcessPoolExecutor:
        context = _pool_context()
        if self._run_dir is None:
            try:
                self._run_dir = tempfile.mkdtemp(prefix="cudalint-run-")
            except OSError:
                self._run_dir = None
        self._pool = ProcessPoolExecutor(
            max_workers=1, mp_context=context, initializer=_worker_init,
            initargs=(self._run_dir, os.getpid(), worker_memory_cap(1)))
        return self._pool

    def _stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop_pool(pool, list(_processes_of(pool).values()))

    def close(self) -> None:
        """Stop the worker and remove its temporary files."""
        with self._lock:
            self._stop()
            if self._run_dir is not None:
                _remove_run_dir(self._run_dir)
                self._run_dir = None


class _PerFileProcess:
    """Analyses files in a child forked from this process (``budget.ForkedWorker``):
    the serial run's counterpart of a ``-j`` worker, under the same CPU and memory caps
    and a wall-clock limit past the file's backstop, so that a file spinning or
    allocating inside libclang is stopped and costs only its own result. The fork costs
    a few milliseconds (everything is loaded already) and the child serves file after
    file, until one kills it or its memory grows (libclang's heap goes with it); the
    shared state (libclang, the temporary directories) is made here before the first
    fork, and a precompiled shim a child builds is adopted for the next children.

    In this process instead where there is no ``os.fork`` (Windows), where
    ``CUDALINT_IN_PROCESS=1`` asks for it (profilers, debuggers), or, with a note, once
    a fork has failed.
    """

    def __init__(self, note: Callable[[str], None] | None = None) -> None:
        self._note = note
        self._off = not can_fork() or os.environ.get("CUDALINT_IN_PROCESS", "") not in ("", "0")
        self._worker: ForkedWorker[FileTask, _ChildResult] | None = None
        self._run_dir: str | None = None
        self._memory: int | None = None

    def __call__(self, task: FileTask) -> FileReport:
        if self._off or task.error is not None:
            return _run_task(task)
        worker = self._worker if self._worker is not None else self._prepare()
        timeout = task.options.timeout
        wall: float | None = None
        if timeout is not None and timeout > 0:
            wall = HARD_FACTOR * timeout + 2 * HARD_GRACE + 5
            if wall >= MAX_WAIT:  # ``--timeout 1e308``: no limit
                wall = None
        cpu = worker_cpu_cap(timeout)
        try:
            forked = worker.call(task, cpu=cpu, wall=wall)
        except OSError as exc:
            self._off = True
            if self._note is not None:
                self._note(f"cannot start a process for the files ({_why(exc)}); analyzing "
                           "them in this process, without the CPU and memory caps")
            return _run_task(task)
        if forked.returned and forked.value is not None:
            report, shims = forked.value
            adopt_precompiled_shims(shims)
            return report
        if forked.timed_out:
            return FileReport(path=task.path, error=(
                f"analysis stopped: it did not end within {format_seconds(wall or 0)} "
                "(wall-clock time; see --timeout); the file was not analyzed"))
        if forked.exitcode is not None:
            why = _died(forked.exitcode, cpu, self._memory)
            if not _capped(forked.exitcode) and (
                    why == "the analysis process died" or "crashed" in why):
                why = f"internal error analyzing {task.path}: {why}; please report"
            return FileReport(path=task.path, error=why)
        return FileReport(path=task.path, error=(
            f"internal error analyzing {task.path}: {forked.error}; please report"))

    def _prepare(self) -> ForkedWorker[FileTask, _ChildResult]:
        prepare_fork()
        with contextlib.suppress(ImportError):  # imported by the first conflict otherwise
            import cudalint.fixes  # noqa: F401
        self._memory = worker_memory_cap(1)
        try:
            self._run_dir = tempfile.mkdtemp(prefix="cudalint-run-")
        except OSError:
            self._run_dir = None
        self._worker = ForkedWorker(_run_in_child, memory=self._memory,
                                    tmpdir=self._run_dir)
        return self._worker

    def close(self) -> None:
        """End the child and remove its temporary directory."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None
        if self._run_dir is not None:
            _remove_run_dir(self._run_dir)
            self._run_dir = None


_ChildResult = tuple[FileReport, dict[tuple[str, ...], str | None]]


def _run_in_child(task: FileTask) -> _ChildResult:
    """In the child of :class:`_PerFileProcess`: the report, and the precompiled shims
    it built."""
    before = precompiled_shims()
    report = _run_task(task)
    built = {k: v for k, v in precompiled_shims().items() if k not in before}
    return report, built


def run_tasks(
    tasks: Sequence[FileTask], jobs: int = 1, progress: Progress | None = None,
    *, note: Callable[[str], None] | None = None,
) -> list[FileReport]:
    """Analyze every task; reports come back in the order of ``tasks`` whatever ``jobs``.

    With ``jobs`` 1 each file is analyzed in a process of its own, forked from this one
    (:class:`_PerFileProcess`), under the CPU and memory caps of the workers. With
    ``jobs`` > 1 the files are analyzed in that many worker processes. When a
    worker dies (libclang crashing on a file), every file the broken pool did not finish
    is analyzed again on its own, so that only the file that crashes gets an error.
    When worker processes cannot be started at all (no usable ``/dev/shm`` for their
    locks, no processes or memory left), the files are analyzed one at a time in this
    process and ``note`` is told why, once.
    Code in a header that several files include is reported once (``dedupe_reports``).
    """
    total = len(tasks)
    todo = [i for i, t in enumerate(tasks) if t.error is None]
    reports: list[FileReport | None] = [
        FileReport(path=t.path, error=t.error) if t.error is not None else None for t in tasks
    ]
    done = total - len(todo)

    def count() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    serial: list[str] = []  # why the worker processes could not be used, once they failed

    def unusable(why: str) -> None:
        if not serial and note is not None:
            note(f"cannot use worker processes for -j ({why}); analyzing the files one "
                 "at a time")
        serial.append(why)

    one = _PerFileProcess(note)
    try:
        # Headers found in a directory wait for the files that may include them
        # (whatever ``jobs``, so that the output does not depend on it).
        later = [i for i in todo if tasks[i].discovered and is_header(tasks[i].path)]
        if later:
            _run_indices(tasks, [i for i in todo if i not in set(later)], jobs, reports,
                         count, serial, unusable, one)
            covered = included_elsewhere(reports)
            rest = []
            for i in later:
                if _abs(tasks[i].path) in covered:
                    reports[i] = covered_report(tasks[i], covered[_abs(tasks[i].path)])
                    count()
                else:
                    rest.append(i)
            _run_indices(tasks, rest, jobs, reports, count, serial, unusable, one)
        else:
            _run_indices(tasks, todo, jobs, reports, count, serial, unusable, one)
    finally:
        one.close()
    out = [r if r is not None else FileReport(path=t.path, error="not analyzed")
           for r, t in zip(reports, tasks, strict=True)]
    dedupe_reports(out)
    return out


def is_header(path: str) -> bool:
    """A header by its name (``.cuh``, ``.h``, ``.hpp``, ``.inl``), not a ``.cu`` file."""
    return path.endswith((".cuh", *HEADER_SUFFIXES))


def included_elsewhere(reports: Sequence[FileReport | None]) -> dict[str, str]:
    """Project files that a fully analysed report's unit includes (absolute path), each
    with the first such report's path."""
    out: dict[str, str] = {}
    for report in reports:
        if report is None or report.error is not None or report.unit is None:
            continue
        if not report.unit.parsed:
            continue
        for inc in report.unit.includes:
            out.setdefault(os.path.normcase(inc), report.path)
    return out


def covered_report(task: FileTask, by: str) -> FileReport:
    """The report of a discovered header that ``by`` includes: not analysed on its own.

    Every access in it is analysed in ``by``'s unit (its kernels, instantiated or not,
    and its ``__device__`` functions, called or not: the walker runs them all), where
    ``dedupe_reports`` would prefer those results over the header's own anyway; what the
    header alone adds is only clang's errors of a header parsed without the includes
    and macros its users give it. The file still counts as analysed.
    """
    source = task.contents
    if source is None:
        try:
            source = _read(task.path)
        except OSError:  # read for excerpts and suppressions only: none then
            source = None
    return FileReport(path=task.path, unit=TranslationUnit(file=task.path),
                      source=source, covered_by=by)


#: What starting a process pool raises when it cannot work here: OSError (no usable
#: /dev/shm for its semaphores, no processes or memory left), ImportError (no sem_open
#: on this platform), NotImplementedError (too few semaphores allowed).
_POOL_FAILURES = (OSError, ImportError, NotImplementedError)


def _run_indices(tasks: Sequence[FileTask], todo: Sequence[int], jobs: int,
                 reports: list[FileReport | None], count: Callable[[], None],
                 serial: Sequence[str] = (),
                 unusable: Callable[[str], None] | None = None,
                 one: Callable[[FileTask], FileReport] = _run_task) -> None:
    """Analyse ``tasks[i]`` for ``i`` in ``todo`` into ``reports[i]``; one at a time with
    ``one`` (a forked child per file: :class:`_PerFileProcess`) when ``jobs`` is 1,
    ``serial`` says that the pool could not be used, or it fails to start."""
    workers = min(jobs, len(todo))
    if workers <= 1 or serial:
        with _sigterm_stops():
            for i in todo:
                reports[i] = one(tasks[i])
                count()
    else:
        broken: list[int] = []

        def finished(i: int, report: FileReport | None) -> None:
            if report is None:
                broken.append(i)
            else:
                reports[i] = report
                count()

        try:
            deaths = _run_pool(tasks, todo, workers, finished)
        except _POOL_FAILURES as exc:
            deaths = []
            if unusable is not None:
                unusable(_why(exc))
            with _sigterm_stops():
                for i in todo:
                    if reports[i] is None and i not in broken:
                        reports[i] = one(tasks[i])
                        count()
        # A file whose worker its CPU cap killed is not run again (it would only be
        # killed again): its error says so.
        for code, j in deaths:
            if j is not None and j in broken and _capped(code):
                broken.remove(j)
                reports[j] = FileReport(path=tasks[j].path, error=_died(
                    code, worker_cpu_cap(tasks[j].options.timeout), None))
                count()
        crashed: list[int] = []

        def alone(j: int, report: FileReport | None) -> None:
            if report is None:
                crashed.append(j)
            else:
                reports[j] = report

        for i in sorted(broken):
            try:
                codes = [code for code, _ in _run_pool(tasks, [i], 1, alone)]
            except _POOL_FAILURES as exc:
                # Not in this process: the file may well crash it.
                reports[i] = FileReport(
                    path=tasks[i].path,
                    error=f"internal error analyzing {tasks[i].path}: the analysis "
                    f"process died, and no new one could be started ({_why(exc)})",
                )
                count()
                continue
            if i in crashed:
                why = _died(next((c for c in codes if c is not None), None),
                            worker_cpu_cap(tasks[i].options.timeout), worker_memory_cap(1))
                if why == "the analysis process died" or "crashed" in why:
                    why = f"internal error analyzing {tasks[i].path}: {why}; please report"
                reports[i] = FileReport(path=tasks[i].path, error=why)
            count()


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _abs(path: str) -> str:
    try:
        return os.path.normcase(os.path.normpath(os.path.abspath(path)))
    except ValueError:  # pragma: no cover - odd characters in a path
        return path


_Context = tuple[str, str, int] | None


def _result_context(report: FileReport, r: AccessResult) -> _Context:
    """The kernel an access was analysed in (name and where it is defined), or None when
    it was analysed in a ``__device__`` function on its own (no kernel of its file
    calls it, so its parameters and block shape are unknown)."""
    assert report.unit is not None
    for k in report.unit.kernels:
        if k.name == r.access.kernel:
            return (k.name, _abs(k.span.file), k.span.line)
    return None


def _rank(r: AccessResult) -> tuple[float, int, int]:
    # As the model combines shapes: the more ways, the more wavefronts, the less proved.
    status = {"proved": 0, "worst-case": 1, "unknown": 2}.get(r.status, 2)
    return (r.ways or 0.0, r.wavefronts or 0, status)


def dedupe_reports(reports: Sequence[FileReport]) -> None:
    """Keep one result per access and context across the reports of one run, in place.

    A header's code is analysed from every file that includes it and from the header on
    its own. An access is the same when its file, span, kind, architecture and bank mode
    are; among those, results in a kernel beat the device function analysed on its own,
    results of a known instantiation beat the uninstantiated template, and a known block
    shape (launch, annotation, option) beats the assumed one; of equal ones (same kernel,
    instantiation and shape) the worse is kept, the first in task order on a tie, so
    that ``-j`` does not change the output. Diagnostics about dropped results go with
    them; diagnostics without a result (clang's errors in a header) are kept once.
    """
    entries: list[tuple[int, AccessResult, _Context]] = []
    for i, report in enumerate(reports):
        if report.unit is None:
            continue
        for r in report.results:
            entries.append((i, r, _result_context(report, r)))
    # A header not analysed on its own (``covered_report``) takes part as the report its
    # analysis would have been, one with results wherever its code has accesses: the
    # output is the same as when it is analysed on its own.
    in_files = {_abs(r.access.span.file) for _, r, _ in entries}
    covered = {i for i, report in enumerate(reports)
               if report.covered_by is not None and _abs(report.path) in in_files}
    if len({i for i, _, _ in entries} | covered) > 1:
        _drop_duplicate_results(reports, entries)
    seen: set[tuple[str, int, int, str, str]] = set()
    for report in reports:
        kept = []
        for d in report.diagnostics:
            if d.result is None and d.file:
                key = (_abs(d.file), d.line, d.column, d.code, d.message)
                if key in seen:
                    continue
                seen.add(key)
            kept.append(d)
        report.diagnostics = kept


def _drop_duplicate_results(
    reports: Sequence[FileReport], entries: list[tuple[int, AccessResult, _Context]]
) -> None:
    def where(r: AccessResult) -> tuple[str, int, int, int, int, str, str, int]:
        s = r.access.span
        return (_abs(s.file), s.line, s.column, s.end_line, s.end_column, r.access.kind,
                r.arch, r.bank_mode)

    groups: dict[tuple[str, int, int, int, int, str, str, int],
                 list[tuple[int, AccessResult, _Context]]] = {}
    for e in entries:
        groups.setdefault(where(e[1]), []).append(e)
    dropped: set[int] = set()
    for group in groups.values():
        if len(group) < 2:
            continue
        if any(c is not None for _, _, c in group):
            dropped.update(id(r) for _, r, c in group if c is None)
            group = [e for e in group if e[2] is not None]
        by_kernel: dict[_Context, list[tuple[int, AccessResult, _Context]]] = {}
        for e in group:
            by_kernel.setdefault(e[2], []).append(e)
        for same_kernel in by_kernel.values():
            # The uninstantiated analysis of another file gives way to instantiations;
            # within one file a symbolic record beside instantiated ones is deliberate
            # (a launch that leaves a bound parameter unknown) and stays.
            instantiated_in = {i for i, r, _ in same_kernel if r.access.instantiation}
            for i, r, _ in same_kernel:
                if r.access.instantiation is None and instantiated_in - {i}:
                    dropped.add(id(r))
            by_inst: dict[str | None, list[AccessResult]] = {}
            for _, r, _ in same_kernel:
                if id(r) not in dropped:
                    by_inst.setdefault(r.access.instantiation, []).append(r)
            for same_inst in by_inst.values():
                if any(r.block_dim_source != "assumed" for r in same_inst):
                    for r in same_inst:
                        if r.block_dim_source == "assumed":
                            dropped.add(id(r))
                best: dict[tuple[int | None, int | None, int | None] | None, AccessResult] = {}
                for r in same_inst:
                    if id(r) in dropped:
                        continue
                    other = best.get(r.block_dim)
                    if other is None:
                        best[r.block_dim] = r
                    elif _rank(r) > _rank(other):
                        dropped.add(id(other))
                        best[r.block_dim] = r
                    else:
                        dropped.add(id(r))
    if not dropped:
        return
    for i in sorted({i for i, _, _ in entries}):
        report = reports[i]
        report.results = [r for r in report.results if id(r) not in dropped]
        report.diagnostics = [
            d for d in report.diagnostics if d.result is None or id(d.result) not in dropped
        ]


def _as_completed(futures: Iterable[Future[FileReport]]) -> Iterable[Future[FileReport]]:
    from concurrent.futures import as_completed

    return as_completed(list(futures))


def check_paths(
    paths: Iterable[str],
    options: Options,
    *,
    selection: RuleSelection = DEFAULT_SELECTION,
    jobs: int = 1,
    exclude: Callable[[str], bool] | None = None,
) -> list[FileReport]:
    """Analyze every file under ``paths``, in order; a bad path gives an error report."""
    paths = list(paths)
    found = discovered_headers(paths, exclude)
    tasks = [
        FileTask(path, options, selection, error=error, discovered=_abs(path) in found)
        for path, error in expand_paths(paths, exclude)
    ]
    return run_tasks(tasks, jobs)


def discovered_headers(paths: Iterable[str], exclude: Callable[[str], bool] | None = None
                       ) -> set[str]:
    """The headers (absolute paths) that directories in ``paths`` give and that are not
    themselves named in ``paths``: each is analysed on its own only when no file of the
    run includes it (see ``run_tasks``)."""
    paths = list(paths)
    named = {_abs(p) for p in paths if p not in ("-", "") and not os.path.isdir(p)}
    found: set[str] = set()
    for p in paths:
        if p in ("-", "") or not os.path.isdir(p):
            continue
        for file, error in expand_paths([p], exclude):
            if error is None and is_header(file) and _abs(file) not in named:
                found.add(_abs(file))
    return found
