"""Intermediate representation: plain frozen data handed from the frontend to the model.

Nothing here knows clang or sympy. The frontend builds these objects; the model reads
them. Index expressions are small trees of integer operations with C semantics
(each operation carries the C type it is evaluated in).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Literal

AccessKind = Literal["load", "store", "atomic"]
BlockDimSource = Literal["launch", "annotation", "cli", "config", "assumed"]


@dataclass(frozen=True)
class Span:
    """A source range. Lines and columns are 1-based; columns count UTF-8 bytes."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class IntType:
    """A C integer type: its width in bits and signedness."""

    bits: int = 32
    signed: bool = True


INT = IntType(32, True)
UINT = IntType(32, False)
LONG = IntType(64, True)


# --- index expressions -------------------------------------------------------------------

#: Names of the CUDA built-in variables, as they appear in ``Sym.name``.
THREAD_IDX = ("threadIdx.x", "threadIdx.y", "threadIdx.z")
BLOCK_IDX = ("blockIdx.x", "blockIdx.y", "blockIdx.z")
BLOCK_DIM = ("blockDim.x", "blockDim.y", "blockDim.z")
GRID_DIM = ("gridDim.x", "gridDim.y", "gridDim.z")


#: The operators of :class:`Unary` and :class:`Binary` (``min``/``max``: the CUDA
#: functions), and the operations a loop's step applies (:class:`Induction`). The
#: frontend reads C's spellings into them once, by table
#: (``cudalint.frontend.cursors.BINARY_OPS`` and its neighbours).
UnaryOp = Literal["-", "~", "!", "+", "popc", "clz", "ffs", "brev"]
BinaryOp = Literal[
    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
    "<", "<=", ">", ">=", "==", "!=", "&&", "||", "min", "max",
]
InductionOp = Literal["+", "-", "*", "/", "<<", ">>"]
BoundOp = Literal["<", "<=", ">", ">=", "!="]


@dataclass(frozen=True)
class Const:
    value: int
    type: IntType = INT


@dataclass(frozen=True)
class Sym:
    """A named integer value.

    ``threadIdx.*`` are the lane-dependent inputs; every other symbol (``blockIdx.*``,
    ``blockDim.*``, ``gridDim.*``, kernel parameters, template parameters without a
    known argument) is the same for all lanes of a warp: *uniform*.
    """

    name: str
    type: IntType = UINT
    #: True for values that differ between lanes of one warp (the thread index).
    lane_dependent: bool = False
    #: For a uniform loop variable: the sequence of values it takes (None: any value).
    induction: Induction | None = None


@dataclass(frozen=True)
class Induction:
    """The values of a uniform loop variable: ``start``, then ``var = var op step``
    while ``var cmp bound`` holds (``cmp`` None: no bound the frontend could read).

    ``for (s = blockDim.x / 2; s > 0; s >>= 1)`` is ``Induction(blockDim.x / 2, ">>", 1,
    ">", 0)``. The model evaluates the sequence once the block shape is known.

    With ``index`` the symbol is not the loop variable but its iteration number (0 for
    the first) in that same sequence: ``offset <<= 1`` beside ``d >>= 1`` is
    ``1 << k`` and ``d`` is ``start >> k``, one ``k`` for both.
    """

    start: Expr
    op: InductionOp
    step: Expr
    cmp: BoundOp | None = None
    bound: Expr | None = None
    index: bool = False


def next_value(op: InductionOp, v: int, step: int) -> int:
    """A counter's value after one step, ``v op step`` (C's truncating division); ``v``
    itself where the step is undefined (a division by 0, a shift past 63 bits), which a
    caller enumerating the values takes for no progress."""
    if op == "+":
        return v + step
    if op == "-":
        return v - step
    if op == "*":
        return v * step
    if op == "/":
        return int(v / step) if step else v
    if not 0 <= step < 64:
        return v
    return v << step if op == "<<" else v >> step


@dataclass(frozen=True)
class Unary:
    """``op operand``. ``popc``, ``clz``, ``ffs`` and ``brev`` are CUDA's ``__popc``,
    ``__clz``, ``__ffs`` and ``__brev`` (and their ``ll`` forms) over the operand's
    width (:func:`bit_intrinsic`)."""

    op: UnaryOp
    operand: Expr
    type: IntType = INT


