"""Proofs over every warp of the block and every value of the uniform symbols.

For one access, one block shape and one bank mode:

1. Opaque values whose inputs are all uniform become fresh uniform symbols; an opaque
   value that depends on the thread index makes the access ``unknown``.
2. The byte offset is split (sympy, :mod:`cudalint.model.algebra`) into a part that
   depends on the enumerated symbols (thread index, and the block shape when it is not
   known) and a uniform part. The array's base address is one more uniform shift (a
   multiple of its alignment).
3. Separable: each warp is evaluated once with C semantics, then every residue of the
   uniform shift modulo the bank period (4 bytes, 8 in Kepler's 8-byte mode, 256 in its
   4-byte mode; at least the access width) is costed. Equal costs for every residue:
   ``proved``. Otherwise ``worst-case`` with the condition that gives the worst.
4. Not separable: the entangled uniform symbols are sampled over a stated range and the
   result is ``worst-case`` over that range.
5. Guards evaluable per lane deactivate lanes; a guard that mixes the thread index with
   an unknown uniform value leaves every lane active. The cost never grows when lanes
   drop out (each phase's busiest bank can only lose words, and merging phases never
   costs more than serving them apart), so all-active is an upper bound: a clean result
   stays ``proved``, a conflict becomes ``worst-case``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cudalint.ir import (
    BLOCK_DIM,
    THREAD_IDX,
    Access,
    Binary,
    BlockDimSource,
    Cast,
    Const,
    Expr,
    Kernel,
    Opaque,
    Select,
    SharedArray,
    Sym,
    TranslationUnit,
    Unary,
)
from cudalint.model.arch import Arch, parse_arch

if TYPE_CHECKING:
    from cudalint.model.algebra import Split
from cudalint.model.banks import warp_cost
from cudalint.model.evaluate import EvalError, compile_expr, free_symbols
from cudalint.model.results import AccessResult, Cost
from cudalint.model.warps import ENUMERATED, Warp, assumed_shape_warps, known_shape_warps
from cudalint.options import Options

LANE_PARAMS = (*THREAD_IDX, *BLOCK_DIM)
#: Values tried for entangled uniform symbols, by how many there are.
_SAMPLES = {1: 64, 2: 16, 3: 6}
_BASE_VALUES = (0, 1, 3, 7, 64)


@dataclass(frozen=True)
class _Separable:
    """Stands in for algebra.Split when the offset reads no uniform symbol."""

    separable: bool = True
    uniform_symbols: tuple[str, ...] = ()
    coefficients: tuple[tuple[str, int], ...] | None = ()
    entangled: tuple[str, ...] = ()

    def shift_step(self, period: int) -> int:
        return period


_NO_UNIFORMS = _Separable()


@dataclass(frozen=True)
class Shape:
    dims: tuple[int, int, int] | None
    source: BlockDimSource
    max_threads: int = 1024


# --- opaque values -------------------------------------------------------------------------


def _is_lane_dependent(expr: Expr) -> bool:
    return any(s.lane_dependent for s in free_symbols(expr))


def _abstract_opaques(expr: Expr, found: dict[Opaque, Sym]) -> Expr:
    """Replace uniform Opaque nodes by symbols; raise on a lane-dependent one."""
    if isinstance(expr, Opaque):
        if _is_lane_dependent(expr):
            raise _LaneOpaque(expr.reason)
        sym = found.get(expr)
        if sym is None:
            sym = Sym(f"opaque{len(found)}", expr.type)
            found[expr] = sym
        return sym
    if isinstance(expr, Unary | Cast):
        return replace(expr, operand=_abstract_opaques(expr.operand, found))
    if isinstance(expr, Binary):
        return replace(
            expr, lhs=_abstract_opaques(expr.lhs, found), rhs=_abstract_opaques(expr.rhs, found)
        )
    if isinstance(expr, Select):
        return replace(
            expr,
            cond=_abstract_opaques(expr.cond, found),
            then=_abstract_opaques(expr.then, found),
            other=_abstract_opaques(expr.other, found),
        )
    return expr


def _substitute(expr: Expr, values: dict[str, int]) -> Expr:
    if isinstance(expr, Sym):
        v = values.get(expr.name)
        return expr if v is None else Const(v, expr.type)
    if isinstance(expr, Unary | Cast):
        return replace(expr, operand=_substitute(expr.operand, values))
    if isinstance(expr, Binary):
        return replace(expr, lhs=_substitute(expr.lhs, values), rhs=_substitute(expr.rhs, values))
    if isinstance(expr, Select):
        return replace(
            expr,
            cond=_substitute(expr.cond, values),
            then=_substitute(expr.then, values),
            other=_substitute(expr.other, values),
        )
    if isinstance(expr, Opaque):
        return replace(expr, inputs=tuple(_substitute(i, values) for i in expr.inputs))
    return expr


class _LaneOpaque(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- the proof -------------------------------------------------------------------------------


def period(arch: Arch, bank_mode: int, width: int) -> int:
    """Uniform shifts by a multiple of this many bytes never change the cost."""
    if arch.family == "kepler":
        return 256 if bank_mode == 4 else max(8, width)
    return max(4, width)


def alignment(array: SharedArray | None, width: int) -> int:
    """The alignment of the array's base that cudalint relies on."""
    if array is not None and array.alignment > 0:
        return array.alignment
    size = array.element_bytes if array is not None else width
    a = 1
    while size % (a * 2) == 0 and a < 16:
        a *= 2
    return a


