"""CL005 split-vector-access: two 4-byte loads that one float2 load could serve.

## What it does
Reports two 4-byte loads from shared memory, in one straight line of code with the
same guard, that read neighbouring words for every thread: `s[2*e]` and `s[2*e + 1]`,
or `a[e]` and `b[e]` of two arrays of the same shape. It proves the wavefronts one
8-byte (`float2`) load at the same place would need and reports the pair only when
that is fewer than the two loads together and adds no bank conflict. On sm_3x it
says which bank mode the `float2` load needs to be conflict-free.

## Why is this bad?
Each load instruction costs at least one pass through the banks. Two 4-byte loads
from `s[2*e]` and `s[2*e + 1]` are each a 2-way conflict (lanes use every other
word); one `float2` load moves the same 256 bytes in 2 wavefronts instead of 4, and
halves the shared-memory instructions. A filter in which every thread reads many
neighbours is often bound by exactly this.

## Example
```cuda
float lo = s[2 * threadIdx.x], hi = s[2 * threadIdx.x + 1];  // 2 + 2 wavefronts
```

## Use instead
```cuda
float2 v = reinterpret_cast<const float2 *>(s)[threadIdx.x];  // 2 wavefronts
```
or keep two arrays read together interleaved as one `float2` array (`ab[e].x`,
`ab[e].y`). On Kepler (sm_3x) consecutive `float2` are conflict-free only in 8-byte
bank mode (`cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte)`).

## Fix safety
Display-only: the change is a new data layout (the array must be 8-byte aligned, and
`a`/`b` become one array), which cudalint shows but does not write.
"""

from __future__ import annotations

from collections.abc import Iterator

from cudalint.diagnostics import Diagnostic, Fix
from cudalint.rules.base import FileContext, Rule, access_notes

MESSAGE = (
    "two 4-byte loads of {what} could be one float2 load "
    "({before} wavefronts -> {after} per warp)"
)
ADJACENT = "'{array}' ({first} and {second})"
INTERLEAVED = "'{a}' and '{b}' at the same subscripts"
TITLE_ADJACENT = "load both words as one float2 (reinterpret_cast<const float2 *>) at {first}"
TITLE_INTERLEAVED = "interleave '{a}' and '{b}' as one float2 array and load .x/.y together"
KEPLER = "; on sm_3x conflict-free only in 8-byte bank mode"


def check(ctx: FileContext) -> Iterator[Diagnostic]:
    from cudalint.fixes import options_from_results
    from cudalint.fixes.packing import find

    options = ctx.options if ctx.options is not None else options_from_results(ctx.results)
    for p in find(ctx.unit, ctx.results, options):
        mode, before, after, _conflict = min(p.costs, key=lambda c: (c[2], c[0]))
        if p.form == "adjacent":
            what = ADJACENT.format(array=ctx.array_name(p.first),
                                   first=p.first.text, second=p.second.text)
            title = TITLE_ADJACENT.format(first=p.first.text)
        else:
            what = INTERLEAVED.format(a=ctx.array_name(p.first), b=ctx.array_name(p.second))
            title = TITLE_INTERLEAVED.format(a=ctx.array_name(p.first),
                                             b=ctx.array_name(p.second))
        if p.needs_eight_byte_mode:
            title += KEPLER
        result = next((r for r in ctx.results if r.access is p.first and r.bank_mode == mode),
                      None)
        span = p.first.span
        yield Diagnostic(
            code=RULE.code,
            name=RULE.name,
            severity=RULE.severity,
            message=MESSAGE.format(what=what, before=before, after=after),
            file=ctx.display_file(span.file),
            line=span.line,
            column=span.column,
            end_line=span.end_line,
            end_column=span.end_column,
            result=result,
            fix=Fix(title, "display-only", ()),
            notes=access_notes(ctx, result) if result is not None else (),
        )


RULE = Rule(
    code="CL005",
    name="split-vector-access",
    severity="info",
    default_enabled=False,
    summary="two 4-byte shared loads that one float2 load could serve with fewer wavefronts",
    doc=__doc__ or "",
    check=check,
)
