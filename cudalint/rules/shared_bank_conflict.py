"""CL001 shared-bank-conflict: a shared-memory access proved to conflict in every warp.

## What it does
Reports a load, store or atomic on a `__shared__` array that needs more wavefronts
(passes through the 32 banks) than the ideal for its width, for every warp of the
block and every value of the uniform symbols (block index, kernel parameters, …).
The message gives the conflict degree (`N-way` = wavefronts / ideal), and the
notes name the busiest bank, the distinct words it must serve and the lanes that
ask for them, the block shape used and where it came from, and the architecture.
On Kepler with both bank modes analysed (the default on sm_3x) an access is reported
once, with each mode's cost: `... in 4-byte bank mode; 8-byte bank mode: no conflict
(1 wavefront, ideal 1)`, or `... in both bank modes` when they agree. CL001 reports it
when some mode is proved to conflict, CL002 when some mode may.

## Why is this bad?
Shared memory serves one 4-byte word per bank per wavefront. When lanes of a warp
touch different words that map to the same bank, the hardware replays the access
once per extra word: a 32-way conflict makes the access 32 times slower, and the
instruction holds up the whole warp while it is replayed.

## Example
```cuda
__global__ void transpose(float *out, const float *in) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[...];
    __syncthreads();
    out[...] = tile[threadIdx.x][threadIdx.y];  // 32-way: column walk, stride 32 words
}
```

## Use instead
Pad the inner dimension by one word so that consecutive rows start in different
banks, or swizzle the column index with the row:
```cuda
__shared__ float tile[32][33];                              // padding
out[...] = tile[threadIdx.x][threadIdx.x ^ threadIdx.y];    // or an XOR swizzle
```

## Fix safety
A fix is offered only after the model has re-checked every access to the array, in
every kernel, loads and stores, with the fix applied: no access may get worse and
this one must get better. Padding (the smallest pad that makes every access clean,
else the one with the fewest wavefronts; a multiple of the vector width when the
array is also read as `float2`/`float4`; never past 48 KiB of static shared memory) is
**safe** when every use of the array is a subscript whose last index provably stays
inside its extent, **unsafe** when that cannot be shown, and **display-only** when the
array is also used through a pointer, which cudalint can neither re-check nor
rewrite. A 1-D array used as 2-D is padded by a new row stride in every subscript,
only when every subscript can be rewritten. An XOR swizzle of the column index is
derived when no pad is clean; it is unsafe (every subscript is rewritten). On sm_3x,
8-byte accesses that are clean in 8-byte bank mode get the display-only suggestion
`cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte)`. `--fix` applies safe
fixes, `--unsafe-fixes` adds unsafe ones, `--diff` shows them.
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

MESSAGE = "{ways}-way bank conflict on {kind} of '{array}' ({wavefronts} wavefronts, ideal {ideal})"
#: An atomic that serves its lanes one at a time, where lanes share one address (words
#: of one bank): the cost is serialization, measured on sm_90 (docs/bank-model.md).
SERIALIZED = (
    "{lanes} lanes serialize on one address in {op} on '{array}' "
    "({wavefronts} wavefronts, ideal {ideal})"
)
SERIALIZED_BANK = (
    "{ways}-way serialized {op} on '{array}': {lanes} lanes on {words} words of bank {bank} "
    "({wavefronts} wavefronts, ideal {ideal})"
)


def check(ctx: FileContext) -> Iterator[Diagnostic]:
    # On Kepler an access has a result per bank mode: one diagnostic gives them all
    for group in bank_mode_groups(ctx.results):
        result = group_primary(group, RULE.code)
        if result is None:
            continue
        message = conflict_message(MESSAGE, ctx, result, (SERIALIZED, SERIALIZED_BANK),
                                   modes=group)
        message += other_modes_clause(result, group)
        diagnostic = access_diagnostic(RULE, ctx, result, message, modes=group)
        yield replace(diagnostic, fix=group_fix(ctx, result, group))


RULE = Rule(
    code="CL001",
    name="shared-bank-conflict",
    severity="warning",
    default_enabled=True,
    summary="a shared-memory access has a bank conflict in every warp",
    doc=__doc__ or "",
    check=check,
)
