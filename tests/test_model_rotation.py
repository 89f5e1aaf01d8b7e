"""cudalint.model.residues.rotation_only against brute force: where it says a uniform
value only rotates a ring the warp indexes, every value of it costs the warp what the
value 0 does, at every base of the array (the bank rule of cudalint.model.banks,
sm_90). And the conditions it checks are needed: a sub-word element, a lane-dependent
term added outside the ring or in the rotation, or a signed remainder breaks the
equality for some value."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cudalint.ir import INT, LONG, UINT, Binary, Cast, Const, Expr, IntType, Sym
from cudalint.model.arch import parse_arch
from cudalint.model.banks import warp_cost
from cudalint.model.evaluate import EVAL_ERRORS, evaluate
from cudalint.model.residues import rotation_only

TX = Sym("threadIdx.x", UINT, lane_dependent=True)
N = Sym("n", INT)
S = Sym("s", INT)
ARCH = parse_arch("sm_90")
LANES = ("threadIdx.x",)


def lane_parts() -> st.SearchStrategy[Expr]:
    """A lane's element before the ring: tx * a + s * b + c, tx ^ a, tx / a * b, ..."""
    small = st.integers(min_value=0, max_value=70)
    return st.one_of(
        st.builds(
            lambda a, c: Binary("+", Binary("*", TX, Const(a, UINT), UINT), Const(c, UINT), UINT),
            small,
            small,
        ),
        st.builds(
            lambda a, b: Binary(
                "+",
                Binary("*", TX, Const(a, UINT), UINT),
                Cast(Binary("*", S, Const(b, INT), INT), UINT),
                UINT,
            ),
            small,
            small,
        ),
        st.builds(lambda a: Binary("^", TX, Const(a, UINT), UINT), small),
        st.builds(
            lambda a, b: Binary(
                "*", Binary("/", TX, Const(a + 1, UINT), UINT), Const(b, UINT), UINT
            ),
            small,
            small,
        ),
        st.builds(lambda a: Cast(Binary("*", Cast(TX, INT), S, INT), UINT), st.just(0)),
    )


def uniform_parts() -> st.SearchStrategy[Expr]:
    """What the ring is rotated by: n * a, (n + s) * a % 4096, n * n."""
    a = st.integers(min_value=-40, max_value=40)
    return st.one_of(
        st.builds(lambda k: Cast(Binary("*", N, Const(k, INT), INT), UINT), a),
        st.builds(
            lambda k: Binary(
                "%",
                Cast(Binary("*", Binary("+", N, S, INT), Const(k, INT), INT), UINT),
                Const(4096, UINT),
                UINT,
            ),
            a,
        ),
        st.just(Cast(Binary("*", N, N, INT), UINT)),
    )


def ring_offset(lane: Expr, rot: Expr, m: int, c: int, minus: bool) -> Expr:
    dividend = Binary("-" if minus else "+", lane, rot, UINT)
    return Binary(
        "*", Cast(Binary("%", dividend, Const(m, UINT), UINT), LONG), Const(c, LONG), LONG
    )


def cost(offset: Expr, n: int, s: int, base: int, width: int) -> tuple[int, int] | None:
    """The warp's (wavefronts, ideal) at these values; None where a lane is undefined or
    misaligned."""
    addrs: list[int | None] = []
    for tx in range(32):
        try:
            addrs.append(base + evaluate(offset, {"threadIdx.x": tx, "n": n, "s": s}))
        except EVAL_ERRORS:
            return None
    if any(a is not None and a % width for a in addrs):
        return None
    c = warp_cost(addrs, width, "load", ARCH)
    return c.wavefronts, c.ideal


@settings(max_examples=400, deadline=None)
@given(
    lane_parts(),
    uniform_parts(),
    st.sampled_from([32, 64, 256, 1024, 4096]),
    st.sampled_from([(4, 4), (4, 2), (8, 8), (8, 4), (16, 16), (16, 8), (12, 4), (2, 2), (6, 2)]),
    st.booleans(),
    st.integers(min_value=-(1 << 20), max_value=1 << 20),
    st.integers(min_value=0, max_value=300),
    st.sampled_from([0, 16, 128, 4096]),
)
def test_a_rotation_costs_what_zero_costs(
    lane: Expr,
    rot: Expr,
    m: int,
    cw: tuple[int, int],
    minus: bool,
    n: int,
    s: int,
    base: int,
) -> None:
    c, width = cw
    offset = ring_offset(lane, rot, m, c, minus)
    if not rotation_only(offset, "n", LANES, max(width, 4), 128):
        assert (m * c) % 128 or c % max(width, 4), offset  # only where a condition fails
        return
    at_n, at_zero = cost(offset, n, s, base, width), cost(offset, 0, s, base, width)
    if at_n is None or at_zero is None:
        return
    assert at_n == at_zero, (offset, n)


