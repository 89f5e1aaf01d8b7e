"""How many low bits of a uniform value an access's lane pattern depends on.

``s[2 * tid - (tid & (size - 1)) + size]`` reads the kernel parameter ``size`` in two
places: masked by the thread index, which is below 256 in a 256-thread block, and as a
uniform shift. The first depends on ``size`` only modulo 256 and the shift only modulo
the bank period, so the warp's addresses, up to a shift by a multiple of the period, are
the same for every ``size`` in one residue class modulo 256: the 256 classes, evaluated
one by one, are every value ``size`` can take (:func:`cudalint.model.proof._residues`).

:func:`pattern_bits` works that bound out from the expression: every operation of C's
integer arithmetic (``+ - * & | ^ <<``, negation, a narrowing cast) computes the low
``k`` bits of its result from the low ``k`` bits of its operands; a mask, a shift by a
constant or a constant power-of-two factor changes ``k``; anything else (a division by
another value, a comparison, ``min``) needs its operands' whole values. A value's
whole value needs all of its type's bits, which is the answer "too many" for a 32-bit
parameter. Only values inside shared memory are considered: an address that wraps past
``2**64`` is no shared address.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from cudalint.ir import Binary, Cast, Const, Expr, Opaque, Select, Sym, Unary
from cudalint.model.evaluate import free_symbols

#: Operations whose low k result bits follow from their operands' low k bits.
_RING = frozenset(("+", "-", "*", "&", "|", "^"))

#: The bounds of a value that reads none of the names (None: unknown), for masks.
Bounds = Callable[[Expr], "tuple[int, int] | None"]


def _bits(e: Expr) -> int:
    """The width that bounds ``e``'s value as evaluated: its type's, except where the
    evaluation does not wrap to it (an unsigned ``/`` or ``%``, ``min``/``max``, a
    selection), which keep their operands' width where that is wider."""
    if isinstance(e, Opaque):
        return 64
    if isinstance(e, Binary) and (e.op in ("min", "max") or (
            e.op in ("/", "%") and not e.type.signed)):
        return max(e.type.bits, _bits(e.lhs), _bits(e.rhs))
    if isinstance(e, Select):
        return max(e.type.bits, _bits(e.then), _bits(e.other))
    return e.type.bits


def _reads(e: Expr, names: Collection[str]) -> bool:
    return any(s.name in names for s in free_symbols(e))


def _twos(c: int) -> int:
    """The power of two that divides ``c`` (its trailing zero bits; 64 for 0)."""
    return (c & -c).bit_length() - 1 if c else 64


def low_bits(e: Expr, names: Collection[str], k: int, bounds: Bounds) -> int | None:
    """The least B this analysis shows such that ``e``'s value modulo ``2**k`` depends on
    the symbols ``names`` only through their values modulo ``2**B`` (None: no such B
    shown). ``bounds`` gives the range of a value that reads none of ``names``."""
    k = min(k, _bits(e))
    if k <= 0 or not _reads(e, names):
        return 0
    if isinstance(e, Sym):
        return k
    if isinstance(e, Cast):
        return low_bits(e.operand, names, min(k, _bits(e.operand)), bounds)
    if isinstance(e, Unary):
        if e.op in ("-", "~", "+"):
            return low_bits(e.operand, names, k, bounds)
        return low_bits(e.operand, names, _bits(e.operand), bounds)
    if isinstance(e, Select):
        parts = (low_bits(e.cond, names, _bits(e.cond), bounds),
                 low_bits(e.then, names, k, bounds), low_bits(e.other, names, k, bounds))
        return None if None in parts else max(p for p in parts if p is not None)
    if isinstance(e, Binary):
        return _binary(e, names, k, bounds)
    return None  # an opaque value computed from the names


