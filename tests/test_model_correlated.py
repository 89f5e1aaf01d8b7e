"""Loop variables whose values come from an input cudalint does not know (issues 13-15).

- A scan's down-sweep after its up-sweep: the up-sweep's count ``t`` and the down-sweep's
  iteration ``k`` are enumerated as every pair, but one input ``n`` makes only the pairs
  ``k < t``; a pair past that shifts the offset to 0 and indexes element -1. Slots with a
  lane outside the (static) array are left out, so the worst is one some ``n`` gives.
- An inner loop whose start reads the outer loop's variable, with the access reading
  both: only the pairs one execution makes are costed (``_Joint``, ``_combos``).

Expected values come from simulating the program for every ``n`` with the bank rule
(:func:`_simulated_sweep`), not from cudalint.
"""

from __future__ import annotations

import re

import pytest
from factories import float_access

from cudalint.ir import (
    INT,
    THREAD_IDX,
    UINT,
    Access,
    Binary,
    Const,
    Induction,
    Opaque,
    OpaqueKind,
    SharedArray,
    Sym,
)
from cudalint.model import proof
from cudalint.model.arch import parse_arch
from cudalint.model.shapes import Shape

TX = Sym(THREAD_IDX[0], UINT, lane_dependent=True)
N = Opaque(OpaqueKind.LOAD, "value loaded from 'n'", (), UINT)


def _u(v: int) -> Const:
    return Const(v, UINT)


def _sweep_access(size: int) -> tuple[Access, SharedArray]:
    """``s[offset * (tid + 1) - 1]`` (float ``s[size]``) in the down-sweep iteration
    ``k`` (``d = 2 << k < n``, lanes ``tid < d - 1``) after an up-sweep that ran ``t``
    times: ``offset = ((1 << t) >> k) >> 1``, as the frontend writes it."""
    t = Sym(
        "t@L10:d", INT, induction=Induction(Const(0, INT), "+", Const(1, INT), "<=", Const(31, INT))
    )
    k = Sym(
        "k@L14:d", INT, induction=Induction(Const(2, INT), "<<", Const(1, INT), "<", N, index=True)
    )
    offset = Binary(">>", Binary(">>", Binary("<<", _u(1), t, UINT), k, UINT), _u(1), UINT)
    ai = Binary("-", Binary("*", offset, Binary("+", TX, _u(1), UINT), UINT), _u(1), UINT)
    byte = Binary("*", ai, _u(4), UINT)
    d = Binary("<<", Const(2, INT), k, INT)
    guard = Binary("<", TX, Binary("-", d, Const(1, INT), INT), INT)
    return float_access(byte, "s", size, "load", guard)


def _ways(words: list[int]) -> int:
    banks: dict[int, set[int]] = {}
    for w in words:
        banks.setdefault(w % 32, set()).add(w)
    return max(len(v) for v in banks.values())


