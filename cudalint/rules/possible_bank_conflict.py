"""CL002 possible-bank-conflict: a shared-memory access conflicts for some values.

## What it does
Reports an access to a `__shared__` array that conflicts for some values of the
uniform symbols (a kernel parameter, the block index, `blockDim` when the block
shape is not known, a template argument) or in some template instantiation, but
that cudalint cannot prove conflicts for all of them. The message gives the worst
case it found and the condition under which it happens; the notes give the bank,
the words and the lanes of that worst case.

## Why is this bad?
A conflict that appears only for some parameter values is easy to miss in a
benchmark and costs the same when it happens: an `N`-way conflict replays the
access `N` times for the whole warp.

## Example
```cuda
__global__ void k(float *out, int stride) {
    __shared__ float s[1024];
    out[threadIdx.x] = s[threadIdx.x * stride];  // 32-way when stride % 32 == 0
}
```

## Use instead
Give rows an odd pitch in 4-byte words (pad each row by one word), so that no value
of the parameter maps two lanes of a warp to one bank:
```cuda
int pitch = stride + 1;                      // stride is a multiple of 32: pitch is odd
out[threadIdx.x] = s[threadIdx.x * pitch];  // lanes hit 32 different banks
```
When the condition is about `blockDim`, give the block shape (a
`<<<grid, dim3(32, 8)>>>` launch in the file, or `--block-dim 32,8`).

## Fix safety
As for CL001: a padding or swizzle fix is offered only when the model proves, over
the same values and instantiations, that it lowers this access's worst case and makes
no access to the array worse; the right change may still depend on the values the
program really uses.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from cudalint.diagnostics import Diagnostic
from cudalint.rules.base import (
    FileContext,
    Rule,
    access_diagnostic,
    bank_mode_groups,
    conflict_message,
    group_fix,
    group_primary,
    other_modes_clause,
)

MESSAGE = (
    "possible {ways}-way bank conflict on {kind} of '{array}' "
    "({wavefronts} wavefronts, ideal {ideal})"
)
#: An atomic that serves its lanes one at a time, where lanes share one address (see
#: CL001's SERIALIZED).
SERIALIZED = (
    "possible serialization of {lanes} lanes on one address in {op} on '{array}' "
    "({wavefronts} wavefronts, ideal {ideal})"
)
SERIALIZED_BANK = (
    "possible {ways}-way serialized {op} on '{array}': {lanes} lanes on {words} words of "
    "bank {bank} ({wavefronts} wavefronts, ideal {ideal})"
)
#: Appended with the model's reason: a condition (``when stride % 32 == 0``, the result's
#: ``reason_kind``) reads on after a space, a cause after a colon.
CONDITION = " {reason}"
CAUSE = ": {reason}"


def check(ctx: FileContext) -> Iterator[Diagnostic]:
    # On Kepler an access has a result per bank mode: one diagnostic gives them all, from
    # CL001 when some mode is proved to conflict
    for group in bank_mode_groups(ctx.results):
        result = group_primary(group, RULE.code)
        if result is None:
            continue
        message = conflict_message(MESSAGE, ctx, result, (SERIALIZED, SERIALIZED_BANK),
                                   modes=group)
        if result.reason:
            form = CONDITION if result.reason_kind == "condition" else CAUSE
            message += form.format(reason=result.reason)
        message += other_modes_clause(result, group)
        yield replace(access_diagnostic(RULE, ctx, result, message, modes=group),
                      fix=group_fix(ctx, result, group))


RULE = Rule(
    code="CL002",
    name="possible-bank-conflict",
    severity="warning",
    default_enabled=True,
    summary="a shared-memory access has a bank conflict for some values or instantiations",
    doc=__doc__ or "",
    check=check,
)
