"""Diagnostics and fixes: plain values produced by the rules, consumed by the renderers."""

from __future__ import annotations

from dataclasses import dataclass
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