#: The CUDA integer intrinsics a :class:`Unary` models, by operator.
BIT_INTRINSICS = ("popc", "clz", "ffs", "brev")


def bit_intrinsic(op: str, value: int, bits: int) -> int:
    """``__popc``/``__clz``/``__ffs``/``__brev`` of ``value`` taken as ``bits`` bits:
    the set bits; the zero bits above the highest set one (``bits`` for 0); the
    1-based position of the lowest set bit (0 for 0); the bits in reverse order."""
    x = value & ((1 << bits) - 1)
    if op == "popc":
        return x.bit_count()
    if op == "clz":
        return bits - x.bit_length()
    if op == "ffs":
        return (x & -x).bit_length()
    if op == "brev":
        return int(format(x, f"0{bits}b")[::-1], 2)
    raise ValueError(f"not a bit intrinsic: {op!r}")


@dataclass(frozen=True)
class Binary:
    """A binary operation evaluated in C: ``/`` truncates, ``%`` follows the dividend,
    unsigned results wrap, comparisons and ``&&``/``||`` give 0 or 1."""

    op: BinaryOp
    lhs: Expr
    rhs: Expr
    type: IntType = INT


@dataclass(frozen=True)
class Select:
    """``cond ? then : other``."""

    cond: Expr
    then: Expr
    other: Expr
    type: IntType = INT


@dataclass(frozen=True)
class Cast:
    operand: Expr
    type: IntType = INT


class OpaqueKind(Enum):
    """What an :class:`Opaque` value is. The model and the frontend decide from the kind,
    never from ``Opaque.reason`` (English, for messages only).

    An opaque value with inputs is uniform when every input is; one *without* known
    inputs is uniform only for the kinds of :data:`UNIFORM_WITHOUT_INPUTS` (data in
    memory, sizes, values that are no integer): any other may read the thread index
    itself (an unfollowed call, a variable cudalint lost track of).
    """

    #: A value loaded from memory: ``value loaded from 'in'``, ``value loaded through a
    #: pointer``. Its inputs are the address's; a load from a uniform address is uniform.
    LOAD = "load"
    #: A size fixed at compile time that cudalint does not know: an array extent it could
    #: not evaluate, ``sizeof`` a type that depends on a template parameter.
    SIZE = "size"
    #: An integer, character or boolean literal whose value clang did not give: a
    #: compile-time constant.
    LITERAL = "literal"
    #: A kernel parameter or pointer read as an integer that holds none (``'p' is a
    #: pointer``, ``'scale' is not an integer``): the same in every lane. Any other value
    #: that is no integer (a float local computed from the thread index) is a VARIABLE.
    NOT_INTEGER = "not-integer"
    #: A parameter of a device function (each call site passes its own value).
    PARAMETER = "parameter"
    #: A value that depends on which way control flow went (``'x' depends on control
    #: flow``, a ``switch``, ``return`` or ``goto`` inside a loop or switch).
    BRANCH = "branch"
    #: A value a loop changes (``'i' is a loop variable``, ``'s' is assigned in a loop``).
    LOOP = "loop"
    #: The value of a call cudalint does not follow (``call to 'f'``, a lambda, a call
    #: through a pointer).
    CALL = "call"
    #: A local variable whose value cudalint does not know at this point (its address is
    #: taken, inline asm writes it, it has no known value here, it depends on itself).
    VARIABLE = "variable"
    #: A name that is no variable cudalint follows (a name clang left unresolved, a
    #: function or other declaration used as a value).
    NAME = "name"
    #: An expression clang itself left unresolved (a declaration it uses did not parse, or
    #: its type depends on a template parameter).
    UNRESOLVED = "unresolved"
    #: A construct the frontend does not model (an operator or conversion on values that
    #: are no integers, an assignment inside an index, an expression nested too deeply).
    UNSUPPORTED = "unsupported"

    @property
    def uniform_without_inputs(self) -> bool:
        """Whether a value of this kind with no known inputs is the same in every lane."""
        return self in UNIFORM_WITHOUT_INPUTS

    @property
    def constant(self) -> bool:
        """Whether a value of this kind with no known inputs is a compile-time constant
        (the same in every iteration of a loop, not only in every lane)."""
        return self in (OpaqueKind.SIZE, OpaqueKind.LITERAL)