def _simulated_sweep(threads: int, size: int) -> tuple[int, set[tuple[int, int]]]:
    """The worst ways over every ``n`` whose down-sweep keeps the lanes inside
    ``float s[size]``, and the (up-sweep count, down-sweep ``d``) pairs that give it."""
    seen: dict[tuple[int, int], int] = {}
    for n in range(1, 1 << 12):
        t, d = 0, n >> 1
        while d > 0:
            t, d = t + 1, d >> 1
        offset, d = 1 << t, 2
        while d < n:
            offset >>= 1
            for w in range(threads // 32):
                words = [
                    (offset * (tid + 1) - 1) & 0xFFFFFFFF
                    for tid in range(32 * w, 32 * w + 32)
                    if tid < d - 1
                ]
                if words and max(words) < size:
                    seen[t, d] = max(seen.get((t, d), 0), _ways(words))
            d <<= 1
    worst = max(seen.values())
    return worst, {td for td, w in seen.items() if w == worst}


def _prove(access: Access, array: SharedArray, threads: int) -> proof.AccessResult:
    return proof.prove(
        access, array, Shape((threads, 1, 1), "launch"), parse_arch("sm_90"), 4, base=0
    )


@pytest.mark.parametrize("size", [129, 200, 512])
def test_down_sweep_worst_is_one_some_input_gives(size: int) -> None:
    access, array = _sweep_access(size)
    r = _prove(access, array, 64)
    ways, witnesses = _simulated_sweep(64, size)
    assert r.status == "worst-case"
    assert (r.wavefronts, r.ideal_wavefronts) == (ways, 1)
    # the values named are a pair that gives the worst for some n
    named = re.fullmatch(
        r"when d = (\d+), after (\d+) iterations of the 'd' loop at line 10", r.reason or ""
    )
    assert named is not None, r.reason
    assert (int(named[2]), int(named[1])) in witnesses


def test_crossing_every_pair_would_claim_more() -> None:
    # what the cases gave before: every (t, k) pair, the lanes clamped to a window of
    # the array's size: T = 8, k = 2 puts 5 lanes on one bank inside 129 words, a case
    # no n makes without indexing past s
    access, array = _sweep_access(129)
    assert _prove(access, array, 64).wavefronts == 4
    old = pytest.MonkeyPatch()
    old.setattr(proof, "_inside", lambda p: None)
    try:
        assert _prove(access, array, 64).wavefronts == 5
    finally:
        old.undo()


def test_no_slot_inside_the_array_keeps_every_slot() -> None:
    # with a 1-element array every slot of k >= 0 reaches past it (tid 0 of k = 0 at
    # t = 1 reads element 0, the only one that fits): what is left is costed, and where
    # nothing is left, every slot is (as without the filter), never "not executed"
    access, array = _sweep_access(1)
    r = _prove(access, array, 64)
    assert r.status != "unknown" or "not" not in (r.reason or "")
    assert r.executed


def test_paired_loop_values_follow_the_enclosing_one() -> None:
    size = Sym("size", UINT, induction=Induction(_u(2), "<<", _u(1), "<=", _u(16)))
    stride = Sym(
        "stride", UINT, induction=Induction(Binary("/", size, _u(2), UINT), ">>", _u(1), ">", _u(0))
    )
    warps = proof.known_shape_warps((32, 1, 1))
    supersets: set[str] = set()
    seqs = proof._evaluable_inductions({size, stride}, warps, supersets)
    shp = (32, 1, 1)
    assert seqs["size"][shp] == [2, 4, 8, 16]
    assert seqs["stride"][shp] == [1, 2, 4, 8]
    combos = list(proof._combos(seqs, ("size", "stride"), shp))
    # each size with its own strides, in the order of the product
    assert combos == [
        (2, 1),
        (4, 1),
        (4, 2),
        (8, 1),
        (8, 2),
        (8, 4),
        (16, 1),
        (16, 2),
        (16, 4),
        (16, 8),
    ]
    assert not supersets  # every value known: none depends on an input
    # the access reads stride alone: its values' union, every one with everything else
    alone = proof._evaluable_inductions({stride}, warps)
    assert alone["stride"][shp] == [1, 2, 4, 8] and not alone.groups


def test_combos_with_a_free_loop_keep_the_product_order() -> None:
    # a paired group beside a loop of its own: built from the pairs, not by filtering
    # the whole product, and visited in the product's order
    size = Sym("size", UINT, induction=Induction(_u(2), "<<", _u(1), "<=", _u(8)))
    stride = Sym(
        "stride", UINT, induction=Induction(Binary("/", size, _u(2), UINT), ">>", _u(1), ">", _u(0))
    )
    rep = Sym("rep", UINT, induction=Induction(_u(0), "+", _u(1), "<", _u(3)))
    shp = (32, 1, 1)
    seqs = proof._evaluable_inductions({size, stride, rep}, proof.known_shape_warps(shp))
    loops = ("rep", "size", "stride")
    got = list(proof._combos(seqs, loops, shp))
    pairs = [(2, 1), (4, 1), (4, 2), (8, 1), (8, 2), (8, 4)]
    assert got == [(r, a, b) for r in range(3) for a, b in pairs]
    assert proof._combo_count(seqs, loops, shp) == len(got) == 18


def test_no_pairs_under_a_nested_enclosing_loop() -> None:
    # k starts from j - i where j itself starts from i: the union of j's values crossed
    # with i's would pair (i = 0, j = 1), which no execution makes; k is not paired
    i = Sym("i", UINT, induction=Induction(_u(0), "+", _u(1), "<", _u(4)))
    j = Sym("j", UINT, induction=Induction(i, "+", _u(1), "<", Binary("+", i, _u(1), UINT)))
    d = Binary("-", j, i, UINT)
    k = Sym("k", UINT, induction=Induction(d, "+", _u(1), "<", Binary("+", d, _u(1), UINT)))
    seqs = proof._evaluable_inductions({i, j, k}, proof.known_shape_warps((32, 1, 1)))
    assert not any("k" in names for names in seqs.groups)


def test_unknown_bound_marks_a_superset() -> None:
    size = Sym("size", UINT, induction=Induction(_u(2), "<<", _u(1), "<=", N))
    stride = Sym(
        "stride", UINT, induction=Induction(Binary("/", size, _u(2), UINT), ">>", _u(1), ">", _u(0))
    )
    supersets: set[str] = set()
    seqs = proof._evaluable_inductions(
        {size, stride}, proof.known_shape_warps((32, 1, 1)), supersets
    )
    assert supersets == {"size", "stride"}
    assert seqs["size"][(32, 1, 1)][-1] == 1 << 31
