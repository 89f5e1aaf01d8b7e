"""Brute force for the hand-derived expectations of fixtures/loop_butterfly_unknown_bound.cu
and fixtures/guard_defined_values.cu: every warp of every block size the assumed shape
allows, every (k, j) pair a bitonic network with a bound up to 2**14 makes, costed by the
bank rule (4-byte words: a warp's wavefronts are the most distinct words one bank
serves), agree with the records the fixtures expect."""

from __future__ import annotations

from collections.abc import Callable


def _wavefronts(words: list[int]) -> int:
    banks: dict[int, set[int]] = {}
    for w in words:
        banks.setdefault(w % 32, set()).add(w)
    return max((len(v) for v in banks.values()), default=0)


def _worst(index: Callable[[int, int, int], int | None], top: int = 1 << 14) -> int:
    worst = 0
    for block in range(32, 1025, 32):
        for warp in range(block // 32):
            cols = range(32 * warp, 32 * warp + 32)
            k = 2
            while k <= top:
                j = k // 2
                while j > 0:
                    words = [w for c in cols if (w := index(c, j, k)) is not None]
                    worst = max(worst, _wavefronts(words))
                    j //= 2
                k *= 2
    return worst


def test_partner_index_is_conflict_free_for_every_pair() -> None:
    # row[col ^ j] under (col ^ j) > col && (col & k) == 0
    assert _worst(lambda c, j, k: (c ^ j) if (c ^ j) > c and c & k == 0 else None) == 1


def test_stride_two_partner_is_two_way_at_worst() -> None:
    # f[2 * (col ^ j)] under the same guard: 2-way, first at k = 2, j = 1
    def f(c: int, j: int, k: int) -> int | None:
        return 2 * (c ^ j) if (c ^ j) > c and c & k == 0 else None

    assert _worst(f) == 2
    words = [w for c in range(32) if (w := f(c, 1, 2)) is not None]
    assert _wavefronts(words) == 2


def test_guard_defined_values() -> None:
    lanes = range(32)
    assert _wavefronts([2 * (2 * m) for m in range(16)]) == 2  # p = 2l for even l
    assert _wavefronts(list(range(16))) == 1  # q = l under l < 16
    assert _wavefronts([32 * lane for lane in lanes if lane >= 16]) == 16  # q = 32l
    assert _wavefronts([2 * lane for lane in lanes]) == 2  # r = 2l, len = 32
    assert _wavefronts([2 * lane for lane in lanes if lane < 16]) == 1  # len = 16
