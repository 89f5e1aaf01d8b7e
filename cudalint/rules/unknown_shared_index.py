"""CL003 unknown-shared-index: cudalint cannot decide how an access uses the banks.

## What it does
Reports an access to a `__shared__` array whose index the model cannot decide: it
depends on a value loaded from memory, on an unsupported operation, or on a
construct the frontend does not model yet. The message says why. This rule is off
by default; enable it with `--select CL003` or `--extend-select CL003` to see
which accesses were not checked. Whether or not it is enabled, the summary line
counts the unknown accesses, and a run in which more than `--max-unknown` percent
(default 50) of them are unknown is an error (exit status 2): it did not see what
most of the code does.

## Why is this bad?
It is not bad in itself: it marks a blind spot. An access that cudalint cannot
analyze can still have a bank conflict.

## Example
```cuda
__global__ void k(const int *perm) {
    __shared__ float s[1024];
    float v = s[perm[threadIdx.x]];  // index loaded from global memory
}
```

## Use instead
Nothing needs to change. When the index is in fact an expression of the thread
index, write it as one (or give the block shape) so that cudalint can prove it.

## Fix safety
No fix.
"""

from __future__ import annotations

from collections.abc import Iterator

from cudalint.diagnostics import Diagnostic
from cudalint.rules.base import (
    BANK_MODE_SUFFIX,
    FileContext,
    Rule,
    access_diagnostic,
    bank_mode_groups,
    kind_phrase,
)

MESSAGE = "cannot determine the bank conflicts of {kind} of '{array}'"
#: Appended with the model's cause, e.g. ``: index loaded from memory``.
CAUSE = ": {reason}"


def check(ctx: FileContext) -> Iterator[Diagnostic]:
    # On Kepler an access has a result per bank mode: it is reported once
    for group in bank_mode_groups(ctx.results):
        unknown = [r for r in group if r.status == "unknown"]
        if not unknown:
            continue
        result = unknown[0]
        message = MESSAGE.format(
            kind=kind_phrase(result), array=ctx.array_name(result.access)
        )
        if len(unknown) < len(group):
            message += BANK_MODE_SUFFIX.format(mode=result.bank_mode)
        reason = result.reason or result.access.unknown_reason
        if reason:
            message += CAUSE.format(reason=reason)
        yield access_diagnostic(RULE, ctx, result, message, modes=group)


RULE = Rule(
    code="CL003",
    name="unknown-shared-index",
    severity="info",
    default_enabled=False,
    summary="the model cannot decide the bank behaviour of a shared-memory access",
    doc=__doc__ or "",
    check=check,
)