#: The kinds of opaque value that are uniform even without known inputs.
UNIFORM_WITHOUT_INPUTS = frozenset({
    OpaqueKind.LOAD, OpaqueKind.SIZE, OpaqueKind.LITERAL, OpaqueKind.NOT_INTEGER,
})


@dataclass(frozen=True)
class Opaque:
    """A value the frontend cannot model (a load from memory, an unknown call).

    ``kind`` says what it is (and decides, with ``inputs``, whether it is uniform);
    ``reason`` says it in words for messages, and nothing reads it to decide anything.
    """

    kind: OpaqueKind
    reason: str
    inputs: tuple[Expr, ...] = ()
    type: IntType = INT
    #: The variable a clause-shaped reason is about: ``reason`` is ``'NAME' CLAUSE``
    #: (``'pos' is assigned in a loop``), so that a message can turn it into ``'pos',
    #: which is assigned in a loop``. None when the reason is no such clause.
    name: str | None = None
    #: The ``CLAUSE`` of such a reason (``is assigned in a loop``); "" when ``name`` is None.
    clause: str = ""


Expr = Const | Sym | Unary | Binary | Select | Cast | Opaque


def walk(expr: Expr) -> Iterator[Expr]:
    """Every node of ``expr``, Opaque inputs included, parents before children and
    children in source order (operand; lhs, rhs; cond, then, other; inputs)."""
    stack: list[Expr] = [expr]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, Unary | Cast):
            stack.append(x.operand)
        elif isinstance(x, Binary):
            stack.extend((x.rhs, x.lhs))
        elif isinstance(x, Select):
            stack.extend((x.other, x.then, x.cond))
        elif isinstance(x, Opaque):
            stack.extend(reversed(x.inputs))


def may_differ(expr: Expr, warp_uniform: frozenset[str] = frozenset()) -> bool:
    """Whether ``expr`` may differ between the lanes of a warp, by :class:`OpaqueKind`'s
    contract: it reads a lane-dependent symbol (but the thread indices ``warp_uniform``
    names, which the block shape makes one value per warp), or an opaque value without
    known inputs whose kind is not uniform without them (it may read the thread index)."""
    for x in walk(expr):
        if isinstance(x, Sym):
            if x.lane_dependent and x.name not in warp_uniform:
                return True
        elif isinstance(x, Opaque) and not x.inputs and not x.kind.uniform_without_inputs:
            return True
    return False


def substitute(expr: Expr, old: Expr, new: Expr) -> Expr:
    """``expr`` with every node equal to ``old`` replaced by ``new``, Opaque inputs
    included; ``expr`` itself (``is``) where nothing is replaced."""
    if expr == old:
        return new
    if isinstance(expr, Unary | Cast):
        operand = substitute(expr.operand, old, new)
        return expr if operand is expr.operand else replace(expr, operand=operand)
    if isinstance(expr, Binary):
        lhs, rhs = substitute(expr.lhs, old, new), substitute(expr.rhs, old, new)
        return expr if lhs is expr.lhs and rhs is expr.rhs else replace(expr, lhs=lhs, rhs=rhs)
    if isinstance(expr, Select):
        parts = (substitute(expr.cond, old, new), substitute(expr.then, old, new),
                 substitute(expr.other, old, new))
        if all(a is b for a, b in zip(parts, (expr.cond, expr.then, expr.other), strict=True)):
            return expr
        return replace(expr, cond=parts[0], then=parts[1], other=parts[2])
    if isinstance(expr, Opaque):
        inputs = tuple(substitute(i, old, new) for i in expr.inputs)
        if all(a is b for a, b in zip(inputs, expr.inputs, strict=True)):
            return expr
        return replace(expr, inputs=inputs)
    return expr


# --- declarations and accesses -----------------------------------------------------------


@dataclass(frozen=True)
class SharedArray:
    """A ``__shared__`` array declaration."""

    #: Unique within the translation unit: ``kernel::name`` or ``::name`` at file scope.
    key: str
    name: str
    element_type: str
    element_bytes: int
    #: Extents, outermost first (``float t[32][33]`` → ``(32, 33)``).
    dims: tuple[int, ...]
    span: Span
    #: Source ranges of each extent expression, outermost first (for padding fixes).
    dim_spans: tuple[Span, ...] = ()
    #: Source text of each extent (``TILE``, ``TILE + 1``, ``32``).
    dim_texts: tuple[str, ...] = ()
    #: The kernel whose body declares it; None at file scope.
    kernel: str | None = None
    #: Alignment of the declaration in bytes (clang's; 0 when the frontend did not say).
    alignment: int = 0
    #: Dynamic shared memory (``extern __shared__ T s[]`` and arrays carved from it, whose
    #: ``dims`` are ``(0,)``): the byte offset of this array from the start of the
    #: kernel's dynamic window (an expression when it is not a constant). None for
    #: static arrays, which the model places itself.
    base_offset: Expr | None = None

    @property
    def size_bytes(self) -> int:
        n = self.element_bytes
        for d in self.dims:
            n *= d
        return n


