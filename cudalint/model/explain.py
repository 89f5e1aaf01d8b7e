"""The bank map: how the banks serve one access's worst warp, wavefront by wavefront.

The proof engine keeps, with each result, the byte addresses of the warp it found worst
(``AccessResult.lane_addresses``, shifted to the worst start of the array). This module
turns them into plain data for a picture: the phases the bank rule splits the warp
into (:func:`cudalint.model.banks.phase_split`), and per phase one row per wavefront,
each row holding what every bank serves in that pass: the word (on Kepler the 256-byte
row) and the lanes that touch it. A bank's k-th distinct word in a phase is served in
the phase's k-th wavefront, so the number of rows of a phase is its cost.

Renderers live in :mod:`cudalint.output.bankmap`; nothing here knows about output.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cudalint.ir import AccessKind
from cudalint.model.arch import parse_arch
from cudalint.model.banks import NUM_BANKS, WARP, phase_split
from cudalint.model.results import AccessResult

__all__ = ["BankMap", "Cell", "PhaseMap", "Serialization", "bank_map", "results_at",
           "serialization"]


@dataclass(frozen=True)
class Serialization:
    """An atomic that serves each lane on its own (ATOMS.ADD, .MAX, .EXCH, .CAS, ...:
    measured on sm_90, docs/bank-model.md) where lanes of the busiest bank share a word:
    the cost is those lanes one after another, not distinct words of one bank."""

    #: Lanes the busiest bank serves, one per pass.
    lanes: int
    #: Distinct words among them (1: every one of them updates one address).
    words: int
    #: The most lanes on one word.
    per_word: int
    bank: int


def serialization(result: AccessResult) -> Serialization | None:
    """How ``result``'s atomic serializes lanes on one word; None when it does not (a
    load or store, an atomic nvcc combines or aggregates, or no two lanes of the busiest
    bank share a word: a plain bank conflict)."""
    from cudalint.model.proof import atomic_form  # the prover, only for an atomic

    access = result.access
    conflict = result.conflict
    if access.kind != "atomic" or conflict is None or atomic_form(access) == "combined":
        return None
    per_word = max((len(lanes) for lanes in conflict.lanes), default=0)
    if per_word < 2:
        return None
    return Serialization(sum(len(lanes) for lanes in conflict.lanes), len(conflict.words),
                         per_word, conflict.bank)


@dataclass(frozen=True)
class Cell:
    """What one bank serves in one wavefront."""

    bank: int
    #: The word it serves (byte address // 4; on Kepler the 256-byte row, byte // 256).
    unit: int
    #: The lanes whose access touches that word, ascending.
    lanes: tuple[int, ...]
    #: The bank serves more than one word in this phase: these words collide.
    colliding: bool

    @property
    def multicast(self) -> bool:
        """Several lanes share the word (one read for a load, one write for a store)."""
        return len(self.lanes) > 1


@dataclass(frozen=True)
class PhaseMap:
    """One phase: lanes ``first_lane`` to ``end_lane - 1``, served together."""

    first_lane: int
    end_lane: int
    #: One row per wavefront of the phase; each has NUM_BANKS entries (None: idle bank).
    wavefronts: tuple[tuple[Cell | None, ...], ...]

    @property
    def kind(self) -> str:
        n = self.end_lane - self.first_lane
        return {WARP: "whole warp", WARP // 2: "half-warp", WARP // 4: "quarter-warp"}.get(
            n, f"{n} lanes"
        )

    @property
    def cost(self) -> int:
        return len(self.wavefronts)


@dataclass(frozen=True)
class BankMap:
    """The picture of one result's worst warp."""

    result: AccessResult
    #: Bytes each lane moves in the instruction (the merged width when nvcc merges).
    width: int
    kind: AccessKind
    #: Per lane, the byte address (None: inactive lane).
    addresses: tuple[int | None, ...]
    phases: tuple[PhaseMap, ...]
    #: What a cell's ``unit`` is: "word" (4 bytes) or "row" (Kepler: 256 bytes).
    unit_name: str
    #: Bytes per bank slot: 4, or 8 in Kepler's 8-byte mode.
    bank_bytes: int
    #: Why the result's wavefronts differ from the rows drawn, when they do.
    note: str | None = None

    @property
    def drawn_wavefronts(self) -> int:
        return sum(p.cost for p in self.phases)


