"""The per-file pipeline: read → parse → analyse → rules → suppressions → report.

Every command goes through it, one file at a time: the command line (through the worker
processes of :mod:`cudalint.manager`), the language server, ``--fix``'s re-analysis of
the fixed text, ``--add-ignores``, and the library (:mod:`cudalint.api`). ruff calls
it ``check_path``, flake8 ``FileChecker``.

- :func:`check_file` reads the file (or takes its bytes), refuses what is not source
  (binary, UTF-16, a FIFO that clang would read), then :func:`check_source` runs the
  rest on the bytes: the frontend, the model, the rules and the file's suppression
  comments. :func:`check_source` is the one place that maps a file's inputs (path,
  bytes, options, rules, unsaved headers) to its :class:`FileReport`.
- :func:`check_unit` runs the same steps after the frontend, on a unit read back from
  its JSON (:mod:`cudalint.irjson`).
- :func:`suppress` is the suppressions step: comments drop diagnostics (kept in
  ``FileReport.suppressed_diagnostics``), and with ``CL100`` on, the comments that
  dropped nothing are reported. Code in a header is analysed from every file that
  includes it; :func:`cudalint.runmerge.merge_reports` settles, across one run's
  reports, which result is kept and which of a header's comments were used.

Everything here runs under the file's CPU budget (:mod:`cudalint.budget`) and never
raises: a file that cannot be analysed gets a report with an error. Nothing here prints.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from cudalint.budget import (
    NOT_ANALYZED,
    Budget,
    BudgetExceeded,
    collector_held,
    format_seconds,
    read_regular,
    run_bounded,
)
from cudalint.diagnostics import Diagnostic
from cudalint.discovery import path_key as _abs
from cudalint.ir import TranslationUnit
from cudalint.model.results import AccessResult
from cudalint.options import Options
from cudalint.rules import DEFAULT_SELECTION, FileContext, RuleSelection, run_rules
from cudalint.suppressions import (
    UNUSED_CODE,
    Suppression,
    find_suppressions,
    split_suppressed,
    unused_suppressions,
)

__all__ = [
    "CLANG_STDERR_CHARS",
    "FileReport",
    "FileTask",
    "check_file",
    "check_source",
    "check_unit",
    "diagnostic_sort_key",
    "enabled_codes",
    "run_task",
    "suppress",
]

#: Reads a file's bytes for its suppression comments (None: unreadable, nothing there).
CommentReader = Callable[[str], "bytes | None"]


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
    #: The codes of the rules the file was checked with.
    codes: frozenset[str] = frozenset()
    #: The diagnostics that suppression comments dropped (in this file or in the
    #: headers its diagnostics are in), sorted as ``diagnostics``.
    suppressed_diagnostics: list[Diagnostic] = field(default_factory=list)
    #: The file's own suppression comments (``cudalint: ignore...``), as found.
    suppressions: tuple[Suppression, ...] = ()

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

    The whole per-file pipeline: the report is what ``cudalint PATH`` shows for the
    file on its own, suppression comments applied (and, with ``CL100`` selected, the
    unused ones reported). ``headers`` replace the text of included files (by path) for
    this analysis.

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
    except BudgetExceeded:
        # the wall-clock backstop's interruption landed while the thread was already
        # handling the budget's own (a loaded machine): the file ran out of time
        return hard_timeout()
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
    """Read the file (unless ``contents`` are given), then :func:`check_source`."""
    if contents is None:
        if os.path.isdir(path):
            return FileReport(path=path, error="is a directory")
        try:
            contents = _read(path)
        except OSError as exc:
            return FileReport(path=path, error=f"cannot read file: {exc.strerror or exc}")
        except BudgetExceeded:
            return FileReport(path=path, error=_timeout_error(budget.seconds, None))
        except Exception as exc:  # one file's bug must not stop the others
            return FileReport(path=path, error=_internal_error(path, exc))
    return check_source(path, contents, options, selection, budget, headers)


def check_source(
    path: str, source: bytes, options: Options, selection: RuleSelection, budget: Budget,
    headers: Mapping[str, bytes] | None = None,
) -> FileReport:
    """The pipeline after the read: the file's inputs (its name, its bytes, its options,
    its rules, the unsaved text of headers) in, its report out. Never raises.

    Refuses what is not source, then frontend → model → rules → :func:`suppress`. Its
    result depends on nothing else but the headers the file includes (and their
    suppression comments): the boundary a cache of whole reports keys on.
    """
    report = FileReport(path=path, source=source, codes=enabled_codes(selection))
    try:
        if source.startswith((b"\xff\xfe", b"\xfe\xff")):
            report.error = "not a source file: UTF-16 or UTF-32 text (save it as UTF-8)"
            return report
        if _looks_binary(source):
            report.error = "not a source file (it contains NUL bytes)"
            return report
        if not _utf8_name(path):
            # libclang takes file names as UTF-8 only (this one is held as surrogate
            # escapes): an error for this file, not an internal error
            report.error = "cannot analyze a file whose name is not UTF-8 (rename it)"
            return report
        refused = _unreadable_input(path, source, options, headers)
        if refused is not None:
            report.error = refused
            return report
        from cudalint.frontend import FrontendError, parse_file  # libclang: on first use

        # a walk that pauses the collector (parse_file's, outside the language server)
        # leaves it paused through the model and the rules (collector_held)
        with collector_held():
            try:
                unit = (parse_file(path, options, contents=source, headers=headers)
                        if headers else parse_file(path, options, contents=source))
            except FrontendError as exc:
                report.error = str(exc) or "cannot parse file"
                return report
            _analyze_unit(report, unit, options, selection, budget)
            suppress(report, _header_reader(headers, path, source))
    except BudgetExceeded:
        _failed(report, _timeout_error(budget.seconds, None))
    except Exception as exc:  # one file's bug must not stop the others
        _failed(report, _internal_error(path, exc))
    return report


def _failed(report: FileReport, error: str) -> None:
    report.unit = None
    report.results = []
    report.diagnostics = []
    report.suppressed_diagnostics = []
    report.suppressed = 0
    report.error = error


def _analyze_unit(
    report: FileReport, unit: TranslationUnit, options: Options, selection: RuleSelection,
    budget: Budget,
) -> None:
    """Model and rules on ``unit``, into ``report``.

    ``check_source`` runs it on the unit it parses, ``check_unit`` on a unit read back
    from its JSON (:mod:`cudalint.irjson`); ``report.source`` (None there) only feeds
    fixes.
    """
    if not unit.parsed:
        report.error = "; ".join(n.message for n in unit.notes) or "cannot parse file"
        return
    report.unit = unit
    from cudalint.model.analyze import analyze
    from cudalint.model.caches import RunCaches

    # the file's analysis run: its proofs (and the fixes' re-checks) share one set of
    # caches, freed with it
    run = RunCaches()
    report.results = list(analyze(unit, options, run))
    ctx = FileContext(path=report.path, unit=unit, results=report.results, options=options,
                      source=report.source, run=run)
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
    comments: CommentReader | None = None,
) -> FileReport:
    """``check_file`` from an already parsed unit (no frontend, no file read). Never raises.

    The report is the one ``check_file(path, options, selection=selection)`` gives for
    the source ``unit`` was parsed from: same results and diagnostics, except that fixes
    with edits need the file's bytes (``source``; without them such fixes are None).
    ``comments`` gives the files' suppression comments (``path`` included) instead of
    ``source`` and the disk (:mod:`cudalint.irjson` records them with the IR).
    """

    def run(budget: Budget) -> FileReport:
        report = FileReport(path=path, source=source, codes=enabled_codes(selection))
        try:
            _analyze_unit(report, unit, options, selection, budget)
            suppress(report, comments)
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
    except BudgetExceeded:  # as in check_file: a second interruption in the handler
        return FileReport(path=path, error=_timeout_error(options.timeout, None))
    except Exception as exc:  # the thread could not be started, or the like
        return FileReport(path=path, error=_internal_error(path, exc))


# --- suppressions -------------------------------------------------------------------------


def enabled_codes(selection: RuleSelection) -> frozenset[str]:
    """The codes of the rules ``selection`` enables."""
    return frozenset(rule.code for rule in selection.rules())


def suppress(report: FileReport, read: CommentReader | None = None) -> None:
    """The suppressions step, in place: diagnostics that a ``cudalint: ignore`` comment
    covers move to ``report.suppressed_diagnostics``; with ``CL100`` among the report's
    codes, the file's comments that covered nothing are reported.

    Comments are read from the report's source, and for diagnostics in other files (a
    header) from those files; ``read`` gives a file's bytes instead (None: no comments).
    A report without a unit (the file was not analysed) is left as it is.
    """
    if report.unit is None:
        return
    sources: dict[str, bytes | None] = {
        report.path: report.source if read is None else read(report.path)
    }
    for d in report.diagnostics:
        if d.file not in sources:
            sources[d.file] = (read or _read_or_none)(d.file)
    kept, dropped = split_suppressed(report.diagnostics, sources)
    own = sources[report.path]
    report.suppressions = tuple(find_suppressions(own)) if own else ()
    report.diagnostics = kept
    report.suppressed_diagnostics = dropped
    report.suppressed = len(dropped)
    report_unused(report)


def report_unused(report: FileReport, used_by: Iterable[Diagnostic] = ()) -> None:
    """Add ``CL100`` for the report's comments that suppressed none of its diagnostics
    nor ``used_by`` (diagnostics in this file that other files of the run reported), when
    ``CL100`` is among its codes; replaces the ``CL100`` diagnostics added before."""
    diagnostics = [d for d in report.diagnostics if not _is_unused_report(d)]
    if UNUSED_CODE in report.codes:
        hits = [d for d in report.suppressed_diagnostics if d.file == report.path]
        diagnostics += unused_suppressions(report.path, report.suppressions,
                                           [*hits, *used_by], report.codes)
    report.diagnostics = sorted(diagnostics, key=diagnostic_sort_key)


def _is_unused_report(d: Diagnostic) -> bool:
    return d.code == UNUSED_CODE and d.result is None


def _header_reader(headers: Mapping[str, bytes] | None, main: str, source: bytes
                   ) -> CommentReader | None:
    """Comments of the text analysed: a header's unsaved text (``headers``, as
    ``--fix``'s re-analysis gives it), else the file on disk."""
    if not headers:
        return None

    def read(path: str) -> bytes | None:
        if path == main:
            return source
        return headers[path] if path in headers else _read_or_none(path)

    return read


def _read_or_none(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


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


def run_task(task: FileTask) -> FileReport:
    """:func:`check_file` of a task, what libclang writes to stderr meanwhile captured
    (passed on as one line): how the worker processes of :mod:`cudalint.manager` run
    each file."""
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


