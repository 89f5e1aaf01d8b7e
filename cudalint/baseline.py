"""Baseline files: record today's findings, then report only new ones.

``cudalint --baseline cudalint-baseline.json src/`` writes the file when it does not
exist yet (every diagnostic of the run) and reports nothing; once it exists, the
diagnostics it records are dropped and only new ones are reported (and fail).

``cudalint --baseline FILE --update-baseline src/`` writes FILE (creating or replacing
it) with the run's findings; ``--baseline FILE`` alone needs FILE to exist (exit 2
otherwise: a mistyped name must not pass as "no new findings").

A finding is recorded by a fingerprint that survives edits: its file (relative to the
baseline's directory, with ``/``), rule code, function (the kernel), shared array, and
the access's source text with blanks collapsed (``tile[threadIdx.x][threadIdx.y]``);
for a finding without an access (CL004, CL100), the text of its source line. Not its
line number (edits above it do not make it new) and not its message, which holds
numbers (wavefronts, block shapes) that a change elsewhere may alter. The same
fingerprint twice (two identical accesses in one kernel) is counted.

Version 1 files (keyed on the message and the line's text) are still read: a finding
matches an entry of either kind.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence

from cudalint.api import FileReport
from cudalint.budget import read_regular
from cudalint.diagnostics import Diagnostic
from cudalint.fsutil import ABSENT, WriteError, write_file

__all__ = ["BaselineError", "apply_baseline", "load_baseline", "write_baseline"]

VERSION = 2
#: Versions :func:`load_baseline` reads; 1 keys on ``message`` and ``line_text``.
READABLE = (1, 2)
_FIELDS = {1: ("file", "code", "message", "line_text"),
           2: ("file", "code", "function", "array", "access")}

#: ``(version, fields...)``: a version-1 and a version-2 key never compare equal.
Key = tuple[object, ...]


class BaselineError(Exception):
    """An unreadable or malformed baseline (exit 2)."""


def _line_text(d: Diagnostic, report: FileReport) -> str:
    source = report.source if d.file == report.path else None
    if source is None:
        try:
            with open(d.file, "rb") as f:
                source = f.read()
        except OSError:
            return ""
    lines = source.split(b"\n")
    if not 1 <= d.line <= len(lines):
        return ""
    return lines[d.line - 1].decode("utf-8", "replace").strip()


def _file_key(file: str, base: str) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(file), base)
    except ValueError:
        rel = os.path.abspath(file)
    return rel.replace(os.sep, "/")


def _v1_key(d: Diagnostic, report: FileReport, base: str) -> Key:
    return (1, _file_key(d.file, base), d.code, d.message, _line_text(d, report))


def _key(d: Diagnostic, report: FileReport, base: str) -> Key:
    """The stable fingerprint: file, rule, function, array, access text."""
    file = _file_key(d.file, base)
    if d.result is None:
        return (2, file, d.code, "", "", " ".join(_line_text(d, report).split()))
    access = d.result.access
    text = " ".join(access.text.split()) or " ".join(_line_text(d, report).split())
    return (2, file, d.code, access.kernel, access.array, text)


def _base(path: str) -> str:
    return os.path.dirname(os.path.abspath(path))


def load_baseline(path: str) -> Counter[Key]:
    try:
        # a regular file only: a FIFO would block, /dev/zero never end
        data = json.loads(read_regular(path, "file").decode("utf-8"))
    except OSError as exc:
        raise BaselineError(f"{path}: cannot read baseline: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BaselineError(f"{path}: invalid JSON: {exc}") from None
    except RecursionError:
        raise BaselineError(f"{path}: invalid JSON: nested too deeply") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise BaselineError(f"{path}: invalid JSON: {exc}") from None
    findings = data.get("findings") if isinstance(data, dict) else None
    version = data.get("version") if isinstance(data, dict) else None
    if not isinstance(data, dict) or version not in READABLE or isinstance(
        version, bool
    ) or not isinstance(findings, list):
        raise BaselineError(
            f"{path}: not a cudalint baseline (expected {{\"version\": {VERSION}, "
            "\"findings\": [...]}})"
        )
    assert isinstance(version, int)
    fields = _FIELDS[version]
    counts: Counter[Key] = Counter()
    for item in findings:
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in fields):
            raise BaselineError(f"{path}: malformed finding {_short(item)}")
        count = item.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise BaselineError(f"{path}: malformed count in {_short(item)}")
        key: Key = (version, *[item[k] for k in fields])
        counts[key] += count
    return counts


def _short(item: object) -> str:
    text = repr(item)
    return text if len(text) <= 200 else text[:200] + "…"


def write_baseline(path: str, reports: Sequence[FileReport], *, create: bool = False) -> int:
    """Record every diagnostic of ``reports``; returns how many.

    The file is replaced atomically (``fsutil.write_file``); with ``create``, only when
    it still does not exist (a baseline written meanwhile is kept). A symbolic link at
    ``path`` is refused, never written through.
    """
    if os.path.islink(path):
        raise BaselineError(f"cannot write baseline: {path} is a symbolic link; not "
                            "written through it")
    base = _base(path)
    counts: Counter[Key] = Counter(
        _key(d, report, base) for report in reports for d in report.diagnostics
    )
    document = {
        "version": VERSION,
        "findings": [
            {"file": f, "code": c, "function": fn, "array": a, "access": t, "count": n}
            for (_, f, c, fn, a, t), n in sorted(counts.items(), key=lambda kv: repr(kv[0]))
        ],
    }
    try:
        data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        raise BaselineError(f"{path}: cannot record a file name that is not UTF-8") from None
    try:
        write_file(path, data, expected=ABSENT if create else None)
    except WriteError as exc:
        raise BaselineError(f"cannot write baseline: {exc}") from None
    return sum(counts.values())


def apply_baseline(path: str, baseline: Counter[Key], reports: Sequence[FileReport]) -> None:
    """Drop the diagnostics ``baseline`` records from ``reports`` (in place)."""
    base = _base(path)
    remaining = Counter(baseline)
    old = any(key[0] == 1 for key in remaining)
    for report in reports:
        kept: list[Diagnostic] = []
        for d in report.diagnostics:
            for key in (_key(d, report, base), *((_v1_key(d, report, base),) if old else ())):
                if remaining[key] > 0:
                    remaining[key] -= 1
                    report.suppressed += 1
                    break
            else:
                kept.append(d)
        report.diagnostics = kept
