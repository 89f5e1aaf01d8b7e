"""Applying fixes to files: ``--fix``, ``--unsafe-fixes``, ``--diff``.

Fixes to one file are applied together: identical edits (a declaration edit shared by
the diagnostics of several accesses) once, a fix whose edits overlap an accepted one's
is left for the next round. Rounds repeat on the fixed text, re-analyzed in memory,
until nothing changes (at most ``MAX_ROUNDS``), so that a second ``--fix`` has nothing
to do. A file is written only when the fixed text parses with no new clang error, and
only when it still holds the bytes that were analyzed; the write goes to a temporary
file in the same directory, renamed over the original, with the original's mode.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from cudalint.checker import FileReport, check_file
from cudalint.diagnostics import Applicability, Edit, Fix
from cudalint.edits import splice
from cudalint.fixes.source import offset_of
from cudalint.options import Options
from cudalint.rules import DEFAULT_SELECTION, RuleSelection

MAX_ROUNDS = 8


class FixError(Exception):
    """A file that was not written, and why."""


def allowed(unsafe: bool) -> tuple[Applicability, ...]:
    return ("safe", "unsafe") if unsafe else ("safe",)


def applicable_fixes(report: FileReport, unsafe: bool) -> list[Fix]:
    """The fixes of ``report`` that ``--fix`` (with ``--unsafe-fixes``) may apply, once each."""
    out: list[Fix] = []
    seen: set[tuple[Edit, ...]] = set()
    for d in report.diagnostics:
        fix = d.fix
        if fix is None or fix.applicability not in allowed(unsafe) or not fix.edits:
            continue
        if len({e.file for e in fix.edits}) != 1:
            continue  # one fix edits one file (the main file or a header)
        key = tuple(sorted(fix.edits, key=_edit_order))
        if key not in seen:
            seen.add(key)
            out.append(fix)
    return out


def _edit_order(e: Edit) -> tuple[int, int, int, int, str]:
    return (e.line, e.column, e.end_line, e.end_column, e.content)


def _line_ending(source: bytes) -> bytes:
    return b"\r\n" if b"\r\n" in source else b"\n"


def apply_fixes(source: bytes, fixes: Iterable[Fix]) -> tuple[bytes, int]:
    """``source`` with every fix applied whose edits overlap no accepted edit.

    Returns the new text and how many fixes were applied. An edit identical to an
    accepted one is shared, not an overlap.
    """
    accepted: dict[tuple[int, int], Edit] = {}
    count = 0
    eol = _line_ending(source)
    for fix in fixes:
        ranges = []
        for e in fix.edits:
            a = offset_of(source, e.line, e.column)
            b = offset_of(source, e.end_line, e.end_column)
            ranges.append(((a, b), e))
        clash = False
        for (a, b), e in ranges:
            same = accepted.get((a, b))
            if same is not None:
                if same.content != e.content:
                    clash = True
                continue
            for (x, y) in accepted:
                if (a < y and x < b) or (a == b == x == y):
                    clash = True
        if clash:
            continue
        for (a, b), e in ranges:
            accepted[(a, b)] = e
        count += 1
    return splice(source, ((a, b, _content(e, eol)) for (a, b), e in accepted.items())), count


def _content(e: Edit, eol: bytes) -> bytes:
    """The edit's text with the file's line endings."""
    content = e.content.encode("utf-8")
    if eol == b"\r\n":
        content = content.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return content


def _clang_errors(report: FileReport) -> int:
    if report.unit is None:
        return 1 << 30
    return sum(1 for n in report.unit.notes if n.severity == "error")


@dataclass
class FileFixes:
    path: str
    original: bytes
    fixed: bytes
    applied: int = 0
    #: The analysis of the fixed text (None when nothing changed).
    report: FileReport | None = None
    error: str | None = None
    titles: list[str] = field(default_factory=list)
    #: Project headers the fixes edit (code in a header analysed from this file):
    #: path -> (original, fixed).
    headers: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return self.error is None and (
            self.fixed != self.original
            or any(a != b for a, b in self.headers.values())
        )


#: Applied to each re-analysis before its fixes are taken (e.g. the baseline).
ReportFilter = Callable[[FileReport], None]
#: Analyses the fixed text of the file (its bytes, and the text of the headers the fixes
#: edit by path): the per-file pipeline, suppression comments included.
Recheck = Callable[[bytes, Mapping[str, bytes]], FileReport]


def fix_report(report: FileReport, options: Options, *, unsafe: bool,
               selection: RuleSelection = DEFAULT_SELECTION,
               refilter: ReportFilter | None = None,
               recheck: Recheck | None = None) -> FileFixes:
    """The fixed text of one analyzed file, re-analyzed, round after round, in memory.

    ``report`` is the analysis the user saw (the per-file pipeline's, suppressions
    applied); each round's text is analysed by ``recheck`` (default: the same pipeline,
    :func:`cudalint.checker.check_file` with ``options`` and ``selection``), so that a
    suppressed diagnostic's fix is never applied; ``refilter`` is applied after it.
    """
    if recheck is None:
        def recheck(text: bytes, headers: Mapping[str, bytes]) -> FileReport:
            return check_file(report.path, options, contents=text, selection=selection,
                              headers=headers)

    assert report.source is not None
    result = FileFixes(report.path, report.source, report.source)
    current = report
    errors_before = _clang_errors(report)
    headers: dict[str, bytes] = {}  # the current text of each header a fix edits
    for _ in range(MAX_ROUNDS):
        fixes = applicable_fixes(current, unsafe)
        if not fixes:
            break
        assert current.source is not None
        main = [f for f in fixes if f.edits[0].file == report.path]
        new, count = apply_fixes(current.source, main)
        changed = new != current.source
        new_headers = dict(headers)
        for file in sorted({f.edits[0].file for f in fixes} - {report.path}):
            if file not in headers:
                try:
                    with open(file, "rb") as fh:
                        headers[file] = new_headers[file] = fh.read()
                except OSError:
                    continue
                result.headers[file] = (headers[file], headers[file])
            text, n = apply_fixes(headers[file], [f for f in fixes if f.edits[0].file == file])
            count += n
            changed = changed or text != headers[file]
            new_headers[file] = text
        if count == 0 or not changed:
            break
        after = recheck(new, new_headers)
        if refilter is not None and after.error is None:
            refilter(after)
        if after.error is not None or _clang_errors(after) > errors_before:
            why = after.error or "the fixed text has a new clang error"
            result.error = f"fix not applied: {why}"
            return result
        result.applied += count
        result.titles.extend(f.title for f in fixes[:count])
        result.fixed = new
        for file, text in new_headers.items():
            result.headers[file] = (result.headers[file][0], text)
        headers = new_headers
        result.report = after
        current = after
    return result


def unified_diff(path: str, before: bytes, after: bytes) -> str:
    a = before.decode("utf-8", "replace").splitlines(keepends=True)
    b = after.decode("utf-8", "replace").splitlines(keepends=True)
    lines = difflib.unified_diff(a, b, fromfile=f"a/{path}", tofile=f"b/{path}")
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def unified_diff_bytes(path: str, before: bytes, after: bytes) -> bytes:
    """``unified_diff`` of the files' own bytes: a file that is not UTF-8 keeps its
    bytes, so that ``git apply`` / ``patch`` accept the diff."""
    a = before.splitlines(keepends=True)
    b = after.splitlines(keepends=True)
    name = os.fsencode(path)
    lines = difflib.diff_bytes(difflib.unified_diff, a, b,
                               fromfile=b"a/" + name, tofile=b"b/" + name)
    out = []
    for line in lines:
        out.append(line if line.endswith(b"\n") else line + b"\n\\ No newline at end of file\n")
    return b"".join(out)

