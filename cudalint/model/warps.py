"""Warp composition: which thread indices the 32 lanes of each warp hold.

With a known block shape every warp is enumerated (partial last warps included: lanes
past the end of the block are inactive). Without one, the model assumes what nearly
every kernel relies on, blockDim.x a multiple of 32, so each warp is 32 consecutive
``threadIdx.x`` values with ``threadIdx.y``/``z`` fixed, and enumerates every warp and
shape the hardware allows (at most 1024 threads per block, blockDim.z <= 64) for the
symbols the access actually reads: a finite, exhaustive set, hence a proof.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from cudalint.ir import BLOCK_DIM, THREAD_IDX
from cudalint.model.arch import MAX_BLOCK_Z as MAX_Z
from cudalint.model.arch import MAX_THREADS_PER_BLOCK as MAX_THREADS

WARP = 32

#: The symbols a warp assignment gives values to.
ENUMERATED = frozenset(THREAD_IDX + BLOCK_DIM)


@dataclass(frozen=True)
class Warp:
    #: Index of the warp in the block (None under the assumed shape).
    index: int | None
    #: Per lane: values of (threadIdx.x, .y, .z, blockDim.x, .y, .z), or None if inactive.
    lanes: tuple[tuple[int, int, int, int, int, int] | None, ...]
    #: For the assumed shape: the values that define this warp, for messages.
    label: str = ""


def known_shape_warps(shape: tuple[int, int, int]) -> list[Warp]:
    # Built once per shape: a file's accesses (and every candidate fix) share it.
    bx, by, bz = shape
    return list(_known_shape_warps((bx, by, bz)))


@lru_cache(maxsize=64)
def _known_shape_warps(shape: tuple[int, int, int]) -> tuple[Warp, ...]:
    bx, by, bz = shape
    n = bx * by * bz
    warps = []
    for w in range((n + WARP - 1) // WARP):
        lanes: list[tuple[int, int, int, int, int, int] | None] = []
        for lane in range(WARP):
            t = w * WARP + lane
            if t >= n:
                lanes.append(None)
            else:
                lanes.append((t % bx, (t // bx) % by, t // (bx * by), bx, by, bz))
        warps.append(Warp(w, tuple(lanes)))
    return tuple(warps)


#: Known components of a block shape, None where unknown (``(32, None, None)``).
Partial = tuple[int | None, int | None, int | None]


def legal_shapes(max_threads: int = MAX_THREADS, fixed: Partial | None = None
                 ) -> Iterator[tuple[int, int, int]]:
    """Every legal block shape whose blockDim.x is a multiple of 32, whose size is at most
    ``max_threads`` and which agrees with the known components of ``fixed``."""
    limit = max(WARP, min(max_threads, MAX_THREADS)) // WARP
    fx, fy, fz = fixed if fixed is not None else (None, None, None)
    if fx is not None and (fx % WARP or fx < WARP):
        return  # not a shape of whole-row warps: the caller enumerates it otherwise
    ms = [fx // WARP] if fx is not None else range(1, limit + 1)
    for m in ms:
        ys = [fy] if fy is not None else range(1, limit // m + 1)
        for by in ys:
            zs = [fz] if fz is not None else range(1, min(MAX_Z, limit // (m * by)) + 1)
            for bz in zs:
                yield WARP * m, by, bz


def assumed_shape_warps(used: frozenset[str], max_threads: int = MAX_THREADS,
                        fixed: Partial | None = None) -> Iterator[Warp]:
    """Every distinct warp (projected on the ``used`` symbols) of every legal block shape
    whose blockDim.x is a multiple of 32, whose size is at most ``max_threads``, and which
    agrees with the known components of ``fixed`` (a launch's ``dim3(32, by, bz)``)."""
    seen: set[tuple[int, ...]] = set()
    use = [name in used for name in ("w", *THREAD_IDX[1:], *BLOCK_DIM)]
    use[0] = THREAD_IDX[0] in used
    for bdx, by, bz in legal_shapes(max_threads, fixed):
        for w in range(bdx // WARP if use[0] else 1):
            for ty in range(by if use[1] else 1):
                for tz in range(bz if use[2] else 1):
                    values = (w, ty, tz, bdx, by, bz)
                    key = tuple(v if u else 0 for v, u in zip(values, use, strict=True))
                    if key in seen:
                        continue
                    seen.add(key)
                    lanes = tuple((WARP * w + lane, ty, tz, bdx, by, bz) for lane in range(WARP))
                    yield Warp(None, lanes, _label(values, use))


def _label(values: tuple[int, ...], use: list[bool]) -> str:
    names = ("warp", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y", "blockDim.z")
    parts = [f"{n}={v}" for n, v, u in zip(names, values, use, strict=True) if u]
    return ", ".join(parts)