def _binary(e: Binary, names: Collection[str], k: int, bounds: Bounds) -> int | None:
    lhs, rhs = e.lhs, e.rhs
    rc = rhs.value if isinstance(rhs, Const) else None
    lc = lhs.value if isinstance(lhs, Const) else None

    def both(kl: int, kr: int) -> int | None:
        a, b = low_bits(lhs, names, kl, bounds), low_bits(rhs, names, kr, bounds)
        return None if a is None or b is None else max(a, b)

    if e.op == "*" and (rc is not None or lc is not None):
        c, other = (rc, lhs) if rc is not None else (lc, rhs)
        assert c is not None
        return low_bits(other, names, k - _twos(c), bounds)
    if e.op == "&":
        for mask, other in ((rhs, lhs), (lhs, rhs)):
            if _reads(mask, names):
                continue
            b = (mask.value, mask.value) if isinstance(mask, Const) else bounds(mask)
            if b is not None and b[0] >= 0:
                return low_bits(other, names, min(k, b[1].bit_length()), bounds)
    if e.op in _RING:
        return both(k, k)
    unsigned = not e.type.signed
    if e.op == "<<" and not _reads(rhs, names):
        return low_bits(lhs, names, k - rc if rc is not None else k, bounds)
    if e.op == ">>" and not _reads(rhs, names):
        most = rc if rc is not None else None
        if most is None:
            b = bounds(rhs)
            most = b[1] if b is not None and b[0] >= 0 else None
        if most is not None and most >= 0:
            return low_bits(lhs, names, min(k + most, _bits(lhs)), bounds)
    if unsigned and rc is not None and rc > 0 and rc & (rc - 1) == 0:
        m = rc.bit_length() - 1
        if e.op == "/":
            return low_bits(lhs, names, min(k + m, _bits(lhs)), bounds)
        if e.op == "%":
            return low_bits(lhs, names, min(k, m), bounds)
    # the operands' whole values
    return both(_bits(lhs), _bits(rhs))


def pattern_bits(offset: Expr, names: Collection[str], lanes: Collection[str], q: int,
                 bounds: Bounds) -> int | None:
    """The least B shown such that, for values of ``names`` in one residue class modulo
    ``2**B``, the byte offset gives every lane the same address up to one shift by a
    multiple of ``2**q`` (the bank period), so that it costs the same: the terms of the
    sum that read ``lanes`` (the thread index, enumerated loop values) need their whole
    value, the terms that do not only their value modulo ``2**q``."""
    if not _reads(offset, names):
        return 0
    if isinstance(offset, Binary) and offset.op in ("+", "-"):
        a = pattern_bits(offset.lhs, names, lanes, q, bounds)
        b = pattern_bits(offset.rhs, names, lanes, q, bounds)
        return None if a is None or b is None else max(a, b)
    if isinstance(offset, Binary) and offset.op == "*" and (
            isinstance(offset.rhs, Const) or isinstance(offset.lhs, Const)):
        c, other = ((offset.rhs, offset.lhs) if isinstance(offset.rhs, Const)
                    else (offset.lhs, offset.rhs))
        assert isinstance(c, Const)
        if c.value == 0:
            return 0
        return pattern_bits(other, names, lanes, max(q - _twos(c.value), 0), bounds)
    if isinstance(offset, Unary) and offset.op in ("-", "+"):
        return pattern_bits(offset.operand, names, lanes, q, bounds)
    if isinstance(offset, Cast) and offset.type.bits >= _bits(offset.operand):
        return pattern_bits(offset.operand, names, lanes, q, bounds)
    if any(s.name in lanes or s.lane_dependent for s in free_symbols(offset)):
        return low_bits(offset, names, _bits(offset), bounds)
    return low_bits(offset, names, q, bounds)



