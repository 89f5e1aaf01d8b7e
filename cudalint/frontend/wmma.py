"""How nvcc lowers ``nvcuda::wmma::load_matrix_sync`` / ``store_matrix_sync`` on shared
memory: which SASS accesses one call makes, and which byte each lane touches.

Measured on sm_90 with nvcc 13 (bench/accuracy/wmma.cu, tests/data/hw/sm90_wmma.jsonl:
every fragment shape and element type, both layouts, several ``ldm``); sm_80 and newer
lower wmma to the same HMMA/IMMA fragments. A call is a few instructions of one form
that differ only by a constant offset (a further 8 lines, a further 16-byte chunk), so
they all cost the same: cudalint records the call once, with the cost of one of them.

Memory is seen as *lines*: the rows of a row-major tile, the columns of a column-major
one, ``ldm`` elements apart. With ``g = lane / 4`` and ``t = lane % 4``:

- half ``matrix_a``/``matrix_b`` (any shape, either layout) and 8-bit ones whose lines
  run along k (``matrix_a`` row-major, ``matrix_b`` column-major): ``ldmatrix``
  (LDSM .x4 for half, .x2/.x1 for 8-bit) of 8x8 matrices, each 8 consecutive lines by
  16 bytes; lane ``l`` gives the row address of line ``l % 8`` of matrix ``l / 8``.
- bf16 ``matrix_a``/``b`` and half accumulators: 32-bit accesses, lane at line ``g``,
  byte ``4t`` (the 8x16-byte matrix of an LDSM, one 4-byte word per lane); tf32 and
  double ``matrix_a``/``b`` along k the same (bytes ``4t`` / ``8t``), across k: line
  ``t``, element ``g``.
- 8-bit ``matrix_a``/``b`` whose lines run across k: one LDS.U8 per byte, line
  ``4t``, byte ``g``.
- float/int accumulators: pairs of neighbours along n (along m for m8n32k16): where the
  pair is contiguous in memory an 8-byte access at line ``g``, byte ``8t``; otherwise
  32-bit accesses at line ``2t``, element ``g``. double m8n8k4: row-major 16 bytes at
  line ``g``, byte ``16t``; column-major 8 bytes at line ``2t``, element ``g``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cudalint.frontend.consteval import fold
from cudalint.ir import LONG, UINT, Binary, Cast, Const, Expr

Use = Literal["a", "b", "acc"]
Layout = Literal["row", "col"]

#: Element types of fragments, by how cudalint names them, with their memory bytes.
ELEMENT_BYTES = {"half": 2, "bf16": 2, "tf32": 4, "float": 4, "int": 4, "s8": 1, "u8": 1,
                 "double": 8}

#: The shapes nvcuda::wmma defines for each element type of matrix_a/matrix_b.
SHAPES = {
    "half": ((16, 16, 16), (32, 8, 16), (8, 32, 16)),
    "bf16": ((16, 16, 16), (32, 8, 16), (8, 32, 16)),
    "s8": ((16, 16, 16), (32, 8, 16), (8, 32, 16)),
    "u8": ((16, 16, 16), (32, 8, 16), (8, 32, 16)),
    "tf32": ((16, 16, 8),),
    "double": ((8, 8, 4),),
}
#: Accumulator element types and the shapes they exist in.
ACC_SHAPES = {
    "half": SHAPES["half"], "float": SHAPES["half"] + SHAPES["tf32"],
    "int": SHAPES["s8"], "double": SHAPES["double"],
}


@dataclass(frozen=True)
class Fragment:
    use: Use
    m: int
    n: int
    k: int
    #: One of ELEMENT_BYTES' keys (the accumulator's own type for ``acc``).
    element: str
    #: matrix_a/matrix_b: the fragment's layout; accumulator: the memory layout argument.
    layout: Layout


@dataclass(frozen=True)
class Lowering:
    """One instruction of a call (the others are the same up to a constant offset)."""

    #: Bytes each lane moves (16 for LDSM: one row of a matrix).
    width: int
    #: LDSM: 8x8 matrices per instruction (lanes ``8*matrices`` and above give no
    #: address); 0 for a plain per-lane access.
    matrices: int
    #: How many such instructions one call makes.
    instructions: int
    #: The SASS, for messages and tests.
    sass: str
    #: Plain accesses: lane's line = line_g*g + line_t*t, byte = byte_g*g + byte_t*t.
    line_g: int = 0
    line_t: int = 0
    byte_g: int = 0
    byte_t: int = 0
    #: LDSM: 8-line blocks in the tile (matrix j of the instruction: line block
    #: ``j % line_blocks``, 16-byte chunk ``j // line_blocks``).
    line_blocks: int = 1
    #: Bytes of one ``ldm`` unit (the element type in memory).
    element_bytes: int = 4


def tile(f: Fragment) -> tuple[int, int]:
    """(lines, bytes per line) of the tile in memory."""
    rows, cols = {"a": (f.m, f.k), "b": (f.k, f.n), "acc": (f.m, f.n)}[f.use]
    lines, length = (rows, cols) if f.layout == "row" else (cols, rows)
    return lines, length * ELEMENT_BYTES[f.element]


def lower(f: Fragment, store: bool) -> Lowering | str:
    """The instruction form of one call, or why cudalint does not model it."""
    eb = ELEMENT_BYTES.get(f.element)
    shape = (f.m, f.n, f.k)
    known = ACC_SHAPES if f.use == "acc" else SHAPES
    if eb is None or shape not in known.get(f.element, ()):
        kind = "accumulator" if f.use == "acc" else f"matrix_{f.use}"
        return (f"a wmma {kind} fragment of {f.element} m{f.m}n{f.n}k{f.k} is not a shape"
                " cudalint models")
    if store and f.use != "acc":
        return "store_matrix_sync of a matrix_a/matrix_b fragment does not exist"
    lines, line_bytes = tile(f)
    total = lines * line_bytes
    # k runs along each line (matrix_a row-major, matrix_b column-major)?
    along_k = (f.use == "a") == (f.layout == "row")
    if f.use != "acc" and (f.element == "half" or (f.element in ("s8", "u8") and along_k)):
        matrices = total // 128
        per = min(4 if f.element == "half" else 2, matrices)
        sass = "LDSM.16.MT88" if f.element == "half" and not along_k else "LDSM.16.M88"
        return Lowering(16, per, matrices // per, sass + (f".{per}" if per > 1 else ""),
                        line_blocks=lines // 8, element_bytes=eb)
    plain = "STS" if store else "LDS"
    if f.use != "acc":
        if f.element in ("s8", "u8"):  # across k: byte by byte
            return Lowering(1, 0, total // 32, f"{plain}.U8", line_t=4, byte_g=1,
                            element_bytes=eb)
        w = 8 if f.element == "double" else 4
        sass = f"{plain}.64" if w == 8 else plain
        if f.element == "bf16" or along_k:
            return Lowering(w, 0, total // (32 * w), sass, line_g=1, byte_t=w,
                            element_bytes=eb)
        return Lowering(w, 0, total // (32 * w), sass, line_t=1, byte_g=w, element_bytes=eb)
    # accumulators
    if f.element == "half":
        return Lowering(4, 0, total // 128, plain, line_g=1, byte_t=4, element_bytes=eb)
    if f.element == "double":
        if f.layout == "row":
            return Lowering(16, 0, total // 512, f"{plain}.128", line_g=1, byte_t=16,
                            element_bytes=eb)
        return Lowering(8, 0, total // 256, f"{plain}.64", line_t=2, byte_g=8,
                        element_bytes=eb)
    pairs_along_n = f.m != 8  # m8n32k16 holds its pairs along m
    if pairs_along_n == (f.layout == "row"):
        return Lowering(8, 0, total // 256, f"{plain}.64", line_g=1, byte_t=8,
                        element_bytes=eb)
    return Lowering(4, 0, total // 128, plain, line_t=2, byte_g=4, element_bytes=eb)


def lane_address(low: Lowering, lane: int, ldm: int) -> int | None:
    """Byte offset from the call's pointer that ``lane`` gives in the first instruction
    (None: the lane gives no address)."""
    stride = ldm * low.element_bytes
    if low.matrices:
        q = lane >> 3
        if q >= low.matrices:
            return None
        line = (lane & 7) + 8 * (q % low.line_blocks)
        return line * stride + 16 * (q // low.line_blocks)
    g, t = lane >> 2, lane & 3
    return (low.line_g * g + low.line_t * t) * stride + low.byte_g * g + low.byte_t * t


def lane_offset(low: Lowering, lane: Expr, ldm: Expr) -> Expr:
    """``lane_address`` as an index expression of ``lane`` (unsigned, 0..31) and ``ldm``."""
    def c(v: int) -> Expr:
        return Const(v, LONG)

    def mul(a: Expr, b: Expr) -> Expr:
        for x, y in ((a, b), (b, a)):
            if isinstance(x, Const) and x.value == 0:
                return c(0)
            if isinstance(x, Const) and x.value == 1:
                return y
        return fold(Binary("*", a, b, LONG))

    def add(a: Expr, b: Expr) -> Expr:
        for x, y in ((a, b), (b, a)):
            if isinstance(x, Const) and x.value == 0:
                return y
        return fold(Binary("+", a, b, LONG))

    stride = mul(ldm if ldm.type == LONG else fold(Cast(ldm, LONG)), c(low.element_bytes))
    if low.matrices:
        q = fold(Cast(fold(Binary(">>", lane, Const(3, UINT), UINT)), LONG))
        r = fold(Cast(fold(Binary("&", lane, Const(7, UINT), UINT)), LONG))
        block = fold(Binary("%", q, c(low.line_blocks), LONG))
        chunk = fold(Binary("/", q, c(low.line_blocks), LONG))
        line = add(r, mul(c(8), block))
        return add(mul(line, stride), mul(c(16), chunk))
    g = fold(Cast(fold(Binary(">>", lane, Const(2, UINT), UINT)), LONG))
    t = fold(Cast(fold(Binary("&", lane, Const(3, UINT), UINT)), LONG))
    line = add(mul(c(low.line_g), g), mul(c(low.line_t), t))
    byte = add(mul(c(low.byte_g), g), mul(c(low.byte_t), t))
    return add(mul(line, stride), byte)
