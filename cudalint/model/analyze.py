"""The model's entry point: every access of a translation unit proved for each of its
block shapes and bank modes (nvcc's merged and loop-unrolled instructions costed as one,
the static layout of each kernel's arrays), one result per access x bank mode.

A long-lived process (the language server's worker) installs a cache of the analyses of
unchanged kernels with :func:`use_analysis_cache` (cudalint.model.slices). The proofs'
own caches belong to the analysis run (:class:`~cudalint.model.caches.RunCaches`), which
the caller starts (one per file) and passes in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from cudalint.budget import NOT_ANALYZED, BudgetExceeded
from cudalint.budget import check as check_budget
from cudalint.ir import Access, TranslationUnit
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
                    for shape in shapes:
                        base = layout.get((target.kernel, target.array))
                        try:
                            check_budget()
                            r = proof.prove(target, arrays.get(target.array), shape, arch,
                                            mode, base, run)
                        except BudgetExceeded:  # the file's time is up: say so, go on
                            r = _not_analyzed(target, shape, arch, mode)
                        combined = r if combined is None else _worse(combined, r)
                    assert combined is not None
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
