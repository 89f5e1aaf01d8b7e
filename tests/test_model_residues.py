"""cudalint.model.residues against brute force: where it shows that an expression's
value modulo 2**k reads a symbol only modulo 2**B, moving the symbol by any multiple of
2**B leaves that value unchanged, for every lane."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cudalint.ir import INT, UINT, Binary, Cast, Const, Expr, IntType, Sym, Unary
from cudalint.model.evaluate import EVAL_ERRORS, evaluate, interval, wrap
from cudalint.model.residues import low_bits, pattern_bits, shift_only

TX = Sym("threadIdx.x", UINT, lane_dependent=True)
N_U = Sym("n", UINT)
N_S = Sym("n", INT)
TYPES = (INT, UINT, IntType(64, True), IntType(64, False), IntType(16, False))
OPS = ("+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%", "<", "min")
LANE_ENV = {"threadIdx.x": (0, 255)}


def bounds(e: Expr) -> tuple[int, int] | None:
    return interval(e, LANE_ENV)


def exprs() -> st.SearchStrategy[Expr]:
    leaves = st.one_of(
        st.sampled_from([TX, N_U, N_S, N_U, N_S]),
        st.integers(min_value=-3, max_value=9).map(lambda v: Const(v, INT)),
        st.integers(min_value=10, max_value=300).map(lambda v: Const(v, INT)),
        st.sampled_from([1, 2, 4, 8, 31, 255, 1023]).map(lambda v: Const(v, UINT)),
    )

    def extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        return st.one_of(
            st.builds(
                lambda op, a, b, t: Binary(op, a, b, t),
                st.sampled_from(OPS),
                children,
                children,
                st.sampled_from(TYPES),
            ),
            st.builds(lambda a, t: Cast(a, t), children, st.sampled_from(TYPES)),
            st.builds(lambda a: Unary("-", a, INT), children),
        )

    return st.recursive(leaves, extend, max_leaves=8)


def value(e: Expr, tx: int, n: int) -> int | None:
    try:
        return evaluate(e, {"threadIdx.x": tx, "n": n})
    except EVAL_ERRORS:
        return None


@settings(max_examples=1500, deadline=None)
@given(
    exprs(),
    st.integers(min_value=1, max_value=40),
    st.integers(min_value=0, max_value=(1 << 32) - 1),
    st.integers(min_value=-8, max_value=8),
    st.integers(min_value=0, max_value=255),
)
def test_low_bits_brute_force(e: Expr, k: int, n: int, m: int, tx: int) -> None:
    b = low_bits(e, {"n"}, k, bounds)
    if b is None or b >= 32:
        return
    other = wrap(n + m * (1 << b), UINT)
    a, c = value(e, tx, wrap(n, UINT)), value(e, tx, other)
    if a is None or c is None:
        return  # a division by zero or an undefined shift at one of them
    assert a % (1 << k) == c % (1 << k), (e, b)


def test_mask_by_thread_index_reads_the_low_bits() -> None:
    # t & (size - 1) with t < 256: size modulo 256
    e = Binary("&", TX, Binary("-", N_U, Const(1, UINT), UINT), UINT)
    assert low_bits(e, {"n"}, 32, bounds) == 8
    # unsigned size / 4 first: size modulo 1024
    quarter = Binary("/", N_U, Const(4, UINT), UINT)
    e2 = Binary("&", TX, Binary("-", quarter, Const(1, UINT), UINT), UINT)
    assert low_bits(e2, {"n"}, 32, bounds) == 10


def test_whole_value_operations_need_every_bit() -> None:
    assert low_bits(Binary("%", TX, N_U, UINT), {"n"}, 32, bounds) == 32
    assert low_bits(Binary("<", TX, N_U, UINT), {"n"}, 1, bounds) == 32
    # a signed division by a power of two rounds toward zero: the whole value
    assert low_bits(Binary("/", N_S, Const(4, INT), INT), {"n"}, 2, bounds) == 32


def test_pattern_bits_takes_a_uniform_term_modulo_the_period() -> None:
    # 4 * (2t - (t & (n - 1)) + n) bytes, bank period 128 = 2**7
    lane = Binary(
        "-",
        Binary("*", Const(2, UINT), TX, UINT),
        Binary("&", TX, Binary("-", N_U, Const(1, UINT), UINT), UINT),
        UINT,
    )
    offset = Binary("*", Binary("+", lane, N_U, UINT), Const(4, UINT), UINT)
    assert pattern_bits(offset, {"n"}, {"threadIdx.x"}, 7, bounds) == 8
    # n * t needs n's whole value
    assert pattern_bits(Binary("*", TX, N_U, UINT), {"n"}, {"threadIdx.x"}, 7, bounds) == 32


def test_shift_only() -> None:
    k = Sym("k", INT)
    moved = Binary("+", Binary("*", k, Const(128, INT), INT), TX, INT)
    assert shift_only(moved, "k", {"threadIdx.x"})
    assert not shift_only(Binary("*", k, TX, INT), "k", {"threadIdx.x"})
    assert not shift_only(
        Binary("&", Binary("+", k, TX, INT), Const(31, INT), INT), "k", {"threadIdx.x"}
    )


def test_shifts_and_divisions_read_higher_bits() -> None:
    for e, k, want in (
        (Binary(">>", N_U, Const(4, INT), UINT), 4, 8),
        (Binary("/", N_U, Const(16, UINT), UINT), 4, 8),
        (Binary("<<", N_U, Const(4, INT), UINT), 8, 4),
        (Binary("*", N_U, Const(12, UINT), UINT), 8, 6),
        (Binary("%", N_U, Const(64, UINT), UINT), 32, 6),
    ):
        assert low_bits(e, {"n"}, k, bounds) == want, e
        for n in (0, 5, 1000, 123456):
            moved = n + (1 << want) * 7
            assert value(e, 3, n) % (1 << k) == value(e, 3, moved) % (1 << k)  # type: ignore[operator]


def test_a_division_that_does_not_wrap_keeps_its_operand_width() -> None:
    # an unsigned uint16 division of a 32-bit value is not wrapped to 16 bits by the
    # evaluator: its value modulo 2**17 reads bit 16 of n (found by the property test)
    e = Binary("+", TX, Binary("/", N_U, Const(1, UINT), IntType(16, False)), INT)
    b = low_bits(e, {"n"}, 17, bounds)
    assert b is not None and b >= 17
    assert value(e, 0, 0) != value(e, 0, 1 << 16)
