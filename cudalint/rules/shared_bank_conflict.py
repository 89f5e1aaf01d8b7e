"""CL001 shared-bank-conflict: a shared-memory access proved to conflict in every warp.

## What it does
Reports a load, store or atomic on a `__shared__` array that needs more wavefronts
(passes through the 32 banks) than the ideal for its width, for every warp of the
block and every value of the uniform symbols (block index, kernel parameters, …).
The message gives the conflict degree (`N-way` = wavefronts / ideal), and the
notes name the busiest bank, the distinct words it must serve and the lanes that
ask for them, the block shape used and where it came from, and the architecture.

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
No automatic fix yet. Padding changes the array's size and every index into it;
a later version suggests it only after re-checking every access to the array.
"""

from __future__ import annotations

from collections.abc import Iterator

from cudalint.diagnostics import Diagnostic
from cudalint.rules.base import FileContext, Rule, access_diagnostic, conflict_message

MESSAGE = "{ways}-way bank conflict on {kind} of '{array}' ({wavefronts} wavefronts, ideal {ideal})"


def check(ctx: FileContext) -> Iterator[Diagnostic]:
    for result in ctx.results:
        if result.status == "proved" and result.has_conflict:
            yield access_diagnostic(RULE, ctx, result, conflict_message(MESSAGE, ctx, result))


RULE = Rule(
    code="CL001",
    name="shared-bank-conflict",
    severity="warning",
    default_enabled=True,
    summary="a shared-memory access has a bank conflict in every warp",
    doc=__doc__ or "",
    check=check,
)
