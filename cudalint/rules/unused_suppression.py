"""CL100 unused-suppression: a `// cudalint: ignore[...]` comment that suppresses nothing.

## What it does
Reports a `// cudalint: ignore[CODES]` or `// cudalint: ignore-file[CODES]` comment
(or one of its codes) that did not suppress any diagnostic in this run: the access
it was written for was fixed or moved, the code names a rule that is not enabled, or
it names no rule at all. Off by default; `--warn-unused-ignores` (or
`warn-unused-ignores = true` in the configuration) turns it on.

## Why is this bad?
A stale suppression hides the next real conflict that appears on its line, and it
tells readers that a conflict is there when there is none.

## Example
```cuda
__shared__ float tile[32][33];
v = tile[threadIdx.x][threadIdx.y];  // cudalint: ignore[CL001]  (padded: no conflict left)
```

## Use instead
```cuda
v = tile[threadIdx.x][threadIdx.y];
```

## Fix safety
No automatic fix yet: remove the comment, or the codes it lists that are unused.
"""

from __future__ import annotations

from collections.abc import Iterator

from cudalint.diagnostics import Diagnostic
from cudalint.rules.base import FileContext, Rule


def check(ctx: FileContext) -> Iterator[Diagnostic]:
    # Reported by cudalint.suppressions after the other rules ran: only then is it
    # known which suppressions were used.
    return iter(())


RULE = Rule(
    code="CL100",
    name="unused-suppression",
    severity="warning",
    default_enabled=False,
    summary="a 'cudalint: ignore' comment suppresses nothing",
    doc=__doc__ or "",
    check=check,
)
