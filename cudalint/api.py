"""The pipeline as a library: analyze files and get plain results back.

``check_file`` runs one file through frontend → model → rules; ``check_paths`` expands
directories and never lets one file's failure stop the others (as pyflakes'
``api.checkPath`` does); ``run_tasks`` analyzes files with their own options, in
worker processes when asked, and returns the reports in the order of the tasks.
Nothing here prints.
"""

from __future__ import annotations

import errno
import fnmatch
import multiprocessing
import os
import stat
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from cudalint.budget import NOT_ANALYZED, Budget, BudgetExceeded, format_seconds, run_bounded
from cudalint.diagnostics import Diagnostic
from cudalint.frontend import FrontendError, parse_file
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
    device such as /dev/zero never end)."""
    # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise OSError(errno.EINVAL, what)
        return f.read()


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


def _looks_binary(source: bytes) -> bool:
    """A NUL byte in the first 8 KiB: an object file or image, not source (as git and
    grep decide). clang would read it as a stream of errors."""
    return b"\0" in source[:8192]


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
    return check_file(task.path, task.options, task.contents, selection=task.selection)


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
        return ctx
    return multiprocessing.get_context("spawn")


def _crash_report(task: FileTask, exc: BaseException) -> FileReport:
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return FileReport(
        path=task.path,
        error=f"internal error analyzing {task.path}: {detail}; please report",
    )


def _run_pool(
    tasks: Sequence[FileTask], indices: Sequence[int], workers: int,
    finished: Callable[[int, FileReport | None], None],
) -> None:
    """Run ``indices`` in a pool; ``finished(i, None)`` when the pool broke under task i."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context())
    try:
        futures: dict[Future[FileReport], int] = {
            pool.submit(_run_task, tasks[i]): i for i in indices
        }
        for future in _as_completed(futures):
            i = futures[future]
            try:
                finished(i, future.result())
            except BrokenProcessPool:
                finished(i, None)
            except Exception as exc:  # the report did not pickle, or the like
                finished(i, _crash_report(tasks[i], exc))
    except BaseException:
        # Ctrl-C or a failing progress callback: do not wait for the queued files.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def run_tasks(
    tasks: Sequence[FileTask], jobs: int = 1, progress: Progress | None = None
) -> list[FileReport]:
    """Analyze every task; reports come back in the order of ``tasks`` whatever ``jobs``.

    With ``jobs`` > 1 the files are analyzed in that many worker processes. When a
    worker dies (libclang crashing on a file), every file the broken pool did not finish
    is analyzed again on its own, so that only the file that crashes gets an error.
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

    # Headers found in a directory wait for the files that may include them (whatever
    # ``jobs``, so that the output does not depend on it).
    later = [i for i in todo if tasks[i].discovered and is_header(tasks[i].path)]
    if later:
        _run_indices(tasks, [i for i in todo if i not in set(later)], jobs, reports, count)
        covered = included_elsewhere(reports)
        rest = []
        for i in later:
            if _abs(tasks[i].path) in covered:
                reports[i] = covered_report(tasks[i], covered[_abs(tasks[i].path)])
                count()
            else:
                rest.append(i)
        _run_indices(tasks, rest, jobs, reports, count)
    else:
        _run_indices(tasks, todo, jobs, reports, count)
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


def _run_indices(tasks: Sequence[FileTask], todo: Sequence[int], jobs: int,
                 reports: list[FileReport | None], count: Callable[[], None]) -> None:
    """Analyse ``tasks[i]`` for ``i`` in ``todo`` into ``reports[i]``."""
    workers = min(jobs, len(todo))
    if workers <= 1:
        for i in todo:
            reports[i] = _run_task(tasks[i])
            count()
    else:
        broken: list[int] = []

        def finished(i: int, report: FileReport | None) -> None:
            if report is None:
                broken.append(i)
            else:
                reports[i] = report
                count()

        _run_pool(tasks, todo, workers, finished)
        crashed: list[int] = []

        def alone(j: int, report: FileReport | None) -> None:
            if report is None:
                crashed.append(j)
            else:
                reports[j] = report

        for i in sorted(broken):
            _run_pool(tasks, [i], 1, alone)
            if i in crashed:
                reports[i] = FileReport(
                    path=tasks[i].path,
                    error=f"internal error analyzing {tasks[i].path}: the analysis "
                    "process died; please report",
                )
            count()


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
