"""Reuse of the analyses of unchanged kernels between edits (the language server, issue 15).

:func:`cudalint.model.analyze.analyze` proves each access from a few inputs only: the
access, the arrays it touches (and where the kernel's other static arrays lie), its
kernel's ``__launch_bounds__``/annotation and launches, and the options. Accesses of
different kernels meet in one place: a record of an access that no lane executes is
dropped when another record of the same source access (a helper inlined into several
kernels) is executed. So a unit splits into *slices*, sets of kernels that share no
access, and the analysis of the unit is the analyses of its slices, interleaved back
into source order.

:class:`AnalysisCache` keeps each slice's results under a key of exactly those inputs (a
small :class:`TranslationUnit` holding only them, compared by value, and the options):
after a one-line edit only the kernels whose accesses, arrays or launches changed are
proved again, and so are the fix re-checks (``cudalint.fixes.recheck``) of the arrays of
unchanged kernels, which analyse the same sub-units each time. Results of a reused slice
are rebound to the new unit's access objects (rules compare accesses by identity).
Nothing is cached for a slice the time budget cut short.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from cudalint.budget import NOT_ANALYZED
from cudalint.ir import Access, TranslationUnit
from cudalint.model.results import AccessResult
from cudalint.options import Options

if TYPE_CHECKING:
    from cudalint.model.caches import RunCaches

__all__ = ["AnalysisCache", "slices"]

#: The uncached analysis of a (sub-)unit, in an analysis run (None: a run of its own).
Analyze = Callable[[TranslationUnit, Options, "RunCaches | None"], list[AccessResult]]


def slices(tu: TranslationUnit) -> list[TranslationUnit]:
    """``tu`` as sub-units whose analyses together are the analysis of ``tu``: one per
    set of kernels that share no source access, each with only what its proofs read
    (see the module's docstring)."""
    parent: dict[str, str] = {}

    def find(k: str) -> str:
        while parent.setdefault(k, k) != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    first_kernel: dict[tuple[object, ...], str] = {}
    for a in tu.accesses:
        find(a.kernel)
        ident = (a.span, a.kind, a.text)
        other = first_kernel.setdefault(ident, a.kernel)
        if other != a.kernel:
            parent[find(a.kernel)] = find(other)
    names = {k.name for k in tu.kernels}
    # arrays whose presence empties every kernel's static layout (placement.static_layout)
    spoilers = [a for a in tu.arrays if a.kernel is not None and a.kernel not in names]
    groups: dict[str, list[Access]] = {}
    for a in tu.accesses:
        groups.setdefault(find(a.kernel), []).append(a)
    out = []
    for accesses in groups.values():
        kernels = {a.kernel for a in accesses}
        used = {a.array for a in accesses}
        arrays = tuple(a for a in tu.arrays if a.key in used or any(a is s for s in spoilers))
        owners = kernels | {a.kernel for a in arrays if a.kernel is not None}
        out.append(TranslationUnit(
            file=tu.file,
            kernels=tuple(k for k in tu.kernels if k.name in owners),
            arrays=arrays,
            accesses=tuple(accesses),
            launches=tuple(launch for launch in tu.launches if launch.kernel in kernels),
        ))
    return out


class AnalysisCache:
    """Slice analyses by their inputs, the ``limit`` most recently used.

    Call it as ``analyze`` (:func:`cudalint.model.analyze.analyze` does, once installed
    with :func:`cudalint.model.analyze.use_analysis_cache`); ``compute`` is the uncached
    analysis of one (sub-)unit."""

    def __init__(self, compute: Analyze, limit: int = 4096) -> None:
        self.compute = compute
        self.limit = limit
        self._entries: OrderedDict[Hashable, tuple[TranslationUnit, list[AccessResult]]] = (
            OrderedDict())
        self._lock = threading.Lock()
        #: Slices proved and reused so far (for tests and benchmarks).
        self.computed = 0
        self.reused = 0
        #: What later stages keep for as long as this cache lives, by their own key
        #: (``analyze.kept_alongside``: the fix planner's searches).
        self.kept: dict[str, object] = {}

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __call__(self, tu: TranslationUnit, options: Options, run: RunCaches | None = None
                 ) -> list[AccessResult]:
        if not tu.accesses:
            return self.compute(tu, options, run)
        position = {id(a): i for i, a in enumerate(tu.accesses)}
        results: list[AccessResult] = []
        for sub in slices(tu):
            part = self._slice(sub, options, run)
            if part is None:
                return self.compute(tu, options, run)
            results.extend(part)
        if any(id(r.access) not in position for r in results):
            return self.compute(tu, options, run)
        # back into source order; a sort by position keeps each access's bank modes in order
        results.sort(key=lambda r: position[id(r.access)])
        return results

    def _slice(self, sub: TranslationUnit, options: Options, run: RunCaches | None
               ) -> list[AccessResult] | None:
        key = (sub, options)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is not None:
            old, cached = entry
            rebound = {id(o): n for o, n in zip(old.accesses, sub.accesses, strict=True)}
            if all(id(r.access) in rebound for r in cached):
                self.reused += 1
                return [replace(r, access=rebound[id(r.access)]) for r in cached]
        results = self.compute(sub, options, run)
        self.computed += 1
        if any(r.reason == NOT_ANALYZED for r in results):
            return results  # cut short by the time budget: prove it again next time
        with self._lock:
            self._entries[key] = (sub, results)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)
        return results