def static_layout(tu: TranslationUnit) -> dict[tuple[str, str], int]:
    """Byte offsets of static shared arrays in each kernel's shared window, where certain.

    nvcc (ptxas, CUDA 12/13, checked in SASS on sm_90) places the static ``__shared__``
    variables a kernel references in declaration order, each at its natural alignment,
    after a reserved area whose size is a multiple of 256 bytes; unreferenced ones are
    dropped. Offsets are given only when every array of the kernel is known: none
    declared in a ``__device__`` function (called kernels would interleave them) and
    no dynamic shared memory. Keys are (kernel, array key).
    """
    kernel_names = {k.name for k in tu.kernels}
    if any(a.kernel is not None and a.kernel not in kernel_names for a in tu.arrays):
        return {}
    used: dict[str, set[str]] = {}
    for acc in tu.accesses:
        used.setdefault(acc.kernel, set()).add(acc.array)
    order = sorted(tu.arrays, key=lambda a: (a.span.line, a.span.column))
    out: dict[tuple[str, str], int] = {}
    for kernel, keys in used.items():
        offset = 0
        for arr in order:
            if arr.key not in keys:
                continue
            align = alignment(arr, arr.element_bytes)
            offset = (offset + align - 1) // align * align
            out[(kernel, arr.key)] = offset
            offset += arr.size_bytes
    return out


@dataclass
class _Outcome:
    cost: Cost
    warp: Warp
    shift: int


def _costs(
    addresses: list[list[int | None]],
    warps: list[Warp],
    shifts: Iterable[int],
    access: Access,
    arch: Arch,
    bank_mode: int,
    cache: dict[tuple[object, ...], Cost],
) -> dict[int, _Outcome]:
    """Worst warp per feasible shift (shifts that misalign some lane are skipped)."""
    p = period(arch, bank_mode, access.width)
    out: dict[int, _Outcome] = {}
    for r in shifts:
        worst: _Outcome | None = None
        for warp, addrs in zip(warps, addresses, strict=True):
            shifted = [None if a is None else a + r for a in addrs]
            if any(a is not None and a % access.width for a in shifted):
                break
            present = [a for a in shifted if a is not None]
            if not present:
                continue
            base = min(present) // p * p
            key = tuple(None if a is None else a - base for a in shifted)
            cost = cache.get(key)
            if cost is None:
                cost = warp_cost(shifted, access.width, access.kind, arch, bank_mode)
                cache[key] = cost
            if worst is None or (cost.ways, cost.wavefronts) > (
                worst.cost.ways,
                worst.cost.wavefronts,
            ):
                worst = _Outcome(cost, warp, r)
        else:
            if worst is not None:
                out[r] = worst
    return out


def _evaluate_warps(
    offset: Expr,
    guard: Expr | None,
    warps: list[Warp],
    free: tuple[str, ...],
    values: tuple[int, ...],
) -> list[list[int | None]]:
    params = (*LANE_PARAMS, *free)
    off = compile_expr(offset, params)
    grd = compile_expr(guard, params) if guard is not None else None
    result = []
    for warp in warps:
        addrs: list[int | None] = []
        for lane in warp.lanes:
            if lane is None:
                addrs.append(None)
                continue
            args = (*lane, *values)
            if grd is not None and not grd(*args):
                addrs.append(None)
            else:
                addrs.append(off(*args))
        result.append(addrs)
    return result


