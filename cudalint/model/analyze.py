"""The model's entry point: every access of a translation unit proved for each of its
block shapes and bank modes (nvcc's merged and loop-unrolled instructions costed as one,
the static layout of each kernel's arrays), one result per access x bank mode.

A long-lived process (the language server's worker) installs a cache of the analyses of
unchanged kernels with :func:`use_analysis_cache` (cudalint.model.slices). The proofs'
own caches belong to the analysis run (:class:`~cudalint.model.caches.RunCaches`), which
the caller starts (one per file) and passes in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields, is_dataclass, replace

from cudalint.budget import NOT_ANALYZED, BudgetExceeded
from cudalint.budget import check as check_budget
from cudalint.ir import Access, Sym, TranslationUnit
from cudalint.model import proof
from cudalint.model.arch import Arch, parse_arch
from cudalint.model.caches import RunCaches
from cudalint.model.merge import Instructions, merges
from cudalint.model.placement import static_layout
from cudalint.model.proof import NOT_EXECUTED
from cudalint.model.results import AccessResult
from cudalint.model.shapes import Shape, shapes_for
from cudalint.options import Options

__all__ = ["NOT_EXECUTED", "analyze", "kept_alongside", "use_analysis_cache"]


_STATUS_RANK = {"proved": 0, "worst-case": 1, "unknown": 2}




def _worse(a: AccessResult, b: AccessResult) -> AccessResult:
    """The worse of two results of one access; one that is not executed never wins."""
    if a.executed != b.executed:
        return a if a.executed else b

    def key(r: AccessResult) -> tuple[float, int, int]:
        return (r.ways or 0.0, r.wavefronts or 0, _STATUS_RANK[r.status])

    return a if key(a) >= key(b) else b


def _dominating(shapes: list[Shape], access: Access,
                each: list[tuple[Shape, AccessResult]]) -> Iterator[Shape]:
    """The shapes of ``shapes`` whose results decide the worst over all of them, and
    whether they all cost the same, where a bounded set (``min(1024, n)``: 1024 shapes,
    ``Shape.bound``) would cost one proof each: otherwise ``shapes``. ``each``: the
    results so far (the caller appends each shape's before asking for the next).

    For one-dimensional shapes ``(x, 1, 1)`` and an access that reads no ``blockDim``
    (so each lane's address is its own, whatever the shape) at most 4 bytes wide (the
    ideal is one wavefront for any non-empty warp), a shape's warps hold the lanes of
    every smaller shape's warps: warp ``w`` of ``(32k, 1, 1)`` is whole for every
    ``w < k``, and a partial warp is a prefix of the whole one. Wavefronts never drop
    when lanes are added, so a shape costs at least what any smaller one costs. The
    largest whole-warp shape then bounds every shape below it, and the smallest shape
    any lane executes in bounds every larger one from below (the shapes are proved from
    the smallest up to it); the shapes above the largest whole-warp one are proved
    each. The worst, and whether the costs differ, are then those of all shapes.

    Two-dimensional shapes ``(x, y, 1)`` of one ``x`` are ordered the same way by
    ``y``: thread ``i`` is ``(i mod x, i div x)`` in each, so the threads of ``(x, y)``
    are the first ``x * y`` of ``(x, y')`` for ``y' > y`` (apex's
    ``flexible_launch_configs``: 64 shapes, about 20 proofs). Each ``x`` is bounded on
    its own; shapes of different ``x`` have no such order."""
    if len(shapes) <= 8 or access.width > 4 or len({s.sets for s in shapes}) != 1 or any(
            s.bound is None or len(s.sets) != 1 or s.dims is None or s.dims[2] != 1
            for s in shapes):
        # two sets (or a set and a constant launch) of one kernel: each set's costs are
        # compared among its own shapes, so each is proved
        yield from shapes
        return
    names: set[str] = set()
    _names(access, names, 0)
    if any(n.startswith("blockDim") for n in names):
        yield from shapes
        return
    one_d = all(s.dims is not None and s.dims[1] == 1 for s in shapes)
    groups: dict[int, list[Shape]] = {}
    for s in shapes:
        assert s.dims is not None
        groups.setdefault(0 if one_d else s.dims[0], []).append(s)
    for group in groups.values():
        yield from _prefix_bounds(group, each)


def _prefix_bounds(shapes: list[Shape], each: list[tuple[Shape, AccessResult]]
                   ) -> Iterator[Shape]:
    """``_dominating`` for shapes whose threads are prefixes of one another in the order
    of their size: from the smallest up to the first some lane executes the access in,
    then the largest whole-warp one and every one above it."""
    def size(s: Shape) -> int:
        assert s.dims is not None
        return s.dims[0] * s.dims[1] * s.dims[2]

    xs = sorted(shapes, key=size)
    whole = [s for s in xs if size(s) % 32 == 0]
    top = whole[-1] if whole else None
    done: set[int] = set()
    for i, s in enumerate(xs):  # up to the first shape some lane executes the access in
        if s is top:
            break
        done.add(i)
        yield s
        if each and each[-1][1].executed:
            break
    for i, s in enumerate(xs):
        if i not in done and (s is top or top is None or size(s) > size(top)):
            yield s


def _names(e: object, out: set[str], depth: int) -> None:
    """Names of the symbols anywhere in ``e`` (an access, its offset, guard, loops)."""
    if depth > 64:
        out.add("blockDim?")  # too deep to tell: as if it read one
        return
    if isinstance(e, Sym):
        out.add(e.name)
    if isinstance(e, (tuple, list)):
        for x in e:
            _names(x, out, depth + 1)
    elif is_dataclass(e) and not isinstance(e, type):
        for f in fields(e):
            _names(getattr(e, f.name), out, depth + 1)


def _over_bounded_set(worst: AccessResult, each: list[tuple[Shape, AccessResult]]
                      ) -> AccessResult:
    """``worst`` (the worst of ``each``, one result per block shape) said for what it is
    when its shape is one of a set the host code bounds a run-time value to
    (``Shape.bound``: ``min(256, n)``, a doubling loop): the set's shapes may run, but
    which one the program runs is decided at run time, and a superset may hold shapes it
    never runs. Where every shape costs the same the number holds whichever runs (it
    stays proved); where they differ, a proved worst becomes ``worst-case``, its reason
    naming the set (docs/bank-model.md, "Launch shapes from a bounded set")."""
    shape = next((s for s, r in each if r is worst), None)
    if shape is None or shape.bound is None or worst.status == "unknown":
        return worst
    # the set is one launch: the others (a constant launch beside it) are what they are
    costs = {(r.wavefronts, r.ideal_wavefronts) for s, r in each
             if r.executed and shape.bound in s.sets}
    if len(costs) <= 1:
        return worst
    if worst.status == "proved":
        return replace(worst, status="worst-case", reason="worst over " + shape.bound,
                       reason_kind="cause")
    return replace(worst, reason=f"{worst.reason}; over {shape.bound}")


def _not_analyzed(access: Access, shape: Shape, arch: Arch, bank_mode: int) -> AccessResult:
    return AccessResult(
        access=access, arch=arch.name, bank_mode=bank_mode, status="unknown",
        wavefronts=None, ideal_wavefronts=None, reason=NOT_ANALYZED, reason_kind="cause",
        block_dim=shape.reported, block_dim_source=shape.source,
    )


#: Installed by a long-lived process (the language server's worker) with
#: :func:`use_analysis_cache`: analyses of kernels whose inputs did not change are reused
#: (cudalint.model.slices); the results are the same.
_analysis_cache: Callable[[TranslationUnit, Options, RunCaches | None],
                          list[AccessResult]] | None = None


def use_analysis_cache(on: bool = True) -> None:
    """Let :func:`analyze` in this process reuse the analyses of unchanged kernels (see
    cudalint.model.slices), or (``on`` False) stop it."""
    global _analysis_cache
    from cudalint.model.slices import AnalysisCache

    _analysis_cache = AnalysisCache(_analyze) if on else None


def kept_alongside() -> dict[str, object] | None:
    """Where later stages keep what they derive from analyses for as long as the installed
    analysis cache lives (the fix planner's searches, ``cudalint.fixes.layout``): the
    cache's ``kept`` dict; None when no cache is installed (a one-shot run keeps
    nothing past its file)."""
    cache = _analysis_cache
    kept = getattr(cache, "kept", None)
    return kept if isinstance(kept, dict) else None


def analyze(tu: TranslationUnit, options: Options, run: RunCaches | None = None
            ) -> list[AccessResult]:
    """One result per access x bank mode, in source order.

    ``run``: the caches of the analysis run this is part of (a file's analysis, a fix
    re-check's candidates), shared by its proofs; None: a run of its own. The results do
    not depend on it."""
    cache = _analysis_cache
    if cache is not None:
        return cache(tu, options, run)
    return _analyze(tu, options, run)


def _analyze(tu: TranslationUnit, options: Options, run: RunCaches | None = None
             ) -> list[AccessResult]:
    if run is None:
        run = RunCaches()
    arch = parse_arch(options.arch)
    kernels = {k.name: k for k in tu.kernels}
    arrays = {a.key: a for a in tu.arrays}
    loops: dict[int, Instructions] = {}
    try:
        groups, loops = (
            merges(tu.accesses, arrays) if any(a.region >= 0 for a in tu.accesses) else ([], {})
        )
    except BudgetExceeded:  # no time left: every access below is reported not analyzed
        groups, loops = [], {}
    group_of = {id(m): g for g in groups for m in g.members}
    # nvcc aligns an array it reads with wider instructions to their width
    widest: dict[str, int] = {}
    wide = [g.merged for g in groups] + [
        t for ins in loops.values() for t, m in zip(ins.targets, ins.merged_with, strict=True)
        if m]
    for merged in wide:
        widest[merged.array] = max(widest.get(merged.array, 1), merged.width)
    layout = static_layout(tu, widest)
    proved: dict[tuple[int, int], AccessResult] = {}
    out = []
    for access in tu.accesses:
        group = group_of.get(id(access))
        # the instructions the access is (the worst of them counts) and what each merges
        if id(access) in loops:
            ins = loops[id(access)]
            targets = list(zip(ins.targets, ins.merged_with, strict=True))
        elif group is not None:
            targets = [(group.merged, tuple(m.text for m in group.members if m is not access))]
        else:
            targets = [(access, ())]
        shapes = shapes_for(kernels.get(access.kernel), tu, access, options)
        for mode in options.bank_modes():
            worst: AccessResult | None = None
            for target, merged_with in targets:
                key = (id(target), mode)
                combined = proved.get(key)
                if combined is None:
                    each: list[tuple[Shape, AccessResult]] = []
                    for shape in _dominating(shapes, target, each):
                        base = layout.get((target.kernel, target.array))
                        try:
                            check_budget()
                            r = proof.prove(target, arrays.get(target.array), shape, arch,
                                            mode, base, run)
                        except BudgetExceeded:  # the file's time is up: say so, go on
                            r = _not_analyzed(target, shape, arch, mode)
                        combined = r if combined is None else _worse(combined, r)
                        each.append((shape, r))
                    assert combined is not None
                    combined = _over_bounded_set(combined, each)
                    proved[key] = combined
                if merged_with or target is not access:
                    combined = replace(
                        combined,
                        access=access,
                        merged_width=target.width if merged_with else None,
                        merged_with=merged_with,
                    )
                worst = combined if worst is None else _worse(worst, combined)
            assert worst is not None
            out.append(worst)
    return _drop_unexecuted(out)


def _drop_unexecuted(results: list[AccessResult]) -> list[AccessResult]:
    """Records of an access that no lane executes, where another record of it is executed.

    A template kernel's body holds code for other template arguments (``if (blockSize >=
    512 && tid < 256)`` in the instantiation with 64): in that instantiation the access
    costs nothing, which is neither a conflict nor an unknown. It is kept (unknown) only
    when no analyzed launch or instantiation executes it at all.
    """
    def ident(r: AccessResult) -> tuple[object, ...]:
        a = r.access
        return (a.span, a.kind, a.text, r.bank_mode)

    executed = {ident(r) for r in results if r.executed}
    return [r for r in results if r.executed or ident(r) not in executed]
