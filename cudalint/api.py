"""The pipeline as a library: analyze files and get plain results back.

``check_file`` runs one file through frontend → model → rules; ``check_paths`` expands
directories and never lets one file's failure stop the others (as pyflakes'
``api.checkPath`` does). Nothing here prints.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from cudalint.diagnostics import Diagnostic
from cudalint.frontend import FrontendError, parse_file
from cudalint.ir import TranslationUnit
from cudalint.model.proof import analyze
from cudalint.model.results import AccessResult
from cudalint.options import Options
from cudalint.rules import DEFAULT_SELECTION, FileContext, RuleSelection, run_rules

__all__ = ["CUDA_SUFFIXES", "FileReport", "check_file", "check_paths", "expand_paths"]

#: File name endings picked up when a directory is given.
CUDA_SUFFIXES = (".cu", ".cuh")


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
    with open(path, "rb") as f:
        return f.read()


def check_file(
    path: str,
    options: Options,
    contents: bytes | None = None,
    *,
    selection: RuleSelection = DEFAULT_SELECTION,
) -> FileReport:
    """Analyze one file (or ``contents`` under the name ``path``). Never raises."""
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
        try:
            unit = parse_file(path, options, contents=contents)
        except FrontendError as exc:
            report.error = str(exc) or "cannot parse file"
            return report
        if not unit.parsed:
            reasons = "; ".join(n.message for n in unit.notes) or "cannot parse file"
            report.error = reasons
            return report
        report.unit = unit
        report.results = list(analyze(unit, options))
        ctx = FileContext(path=path, unit=unit, results=report.results)
        report.diagnostics = sorted(run_rules(ctx, selection), key=diagnostic_sort_key)
    except Exception as exc:  # one file's bug must not stop the others
        report.unit = None
        report.results = []
        report.diagnostics = []
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        report.error = f"internal error analyzing {path}: {detail}; please report"
    return report


def _walk(directory: str, errors: list[tuple[str, str]]) -> list[str]:
    def onerror(exc: OSError) -> None:
        errors.append((str(exc.filename or directory), exc.strerror or str(exc)))

    found: list[str] = []
    for root, dirs, files in os.walk(directory, onerror=onerror):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(root, f) for f in files if f.endswith(CUDA_SUFFIXES))
    return sorted(found)


def expand_paths(paths: Iterable[str]) -> list[tuple[str, str | None]]:
    """Files to analyze, each with an error when it cannot even be listed.

    Given files are kept as given (even when missing, so that ``check_file`` reports
    them); directories are recursed into for ``.cu``/``.cuh`` files in sorted order.
    """
    seen: set[str] = set()
    out: list[tuple[str, str | None]] = []
    for path in paths:
        candidates: list[tuple[str, str | None]]
        if os.path.isdir(path):
            errors: list[tuple[str, str]] = []
            files = _walk(path, errors)
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


def check_paths(
    paths: Iterable[str],
    options: Options,
    *,
    selection: RuleSelection = DEFAULT_SELECTION,
) -> list[FileReport]:
    """Analyze every file under ``paths``, in order; a bad path gives an error report."""
    reports: list[FileReport] = []
    for path, error in expand_paths(paths):
        if error is not None:
            reports.append(FileReport(path=path, error=error))
        else:
            reports.append(check_file(path, options, selection=selection))
    return reports