def _base_values(
    offset: Expr, guard: Expr | None, warps: list[Warp], free: tuple[str, ...]
) -> tuple[tuple[int, ...], list[list[int | None]]]:
    last: EvalError | None = None
    for v in _BASE_VALUES:
        values = tuple(v for _ in free)
        try:
            return values, _evaluate_warps(offset, guard, warps, free, values)
        except EvalError as e:
            last = e
    raise last if last is not None else EvalError("no value")


def _condition(
    worst_shift: int, coefficients: tuple[tuple[str, int], ...] | None, base: tuple[int, ...],
    free: tuple[str, ...], p: int, array: SharedArray | None,
) -> str:
    if coefficients is not None and len(coefficients) == 1:
        name, c = coefficients[0]
        # c * (u - u0) = worst_shift (mod p)
        for j in range(p):
            if (c * j) % p == worst_shift % p:
                modulus = p // _gcd(c, p)
                u0 = base[free.index(name)]
                return f"when {name} % {modulus} == {(u0 + j) % modulus}"
    if not coefficients and array is not None:
        return f"when '{array.name}' starts at byte {worst_shift} mod {p}"
    names = ", ".join(n for n in free if not n.startswith("opaque")) or "the uniform values"
    return f"for some values of {names} (uniform shift {worst_shift} mod {p})"


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def prove(
    access: Access,
    array: SharedArray | None,
    shape: Shape,
    arch: Arch,
    bank_mode: int,
    base: int | None = None,
) -> AccessResult:
    """The result of one access under one block shape and bank mode.

    ``base`` is the array's byte offset in the shared window when the layout is known;
    otherwise every base the array's alignment allows is considered.
    """

    def result(status: str, cost: Cost | None, reason: str | None, warp: Warp | None = None
               ) -> AccessResult:
        return AccessResult(
            access=access, arch=arch.name, bank_mode=bank_mode,
            status=status,  # type: ignore[arg-type]
            wavefronts=cost.wavefronts if cost else None,
            ideal_wavefronts=cost.ideal if cost else None,
            reason=reason, block_dim=shape.dims, block_dim_source=shape.source,
            conflict=cost.conflict if cost else None,
            warp=warp.index if warp is not None else None,
        )

    if access.unknown_reason:
        return result("unknown", None, access.unknown_reason)
    if access.kind == "atomic" and access.width > 4:
        return result(
            "unknown", None,
            f"{access.width * 8}-bit shared atomics compile to a compare-and-swap loop "
            "whose cost depends on contention",
        )
    opaques: dict[Opaque, Sym] = {}
    try:
        offset = _abstract_opaques(access.offset, opaques)
    except _LaneOpaque as e:
        return result("unknown", None, f"index depends on {e.reason}")
    guard = access.guard
    guard_note: str | None = None
    if guard is not None:
        try:
            guard = _abstract_opaques(guard, opaques)
        except _LaneOpaque as e:
            guard, guard_note = None, f"the guard depends on {e.reason}"
    if guard is not None:
        gsyms = {s.name for s in free_symbols(guard)}
        if not gsyms & ENUMERATED:
            guard = None  # uniform: all lanes or none
        elif gsyms - ENUMERATED:
            guard_note = "the guard depends on " + ", ".join(sorted(gsyms - ENUMERATED))
            guard = None

    if shape.dims is not None:
        known = dict(zip(BLOCK_DIM, shape.dims, strict=True))
        offset = _substitute(offset, known)
        guard = _substitute(guard, known) if guard is not None else None
    osyms = {s.name for s in free_symbols(offset)}
    if guard is not None:
        osyms |= {s.name for s in free_symbols(guard)}
    enumerated = (
        frozenset(THREAD_IDX) if shape.dims is not None else ENUMERATED
    )
    free = tuple(sorted(osyms - ENUMERATED))
    used = frozenset(osyms & ENUMERATED)
    if shape.dims is not None:
        warps = known_shape_warps(shape.dims)
    else:
        warps = list(assumed_shape_warps(used, shape.max_threads))

    p = period(arch, bank_mode, access.width)
    align = alignment(array, access.width)
    cache: dict[tuple[object, ...], Cost] = {}
    try:
        if free:
            # sympy is imported only when a uniform symbol needs the algebra.
            from cudalint.model.algebra import split

            sp: Split | _Separable = split(offset, frozenset(enumerated), frozenset(free))
        else:
            sp = _NO_UNIFORMS
        if sp.separable:
            values, addresses = _base_values(offset, guard, warps, free)
            if base is None:
                step = _gcd(sp.shift_step(p), align)
                shifts: Iterable[int] = range(0, p, step)
            else:
                step = sp.shift_step(p)
                shifts = sorted({(base + j) % p for j in range(0, p, step)})
            outcomes = _costs(addresses, warps, shifts, access, arch, bank_mode, cache)
            if not outcomes:
                return result("unknown", None, "no lane executes the access, or it is misaligned")
            worst = max(outcomes.values(), key=lambda o: (o.cost.ways, o.cost.wavefronts))
            distinct = {(o.cost.wavefronts, o.cost.ideal) for o in outcomes.values()}
            if len(distinct) > 1:
                coeffs = sp.coefficients if sp.uniform_symbols else ()
                cond = _condition(worst.shift - (base or 0), coeffs, values, free, p, array)
                return result("worst-case", worst.cost, cond, worst.warp)
            return _guarded(result, worst, guard_note)
        # Entangled: sample the uniform symbols over a stated range.
        n = _SAMPLES.get(len(free), 3)
        best: tuple[_Outcome, tuple[int, ...]] | None = None
        for values in itertools.product(range(n), repeat=len(free)):
            try:
                addresses = _evaluate_warps(offset, guard, warps, free, values)
            except EvalError:
                continue
            at_base = range(0, p, align) if base is None else (base % p,)
            outcomes = _costs(addresses, warps, at_base, access, arch, bank_mode, cache)
            for o in outcomes.values():
                if best is None or (o.cost.ways, o.cost.wavefronts) > (
                    best[0].cost.ways, best[0].cost.wavefronts,
                ):
                    best = (o, values)
        if best is None:
            return result("unknown", None, "the index has no defined value in the sampled range")
        names = ", ".join(free)
        at = ", ".join(f"{k} = {v}" for k, v in zip(free, best[1], strict=True))
        reason = (
            f"{', '.join(sp.entangled)} changes the lane pattern; worst over "
            f"{names} in [0, {n - 1}], at {at}"
        )
        return result("worst-case", best[0].cost, reason, best[0].warp)
    except EvalError as e:
        return result("unknown", None, f"the index is undefined: {e}")


