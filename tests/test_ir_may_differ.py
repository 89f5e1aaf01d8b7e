"""``ir.may_differ``: the lane-dependence contract the frontend and the model share."""

from __future__ import annotations

from cudalint.ir import INT, UINT, Binary, Const, Opaque, OpaqueKind, Sym, may_differ

TID = Sym("threadIdx.x", UINT, lane_dependent=True)
TY = Sym("threadIdx.y", UINT, lane_dependent=True)
N = Sym("n", INT)


def test_symbols() -> None:
    assert may_differ(Binary("+", TID, Const(1, UINT), UINT))
    assert not may_differ(Binary("*", N, Const(4, INT), INT))
    # a thread index the block shape makes one value per warp
    assert not may_differ(Binary("+", TY, Const(1, UINT), UINT), frozenset({"threadIdx.y"}))


def test_opaque_values_follow_their_kind_and_inputs() -> None:
    # no inputs: only the kinds that cannot read the thread index are uniform
    assert may_differ(Opaque(OpaqueKind.CALL, "call to 'f'", (), INT))
    assert may_differ(Opaque(OpaqueKind.VARIABLE, "'x' is not an integer", (), INT))
    assert not may_differ(Opaque(OpaqueKind.LOAD, "value loaded from 'g'", (), INT))
    # with inputs: what the inputs are
    assert not may_differ(
        Opaque(OpaqueKind.LOOP, "'w' is assigned in a loop", (Const(1, INT),), INT)
    )
    assert may_differ(Opaque(OpaqueKind.LOAD, "value loaded from 'a'", (TID,), INT))
    nested = Opaque(
        OpaqueKind.BRANCH,
        "'x' depends on control flow",
        (N, Opaque(OpaqueKind.CALL, "call to 'f'", (), INT)),
        INT,
    )
    assert may_differ(nested)