@dataclass(frozen=True)
class Access:
    """One load, store or atomic on a shared array, as the hardware performs it."""

    array: str  # SharedArray.key
    kernel: str
    kind: AccessKind
    #: Bytes each lane moves (1, 2, 4, 8 or 16).
    width: int
    #: Byte offset from the array base, per thread.
    offset: Expr
    span: Span
    #: Source text of the subscript expression, e.g. ``tile[threadIdx.x][threadIdx.y]``.
    text: str = ""
    #: Lanes execute the access only where this is non-zero (None: always).
    guard: Expr | None = None
    #: Template arguments substituted for this record, e.g. ``S=4``; None otherwise. Kernel
    #: parameters a launch passes as constants are part of the label too (``Bc=32``).
    instantiation: str | None = None
    #: The names in ``instantiation`` that are kernel parameters bound by a launch's
    #: constant arguments (not template arguments): values this record assumes that
    #: another caller of the kernel may not pass.
    launch_params: tuple[str, ...] = ()
    #: Why the offset could not be modelled, if it could not.
    unknown_reason: str | None = None
    #: The subscripts, outermost first, when the access is a plain subscript chain on the
    #: array (``t[i][j]`` → ``(i, j)``); the offset is then ``(i*B + j)*E + element_offset``.
    #: Empty when the access goes through a derived pointer or cast.
    indices: tuple[Expr, ...] = ()
    #: Byte offset inside the element (``s[i].y`` → 4).
    element_offset: int = 0
    #: Accesses with the same non-negative region run in one straight line of code with
    #: no barrier between them (nvcc may merge neighbouring ones into a wider access).
    region: int = -1
    #: The variable of the innermost ``for`` around the access when that loop's body is
    #: straight-line code (no branch, barrier, atomic or call in it) and no ``#pragma
    #: unroll 1`` keeps it rolled: nvcc unrolls a loop whose trip count is a constant and
    #: may merge the access with its copies in neighbouring iterations
    #: (cudalint.model.merge.unrolled). None otherwise.
    unrolled_by: str | None = None
    #: ``N`` of a ``#pragma unroll N`` on that loop; 0 without one (nvcc's choice) or for
    #: a bare ``#pragma unroll``.
    unroll_factor: int = 0
    #: Source order within the function (for merging and stable output).
    order: int = 0
    volatile: bool = False
    #: For kind "atomic": the function (``atomicAdd``, ``atomicCAS``, ...), whether the
    #: value it returns is used, and its operand when that is a constant. They decide
    #: the instruction nvcc emits (ATOMS.POPC.INC combines lanes on one word; ATOMS.ADD
    #: and the rest serve each lane; a warp-uniform address is aggregated to one lane).
    atomic_op: str | None = None
    atomic_result_used: bool = True
    atomic_operand: int | None = None
    #: The canonical type of the value an atomic updates (``float``, ``unsigned int``,
    #: ``__half``), when known: a ``float`` atomicAdd is a compare-and-swap loop.
    atomic_value_type: str | None = None
    #: An ``ldmatrix``/``stmatrix`` (LDSM/STSM): each active lane addresses one 16-byte row,
    #: one phase per 8x8 matrix, rows never merged across lanes (measured on sm_90,
    #: tests/data/hw/sm90_ldmatrix.jsonl; see cudalint.model.banks.warp_cost).
    matrix: bool = False
    #: A warp-collective operation (wmma ``load/store_matrix_sync``, ``ldmatrix``,
    #: ``stmatrix``): every lane of the warp must execute it, so a guard around it is
    #: uniform over the warp in a well-formed program.
    collective: bool = False
    #: The array's name as declared (``SharedArray.name``, ``tile``): what messages call
    #: it, never taken apart from ``array`` (a key such as ``k<4>::tile``). "" in records
    #: built by hand.
    array_name: str = ""
    #: Where a ``__device__`` function holding the access was called, innermost call first
    #: (the call in the function that called it, then that function's call, up to the
    #: kernel); empty for an access in the kernel's own body. The same helper line called
    #: twice is two records, told apart by their calls.
    call_sites: tuple[Span, ...] = ()


