"""Diagnostics and access results as plain JSON-ready dicts (shared by machine formats)."""

from __future__ import annotations

from typing import Any

from cudalint.api import FileReport
from cudalint.diagnostics import Diagnostic, Fix
from cudalint.model.results import AccessResult, BankConflict
from cudalint.rules import FileContext

#: Access fields in the order they are written; diagnostics repeat them.
ACCESS_FIELDS = (
    "kernel",
    "array",
    "kind",
    "width",
    "arch",
    "bank_mode",
    "wavefronts",
    "ideal_wavefronts",
    "ways",
    "status",
    "reason",
    "block_dim",
    "block_dim_source",
    "conflict",
    "instantiation",
    "warp",
    "ways_formula",
    "merged_width",
    "merged_with",
    "called_at",
)

_KIND_ORDER = {"load": 0, "store": 1, "atomic": 2}


def json_number(value: float | None) -> int | float | None:
    """Integral values as ints (``32``, not ``32.0``); others rounded to 6 places."""
    if value is None:
        return None
    if float(value).is_integer():
        return int(value)
    return round(value, 6)


def _context(report: FileReport) -> FileContext | None:
    if report.unit is None:
        return None
    return FileContext(path=report.path, unit=report.unit, results=report.results)


def conflict_record(conflict: BankConflict | None) -> dict[str, Any] | None:
    if conflict is None:
        return None
    return {
        "bank": conflict.bank,
        "words": list(conflict.words),
        "lanes": [list(lanes) for lanes in conflict.lanes],
    }


def access_fields(ctx: FileContext, result: AccessResult) -> dict[str, Any]:
    access = result.access
    conflict = result.conflict
    return {
        "kernel": access.kernel,
        "array": ctx.array_name(access),
        "kind": access.kind,
        "width": access.width,
        "arch": result.arch,
        "bank_mode": result.bank_mode,
        "wavefronts": result.wavefronts,
        "ideal_wavefronts": result.ideal_wavefronts,
        "ways": json_number(result.ways),
        "status": result.status,
        "reason": result.reason,
        "block_dim": list(result.block_dim) if result.block_dim is not None else None,
        "block_dim_source": result.block_dim_source,
        "conflict": conflict_record(conflict),
        "instantiation": access.instantiation,
        "warp": result.warp,
        "ways_formula": result.ways_formula,
        "merged_width": result.merged_width,
        "merged_with": list(result.merged_with),
        "called_at": [{"file": ctx.display_file(s.file), "line": s.line, "column": s.column}
                      for s in access.call_sites],
    }


def access_record(ctx: FileContext, result: AccessResult) -> dict[str, Any]:
    span = result.access.span
    return {
        "file": ctx.display_file(span.file),
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        **access_fields(ctx, result),
    }


def fix_record(fix: Fix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    return {
        "title": fix.title,
        "applicability": fix.applicability,
        "edits": [
            {
                "file": e.file,
                "line": e.line,
                "column": e.column,
                "end_line": e.end_line,
                "end_column": e.end_column,
                "content": e.content,
            }
            for e in fix.edits
        ],
    }


def diagnostic_record(ctx: FileContext, diagnostic: Diagnostic) -> dict[str, Any]:
    record: dict[str, Any] = {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity,
        "message": diagnostic.message,
        "file": diagnostic.file,
        "line": diagnostic.line,
        "column": diagnostic.column,
        "end_line": diagnostic.end_line,
        "end_column": diagnostic.end_column,
        "fix": fix_record(diagnostic.fix),
        "notes": list(diagnostic.notes),
    }
    if diagnostic.result is not None:
        record.update(access_fields(ctx, diagnostic.result))
    else:
        record.update(dict.fromkeys(ACCESS_FIELDS))
    record["bank_modes"] = bank_modes_record(diagnostic)
    return record



def bank_modes_record(diagnostic: Diagnostic) -> list[dict[str, Any]] | None:
    """Kepler with both bank modes: the access's cost in each mode, 4-byte first (the
    diagnostic reports them all once); None when one mode was analysed."""
    if not diagnostic.bank_modes:
        return None
    return [
        {
            "bank_mode": r.bank_mode,
            "wavefronts": r.wavefronts,
            "ideal_wavefronts": r.ideal_wavefronts,
            "ways": json_number(r.ways),
            "status": r.status,
            "reason": r.reason,
            "conflict": conflict_record(r.conflict),
        }
        for r in diagnostic.bank_modes
    ]


def diagnostic_record_key(r: dict[str, Any]) -> tuple[Any, ...]:
    return (
        r["file"], r["line"], r["column"], r["code"], r["end_line"], r["end_column"],
        r["bank_mode"] or 0, r["instantiation"] or "", r["message"],
    )


def access_record_key(r: dict[str, Any]) -> tuple[Any, ...]:
    return (
        r["file"], r["line"], r["column"], r["end_line"], r["end_column"],
        _KIND_ORDER.get(r["kind"], 9), r["bank_mode"], r["instantiation"] or "", r["array"],
    )


def collect(
    reports: list[FileReport] | tuple[FileReport, ...], show_all: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, str]]]:
    """Sorted diagnostics, accesses and errors of all reports."""
    diagnostics: list[dict[str, Any]] = []
    accesses: list[dict[str, Any]] = []
    errors: list[dict[str, str]] = []
    for report in reports:
        if report.error is not None:
            errors.append({"file": report.path, "message": report.error})
        ctx = _context(report)
        if ctx is None:
            continue
        shown: dict[int, AccessResult] = {}
        for d in report.diagnostics:
            diagnostics.append(diagnostic_record(ctx, d))
            for r in d.bank_modes or ((d.result,) if d.result is not None else ()):
                shown[id(r)] = r
        chosen = report.results if show_all else list(shown.values())
        accesses.extend(access_record(ctx, r) for r in chosen)
    diagnostics.sort(key=diagnostic_record_key)
    accesses.sort(key=access_record_key)
    errors.sort(key=lambda e: (e["file"], e["message"]))
    return diagnostics, accesses, errors
