"""Ranges of subscripts over every thread of the block, where the model can give them.

A layout change keeps the program's meaning only while each subscript stays inside its
extent: ``tile[r][32]`` reads the next row's first element in ``[32][32]`` and a
padding element in ``[32][33]``. The range is taken over every thread of every block
shape the kernel is launched with, skipping threads the access's guard turns off; a
subscript that reads a uniform value (a kernel parameter, ``blockIdx``) has no range
here; a loop counter whose values follow from the block shape (``for (j = 0; j < 32;
j += 8)``) takes each of them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from cudalint.ir import BLOCK_DIM, THREAD_IDX, Access, Expr, Sym, TranslationUnit
from cudalint.model.evaluate import EVAL_ERRORS, EvalError, compile_expr, free_symbols
from cudalint.model.shapes import shapes_for
from cudalint.options import Options

_PARAMS = (*THREAD_IDX, *BLOCK_DIM)
_MAX_ITERATIONS = 256
_MAX_COMBINATIONS = 4096
_STEP: dict[str, Callable[[int, int], int]] = {
    "+": lambda v, s: v + s, "-": lambda v, s: v - s, "*": lambda v, s: v * s,
    "/": lambda v, s: int(v / s) if s else v,
    "<<": lambda v, s: v << s if 0 <= s < 64 else v,
    ">>": lambda v, s: v >> s if 0 <= s < 64 else v,
}
_CMP: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "!=": lambda a, b: a != b,
}


def loop_values(sym: Sym, shape: tuple[int, int, int]) -> list[int] | None:
    """The values of a loop counter under a block shape; None when they do not follow."""
    d = sym.induction
    if d is None or d.cmp is None or d.bound is None:
        return None
    env = tuple(shape)
    try:
        start = compile_expr(d.start, BLOCK_DIM)(*env)
        step = compile_expr(d.step, BLOCK_DIM)(*env)
        bound = compile_expr(d.bound, BLOCK_DIM)(*env)
    except (EvalError, KeyError):
        return None
    values: list[int] = []
    v = start
    while _CMP[d.cmp](v, bound):
        values.append(v)
        nv = _STEP[d.op](v, step)
        if nv == v or len(values) > _MAX_ITERATIONS:
            return None
        v = nv
    return values


#: Answers of :func:`index_range` by its inputs, kept by the caller (a file's fix planner;
#: in the language server's worker, one that outlives the file: see ``fixes.layout``).
RangeMemo = dict[tuple[object, ...], "tuple[int, int] | None"]

#: A memo that grows past this is emptied.
RANGES_KEPT = 4096


def index_range(expr: Expr, access: Access, unit: TranslationUnit, options: Options,
                memo: RangeMemo | None = None) -> tuple[int, int] | None:
    """(min, max) of ``expr`` over every active thread, or None when not known.

    A pure function of ``expr``, the access's guard and the block shapes its kernel runs
    with; ``memo`` remembers answers by exactly those (the fix planner asks the same
    question for several candidates and diagnostics of an array, the language server's
    worker on every edit).
    """
    kernel = next((k for k in unit.kernels if k.name == access.kernel), None)
    dims = tuple(s.dims for s in shapes_for(kernel, unit, access, options))
    if memo is None:
        return _index_range(expr, access.guard, dims)
    key = (expr, access.guard, dims)
    try:
        hit = memo.get(key, memo)
    except RecursionError:  # an expression too deep to hash: answer it uncached
        return _index_range(expr, access.guard, dims)
    if hit is not memo:
        return hit  # type: ignore[return-value]
    r = _index_range(expr, access.guard, dims)
    if len(memo) >= RANGES_KEPT:
        memo.clear()
    memo[key] = r
    return r


def _index_range(expr: Expr, guard: Expr | None,
                 dims: tuple[tuple[int, int, int] | None, ...]) -> tuple[int, int] | None:
    """:func:`index_range` over the block shapes ``dims`` (in the order shapes_for gives)."""
    loops = sorted({s for s in free_symbols(expr) if s.name not in _PARAMS},
                   key=lambda s: s.name)
    if any(s.induction is None for s in loops):
        return None
    names = tuple(s.name for s in loops)
    if guard is not None and any(s.name not in (*_PARAMS, *names)
                                 for s in free_symbols(guard)):
        guard = None  # a uniform condition: take every thread
    try:
        f = compile_expr(expr, (*_PARAMS, *names))
        g = compile_expr(guard, (*_PARAMS, *names)) if guard is not None else None
    except EvalError:
        return None
    lo: int | None = None
    hi: int | None = None
    for shape in dims:
        if shape is None:
            return None
        x, y, z = shape
        sequences = [loop_values(s, shape) for s in loops]
        if any(seq is None for seq in sequences):
            return None
        combos = list(itertools.islice(
            itertools.product(*(seq or [] for seq in sequences)), _MAX_COMBINATIONS + 1))
        if len(combos) > _MAX_COMBINATIONS:
            return None
        for tz in range(z):
            for ty in range(y):
                for tx in range(x):
                    for combo in combos:
                        args = (tx, ty, tz, x, y, z, *combo)
                        try:
                            if g is not None and not g(*args):
                                continue
                            v = f(*args)
                        except EVAL_ERRORS:  # unsigned division by zero too
                            return None
                        lo = v if lo is None else min(lo, v)
                        hi = v if hi is None else max(hi, v)
    if lo is None or hi is None:
        return None
    return lo, hi


def within(expr: Expr, extent: int, access: Access, unit: TranslationUnit,
           options: Options, memo: RangeMemo | None = None) -> bool | None:
    """True: always in [0, extent); False: some thread leaves it; None: not known."""
    r = index_range(expr, access, unit, options, memo)
    if r is None:
        return None
    return r[0] >= 0 and r[1] < extent