def shift_only(offset: Expr, name: str, lanes: Collection[str]) -> bool:
    """Whether ``name`` enters the byte offset only through terms of its sum that read
    no lane (``lanes``, or a lane-dependent symbol): it then moves the whole warp by one
    shift."""
    if not _reads(offset, (name,)):
        return True
    if isinstance(offset, Binary) and offset.op in ("+", "-"):
        return shift_only(offset.lhs, name, lanes) and shift_only(offset.rhs, name, lanes)
    if isinstance(offset, Binary) and offset.op == "*" and (
            isinstance(offset.rhs, Const) or isinstance(offset.lhs, Const)):
        other = offset.lhs if isinstance(offset.rhs, Const) else offset.rhs
        return shift_only(other, name, lanes)
    if isinstance(offset, Unary) and offset.op in ("-", "+"):
        return shift_only(offset.operand, name, lanes)
    if isinstance(offset, Cast) and offset.type.bits >= _bits(offset.operand):
        return shift_only(offset.operand, name, lanes)
    return not any(s.name in lanes or s.lane_dependent for s in free_symbols(offset))


def rotation_only(offset: Expr, name: str, lanes: Collection[str], unit: int,
                  span: int, most: int = 0) -> bool:
    """Whether ``name`` enters the byte offset only as a uniform rotation of a ring: the
    offset is ``((A + U) % M) * c`` (casts aside), with ``M`` a power of two and the
    ``%`` unsigned, ``name`` read only by summands ``U`` of the dividend that read no lane
    (``lanes``, or a lane-dependent symbol), ``c`` a multiple of ``unit`` (the word, or
    the access's width where wider) and ``M * c`` a multiple of ``span`` (the 32 banks).

    Then every lane's element is ``(a + U) mod M`` with ``a`` its own: one rotation of
    the ring by ``U`` elements for the whole warp, a bijection that moves each address
    by ``U * c`` bytes less a multiple of ``M * c``. Addresses are multiples of ``unit``
    apart, so two lanes share a word (or a wider access's address) exactly where their
    elements are equal, before and after, and each bank's words move to one other bank
    together: the cost is the same for every value of ``name`` (the circular buffer
    ``idx = (idx + 32) % 4096`` of a loop, ``s[(head + tid * stride) % N]``). ``most``,
    where positive: the ring's bytes at most (the array's size; a larger ring leaves the
    array at some rotations, where the lanes inside it are costed, not all of them)."""
    if not _reads(offset, (name,)):
        return True
    e = offset
    while isinstance(e, Cast) and e.type.bits >= _bits(e.operand):
        e = e.operand
    if not (isinstance(e, Binary) and e.op == "*"):
        return False
    c, ring = (e.rhs, e.lhs) if isinstance(e.rhs, Const) else (e.lhs, e.rhs)
    if not isinstance(c, Const) or c.value <= 0 or c.value % unit:
        return False
    while isinstance(ring, Cast) and ring.type.bits >= _bits(ring.operand):
        ring = ring.operand
    if not (isinstance(ring, Binary) and ring.op == "%" and not ring.type.signed
            and isinstance(ring.rhs, Const)):
        return False
    m = ring.rhs.value
    if m <= 0 or m & (m - 1) or (m * c.value) % span or 0 < most < m * c.value:
        return False
    return _uniform_summands(ring.lhs, name, lanes, m.bit_length() - 1)


def _uniform_summands(e: Expr, name: str, lanes: Collection[str], bits: int) -> bool:
    """Whether every summand of ``e`` (through ``+``, ``-`` and casts that keep ``bits``
    low bits: each computes its result modulo ``2**bits`` from its operands') that reads
    ``name`` reads no lane."""
    if not _reads(e, (name,)):
        return True
    if isinstance(e, Cast) and e.type.bits >= bits:
        return _uniform_summands(e.operand, name, lanes, bits)
    if isinstance(e, Binary) and e.op in ("+", "-") and e.type.bits >= bits:
        return _uniform_summands(e.lhs, name, lanes, bits) and _uniform_summands(
            e.rhs, name, lanes, bits)
    return not any(s.name in lanes or s.lane_dependent for s in free_symbols(e))
