"""The caches of one analysis run, owned by the run instead of the modules.

:func:`cudalint.checker` starts one :class:`RunCaches` per file (its
:func:`~cudalint.model.analyze.analyze` call) and the fix re-check
(:class:`cudalint.fixes.recheck.Rechecker`) one per file's candidates; the proof
(:mod:`cudalint.model.proof`, :mod:`cudalint.model.stride_loops`) reads and fills it
through the arguments it is passed, so two runs (the language server's threads, a test
and the one before it) never see each other's entries, and a run's memory goes with it.
Every cache holds what a pure function of its key returns: a hit gives the result a miss
would compute, so no output depends on what a run kept.

The model keeps only caches of pure functions of immutable values at module level
(``functools.lru_cache`` on the frozen IR, compiled source by its text, and the interned
sympy names of :mod:`cudalint.model.algebra`); each says why where it is defined.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cudalint.model.proof import CaseMemo, _InsideEntry, _SampledEntry
    from cudalint.model.results import AccessResult
    from cudalint.model.stride_loops import _Exits
    from cudalint.model.warps import Warp

__all__ = ["RunCaches"]


@dataclass(eq=False, repr=False)
class RunCaches:
    """What one analysis run remembers between proofs, each with its limit.

    Not shared between threads: each run (a file's analysis, a fix re-check) has its own.
    """

    #: Results of :func:`cudalint.model.proof.prove` by its arguments, the access by
    #: what its proof reads (:func:`~cudalint.model.proof.proof_key`): fixes re-check
    #: every access of a kernel for each candidate layout, and most of those accesses
    #: (the other arrays, the unchanged baseline) come back with the same arguments; two
    #: instantiations of a kernel often give the same access under another label.
    #: Cleared when it grows past :attr:`MAX_PROOFS`.
    proofs: dict[tuple[object, ...], AccessResult] = field(default_factory=dict)
    #: Per-lane subscript values reused between fix candidates (:meth:`reusing`); None
    #: outside a candidate's re-check.
    memo: CaseMemo | None = None
    #: Per list of warps, each thread and shape value's least and greatest value
    #: (``proof._lane_ranges``): the last :attr:`LANE_RANGES_KEPT` lists.
    lane_ranges: list[tuple[list[Warp], dict[str, tuple[int, int]]]] = field(
        default_factory=list)
    #: The last few sampled offsets' cases (``proof._kept_sampled_cases``).
    sampled: list[_SampledEntry] = field(default_factory=list)
    #: The last few loop exits per lane (``stride_loops._exits``).
    exits: list[_Exits] = field(default_factory=list)
    #: The last few offsets' cases inside their array (``proof._inside_cases``).
    inside: list[_InsideEntry] = field(default_factory=list)
    #: The last few cases of paired loop values past _MAX_CASES slots, their repeats left
    #: out (``proof._build_cases``): the accesses of a butterfly's swap share them.
    paired: list[tuple[tuple[object, ...], list[Warp], list[Any]]] = field(
        default_factory=list)

    MAX_PROOFS = 8192
    LANE_RANGES_KEPT = 8

    @contextmanager
    def reusing(self, memo: CaseMemo) -> Iterator[None]:
        """Let the proofs of this run reuse the subscript values kept in ``memo``."""
        previous = self.memo
        self.memo = memo
        try:
            yield
        finally:
            self.memo = previous