def _varies(offset: Expr, width: int, base: int) -> bool:
    """Whether some value of n costs otherwise than n = 0."""
    zero = cost(offset, 0, 0, base, width)
    return any(cost(offset, n, 0, base, width) != zero for n in range(-300, 300))


def test_a_sub_word_element_is_no_rotation() -> None:
    # 2-byte elements: lanes 2t and 2t + 1 share a word; rotated by one element, 2t + 1
    # and 2t + 2 do instead: the words, and the cost, change (s[(2 t + n) % 64], 16 lanes
    # on 2 words of one bank when the pair straddles)
    lane = Binary("*", Binary("*", TX, Const(33, UINT), UINT), Const(1, UINT), UINT)
    offset = ring_offset(lane, Cast(N, UINT), 4096, 2, False)
    assert not rotation_only(offset, "n", LANES, 4, 128)
    assert rotation_only(ring_offset(lane, Cast(N, UINT), 4096, 4, False), "n", LANES, 4, 128)
    assert _varies(offset, 2, 0)


def test_a_ring_of_no_whole_bank_periods_is_not_claimed() -> None:
    # s[(a t + n) % 16] of 12-byte elements: a 192-byte ring, no whole number of bank
    # periods; such a ring (M * c / 4 < 32 words a bank period apart) never puts two of
    # its elements in one bank, so it cannot vary either, but rotation_only does not
    # rely on that: it asks for M * c to be a multiple of 128
    offsets = [
        ring_offset(Binary("*", TX, Const(a, UINT), UINT), Cast(N, UINT), 16, 12, False)
        for a in range(1, 9)
    ]
    assert not any(rotation_only(o, "n", LANES, 4, 128) for o in offsets)
    assert rotation_only(ring_offset(TX, Cast(N, UINT), 32, 12, False), "n", LANES, 4, 128)


def test_a_lane_term_outside_the_ring_is_no_rotation() -> None:
    # ((t + n) % 32) * 4 + 4 * (t / 16): the upper half-warp's ring is one word further;
    # at n = 0 lane 31 is on word 32, bank 0 with lane 0's word 0 (2 wavefronts); at
    # n = 1 lane 31 wraps to word 1, lane 0's, and bank 0 holds word 32 alone (1)
    ring = ring_offset(TX, Cast(N, UINT), 32, 4, False)
    offset = Binary(
        "+",
        ring,
        Cast(Binary("*", Binary("/", TX, Const(16, UINT), UINT), Const(4, UINT), UINT), LONG),
        LONG,
    )
    assert not rotation_only(offset, "n", LANES, 4, 128)
    assert _varies(offset, 4, 0)
    lane_in_rotation = ring_offset(TX, Cast(Binary("*", N, TX, UINT), UINT), 4096, 4, False)
    assert not rotation_only(lane_in_rotation, "n", LANES, 4, 128)
    assert _varies(lane_in_rotation, 4, 0)
    # n + t is t plus the rotation n: a rotation still
    split = ring_offset(TX, Cast(Binary("+", N, TX, UINT), UINT), 4096, 4, False)
    assert rotation_only(split, "n", LANES, 4, 128)


def test_a_signed_remainder_is_no_rotation() -> None:
    # C's % of a negative dividend is negative: no ring (lanes t and t + 16 of 4 t + n
    # are one element when both are >= 0, two words of one bank when one is negative)
    dividend = Binary("+", Cast(Binary("*", TX, Const(4, UINT), UINT), INT), N, INT)
    offset = Binary(
        "*", Cast(Binary("%", dividend, Const(64, INT), INT), LONG), Const(4, LONG), LONG
    )
    assert not rotation_only(offset, "n", LANES, 4, 128)
    assert _varies(offset, 4, 0)


def test_the_ring_buffer_of_a_loop() -> None:
    # hardware-effects-gpu's bank-conflicts: idx = t * offset, then idx = (idx + 32) %
    # 4096 each iteration: ((uint)(t * offset) + i * 32) % 4096 floats
    i = Sym("n", IntType(32, True))
    lane = Cast(Binary("*", Cast(TX, INT), S, INT), UINT)
    rot = Binary("*", Cast(i, UINT), Const(32, UINT), UINT)
    offset = ring_offset(lane, rot, 4096, 4, False)
    assert rotation_only(offset, "n", LANES, 4, 128)
    # the array holds the ring: its size bounds it; a smaller array does not
    assert rotation_only(offset, "n", LANES, 4, 128, 4096 * 4)
    assert not rotation_only(offset, "n", LANES, 4, 128, 4096 * 4 - 4)
    for s in (1, 2, 4, 32, 33, 2048):
        zero = cost(offset, 0, s, 0, 4)
        assert all(cost(offset, n, s, 0, 4) == zero for n in range(0, 200, 7)), s
