"""Baseline files: record today's findings, then report only new ones.

``cudalint --baseline cudalint-baseline.json src/`` writes the file when it does not
exist yet (every diagnostic of the run) and reports nothing; once it exists, the
diagnostics it records are dropped and only new ones are reported (and fail).

A finding is recorded by its file (relative to the baseline's directory, with ``/``),
rule code, message and the text of its source line without surrounding blanks, not by
its line number: edits elsewhere in the file do not make old findings new. The same
finding twice on identical lines is counted.
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

VERSION = 1

Key = tuple[str, str, str, str]


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


def _key(d: Diagnostic, report: FileReport, base: str) -> Key:
    return (_file_key(d.file, base), d.code, d.message, _line_text(d, report))


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
    if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(
        findings, list
    ):
        raise BaselineError(
            f"{path}: not a cudalint baseline (expected {{\"version\": {VERSION}, "
            "\"findings\": [...]}})"
        )
    counts: Counter[Key] = Counter()
    for item in findings:
        fields = ("file", "code", "message", "line_text")
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in fields):
            raise BaselineError(f"{path}: malformed finding {item!r}")
        count = item.get("count", 1)
        if not isinstance(count, int) or count < 1:
            raise BaselineError(f"{path}: malformed count in {item!r}")
        counts[(item["file"], item["code"], item["message"], item["line_text"])] += count
    return counts


def write_baseline(path: str, reports: Sequence[FileReport], *, create: bool = False) -> int:
    """Record every diagnostic of ``reports``; returns how many.

    The file is replaced atomically (``fsutil.write_file``); with ``create``, only when
    it still does not exist (a baseline written meanwhile is kept).
    """
    base = _base(path)
    counts: Counter[Key] = Counter(
        _key(d, report, base) for report in reports for d in report.diagnostics
    )
    document = {
        "version": VERSION,
        "findings": [
            {"file": f, "code": c, "message": m, "line_text": t, "count": n}
            for (f, c, m, t), n in sorted(counts.items())
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
    for report in reports:
        kept: list[Diagnostic] = []
        for d in report.diagnostics:
            key = _key(d, report, base)
            if remaining[key] > 0:
                remaining[key] -= 1
                report.suppressed += 1
            else:
                kept.append(d)
        report.diagnostics = kept
