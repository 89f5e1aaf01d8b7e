"""CUDA's bit intrinsics in the IR (``Unary`` popc/clz/ffs/brev): the values CUDA's
documentation gives, the same through every evaluator, and folded as constants."""

from __future__ import annotations

import random

import pytest

from cudalint.frontend.consteval import fold
from cudalint.ir import INT, LONG, UINT, Const, IntType, Sym, Unary, bit_intrinsic
from cudalint.model.evaluate import _closure_function, compile_expr, compile_warp, interval

ULONG = IntType(64, False)


def reference(op: str, x: int, bits: int) -> int:
    """Bit by bit, as the CUDA Math API describes each function."""
    x &= (1 << bits) - 1
    b = [(x >> i) & 1 for i in range(bits)]
    if op == "popc":
        return sum(b)
    if op == "clz":
        n = 0
        for i in reversed(range(bits)):
            if b[i]:
                break
            n += 1
        return n
    if op == "ffs":
        return next((i + 1 for i in range(bits) if b[i]), 0)
    return sum(b[i] << (bits - 1 - i) for i in range(bits))  # brev


@pytest.mark.parametrize("op", ["popc", "clz", "ffs", "brev"])
@pytest.mark.parametrize("bits", [32, 64])
def test_bit_intrinsic_matches_reference(op: str, bits: int) -> None:
    rng = random.Random(op + str(bits))
    values = [0, 1, -1, 2**31, 2**31 - 1, -(2**31), 2**63, 12345] + [
        rng.randrange(-(2**bits), 2**bits) for _ in range(300)
    ]
    for v in values:
        assert bit_intrinsic(op, v, bits) == reference(op, v, bits), (op, v)


@pytest.mark.parametrize(
    "op,operand,result",
    [
        ("popc", UINT, INT),
        ("clz", INT, INT),
        ("ffs", LONG, INT),
        ("brev", UINT, UINT),
        ("brev", ULONG, ULONG),
    ],
)
def test_every_evaluator_agrees(op: str, operand: IntType, result: IntType) -> None:
    x = Sym("x", operand)
    e = Unary(op, x, result)  # type: ignore[arg-type]
    direct = compile_expr(e, ("x",))
    closure = _closure_function(e, ("x",))
    warp = compile_warp(e, None, ("x",), 1)
    assert warp is not None
    for v in (0, 1, 5, 2**31 - 1, -7, -(2**31), 96):
        want = reference(op, v, operand.bits)
        assert direct(v) == closure(v) == warp([(v,)], (), ())[0] == want % (1 << result.bits)
        folded = fold(Unary(op, Const(v, operand), result))  # type: ignore[arg-type]
        assert folded == Const(want % (1 << result.bits), result)


def test_counts_are_bounded() -> None:
    x = Sym("x", UINT)
    assert interval(Unary("popc", x, INT), {"x": (0, 100)}) == (0, 32)
    assert interval(Unary("brev", x, UINT), {"x": (0, 100)}) is None