def _guarded(
    result: Callable[[str, Cost | None, str | None, Warp | None], AccessResult],
    worst: _Outcome,
    guard_note: str | None,
) -> AccessResult:
    if guard_note is None or worst.cost.wavefronts <= worst.cost.ideal:
        return result("proved", worst.cost, None, worst.warp)
    return result(
        "worst-case", worst.cost, f"if every lane passes the guard ({guard_note})", worst.warp
    )


# --- block shapes and the whole unit ---------------------------------------------------------


def shapes_for(kernel: Kernel | None, tu: TranslationUnit, access: Access, options: Options
               ) -> list[Shape]:
    cap = kernel.max_threads if kernel and kernel.max_threads else 1024
    if options.block_dim is not None:
        return [Shape(options.block_dim, options.block_dim_source, cap)]
    if kernel is not None and kernel.annotated_block is not None:
        return [Shape(kernel.annotated_block, "annotation", cap)]
    dims = sorted(
        {
            launch.block
            for launch in tu.launches
            if launch.kernel == access.kernel
            and launch.block is not None
            and (launch.instantiation is None or access.instantiation is None
                 or launch.instantiation == access.instantiation)
        }
    )
    if dims:
        return [Shape(d, "launch", cap) for d in dims]
    return [Shape(None, "assumed", cap)]


_STATUS_RANK = {"proved": 0, "worst-case": 1, "unknown": 2}


def _worse(a: AccessResult, b: AccessResult) -> AccessResult:
    def key(r: AccessResult) -> tuple[float, int, int]:
        return (r.ways or 0.0, r.wavefronts or 0, _STATUS_RANK[r.status])

    return a if key(a) >= key(b) else b


def analyze(tu: TranslationUnit, options: Options) -> list[AccessResult]:
    """One result per access x bank mode, in source order."""
    arch = parse_arch(options.arch)
    kernels = {k.name: k for k in tu.kernels}
    arrays = {a.key: a for a in tu.arrays}
    layout = static_layout(tu)
    out = []
    for access in tu.accesses:
        shapes = shapes_for(kernels.get(access.kernel), tu, access, options)
        for mode in options.bank_modes():
            combined: AccessResult | None = None
            for shape in shapes:
                base = layout.get((access.kernel, access.array))
                r = prove(access, arrays.get(access.array), shape, arch, mode, base)
                combined = r if combined is None else _worse(combined, r)
            assert combined is not None
            out.append(combined)
    return out