def _units(address: int, width: int, unit: int) -> range:
    return range(address // unit, (address + max(width, 1) - 1) // unit + 1)


def _phase(
    addresses: Sequence[int | None], width: int, lanes: tuple[int, int], bank_bytes: int,
    row_bytes: int, per_lane: bool,
) -> PhaseMap:
    # bank -> served unit (word or Kepler row; per lane for per-lane atomics) -> lanes
    banks: dict[int, dict[tuple[int, int], list[int]]] = {}
    for lane in range(*lanes):
        a = addresses[lane]
        if a is None:
            continue
        for u in _units(a, width, bank_bytes):
            bank = u % NUM_BANKS
            row = u * bank_bytes // row_bytes
            key = (row, lane if per_lane else -1)
            users = banks.setdefault(bank, {}).setdefault(key, [])
            if not users or users[-1] != lane:
                users.append(lane)
    depth = max((len(served) for served in banks.values()), default=0)
    rows: list[list[Cell | None]] = [[None] * NUM_BANKS for _ in range(depth)]
    for bank, served in banks.items():
        colliding = len(served) > 1
        for k, (key, users) in enumerate(sorted(served.items())):
            rows[k][bank] = Cell(bank, key[0], tuple(users), colliding)
    return PhaseMap(lanes[0], lanes[1], tuple(tuple(r) for r in rows))


def bank_map(result: AccessResult) -> BankMap | None:
    """The bank map of ``result``'s worst warp; None when no warp was costed (unknown
    results, atomics nvcc aggregates to one lane)."""
    addresses = result.lane_addresses
    if addresses is None or result.wavefronts is None or len(addresses) != WARP:
        return None
    access = result.access
    arch = parse_arch(result.arch)
    width = result.merged_width or access.width
    if access.kind == "atomic":
        from cudalint.model.proof import atomic_form

        form = atomic_form(access)
    else:
        form = "combined"
    per_lane = access.kind == "atomic" and form != "combined"
    kepler = arch.family == "kepler"
    bank_bytes = result.bank_mode if kepler else 4
    row_bytes = 256 if kepler else 4
    phases = tuple(
        _phase(addresses, width, lanes, bank_bytes, row_bytes, per_lane)
        for lanes in phase_split(addresses, width, access.kind, arch, form)
        if any(addresses[i] is not None for i in range(*lanes))
    )
    drawn = sum(p.cost for p in phases)
    note: str | None = None
    if drawn != result.wavefronts:
        if form == "cas":
            note = (f"atomicCAS: each of the {drawn} passes counts twice "
                    f"({result.wavefronts} wavefronts, as Nsight Compute counts them)")
        elif form == "cas-loop":
            note = (f"float atomicAdd is a compare-and-swap loop that completes one lane "
                    f"per bank per trip: {drawn} trips of 2 wavefronts "
                    f"({result.wavefronts}), besides the loop's load")
        elif arch.family == "fermi" and width > 8:
            note = ("Fermi serves 16-byte accesses with one extra pass per quarter-warp "
                    f"(the programming guide's \"+1\" rule): {result.wavefronts} wavefronts")
        else:
            note = f"the bank rule counts {result.wavefronts} wavefronts"
    return BankMap(
        result=result, width=width, kind=access.kind, addresses=tuple(addresses),
        phases=phases, unit_name="row" if kepler else "word", bank_bytes=bank_bytes,
        note=note,
    )


def _same_file(a: str, b: str) -> bool:
    return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


def results_at(
    results: Iterable[AccessResult], line: int, column: int | None = None,
    file: str | None = None,
) -> list[AccessResult]:
    """The results of the accesses at ``line`` (1-based) of ``file``, in source order.

    With ``column`` (1-based, UTF-8 bytes), only the innermost accesses whose span holds
    it; without, every access whose span covers the line.
    """
    found: list[AccessResult] = []
    for r in results:
        span = r.access.span
        if file is not None and not _same_file(span.file, file):
            continue
        if not span.line <= line <= span.end_line:
            continue
        if column is not None:
            after_start = line > span.line or column >= span.column
            before_end = line < span.end_line or column < span.end_column
            if not (after_start and before_end):
                continue
        found.append(r)
    if column is not None and found:
        def size(r: AccessResult) -> tuple[int, int]:
            s = r.access.span
            return (s.end_line - s.line, s.end_column - s.column)

        smallest = min(size(r) for r in found)
        found = [r for r in found if size(r) == smallest]
    return found
