"""Per-architecture bank rules: the wavefronts one warp-wide access costs.

This is the brute-force simulator of the rule measured on an H100 (see
docs/bank-model.md): given each lane's byte address (None for an inactive lane), it
counts the passes through the banks. It knows nothing about source code or symbols.

- sm_50 and newer: 32 banks of 4 bytes; bank(word) = word mod 32. The cost of a set
  of lanes is the largest number of distinct 4-byte words one bank must serve (lanes
  touching the same word share it). Accesses of up to 4 bytes are one phase; 8- and
  16-byte accesses are split into half- or quarter-warp phases, except that an 8-byte
  load whose quads (lanes 4k..4k+3) each touch at most 2 distinct addresses is one
  phase, and a 16-byte load whose quads do so is two half-warp phases.
- Kepler (sm_3x): 32 banks 8 bytes wide. A bank serves one 256-byte row per pass;
  in 4-byte mode bank = (byte / 4) mod 32 (words i and i+32 of a 256-byte segment
  share a pass), in 8-byte mode bank = (byte / 8) mod 32. Up to 8 bytes: one phase;
  16 bytes: two half-warp phases.
- Fermi (sm_2x): 32 banks of 4 bytes; 8-byte accesses in half-warps; 16-byte accesses
  in quarter-warps with the programming guide's "+1" rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from cudalint.ir import AccessKind
from cudalint.model.arch import Arch
from cudalint.model.results import BankConflict, Cost

WARP = 32
NUM_BANKS = 32

HALVES = ((0, 16), (16, 32))
QUARTERS = ((0, 8), (8, 16), (16, 24), (24, 32))
WHOLE = ((0, 32),)

Addresses = Sequence["int | None"]
AtomicForm = Literal["combined", "per-lane", "cas", "cas-loop"]


def _units(address: int, width: int, unit: int) -> range:
    """The ``unit``-byte units (words, or 8-byte Kepler units) an access touches."""
    return range(address // unit, (address + max(width, 1) - 1) // unit + 1)


def _phase_cost(
    addresses: Addresses, width: int, lanes: tuple[int, int], bank_bytes: int, row_bytes: int
) -> tuple[int, BankConflict | None]:
    """Cost of one phase (lanes[0] <= lane < lanes[1]) and its busiest bank.

    A bank serves one ``row_bytes`` row per pass: on sm_5x+ and Fermi a row is one
    4-byte word (row_bytes = 4), on Kepler a 256-byte segment.
    """
    unit = bank_bytes
    last = max(width, 1) - 1
    # First the distinct units the phase touches (most lanes touch one unit), then the
    # distinct rows per bank; the lanes are listed only for the busiest bank.
    units: set[int] = set()
    for a in addresses[lanes[0]:lanes[1]]:
        if a is None:
            continue
        first, end = a // unit, (a + last) // unit
        if first == end:
            units.add(first)
        else:
            units.update(range(first, end + 1))
    if not units:
        return 0, None
    per_bank: dict[int, set[int]] = {}
    for u in units:
        b = u % NUM_BANKS
        seen = per_bank.get(b)
        if seen is None:
            per_bank[b] = {u * unit // row_bytes}
        else:
            seen.add(u * unit // row_bytes)
    bank, bank_rows = max(per_bank.items(), key=lambda kv: (len(kv[1]), -kv[0]))
    cost = len(bank_rows)
    if cost <= 1:
        return cost, None
    # row -> lanes, for the busiest bank only
    rows: dict[int, list[int]] = {}
    for lane in range(lanes[0], lanes[1]):
        a = addresses[lane]
        if a is None:
            continue
        for u in _units(a, width, unit):
            if u % NUM_BANKS != bank:
                continue
            users = rows.setdefault(u * unit // row_bytes, [])
            if not users or users[-1] != lane:
                users.append(lane)
    ordered = sorted(rows.items())
    return cost, BankConflict(
        bank=bank,
        words=tuple(r for r, _ in ordered),
        lanes=tuple(tuple(ls) for _, ls in ordered),
    )


def _active(addresses: Addresses, lanes: tuple[int, int]) -> bool:
    return any(addresses[i] is not None for i in range(lanes[0], lanes[1]))


def _quads_share(addresses: Addresses, width: int) -> bool:
    """Whether every quad of active lanes touches at most 2 distinct ``width``-byte addresses."""
    for q in range(0, WARP, 4):
        distinct = {addresses[i] // width for i in range(q, q + 4) if addresses[i] is not None}  # type: ignore[operator]
        if len(distinct) > 2:
            return False
    return True


def _phased(
    addresses: Addresses,
    width: int,
    phases: tuple[tuple[int, int], ...],
    bank_bytes: int = 4,
    row_bytes: int = 4,
) -> Cost:
    total = 0
    ideal = 0
    worst: tuple[int, BankConflict | None] = (0, None)
    for phase in phases:
        if not _active(addresses, phase):
            continue
        cost, conflict = _phase_cost(addresses, width, phase, bank_bytes, row_bytes)
        total += cost
        ideal += 1
        if cost > worst[0]:
            worst = (cost, conflict)
    return Cost(total, ideal, worst[1] if total > ideal else None)


def warp_cost(
    addresses: Addresses,
    width: int,
    kind: AccessKind,
    arch: Arch,
    bank_mode: int = 4,
    atomic_form: AtomicForm = "combined",
    matrix: bool = False,
) -> Cost:
    """Wavefronts of one warp's access; ``addresses[lane]`` is a byte address or None.

    ``matrix``: an ``ldmatrix``/``stmatrix`` (LDSM/STSM) ``.x1/.x2/.x4`` (``.trans``
    too): ``addresses[lane]`` is lane's 16-byte row address, None for the lanes
    beyond ``8 * matrices``. Measured on sm_90 (tests/data/hw/sm90_ldmatrix.jsonl,
    425/425 rows): one phase per 8x8 matrix (lanes 8m..8m+7), each phase costs
    ``cost()`` of its 8 rows, with no half-warp merging as a 16-byte LDS has.

    ``kind`` "atomic" means a 32-bit shared atomic; 64-bit atomics have no fixed cost
    and must not be passed here. Its ``atomic_form`` is the instruction nvcc emits
    (measured on sm_90, bench/accuracy/atomics.cu):

    - ``combined``: ATOMS.POPC.INC (``atomicAdd(p, 1)`` with the result unused): lanes on
      one word are combined, so it follows the <=4-byte rule (sm90_atomics.jsonl).
    - ``per-lane``: ATOMS.ADD/MAX/EXCH/...: every lane is served on its own, so the cost
      is the most active lanes one bank serves (lanes on one word do not share).
    - ``cas``: ATOMS.CAS: two wavefronts per lane served, ideal 2:
      2k for the busiest bank's k lanes. Nsight Compute's per-instruction "L1 Wavefronts
      Shared Ideal" is 2 at every k; the kernel-level bank-conflict counter counts one
      conflict per extra pass (k - 1), so wavefronts minus conflicts reads k + 1, which is
      not an ideal (tests/data/hw/sm90_atomics_same_addr.jsonl).
    - ``cas-loop``: ``atomicAdd``/``atomicSub`` on ``float``: nvcc emits a loop of LDS and
      ATOMS.CAST.SPIN; each trip completes one lane per bank and costs 2 wavefronts
      (ideal 2), so the busiest bank's k lanes take k trips: 2k, ideal 2 (the loop's LDS,
      one per trip, is not counted). Measured on sm_90 with k = 4 to 32, lanes on one word
      and on several words of one bank alike.
    """
    if len(addresses) != WARP:
        raise ValueError("one address (or None) per lane is required")
    if kind == "atomic" and width > 4:
        raise ValueError("64-bit shared atomics compile to a CAS loop: no fixed cost")
    if kind == "atomic" and atomic_form != "combined":
        return _per_lane(addresses, width, cas=atomic_form in ("cas", "cas-loop"))
    family = arch.family
    if family == "kepler":
        if bank_mode not in (4, 8):
            raise ValueError(f"bank mode must be 4 or 8, not {bank_mode}")
        phases = HALVES if width > 8 else WHOLE
        return _phased(addresses, width, phases, bank_bytes=bank_mode, row_bytes=256)
    if bank_mode != 4:
        raise ValueError(f"{arch.name} has only 4-byte banks")
    if family == "fermi":
        if width <= 4:
            return _phased(addresses, width, WHOLE)
        if width <= 8:
            return _phased(addresses, width, HALVES)
        return _fermi_128(addresses, width)
    # Maxwell and newer: the rule measured on sm_90.
    if matrix:
        return _phased(addresses, 16, QUARTERS)
    if width <= 4:
        return _phased(addresses, width, WHOLE)
    if kind == "load":
        shared = _quads_share(addresses, width)
        if width <= 8:
            return _phased(addresses, width, WHOLE if shared else HALVES)
        return _phased(addresses, width, HALVES if shared else QUARTERS)
    return _phased(addresses, width, HALVES if width <= 8 else QUARTERS)


def _fermi_128(addresses: Addresses, width: int) -> Cost:
    """Fermi 128-bit accesses: quarter-warps, ways = 1 + the largest per-quarter conflict."""
    active = [q for q in QUARTERS if _active(addresses, q)]
    if not active:
        return Cost(0, 0)
    worst = max((_phase_cost(addresses, width, q, 4, 4) for q in active), key=lambda c: c[0])
    ways = 1 + worst[0]
    return Cost(len(active) * ways, len(active), worst[1])


def _per_lane(addresses: Addresses, width: int, cas: bool) -> Cost:
    """Atomics that serve each lane on its own: the busiest bank's count of lanes, two
    wavefronts each for a compare-and-swap (``cas``: ATOMS.CAS and the CAST.SPIN loop)."""
    banks: dict[int, list[int]] = {}
    words: dict[int, dict[int, list[int]]] = {}
    for lane, a in enumerate(addresses):
        if a is None:
            continue
        for u in _units(a, width, 4):
            banks.setdefault(u % NUM_BANKS, []).append(lane)
            words.setdefault(u % NUM_BANKS, {}).setdefault(u, []).append(lane)
    if not banks:
        return Cost(0, 0)
    bank, lanes = max(banks.items(), key=lambda kv: (len(kv[1]), -kv[0]))
    k = len(lanes)
    ordered = sorted(words[bank].items())
    conflict = BankConflict(
        bank, tuple(w for w, _ in ordered), tuple(tuple(ls) for _, ls in ordered)
    )
    if cas:
        return Cost(2 * k, 2, conflict if k > 1 else None)
    return Cost(k, 1, conflict if k > 1 else None)


def phase_split(
    addresses: Addresses,
    width: int,
    kind: AccessKind,
    arch: Arch,
    atomic_form: AtomicForm = "combined",
) -> tuple[tuple[int, int], ...]:
    """The phases ``warp_cost`` serves one warp's access in: lane ranges [start, end).

    For the bank map (:mod:`cudalint.model.explain`); it follows ``warp_cost``'s choice
    (tests/test_bankmap.py checks that the two agree).
    """
    if kind == "atomic" and atomic_form != "combined":
        return WHOLE
    family = arch.family
    if family == "kepler":
        return HALVES if width > 8 else WHOLE
    if family == "fermi":
        return WHOLE if width <= 4 else HALVES if width <= 8 else QUARTERS
    if width <= 4:
        return WHOLE
    if kind == "load":
        shared = _quads_share(addresses, width)
        if width <= 8:
            return WHOLE if shared else HALVES
        return HALVES if shared else QUARTERS
    return HALVES if width <= 8 else QUARTERS


def period(arch: Arch, bank_mode: int, width: int) -> int:
    """Uniform shifts by a multiple of this many bytes never change the cost."""
    if arch.family == "kepler":
        return 256 if bank_mode == 4 else max(8, width)
    return max(4, width)
