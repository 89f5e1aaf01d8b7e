"""Diagnostics and fixes: plain values produced by the rules, consumed by the renderers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cudalint.model.results import AccessResult

Severity = Literal["error", "warning", "info"]
Applicability = Literal["safe", "unsafe", "display-only"]


@dataclass(frozen=True)
class Edit:
    """Replace ``[line:column, end_line:end_column)`` of ``file`` (1-based, UTF-8 bytes)."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@dataclass(frozen=True)
class Fix:
    title: str
    applicability: Applicability
    edits: tuple[Edit, ...]
    #: The access the fix is for, as the fix planner re-checked it with the fix applied
    #: (its worst warp's addresses under the new layout, or in the suggested bank mode):
    #: the "after" bank map. None when not known. Not part of any output format.
    checked: AccessResult | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Diagnostic:
    code: str
    name: str
    severity: Severity
    message: str
    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    #: The access this diagnostic is about (None for file-level diagnostics).
    result: AccessResult | None = None
    fix: Fix | None = None
    #: Extra lines printed under the source excerpt ("note: ...").
    notes: tuple[str, ...] = ()
    #: Kepler with both bank modes analysed: the access's result in each mode, 4-byte
    #: first (``result`` is one of them; the message gives every mode's cost). Empty when
    #: one mode was analysed.
    bank_modes: tuple[AccessResult, ...] = ()
