"""CL004 partial-parse: a clang error hid part of the file from the analysis.

## What it does
Reports the first error clang found while parsing a file that still parsed (a
missing `#include`, a type the CUDA shim does not know, a syntax error). The
notes list further errors. The file is analyzed anyway, but code that clang could
not make sense of may be missing from the results. This is information, not a
failure: it does not change the exit status. It also reports, one by one, the
functions and statements cudalint itself had to skip (a construct it does not
handle, inline PTX it cannot trace to an array, a pointer into a shared array stored in
a struct member, whose accesses through the member are not followed), so that no
skipped code goes unmentioned. An inline-PTX `ld.shared`/`st.shared`/… whose address
cannot be traced has no access record, but the summary line counts it as an unknown access (JSON
`summary.untraced`), so it weighs on `--max-unknown` like any other unknown access.

## Why is this bad?
An access in code that clang dropped is not checked, so a clean report for the
file may be incomplete.

## Example
```cuda
#include "my_project/tiles.cuh"   // not found: no -I for it
```

## Use instead
Pass the include directories and macros the file needs (`-I DIR`, `-D NAME=VALUE`),
or point `--cuda-path` at a CUDA toolkit when the file needs its headers.

## Fix safety
No fix.
"""

from __future__ import annotations

from collections.abc import Iterator

from cudalint.diagnostics import Diagnostic
from cudalint.ir import Note, Span
from cudalint.rules.base import FileContext, Rule

MESSAGE = "clang: {message}; code it affects may be missing from the analysis"
MORE = "and {count} more clang errors"
#: How clang ends the message for a missing ``#include``.
MISSING_INCLUDE = "file not found"
#: Further errors listed as notes before ``MORE`` sums up the rest.
_LISTED = 3


def check(ctx: FileContext) -> Iterator[Diagnostic]:
    yield from _skipped(ctx)
    errors = [n for n in ctx.unit.notes if _hides_code(n)]
    if not errors:
        return
    first = errors[0]
    notes = [f"clang: {e.message}" + _where(ctx, e.span) for e in errors[1 : 1 + _LISTED]]
    rest = len(errors) - 1 - _LISTED
    if rest > 0:
        notes.append(MORE.format(count=rest))
    span = first.span
    yield Diagnostic(
        code=RULE.code,
        name=RULE.name,
        severity=RULE.severity,
        message=MESSAGE.format(message=first.message),
        file=ctx.display_file(span.file) if span else ctx.path,
        line=span.line if span else 1,
        column=span.column if span else 1,
        end_line=span.end_line if span else 1,
        end_column=span.end_column if span else 1,
        notes=tuple(notes),
    )


def _skipped(ctx: FileContext) -> Iterator[Diagnostic]:
    """The frontend's own warnings: code it could not analyze (never silently)."""
    for note in ctx.unit.notes:
        if note.severity != "warning":
            continue
        span = note.span
        yield Diagnostic(
            code=RULE.code,
            name=RULE.name,
            severity=RULE.severity,
            message=note.message,
            file=ctx.display_file(span.file) if span else ctx.path,
            line=span.line if span else 1,
            column=span.column if span else 1,
            end_line=span.end_line if span else 1,
            end_column=span.end_column if span else 1,
        )


def _hides_code(note: Note) -> bool:
    # The frontend reports a missing #include as a note (it is not a failure), but the
    # declarations that header would have made are still missing from the analysis.
    return note.severity == "error" or MISSING_INCLUDE in note.message


def _where(ctx: FileContext, span: Span | None) -> str:
    if span is not None:
        return f" (at {ctx.display_file(span.file)}:{span.line}:{span.column})"
    return ""


RULE = Rule(
    code="CL004",
    name="partial-parse",
    severity="info",
    default_enabled=True,
    summary="a clang error (e.g. a missing include) hid part of the file from the analysis",
    doc=__doc__ or "",
    check=check,
)