@dataclass(frozen=True)
class Launch:
    """A ``<<<grid, block>>>`` site. ``block`` is None when its value is not constant."""

    kernel: str
    block: tuple[int, int, int] | None
    span: Span
    instantiation: str | None = None
    #: When ``block`` is None: the known components of a shape whose blockDim.x is a known
    #: multiple of 32 and whose other components are not known (``dim3(32, by, bz)``).
    #: Every warp is then 32 consecutive ``threadIdx.x`` with ``threadIdx.y``/``z`` fixed,
    #: so the model proves it for every legal value of the unknown ones.
    partial: tuple[int | None, int | None, int | None] | None = None
    #: When the shape is one of a set the host code bounds a run-time value to
    #: (``min(256, n)``, a doubling loop): the set, said for messages ("the 6 block shapes
    #: the launch at softmax.cu:345 allows (blockDim.x = 32, 64, ..., 1024)"), which
    #: also says whether it is exact or a superset. None: a shape the launch runs as such.
    bound: str | None = None


@dataclass(frozen=True)
class Kernel:
    name: str
    span: Span
    #: ``__launch_bounds__`` maximum threads per block, if given (caps, never shapes).
    max_threads: int | None = None
    #: ``// cudalint: block-dim(x,y,z)`` on the line before the kernel.
    annotated_block: tuple[int, int, int] | None = None
    template_params: tuple[str, ...] = ()


@dataclass(frozen=True)
class Note:
    """A frontend message: a clang diagnostic or a construct cudalint skipped."""

    severity: Literal["note", "warning", "error"]
    message: str
    span: Span | None = None
    #: Shared-memory accesses the note stands for that no record holds (an inline-PTX
    #: ``ld.shared``/``st.shared`` whose address cudalint cannot trace to an array): the
    #: summary counts each as an unknown access (cudalint.output.statistics.totals).
    unanalyzed: int = 0
    #: From a device function run on its own, no kernel of the unit calling it
    #: (parameters unknown): a run that traces the statement through a call in another
    #: file stands for it (cudalint.runmerge). Not part of the note's identity: the same
    #: note from a call in this unit (whose pointer is this unit's) is not standalone.
    standalone: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class TranslationUnit:
    file: str
    kernels: tuple[Kernel, ...] = ()
    arrays: tuple[SharedArray, ...] = ()
    accesses: tuple[Access, ...] = ()
    launches: tuple[Launch, ...] = ()
    notes: tuple[Note, ...] = field(default_factory=tuple)
    #: False when the file could not be parsed at all (then ``notes`` says why).
    parsed: bool = True
    #: The project files (not system headers) the unit includes, directly or not, as
    #: absolute paths: their code is analysed as part of this unit.
    includes: tuple[str, ...] = ()
    #: Parsed with ``-fgpu-rdc`` (it launches kernels from device code; see
    #: ``frontend.parse.RDC``): the clang command ``-v`` prints is that one.
    rdc: bool = False

    def array(self, key: str) -> SharedArray:
        for a in self.arrays:
            if a.key == key:
                return a
        raise KeyError(key)


# --- remembered hashes ------------------------------------------------------------------


def _remember_hash(cls: type) -> None:
    """Give ``cls`` (a frozen dataclass) a hash computed once per instance.

    Index expressions are trees, and the model uses them (and the accesses holding them)
    as cache and memo keys over and over; dataclass hashing walks the whole tree each
    time. The remembered value is left out of pickles: string hashes differ between
    processes (``-j`` workers), so a copied value would be wrong where it lands.
    """
    generated = cls.__hash__

    def __hash__(self: object) -> int:
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = generated(self)  # type: ignore[call-arg]
            self.__dict__["_hash"] = h
        return h

    def __getstate__(self: object) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    cls.__hash__ = __hash__  # type: ignore[assignment]
    cls.__getstate__ = __getstate__  # type: ignore[attr-defined]


for _cls in (Const, Sym, Induction, Unary, Binary, Select, Cast, Opaque, Access):
    _remember_hash(_cls)
del _cls
