"""Run one function body in statement order and hand out its shared accesses.

The executor keeps the current value of every integer local (and of every pointer into
shared memory) as it walks the statements, so an index sees the value its variable holds
on the straight-line path to the access. Where control flow decides a value (assigned in
one branch of an ``if``, or in a loop body), the value becomes an ``Opaque`` that says so
and names its inputs; it is never guessed.

- ``if``: both branches run from the same state with the condition (or its negation) as
  a guard; afterwards a variable whose value differs between them depends on control
  flow. A branch that always leaves (``return``, ``break``, ``continue``) drops out, and
  the statements after it run under the negated exit condition
  (``if (tid >= n) return;`` → later guards include ``!(tid >= n)``).
- loops: ``for (i = START; i CMP BOUND; i OP= STEP)`` makes ``i`` a uniform symbol with
  an ``Induction`` when START and STEP are uniform, or ``START + k*STEP`` with a fresh
  uniform ``k@L<line>:<variable>`` when START depends on the lane. Every other variable assigned in
  the loop is opaque inside and after it.
- regions: a new straight-line region starts at every branch or loop boundary, barrier,
  atomic, inline asm, and call that is not known to be barrier-free; nvcc can merge
  neighbouring accesses only within one region.
- ``__device__`` functions with a body in the file are run at each call site with the
  caller's argument values (shared pointers included), so their accesses are costed per
  call site; recursion and deep call chains stop at a fixed depth.
- pointers into shared memory (``T* p = &s[i]``, ``s + off``, casts to vector types)
  are tracked as (array, byte offset, pointee type). Pointers carved from an
  ``extern __shared__`` window at a uniform offset become arrays of their own whose
  ``base_offset`` records where they start in the window.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Union, cast

import clang.cindex as ci

from cudalint.budget import check as check_budget
from cudalint.frontend import cexpr
from cudalint.frontend import closed_forms as cf
from cudalint.frontend import types as ty
from cudalint.frontend.closed_forms import lane_dependent
from cudalint.frontend.consteval import (
    UO_ADDR_OF,
    UO_DEREF,
    UO_LNOT,
    UO_MINUS,
    UO_NOT,
    UO_PLUS,
    UO_POST_DEC,
    UO_POST_INC,
    UO_PRE_DEC,
    UO_PRE_INC,
    evaluate_int,
    fold,
    is_from_project,
    unary_operator_kind,
)
from cudalint.frontend.cursors import (
    ADDR,
    ATOMIC,
    ATOMICS,
    BINARY_OPS,
    BOUND_CMPS,
    BUILTIN_VARS,
    CASTS,
    COMPARISONS,
    COMPOUND_ASSIGN_OPS,
    LOAD,
    LOOPS,
    RMW,
    ROLE_KINDS,
    STEP_OPS,
    STORE,
    THREAD_SYMS,
    UNARY_OPS,
    ArrayDecl,
    Env,
    Function,
    K,
    N,
    Var,
    arguments,
    dedupe,
    key_of,
    node_int_type,
    operator_function,
    split_top_level,
    strip,
)
from cudalint.frontend.inert import shared_inert
from cudalint.frontend.program import Program
from cudalint.frontend.tree import Node, build, top_level
from cudalint.frontend.types import canonical_kind, int_type, type_size
from cudalint.frontend.wmma import Fragment as WmmaFragment
from cudalint.frontend.wmma import lane_offset as wmma_lane_offset
from cudalint.frontend.wmma import lower as wmma_lower
from cudalint.ir import (
    BLOCK_DIM,
    INT,
    LONG,
    THREAD_IDX,
    UINT,
    Access,
    Binary,
    BinaryOp,
    BoundOp,
    Cast,
    Const,
    Expr,
    Induction,
    InductionOp,
    IntType,
    Note,
    Opaque,
    OpaqueKind,
    Select,
    SharedArray,
    Span,
    Sym,
    Unary,
    UnaryOp,
    may_differ,
    substitute,
    walk,
)

#: Statements a jump reaches (``case``/``default`` labels of a switch, a ``goto``'s
#: label): reachable whatever the statements before them did (``Executor.block``).
_JUMP_TARGETS = frozenset({N.CASE, N.DEFAULT, N.LABEL})

#: The most elements of a braced list a range-for's variable is enumerated over
#: (:meth:`Executor.range_over_constants`); a longer list leaves it unknown.
_MAX_RANGE_CONSTANTS = 64

#: The call clang puts in a ``<<<>>>`` expression for its launch configuration (the shim's
#: ``cudaConfigureCall``; real toolkits since CUDA 9.2: ``__cudaPushCallConfiguration``).
LAUNCH_CONFIG_CALLS = frozenset(
    {"cudaConfigureCall", "__cudaPushCallConfiguration", "hipConfigureCall"}
)

#: Calls after which accesses are not merged with the ones before.
BARRIERS = frozenset([
    "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
    "__syncwarp", "__threadfence", "__threadfence_block", "__threadfence_system",
    "__barrier_sync", "sync", "barrier_sync", "__pipeline_commit", "__pipeline_wait_prior",
    "arrive_and_wait", "wait", "producer_commit", "consumer_wait", "consumer_release",
    "producer_acquire", "memcpy_async", "__nanosleep",
])

#: Calls that copy into shared memory asynchronously: (name, index of the shared argument
#: or -1 for "the first shared pointer among the arguments").
ASYNC_COPIES = {
    "__pipeline_memcpy_async": 0,
    "memcpy_async": -1,
    "__cp_async": 0,
}
#: Tensor-core fragment loads/stores (nvcuda::wmma): modelled by cudalint.frontend.wmma.
MATRIX_CALLS = {"load_matrix_sync": LOAD, "store_matrix_sync": STORE}
#: wmma fragment element types by their unqualified spelling.
_WMMA_ELEMENTS = {
    "half": "half", "__half": "half", "__nv_bfloat16": "bf16", "nv_bfloat16": "bf16",
    "tf32": "tf32", "float": "float", "int": "int", "signed char": "s8",
    "unsigned char": "u8", "double": "double",
}

_SHARED_ASM = re.compile(
    r"\b(ldmatrix|stmatrix|cp\.async|cp\.reduce\.async|ld\.shared|st\.shared|atom\.shared"
    r"|red\.shared|ld\.volatile\.shared|st\.volatile\.shared|ld\.[\w.]*shared|st\.[\w.]*shared"
    r"|atom\.[\w.]*shared|red\.[\w.]*shared|mbarrier|wgmma|tcgen05)"
)

#: ``#pragma unroll``, ``#pragma unroll N`` / ``(N)``. nvcc 13 ignores ``#pragma nounroll``
#: (a warning) and unrolls the loop all the same.
_UNROLL_PRAGMA = re.compile(r"#\s*pragma\s+unroll\b\s*\(?\s*(0[xX][0-9a-fA-F]+|\d+)?")

#: One PTX instruction of an asm template that touches shared memory, by its opcode.
_PTX_SHARED_OP = re.compile(
    r"^\s*(?:@!?\w+\s+)?(ldmatrix|stmatrix|cp\.async|ld|st|atom|red)((?:\.[\w:]+)+)")
_PTX_TYPE = re.compile(r"\.(?:b|u|s|f|bf|e4m3|e5m2)(8|16|32|64|128)(x2)?$")
_PTX_OPERAND = re.compile(r"\[\s*[%$](\d+)\s*(?:([+-])\s*(-?(?:0[xX][0-9a-fA-F]+|\d+)))?\s*\]")
_PTX_COUNT = re.compile(r"\.(x1|x2|x4)\b")
#: ``cvta.to.shared.u64 DEST, %N``: a generic address made a shared-window one.
_PTX_CVTA_SHARED = re.compile(r"^cvta\.to\.shared\.u(?:32|64)\s+([%$]?\w+)\s*,\s*[%$](\d+)$")
#: ``cvt.u32.u64 %0, R`` / ``mov.b32 %0, R``: the address moved into the output.
_PTX_MOVE_OUT = re.compile(r"^(?:cvt\.u32\.u64|mov\.[bu](?:32|64))\s+[%$]0\s*,\s*([%$]?\w+)$")


def _register_asm_api() -> bool:
    """libclang's GCC asm queries (clang 21+), which the bindings do not wrap."""
    lib = ci.conf.lib
    try:
        tmpl = lib.clang_Cursor_getGCCAssemblyTemplate
        outs = lib.clang_Cursor_getGCCAssemblyNumOutputs
        ins = lib.clang_Cursor_getGCCAssemblyNumInputs
    except AttributeError:
        return False
    tmpl.argtypes = [ci.Cursor]
    tmpl.restype = ci._CXString
    for f in (outs, ins):
        f.argtypes = [ci.Cursor]
        f.restype = ctypes.c_uint
    return True


_asm_api: list[bool] = []

#: Why a local the function changes is unknown inside a lambda's body (:meth:`Executor.
#: lambda_body`).
_CAPTURED = "is captured by a lambda, which may run where it holds another value"


def _uncast(n: Node) -> Node:
    """``n`` without parentheses and casts, implicit or written."""
    s = strip(n)
    while s.kind in CASTS and s.expr_children():
        s = strip(s.expr_children()[-1])
    return s


def _cvta_source(asm_node: Node, operands: list[Node]) -> int | None:
    """The input operand an ``asm`` statement turns into a shared-window address in its
    one output, when that is all it does: ``cvta.to.shared`` of the input, then ``cvt``
    or ``mov`` only (``{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }``)."""
    parts = asm_parts(asm_node.cursor)
    if parts is None or parts[1] != 1 or parts[1] + parts[2] != len(operands):
        return None
    # exactly: the cvta into the output, or into a register then one cvt/mov of that
    # register into the output; nothing else writes anything
    steps = [" ".join(i.strip(" \t{}").split()) for i in re.split(r"[;\n]", parts[0])]
    steps = [i for i in steps if i and not i.startswith(".reg ")]
    m = _PTX_CVTA_SHARED.match(steps[0]) if steps else None
    if m is None or len(steps) > 2:
        return None
    dest, source = m.group(1), int(m.group(2))
    if len(steps) == 1:
        if dest not in ("%0", "$0"):
            return None
    else:
        moved = _PTX_MOVE_OUT.match(steps[1])
        if moved is None or moved.group(1) != dest or dest in ("%0", "$0"):
            return None
    return source if 0 < source < len(operands) else None


def asm_parts(cursor: ci.Cursor) -> tuple[str, int, int] | None:
    """(template with operands as ``$N``, outputs, inputs) of a GCC ``asm`` statement,
    or None where this libclang cannot say (the source text then stands in)."""
    if not _asm_api:
        _asm_api.append(_register_asm_api())
    if not _asm_api[0]:
        return None
    lib = ci.conf.lib
    try:
        text = ci._CXString.from_result(lib.clang_Cursor_getGCCAssemblyTemplate(cursor))
        outs = int(lib.clang_Cursor_getGCCAssemblyNumOutputs(cursor))
        ins = int(lib.clang_Cursor_getGCCAssemblyNumInputs(cursor))
    except Exception:  # an older libclang: the source text stands in
        return None
    if outs + ins:
        key = (bytes(cursor), text)
        whole = _asm_whole.get(key)
        if whole is None:
            whole = _asm_whole[key] = _nvcc_template(cursor) or text
            if len(_asm_whole) > 4096:
                _asm_whole.clear()
        text = whole
    return text, outs, ins


#: :func:`_nvcc_template` by cursor and clang's template.
_asm_whole: dict[tuple[bytes, str], str] = {}
#: A ``%`` escape in an asm string with operands (GCC's rules, as clang reads them).
_ASM_ESCAPE = re.compile(r"%(%|=|\d+|[A-Za-z]\d+|[A-Za-z]?\[\w*\]?|[A-Za-z_][\w.]*)?")
_STRING_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "r": "\r"}


def _nvcc_template(cursor: ci.Cursor) -> str | None:
    """The template of an ``asm`` statement with operands, in clang's form (``$N`` for
    ``%N``, ``%`` for ``%%``), where its strings hold what nvcc passes through and clang
    rejects: a PTX special register with one ``%`` (``"mov.u64 %0, %globaltimer;"``,
    clang's "invalid % escape", after which its template stops); None where they hold
    none (clang's template is whole) or the strings are not all literals."""
    tokens = list(cursor.get_tokens())
    i = next((j for j, t in enumerate(tokens) if t.spelling == "("), -1)
    pieces: list[str] = []
    end = len(tokens)
    for j in range(i + 1 if i >= 0 else end, end):
        t = tokens[j]
        if t.spelling in (":", "::", ")"):
            end = j
            break
        spelled = t.spelling
        if t.kind != ci.TokenKind.LITERAL or not spelled.endswith('"') or '"' not in spelled:
            return None
        body = spelled[spelled.index('"') + 1:-1]
        pieces.append(re.sub(r"\\(.)", lambda m: _STRING_ESCAPES.get(m.group(1), m.group(0)),
                             body))
    raw = "".join(pieces)
    names = _asm_operand_names(tokens[end:])
    out: list[str] = []
    passed = False
    at = 0
    for m in _ASM_ESCAPE.finditer(raw):
        out.append(raw[at:m.start()])
        at = m.end()
        what = m.group(1) or ""
        if what == "%":
            out.append("%")
        elif what == "=":
            out.append("${:uid}")  # a number unique to the statement, as clang writes it
        elif what.isdigit():
            out.append(f"${what}")
        elif what[:1].isalpha() and what[1:].isdigit() and len(what) > 1:
            out.append(f"${{{what[1:]}:{what[0]}}}")
        elif what.endswith("]") and what[what.index("[") + 1:-1] in names:
            index = names[what[what.index("[") + 1:-1]]
            out.append(f"${{{index}:{what[0]}}}" if what[0] != "[" else f"${index}")
        elif what and (what[0].isalpha() or what[0] == "_") and not what.endswith("["):
            out.append(f"%{what}")  # nvcc passes it to ptxas as written
            passed = True
        else:
            return None  # an unknown named operand, a stray ``%``: clang's template stands
    out.append(raw[at:])
    return "".join(out) if passed else None


def _asm_operand_names(tokens: list[ci.Token]) -> dict[str, int]:
    """The symbolic names of an ``asm`` statement's operands (``[addr] "r"(a)``) by their
    numbers, from the tokens after its template (outputs, then inputs; the clobbers
    after the third ``:`` are no operands)."""
    names: dict[str, int] = {}
    colons = depth = 0
    count = -1
    pending: str | None = None
    for j, t in enumerate(tokens):
        sp = t.spelling
        if depth == 0 and sp in (":", "::"):
            colons += len(sp)
            if colons >= 3:
                break
        elif sp in ("(", "["):
            if sp == "[" and depth == 0 and j + 2 < len(tokens) \
                    and tokens[j + 2].spelling == "]":
                pending = tokens[j + 1].spelling
            depth += 1
        elif sp in (")", "]"):
            depth -= 1
        elif depth == 0 and t.kind == ci.TokenKind.LITERAL:
            count += 1  # an operand's constraint
            if pending is not None:
                names[pending] = count
                pending = None
    return names


def asm_output_constraints(cursor: ci.Cursor, count: int) -> list[str] | None:
    """The constraint strings of an ``asm`` statement's ``count`` outputs (``"+r"``,
    ``"=r"``), or None where this libclang cannot say."""
    if not _asm_api:
        _asm_api.append(_register_asm_api())
    if not _asm_api[0]:
        return None
    lib = ci.conf.lib
    try:
        get = lib.clang_Cursor_getGCCAssemblyOutput
        get.argtypes = [ci.Cursor, ctypes.c_uint, ctypes.POINTER(ci._CXString),
                        ctypes.POINTER(ci.Cursor)]
        get.restype = ctypes.c_uint
        out: list[str] = []
        for i in range(count):
            text, expr = ci._CXString(), ci.Cursor()
            if not get(cursor, i, ctypes.byref(text), ctypes.byref(expr)):
                return None
            out.append(ci._CXString.from_result(text))
        return out
    except Exception:  # an older libclang
        return None


#: One PTX integer instruction of the forms cudalint follows in ``asm`` (:meth:`Executor.
#: asm_result`): ``mov``/``add``/``sub``/``xor``/``and``/``or``/``shl``/``shr`` of 32- or
#: 64-bit integers, into an operand, from operands and immediates.
_PTX_ARITH = re.compile(
    r"^(mov|add|sub|xor|and|or|shl|shr)\.([bsu])(32|64)\s+[%$](\d+)\s*,\s*([^,\s]+)"
    r"(?:\s*,\s*([^,\s]+))?$")
#: The destination of a PTX instruction: its first operand, an operand or a vector of
#: them (``ld.shared.v2.f32 {%0, %1}, [%2]``; a store's ``[%0]`` is none).
_PTX_DEST = re.compile(r"^\s*(?:@!?\w+\s+)?[a-z][\w.:]*\s+(\{[^}]*\}|[%$]\d+)\s*,")
_PTX_IMMEDIATE = re.compile(r"^(-?)(0[xX][0-9a-fA-F]+|\d+)[uU]?$")
_PTX_ARITH_OPS: dict[str, BinaryOp] = {
    "add": "+", "sub": "-", "xor": "^", "and": "&", "or": "|", "shl": "<<", "shr": ">>"}


def asm_outputs(n: Node) -> list[Node]:
    """The operands an ``asm`` statement writes (``"=r"(v)``, ``"+r"(v)``); every operand
    where this libclang cannot tell outputs from inputs."""
    operands = n.expr_children()
    parts = asm_parts(n.cursor)
    if parts is None or parts[1] + parts[2] != len(operands):
        return operands
    return operands[:parts[1]]


def asm_template_text(source: str) -> str:
    """The template of ``asm("..." "..." : ...)`` read from its source text: the string
    literals before the first ``:`` outside them (escapes left as written)."""
    out: list[str] = []
    i = source.find("(")
    while 0 <= i < len(source):
        ch = source[i]
        if ch == ":":
            break
        if ch == '"':
            j = i + 1
            while j < len(source) and source[j] != '"':
                j += 2 if source[j] == "\\" else 1
            out.append(source[i + 1:j].replace("\\n", "\n").replace("\\t", " "))
            i = j
        i += 1
    return "".join(out)


def ptx_width(suffixes: str) -> int | None:
    """Bytes per lane that ``ld``/``st``/``atom`` with these suffixes move
    (``.shared.v4.b32`` → 16), or None."""
    vec = 1
    bits: int | None = None
    for part in suffixes.split(".")[1:]:
        if part in ("v2", "v4", "v8"):
            vec = int(part[1:])
        m = _PTX_TYPE.match("." + part)
        if m:
            bits = int(m.group(1)) * (2 if m.group(2) else 1)
    if bits is None:
        return None
    width = bits * vec // 8
    return width if width in (1, 2, 4, 8, 16) else None


_MAX_DEPTH = 8  # nested inlined calls


def _has_mutable(t: ci.Type, depth: int = 0) -> bool:
    """Whether the class ``t`` (its bases and class-typed members included) has a
    ``mutable`` member, which a ``const`` object's methods may write; True where
    that is not known."""
    if depth > _MAX_DEPTH:
        return True
    while ty.is_array(t):
        t = ty.canonical(ty.element(t))
    if not ty.is_record(t):
        return False
    for ch in ty.declaration(t).get_children():
        if ch.kind == K.FIELD_DECL:
            if ch.is_mutable_field() or _has_mutable(ty.canonical(ch.type), depth + 1):
                return True
        elif ch.kind == K.CXX_BASE_SPECIFIER and _has_mutable(
                ty.canonical(ch.type), depth + 1):
            return True
    return False


def _effect_free(n: Node) -> bool:
    """Whether evaluating ``n`` (a helper's ``if`` or ``switch`` head) changes nothing:
    no assignment, increment or decrement, and no call that may write through its
    object, a non-``const`` reference or a pointer (``if ((d = 2 * d) > 0)``,
    ``switch (d++)``)."""
    stack = [n]
    while stack:
        x = stack.pop()
        stack.extend(x.children)
        if x.kind == N.COMPOUND_ASSIGN or (x.kind == N.BINARY and x.spelling == "=") \
                or (x.kind == N.UNARY and unary_operator_kind(x.cursor) in (
                    UO_POST_INC, UO_POST_DEC, UO_PRE_INC, UO_PRE_DEC)):
            return False
        if x.kind == N.CALL:
            ref = x.referenced
            if ref is None or (ref.kind == K.CXX_METHOD and not ref.is_static_method()
                               and not ref.is_const_method()):
                return False
            for a in ref.get_arguments() or ():
                t = a.type
                if ty.is_reference_to_mutable(t) or (
                        ty.is_pointer_kind(ty.canonical_kind(t))
                        and not ty.points_to_const(t)):
                    return False
    return True


def _nested_label(n: Node) -> bool:
    """Whether a ``case`` or ``default`` label of the enclosing ``switch`` lies inside
    the statement ``n`` (Duff's device: ``case 1: if (c) { case 2: ... }``)."""
    stack = [n]
    while stack:
        x = stack.pop()
        if x.kind in (N.CASE, N.DEFAULT):
            return True
        if x.kind != N.SWITCH:  # a nested switch's labels are its own
            stack.extend(x.children)
    return False


def fn_key(fn: Function) -> int:
    """Which definition ``fn`` is (overloads share a name, not a key)."""
    return key_of(fn.node.cursor)
#: Expressions nested deeper than this (in the source) become an unknown value: the
#: model's algebra and evaluation recurse once per level, and no real index needs more.
MAX_EXPR_DEPTH = 200
_MAX_LEAVES = 64  # per struct copy

_COOPERATIVE_NS = "cooperative_groups"


@dataclass(eq=False)
class Ptr:
    """A pointer into shared memory: which array, the byte offset, the pointee type."""

    array: SharedArray
    decl: ArrayDecl | None
    offset: Expr
    pointee: ci.Type | None
    #: Set when the pointer's value depends on something the executor cannot follow.
    unknown: str = ""
    #: The key of the integer variable this shared-window address was read from when
    #: the code switches that variable between buffers (``addr ^= 0x2000``): the
    #: address is then the one made at its declaration, whose bank cost every switched
    #: state shares (:meth:`Executor.switched_address`), unless a switch turns out to
    #: differ between lanes (:meth:`Executor.run` checks after the walk). 0: none.
    switched: int = 0


#: The thread index as an input of a value that may differ between lanes.
_LANE = Sym(THREAD_IDX[0], UINT, lane_dependent=True)
#: ``static_assert`` (inside a body it is a declaration statement's child).
_STATIC_ASSERT = K.STATIC_ASSERT.value
_MEMBER_INIT = K.MEMBER_REF.value  # the member a constructor's initializer names
_CSTYLE_CAST = K.CSTYLE_CAST_EXPR.value
_INIT_LIST = K.INIT_LIST_EXPR.value

Value = Union[Expr, Ptr]  # noqa: UP007 (a runtime alias: Expr is itself a Union)

#: In :attr:`Executor.returned_values`, where a value is kept by the frames too.
_FRAMES = object()


def _env_signature(env: Env) -> tuple[object, ...]:
    """Everything an ``Env`` holds, comparable (a resolved class by identity)."""
    return (env.label, tuple(sorted(env.values.items())), tuple(sorted(env.types.items())),
            tuple(sorted(env.params.items())), tuple(sorted(env.functions.items())),
            tuple(sorted((k, id(v)) for k, v in env.classes.items())))


@dataclass
class Loc:
    """A place in shared memory: an lvalue the executor resolved."""

    array: SharedArray
    decl: ArrayDecl | None
    #: Byte offset from the array base (used when the access is not a plain chain).
    offset: Expr
    type: ci.Type
    #: Subscripts of a plain chain on the array (None once a pointer is involved).
    indices: list[Expr] | None
    member_offset: int = 0
    unknown: str = ""
    #: :attr:`Ptr.switched` of the pointer this place was reached through.
    switched: int = 0


@dataclass
class Exits:
    """Conditions (relative to the statement's entry) under which it leaves early."""

    ret: Expr | None = None
    brk: Expr | None = None
    cont: Expr | None = None

    def any(self) -> Expr | None:
        return _or(_or(self.ret, self.brk), self.cont)


@dataclass
class _Pass:
    """One pass through a loop's body (:meth:`Executor._iterate`) and the variables it
    writes where not every lane that began the iteration may get: under a
    lane-dependent condition of the body (an ``if``, an inner loop's test, what follows
    a lane-dependent ``continue``). Such a variable may hold different values in the
    lanes at the next iteration (``diverged``: the condition is not one that only
    ``break``/``return`` leave by, whose lanes have left the loop) or after the loop
    (``left``: any such condition), even where each write is the same in every lane."""

    base: int  # guards before this index are the loop's own or outside it
    diverged: set[int] = field(default_factory=set)
    left: set[int] = field(default_factory=set)
    #: the loop's test or a ``break`` depends on the lane: lanes leave it apart
    lane_exit: bool = False


_TRUE = Const(1, INT)
#: Calls whose value may differ between the lanes of a warp given the same arguments
#: (votes, ballots and warp reductions give every lane of the warp one value).
_LANE_CALLS = ("atomic", "__shfl", "__match", "clock", "__clock", "__lanemask",
               "__globaltimer", "curand")
#: What a parameter of a called function is bound to when its argument is an object the
#: same in every lane (:meth:`Executor.uniform_objects`); no value is read from it.
_UNIFORM_OBJECT = Opaque(OpaqueKind.LOAD, "an object the same in every lane", (), INT)


def _plus(a: Expr, b: Expr, op: BinaryOp = "+") -> Expr:
    """``a op b`` in LONG, dropping a zero operand."""
    if isinstance(b, Const) and b.value == 0:
        return a
    if op == "+" and isinstance(a, Const) and a.value == 0:
        return b
    return fold(Binary(op, a, b, LONG))


#: clang's unary operator kinds the IR models as :class:`Unary` (``!`` goes through
#: ``truth``; ``++``/``--`` are writes).
_UO_OPS: dict[int, UnaryOp] = {UO_MINUS: "-", UO_PLUS: "+", UO_NOT: "~"}
#: CUDA's integer ``min``/``max`` functions as the IR's operators.
_MIN_MAX: dict[str, BinaryOp] = {"min": "min", "umin": "min", "max": "max", "umax": "max"}
#: A ``bool`` parameter's symbol: its values are 0 and 1 (``int_type`` reads ``bool``
#: as ``int`` for arithmetic; a symbol that stands for every value it holds must not).
_BOOL = IntType(1, False)
#: CUDA's bit intrinsics: the operator and the operand's type (ir.bit_intrinsic).
_BIT_CALLS: dict[str, tuple[UnaryOp, IntType]] = {
    "__popc": ("popc", UINT), "__popcll": ("popc", IntType(64, False)),
    "__clz": ("clz", INT), "__clzll": ("clz", LONG),
    "__ffs": ("ffs", INT), "__ffsll": ("ffs", LONG),
    "__brev": ("brev", UINT), "__brevll": ("brev", IntType(64, False)),
}

#: A loop's induction as the frontend reads it from the header: (variable key, step
#: operation, step node, comparison with the bound or None, bound node or None).
_Ind = tuple[int, InductionOp, Node, BoundOp | None, Node | None]


def _is_true(e: Expr | None) -> bool:
    return isinstance(e, Const) and e.value != 0


def _is_false(e: Expr | None) -> bool:
    return e is None or (isinstance(e, Const) and e.value == 0)


def _or(a: Expr | None, b: Expr | None) -> Expr | None:
    if _is_false(a):
        return None if _is_false(b) else b
    if _is_false(b):
        return a
    if _is_true(a) or _is_true(b):
        return _TRUE
    assert a is not None and b is not None
    return Binary("||", a, b, INT)


def _and(a: Expr | None, b: Expr | None) -> Expr | None:
    if _is_false(a) or _is_false(b):
        return None
    if _is_true(a):
        return b
    if _is_true(b):
        return a
    assert a is not None and b is not None
    return Binary("&&", a, b, INT)


def _not(e: Expr) -> Expr:
    if isinstance(e, Unary) and e.op == "!" and isinstance(e.operand, Binary) \
            and e.operand.op in COMPARISONS:
        return e.operand
    return fold(Unary("!", e, INT))


def _refs(n: Node, out: set[int]) -> set[int]:
    """Keys of the declarations every DECL_REF under ``n`` names."""
    if n.kind == N.DECL_REF:
        ref = n.referenced
        if ref is not None:
            out.add(key_of(ref))
    for ch in n.children:
        _refs(ch, out)
    return out


def _usual(a: IntType, b: IntType) -> IntType:
    """C's usual arithmetic conversions on two integer types."""
    a = a if a.bits >= 32 else INT
    b = b if b.bits >= 32 else INT
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    u, s = (a, b) if not a.signed else (b, a)
    if u.bits >= s.bits:
        return u
    return s


_OVERLOADED_REF = K.OVERLOADED_DECL_REF.value

#: Integer types a type template parameter may be bound to, by the spelling its
#: argument has (``I tx = threadIdx.x`` inside ``k<int>``): an uninstantiated body only
#: knows ``I``.
_INT_SPELLINGS: dict[str, IntType] = {
    **{n: IntType(8, True) for n in ("char", "signed char", "int8_t")},
    **{n: IntType(8, False) for n in ("unsigned char", "uint8_t")},
    **{n: IntType(16, True) for n in ("short", "short int", "int16_t")},
    **{n: IntType(16, False) for n in ("unsigned short", "unsigned short int", "uint16_t")},
    **{n: INT for n in ("int", "signed", "signed int", "int32_t", "bool")},
    **{n: UINT for n in ("unsigned", "unsigned int", "uint32_t", "uint")},
    **{n: LONG for n in ("long", "long int", "long long", "long long int", "int64_t",
                         "ptrdiff_t", "intptr_t", "ssize_t")},
    **{n: IntType(64, False) for n in (
        "unsigned long", "unsigned long int", "unsigned long long",
        "unsigned long long int", "uint64_t", "size_t", "uintptr_t")},
}


@dataclass(eq=False)
class DependentClass:
    """A class type a template body names through a dependent name (a type parameter,
    ``using TB = typename sizes<D, n>::TB;``, ``typedef tile<16, 8, T> TB;``), resolved
    for one instantiation: the declaration its members are looked up in (the explicit
    or partial specialization C++ picks, else the primary template), the arguments of
    that declaration's own template parameters, and the type as one canonical text
    (``tile<16, 8, __half2, 0>``: how two are compared)."""

    decl: ci.Cursor
    env: Env
    name: str


#: A class template's argument: a value, a non-class type's canonical name, a class.
_Arg = int | str | DependentClass


def _resolved_typedef(d: ci.Cursor) -> bool:
    """Whether ``d`` is a typedef at namespace scope of a type that depends on nothing
    (``using complex_t = c10::complex<float>;``): clang's canonical type is the type."""
    parent = d.semantic_parent
    if d.kind not in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL) or parent is None \
            or parent.kind not in (K.TRANSLATION_UNIT, K.NAMESPACE):
        return False
    return not ty.is_dependent_kind(canonical_kind(d.type)) \
        and "type-parameter" not in ty.canonical_spelling(d.type)


def _arg_key(a: _Arg) -> str:
    return a.name if isinstance(a, DependentClass) else str(a)


@dataclass
class _ProjectNames:
    """The class templates, classes and typedefs (by unqualified name) and enumerators
    (their values, by name) of a unit's project code."""

    templates: dict[str, list[ci.Cursor]] = field(default_factory=dict)
    types: dict[str, list[ci.Cursor]] = field(default_factory=dict)
    enums: dict[str, set[int]] = field(default_factory=dict)
    #: Member functions defined at namespace scope, by name: among them the explicit
    #: specializations of a class template's member (``template <> int tile<8>::f(int)``).
    methods: dict[str, list[ci.Cursor]] = field(default_factory=dict)
    #: Caches: a declaration's children (by key), a specialization's argument (by its
    #: key and position), the class ``tmpl<args>`` resolves to (by the template's key
    #: and the arguments' keys), the unit's constants with the enumerators.
    children: dict[int, list[ci.Cursor]] = field(default_factory=dict)
    patterns: dict[tuple[int, int], Any] = field(default_factory=dict)
    classes: dict[tuple[int, tuple[str, ...]], DependentClass | None] = field(
        default_factory=dict)
    names: dict[str, int] | None = None
    #: Per function (by key): its local ``typedef``/``using`` by name (None: two).
    aliases: dict[int, dict[str, ci.Cursor | None]] = field(default_factory=dict)
    #: Per function (by key) and text: the names and keys of the function's locals and
    #: parameters the text names.
    local_names: dict[tuple[int, str], list[tuple[str, int]]] = field(default_factory=dict)
    #: ``Executor.dependent_type``'s answers (with why not, where none), by the text,
    #: the arguments, the function and the class scope.
    answers: dict[tuple[str, str, int, int], tuple[DependentClass | str | None, str | None]] \
        = field(default_factory=dict)
    #: Per declaration (by key): its template parameters, and its static data members by
    #: name (the first of a name), from ``children`` (``Executor._template_params``,
    #: ``Executor.member_value``: asked at every read of a member).
    params: dict[int, list[ci.Cursor]] = field(default_factory=dict)
    statics: dict[int, dict[str, ci.Cursor]] = field(default_factory=dict)


#: The last walk's :class:`_ProjectNames`, with its walker and unit (a reparsed unit,
#: whose cursors change in place, has a new walker).
_PROJECT_NAMES: dict[str, tuple[object, ci.TranslationUnit, _ProjectNames]] = {}

#: How many static data members may be evaluated inside one another (``rec<N>::v``
#: reading ``rec<N + 1>::v``): deeper stays unknown.
_MAX_MEMBER_DEPTH = 16

_TYPEDEF = K.TYPEDEF_DECL.value
_ALIAS = K.TYPE_ALIAS_DECL.value

#: Type names a template argument may spell that are no class (besides the unit's own).
_BUILTIN_TYPES = frozenset([*_INT_SPELLINGS, "float", "double", "long double", "bool",
                            "char", "signed char", "unsigned char", "void"])


def _split_scope(text: str) -> tuple[str, str] | None:
    """``a<b::c>::d`` → (``a<b::c>``, ``d``): the last ``::`` outside brackets."""
    depth = 0
    last = -1
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == ":" and depth == 0 and text.startswith("::", i):
            last = i
            i += 1
        i += 1
    if last < 0:
        return None
    return text[:last].strip(), text[last + 2:].strip()


def overloaded_callee(c: Node) -> ci.Cursor | None:
    """The unresolved name a call in a template body names (``put<S>(...)``, ``a * b``
    on operands of dependent type): clang keeps the candidates, not a callee."""
    if c.referenced is not None:
        return None
    for ch in c.children:
        s = strip(ch)
        if s.kind == N.DECL_REF:
            ref = s.referenced
            if ref is not None and ref._kind_id == _OVERLOADED_REF:
                return ref
        elif s.kind == _OVERLOADED_REF:
            return s.cursor
    return None


#: How an opaque value that clang itself left unresolved is described (issue 13, item 5).
_UNRESOLVED = ("which clang could not resolve (a declaration it uses did not parse, "
               "or its type depends on a template parameter)")
#: The clause of a value that depends on which way control flow went.
_CONTROL_FLOW = "depends on control flow"
#: The guard of a lambda's body: the lanes that call it, unknown where it is defined.
_LAMBDA_CALLERS = Opaque(OpaqueKind.BRANCH, "the lanes that call the lambda", THREAD_SYMS)


def _about(kind: OpaqueKind, name: str, clause: str, inputs: tuple[Expr, ...] = (),
           t: IntType = INT) -> Opaque:
    """An opaque value whose reason is a clause about the variable ``name`` (``'pos' is
    assigned in a loop``): the name and the clause are kept as fields too."""
    return Opaque(kind, f"'{name}' {clause}", inputs, t, name, clause)


def _quoted_text(text: str, limit: int = 60) -> str:
    """``'a * b'``: source text on one line, shortened, for a reason."""
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{text}'" if text else "an expression"


def call_name(c: Node) -> str:
    """The name a call names, also where the call is still unresolved in a template."""
    name = c.spelling
    if name or c.kind != N.CALL:
        return name
    ref = overloaded_callee(c)
    return str(ref.spelling) if ref is not None else ""


def is_callee_ref(ch: Node) -> bool:
    """``ch`` is the callee reference of an (operator) call, not an operand."""
    s = strip(ch)
    if s.kind == _OVERLOADED_REF:
        return True
    if s.kind != N.DECL_REF:
        return False
    ref = s.referenced
    if ref is None:
        return False
    return ref._kind_id == _OVERLOADED_REF or (
        ref.kind in (K.FUNCTION_DECL, K.CXX_METHOD, K.FUNCTION_TEMPLATE)
        and operator_function(str(ref.spelling)) is not None)


def overload_candidates(ref: ci.Cursor) -> list[ci.Cursor]:
    lib = ci.conf.lib
    out: list[ci.Cursor] = []
    for i in range(int(lib.clang_getNumOverloadedDecls(ref))):
        d = lib.clang_getOverloadedDecl(ref, i)
        if d is None:
            continue
        d._tu = ref._tu
        out.append(d)
    return out


# --- loop-carried values with a closed form ----------------------------------------------

def _after_loop(forms: dict[int, _Closed], it: Expr) -> dict[int, Expr]:
    """The values after the loop of the doubled variables among ``forms``, where the
    loop's iteration count ``it`` is a number of iterations cudalint bounds but does not
    know (``for (d = n >> 1; d > 0; d >>= 1) { ...; offset <<= 1; }``, every lane running
    the same iterations): ``offset`` is then ``start << T`` for the number of iterations
    ``T`` the loop ran, 0 up to that bound, one ``T`` for every variable of the loop
    (``x <<= 1; y <<= 1`` stay equal). ``T`` is a loop-like symbol whose every value the
    model enumerates (``t@L12:d``: "after 10 iterations of the 'd' loop at line 12"); a
    down-sweep after an up-sweep (``offset >>= 1`` in the next loop) starts from it.
    Only a start that is a positive constant doubled by a fixed shift: a halved value
    (which may reach 0, or stay negative) keeps the opaque value it had."""
    if not isinstance(it, Sym) or it.induction is None or it.induction.index \
            or not it.name.startswith("k@L") or lane_dependent(it) \
            or not isinstance(it.induction.bound, Const):
        return {}
    trips = Sym("t@" + it.name[2:], INT, induction=Induction(
        Const(0, INT), "+", Const(1, INT), "<=", it.induction.bound))
    out: dict[int, Expr] = {}
    for k, f in forms.items():
        start = f.start
        if not f.geometric or not f.left or f.shift <= 0 or not isinstance(start, Const) \
                or start.value < 1:
            continue
        t = start.type
        amount = fold(Binary("*", trips, Const(f.shift, INT), INT))
        out[k] = fold(Binary("<<", start, amount, t))
    return out


#: Cooperative-groups tile queries cudalint models (``Executor._tile_query``).
_TILE_QUERIES = frozenset(("thread_rank", "meta_group_rank", "size", "num_threads"))


def _linear_thread() -> Expr:
    """The thread's rank in its block: ``x + bx * (y + by * z)``."""
    x, y, z = (Sym(f"threadIdx.{a}", UINT, lane_dependent=True) for a in "xyz")
    bx, by = (Sym(f"blockDim.{a}", UINT) for a in "xy")
    return Binary("+", x, Binary("*", bx, Binary("+", y, Binary("*", by, z, UINT), UINT),
                                 UINT), UINT)


@dataclass(frozen=True)
class _Closed:
    """A loop-carried value in closed form: ``build(it)`` is its value at the top of
    iteration ``it`` (0 for the first)."""

    build: Callable[[Expr], Value]
    #: Iterations after which the value repeats (None: it never does).
    period: int | None
    #: Iteration 0 is off the cycle (the start value lies outside the mask or modulus).
    first: bool = False
    #: Doubled or halved each iteration (``v <<= 1``, ``v *= 2``): taken only where the
    #: iteration number is known exactly (a counter the model enumerates), as the shift
    #: count grows without bound.
    geometric: bool = False
    #: For a geometric value: its start, whether it is shifted left and by how many bits
    #: each iteration (its values after the loop, see ``Executor.carried``).
    start: Expr | None = None
    left: bool = True
    shift: int = 0


@dataclass(frozen=True)
class _Latch:
    """A loop's branch that a lane, once it skips it, skips for good (``Executor.latched``)."""

    node: Node
    #: The variables declared before the loop that the branch updates.
    keys: frozenset[int]
    #: The one the condition compares: unsigned, only ever halved.
    v: int


def _has(n: Node, kinds: tuple[int, ...]) -> bool:
    """A node of one of ``kinds`` is ``n`` or under it."""
    return n.kind in kinds or any(_has(ch, kinds) for ch in n.children)


#: Statements that leave the straight path: ``_has(n, _JUMPS)``.
_JUMPS = (N.BREAK, N.CONTINUE, N.RETURN, N.GOTO)


def _reads(n: Node) -> set[int]:
    """Keys of the declarations ``n`` names (reads and writes alike)."""
    out: set[int] = set()
    stack = [n]
    while stack:
        x = stack.pop()
        if x.kind == N.DECL_REF:
            ref = x.referenced
            if ref is not None:
                out.add(key_of(ref))
        stack.extend(x.children)
    return out


_BUILTIN_INDICES = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim"})


def _writes(n: Node, key: int, ex: Executor) -> list[Node]:
    """The assignments, compound assignments and increments under ``n`` that write the
    local ``key``."""
    out: list[Node] = []
    stack = [n]
    while stack:
        x = stack.pop()
        target = ex._write_target(x)
        if target is not None:
            got = ex.local(target)
            if got is not None and got[0] == key:
                out.append(x)
        stack.extend(x.children)
    return out


def _halves(w: Node) -> bool:
    """``w`` is ``v >>= c``, ``v = v >> c`` (c >= 1), ``v /= c`` or ``v = v / c``
    (c >= 2): it never makes an unsigned ``v`` larger."""
    if w.kind == N.COMPOUND_ASSIGN:
        op, amount = w.spelling.rstrip("="), w.children[1]
    elif w.kind == N.BINARY and w.spelling == "=":
        rhs = strip(w.children[1])
        if rhs.kind != N.BINARY or len(rhs.children) != 2 or \
                _reads(rhs.children[0]) != _reads(w.children[0]) or \
                strip(rhs.children[0]).kind != N.DECL_REF:
            return False
        op, amount = rhs.spelling, rhs.children[1]
    else:
        return False
    c = evaluate_int(strip(amount).cursor)
    return c is not None and ((op == ">>" and c >= 1) or (op == "/" and c >= 2))


class Executor:
    """Runs function bodies under one set of template arguments."""

    def __init__(self, program: Program, fn: Function | None, env: Env) -> None:
        #: The unit around the function (the walker, seen through ``Program``).
        self.w = program
        self.fn = fn
        self.root_fn = fn
        self.env = env
        self.root_env = env
        self.memo: dict[int, Expr] = {}  # by id() of Nodes, valid while the state holds
        self._local_decls: dict[int, dict[int, Node]] = {}  # :meth:`local_decls`
        #: :meth:`has` by node and kinds; :meth:`differs` by guard (kept alive with it).
        self.has_cache: dict[tuple[int, tuple[int, ...]], bool] = {}
        self.differ_cache: dict[int, tuple[Expr, bool]] = {}
        self.in_progress: set[int] = set()
        self.lazy_cache: dict[int, Expr] = {}
        self.array_cache: dict[tuple[int, str | None],
                               tuple[SharedArray, list[Expr], int | None, str]] = {}
        self.values: dict[int, Value] = {}
        self.guards: tuple[Expr, ...] = ()
        self.pending: list[tuple[int, Value | None]] = []
        self.accesses: list[Access] = []
        self.region = 0
        self._regions = 0
        self.order = 0
        self.depth = 0
        #: The functions being run, innermost last, by definition (key_of its cursor):
        #: overloads of one name (``blockReduce<f>(v)`` calling ``blockReduce<f>(v, b, x)``)
        #: are different functions, not recursion.
        self.stack: list[int] = []
        #: The function and template arguments of each frame, outermost first: an array
        #: is read with the arguments of the frame that declares it (``static __shared__
        #: acc_t s[N]`` in a kernel, passed to a helper template whose own are others).
        self.frame_envs: list[tuple[Function, Env]] = [] if fn is None else [(fn, env)]
        #: The definitions inlined at a call (key_of their cursor).
        self.inlined: set[int] = set()
        self.returns: list[tuple[tuple[Expr, ...], Expr | None]] = []
        #: Shared pointers the function being run returns (None: one it cannot follow).
        self.ret_ptrs: list[Ptr | None] = []
        #: What the pointer arguments of the call being evaluated depend on, by parameter
        #: (``returned_value``): a load through such a parameter has those inputs.
        self.ptr_args: dict[int, list[Expr]] = {}
        #: Cooperative-groups parameters of the inlined calls (``thread_group g``), by
        #: parameter: the type of the group the call passed (``thread_block_tile<16>``).
        self.group_args: dict[int, str] = {}
        #: The shared pointer an inlined call returned, by id() of the call's Node.
        self.call_ptrs: dict[int, Ptr | None] = {}
        #: The class template arguments a member function call runs with, by id() of
        #: the call's Node (see ``method_target``).
        self.method_envs: dict[int, Env] = {}
        self.carved: dict[int, SharedArray] = {}
        #: Per local, when it was last declared (a count of declarations run), so that an
        #: ``if`` knows which of its assigned variables were in scope before it.
        self.declared_at: dict[int, int] = {}
        self.declarations = 0
        #: A variable an ``if`` assigns in one branch (declared before without a value)
        #: or in both: its value after the ``if`` (an opaque value) -> per branch, its
        #: condition, the value it left, and how many accesses were emitted then. Where
        #: an access runs under that same condition (its inputs unchanged), the variable
        #: has that value (:meth:`defined_here`); elsewhere it has none.
        self.defined_under: dict[Expr, list[tuple[Expr, Expr, int]]] = {}
        self.loop_assigned_cache: dict[int, set[int]] = {}
        #: Integer locals holding a shared-window address (``__cvta_generic_to_shared``).
        self.shared_addrs: dict[int, Ptr] = {}
        #: For such a local, the guards in force where its address was made: a buffer
        #: switch (``addr ^= 0x2000``) under a further guard that differs between lanes
        #: leaves lanes in different buffers (:meth:`note_switch`).
        self.addr_guards: dict[int, tuple[Expr, ...]] = {}
        #: Why a switched address variable's accesses are unknown, found while walking.
        self.switch_split: dict[int, str] = {}
        #: ``id()`` of each access made through a switched address, with its variable.
        self.switched_uses: dict[int, tuple[Access, int]] = {}
        #: Per (variable, instantiation): why its switches do not keep the cost, None
        #: when they do, "" when it is written otherwise (:meth:`switched_address`).
        self.switch_checks: dict[tuple[int, str | None], str | None] = {}
        #: Per function: its writes of pointer locals through a cast to an integer
        #: reference, by variable (:meth:`int_switched`).
        self.cast_writes: dict[int, dict[int, list[Node]]] = {}
        #: Switches inside a ``switch`` statement, by variable (their targets, and what
        #: holds them), and the
        #: ``id()`` of each switch target the walk reached (:meth:`_switch_flow`).
        self.switch_in_cases: dict[int, list[tuple[Node, str]]] = {}
        self.switch_walked: set[int] = set()
        #: Per (pointer local, instantiation) switched as an integer: whether it is also
        #: moved by a step that differs between lanes (:meth:`int_switched`).
        self.switch_moves: dict[tuple[int, str | None], bool] = {}
        #: Iteration counters' names of range-for loops, by ``id()`` of the loop.
        self.range_names: dict[int, str] = {}
        #: The full expression statement being scanned (to see whether a call's value
        #: is used), and the atomic call whose target is being emitted.
        self.statement: Node | None = None
        self.atomic: tuple[str, bool, int | None] | None = None
        #: How many ``expr`` calls are open (nesting of the expression being converted).
        self.expr_depth = 0
        #: Set while a loop body runs for the values it carries (see ``carried``): loops
        #: inside it then take no closed forms of their own, and nothing is carved.
        self.probing = False
        #: ``if`` statements of the loop being probed whose branch runs as if its condition
        #: held (:meth:`latched`), by id() of the node.
        self.latched_ifs: set[int] = set()
        #: Set by ``carried``: the values of doubled or halved variables after the loop.
        self.after_loop: dict[int, Expr] = {}
        #: Set by ``carried``: the variables of its latched branch (``latched``).
        self.latched_keys: set[int] = set()
        #: The calls being inlined, outermost first (``Access.call_sites``, reversed).
        self.calls: list[Span] = []
        #: The loop passes running, innermost last (:class:`_Pass`): which variables each
        #: writes under a lane-dependent condition of its own body.
        self.passes: list[_Pass] = []
        #: Ids of the guards ``block`` adds after a ``break`` or ``return`` only (no
        #: ``continue``): a lane that fails one has left the loop, not skipped a write.
        self.exit_guards: dict[int, Expr] = {}
        #: The statements a ``break`` may leave, innermost last: True a loop, False a
        #: switch.
        self.breakables: list[bool] = []
        #: Per switch being run, innermost last: every value each local is given in it.
        self.switch_writes: list[dict[int, list[Value | None]]] = []
        self.switch_bases: list[int] = []
        #: Per switch being run, innermost last: the values at its head and its
        #: condition (a ``case`` a jump reaches starts from them, :meth:`case_entry`).
        self.switch_entries: list[tuple[dict[int, Value], Expr]] = []
        #: The values at each ``goto`` run, by function and label, with the condition it
        #: runs under (where its label starts from them, :meth:`label_entry`).
        self.goto_values: dict[tuple[int, str], list[tuple[Expr, dict[int, Value]]]] = {}
        self.last_pass = _Pass(0)
        #: The member function being run was called on an object the same in every lane
        #: and cannot change it (``params.rows()``, a ``const`` method): its members are
        #: the same in every lane (:meth:`member_ref`).
        self.uniform_this = False
        #: By function: whether a call of it may give lanes different values
        #: (:meth:`lane_source`).
        self.lane_sources: dict[int, bool] = {}
        #: Set by :meth:`_returned_expr` where its answer read a value (a condition, a
        #: switch's value), not only the body's statements: the host evaluation keeps a
        #: function whose body is not one ``return EXPR;`` (``_HostExecutor``).
        self.returned_open = False
        #: :meth:`lane_events` by id() of a body, with the body (kept alive so that the
        #: id stays its own).
        self.lane_event_lists: dict[int, tuple[Node, list[Node]]] = {}
        #: :meth:`body_asms` and :meth:`body_casts_const` by (what, id() of a body).
        self.body_facts: dict[tuple[str, int], tuple[Node, object]] = {}
        #: :meth:`_returned_kept`'s results by :meth:`_returned_key`: (the call, its value,
        #: whether it set ``returned_open``, the ``why_unresolved`` it left, what keeps
        #: the key's ids alive). None: not kept (the walker turns it on for its runs of
        #: kernels and device functions; the host evaluation's executors keep nothing).
        self.returned_values: dict[tuple[object, ...], tuple[
            Node | object, Expr | None, bool, str | None, object]] | None = None
        #: How many times :meth:`declaring_env` was asked (the only reader of the outer
        #: frames' template arguments): a :meth:`_returned_kept` run that asked is kept
        #: by the frames' arguments too.
        self.frames_read = 0
        #: By (function, local): :meth:`untouched_object`'s answer.
        self.untouched: dict[tuple[int, int], bool] = {}
        #: Set while a class's own member is evaluated (:meth:`class_member`): the class,
        #: and that the body's locals are out of scope.
        self.class_scope: DependentClass | None = None
        self.in_class_member = False
        #: Static data members of resolved classes, by (member, class), and the classes
        #: whose members are being evaluated (a member reading itself stays unknown).
        self.member_values: dict[tuple[int, str], Expr] = {}
        self.member_stack: list[str] = []
        #: :meth:`_env_key`'s answers, by id() of the Env (kept with it).
        self.env_keys: dict[int, tuple[Env, str]] = {}
        #: Why the last dependent type asked for was not resolved (a clause), and the
        #: clause per call (by id() of its Node) whose class was not.
        self.why_unresolved: str | None = None
        self.call_why: dict[int, str] = {}

    # --- entry points --------------------------------------------------------------------

    def run(self) -> list[Access]:
        """Every access of the function body (params: kernel symbols or opaque)."""
        fn = self.fn
        assert fn is not None and fn.body is not None
        for p in self.params(fn):
            var = fn.vars.get(key_of(p.cursor))
            t = node_int_type(p)
            if var is None or t is None:
                continue
            if fn.is_kernel and p.spelling in self.env.params:
                # the constant every launch of this environment passes (cudalint.frontend.host),
                # or the component of the block shape it passes
                pv = self.env.params[p.spelling]
                self.values[key_of(p.cursor)] = Const(pv, t) if isinstance(pv, int) else (
                    fold(Cast(Sym(pv, UINT), t)) if t != UINT else Sym(pv, UINT))
            elif fn.is_kernel:
                self.values[key_of(p.cursor)] = Sym(
                    p.spelling, _BOOL if ty.is_bool_kind(canonical_kind(p.type)) else t)
            else:
                self.values[key_of(p.cursor)] = Opaque(
                    OpaqueKind.PARAMETER,
                    f"parameter '{p.spelling}' of device function '{fn.name}'", THREAD_SYMS, t
                )
        self.stack.append(fn_key(fn))
        self.new_region()
        self.stmt(fn.body)
        self.stack.pop()
        for k, targets in self.switch_in_cases.items():
            unseen = [what for t, what in targets if id(t) not in self.switch_walked]
            if unseen:
                self.switch_split.setdefault(
                    k, f"'{self.var_name(k)}' switches buffers in {unseen[0]} that"
                    " cudalint does not follow, so the lanes of a warp may address"
                    " different buffers")
        if self.switch_split:
            # a switch under a lane condition found after an access made through it
            for i, a in enumerate(self.accesses):
                use = self.switched_uses.get(id(a))
                why = self.switch_split.get(use[1]) if use is not None and use[0] is a \
                    else None
                if why and not a.unknown_reason:
                    self.accesses[i] = replace(a, unknown_reason=why)
        return self.accesses

    @staticmethod
    def params(fn: Function) -> list[Node]:
        return [ch for ch in fn.node.children if ch.kind == N.PARM_DECL]

    # --- state ---------------------------------------------------------------------------

    def new_region(self) -> None:
        self._regions += 1
        self.region = self._regions

    def set_value(self, key: int, value: Value | None) -> None:
        self.note_write(key)
        for w, base in zip(self.switch_writes, self.switch_bases, strict=True):
            # a write some lanes of the switch skip (under a lane condition inside it)
            # leaves lanes apart: recorded as a value that may differ (None)
            apart = any(self.differs(g) for g in self.guards[base:])
            w.setdefault(key, []).append(None if apart else value)
        if value is None:
            self.values.pop(key, None)
        else:
            self.values[key] = value
        self.memo.clear()

    def note_write(self, key: int) -> None:
        """Record, in each loop pass running, that ``key`` is written here, if some lanes
        may not get here in an iteration in which others do (:class:`_Pass`)."""
        if not self.passes:
            return
        guards = self.guards
        for p in self.passes:
            if key in p.diverged:
                continue
            for g in guards[p.base:]:
                if self.differs(g):
                    p.left.add(key)
                    if id(g) not in self.exit_guards:
                        p.diverged.add(key)
                        break

    def differs(self, g: Expr) -> bool:
        """``may_differ(g)``, kept for this executor: every write under the guards of a
        loop pass asks it of each guard again (``note_write``; ggml's
        ``flash_attn_ext_f16``, 16k writes)."""
        hit = self.differ_cache.get(id(g))
        if hit is None or hit[0] is not g:
            hit = self.differ_cache[id(g)] = (g, may_differ(g))
        return hit[1]

    def has(self, n: Node, kinds: tuple[int, ...]) -> bool:
        """``_has(n, kinds)``, kept for this executor: a loop's body is asked at each
        run of the loop (each inlined call of a helper, each pass of an outer loop)."""
        k = (id(n), kinds)
        hit = self.has_cache.get(k)
        if hit is None:
            hit = self.has_cache[k] = _has(n, kinds)
        return hit

    def flush(self) -> None:
        """Apply the writes of a full expression (C's sequence point at its end)."""
        if not self.pending:
            return
        for key, value in self.pending:
            self.set_value(key, value)
        self.pending = []
        self.memo.clear()

    def var_name(self, key: int) -> str:
        fn = self.fn
        var = fn.vars.get(key) if fn is not None else None
        return var.name if var is not None else "a variable"

    def local(self, n: Node) -> tuple[int, Var, Node] | None:
        """(key, var, decl ref) when ``n`` names a local variable or parameter."""
        s = strip(n)
        if s.kind != N.DECL_REF or self.fn is None:
            return None
        ref = s.referenced
        if ref is None:
            return None
        k = key_of(ref)
        var = self.fn.vars.get(k)
        if var is None:
            return None
        return k, var, s

    # --- arrays --------------------------------------------------------------------------

    def array_record(self, a: ArrayDecl) -> tuple[SharedArray, list[Expr], int | None, str]:
        env = self.declaring_env(a)
        ck = (key_of(a.cursor), env.label)
        hit = self.array_cache.get(ck)
        if hit is not None:
            return hit
        if env is self.env:
            return self._array_record(a, ck)
        saved, self.env = self.env, env
        try:
            return self._array_record(a, ck)
        finally:
            self.env = saved

    def declaring_env(self, a: ArrayDecl) -> Env:
        """The template arguments of the innermost frame running the function that
        declares ``a`` (the current ones for an array of the unit or of no frame)."""
        self.frames_read += 1
        if len(self.frame_envs) < 2:
            return self.env
        owner = a.cursor.semantic_parent
        if owner is None or owner.kind not in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE,
                                               K.CXX_METHOD):
            return self.env
        k = key_of(owner)
        for fn, env in reversed(self.frame_envs):
            if key_of(fn.node.cursor) == k:
                return env
        return self.env

    def _array_record(self, a: ArrayDecl, ck: tuple[int, str | None]
                      ) -> tuple[SharedArray, list[Expr], int | None, str]:
        dim_exprs: list[Expr] = []
        dims: list[int] = []
        for d, ext in zip(a.static_dims, a.extents, strict=True):
            if d is not None:
                dims.append(d)
                dim_exprs.append(Const(d, LONG))
                continue
            e = self.expr(ext) if ext is not None else Opaque(OpaqueKind.SIZE, "unknown extent")
            if isinstance(e, Const):
                dims.append(e.value)
                dim_exprs.append(Const(e.value, LONG))
            else:
                dims.append(0)
                dim_exprs.append(e)
        element_type = ty.spelling(a.element)
        elem_bytes: int | None = type_size(a.element)
        unknown = ""
        align = max(ty.alignment(a.element), 0)
        if elem_bytes is not None and elem_bytes <= 0:
            # a scalar's element is its canonical type (``type-parameter-0-0``); the
            # template arguments and the reader know it by the name declared (``T``)
            # (``extern __shared__ acc_t s[]``: the element of an incomplete array is
            # spelled canonically, the declaration keeps ``acc_t []``)
            declared = re.sub(r"\s*(?:\[[^\]]*\]\s*)+$", "", ty.spelling(a.cursor.type))
            bound = None
            for name in (element_type, declared):
                bound = bound or self.env.types.get(
                    name.replace("volatile ", "").replace("const ", ""))
            named = self.named_type(a.element) if bound is None else None
            if bound is not None:
                element_type, elem_bytes = bound
                align = 0
            elif named is not None:  # ``typename K::T`` of the instantiation's class
                element_type, elem_bytes, align = named
            else:
                elem_bytes = None
                if "type-parameter-" in element_type:
                    element_type = declared
                unknown = f"element type depends on template parameter {element_type}"
        base = a.kernel or ""
        if a.dependent and self.env.label:
            base = f"{base}<{self.env.label}>"
        key = f"{base}::{a.name}"
        if a.declared_alignment > align and align >= 0:
            align = a.declared_alignment
        rec = SharedArray(
            key=key, name=a.name, element_type=element_type, element_bytes=elem_bytes or 0,
            dims=tuple(dims), span=a.span, dim_spans=a.dim_spans, dim_texts=a.dim_texts,
            kernel=a.kernel, alignment=align,
            base_offset=Const(0, LONG) if a.dynamic else None,
        )
        result = (rec, dim_exprs, elem_bytes, unknown)
        self.array_cache[ck] = result
        self.w.add_array(rec)
        return result

    def shared_decl(self, ref: ci.Cursor | None) -> ArrayDecl | None:
        if ref is None:
            return None
        k = key_of(ref)
        if self.fn is not None:
            a = self.fn.arrays.get(k)
            if a is not None:
                return a
        return self.w.file_arrays.get(k)

    def type_bytes(self, t: ci.Type) -> int | None:
        size = type_size(t)
        if size > 0:
            return size
        canon = ty.canonical(t)
        if ty.is_constant_array(canon):
            inner = self.type_bytes(ty.element(canon))
            return None if inner is None else inner * ty.array_length(canon)
        bound = self.env.types.get(ty.bare_spelling(t))
        if bound is not None:
            return bound[1]
        resolved = self.resolved_type(t)
        if resolved is not None:
            size = type_size(resolved)
            return size if size > 0 else None
        named = self.named_type(t)
        return named[1] if named is not None else None

    def named_type(self, t: ci.Type) -> tuple[str, int, int] | None:
        """A dependent type that this instantiation makes a type the unit knows the size
        of (``typename Ktraits::scan_t`` with ``Ktraits`` bound to a class whose member
        alias is ``std::conditional_t<!kIsComplex, float2, float4>``): its name, size and
        alignment (0 where not known); None for a class template's instance or a type not
        decided here."""
        if not (self.env.classes or self.env.types or self.env.values):
            return None
        spelled = ty.bare_spelling(t)
        if not spelled or spelled.endswith(("*", "&", "]")):
            return None
        got = self.dependent_type(spelled)
        if not isinstance(got, str):
            return None
        size = self.w.type_size(got)
        if size is None or size <= 0:
            return None
        return got, size, self.w.type_align(got) or 0

    def resolved_type(self, t: ci.Type) -> ci.Type | None:
        """``typename vec4<T>::Type`` with T bound in this instantiation: that member
        of the specialization the file declares; None otherwise."""
        spelled = ty.bare_spelling(t)
        if "::" not in spelled or not self.env.types:
            return None
        for name, (shown, _) in self.env.types.items():
            spelled = re.sub(rf"\b{re.escape(name)}\b", shown, spelled)
        return self.w.member_type(spelled)

    # --- lvalues and pointers ------------------------------------------------------------

    def lvalue(self, n: Node) -> Loc | None:
        """The shared-memory place ``n`` designates, or None."""
        kind = n.kind
        if kind in (N.PAREN, N.UNEXPOSED) and len(n.children) == 1:
            inner = n.children[0]
            # A no-op cast of an lvalue (to const) keeps it an lvalue; lvalue-to-rvalue
            # and decay are handled by the callers, which see the inner node.
            if inner.is_expr and n.ckind == inner.ckind:
                return self.lvalue(inner)
            return None
        if kind == N.DECL_REF:
            ref = n.referenced
            a = self.shared_decl(ref)
            if a is not None:
                rec = self.array_record(a)[0]
                return Loc(rec, a, Const(0, LONG), n.type, [])
            got = self.local(n)
            if got is not None:
                v = self.values.get(got[0])
                if isinstance(v, Ptr) and (got[1].init is not None or got[1].is_param) \
                        and self._is_reference(n):
                    return self.deref(v, n.type)
            return None
        if kind == N.ARRAY_SUBSCRIPT:
            children = n.children
            if len(children) != 2:
                return None
            base, idx = strip(children[0]), children[1]
            # ``base`` is an array lvalue that decayed, or a pointer value.
            loc: Loc | None
            if not ty.is_array_kind(base.ckind) and ty.is_dependent_kind(base.ckind) \
                    and base.kind == N.ARRAY_SUBSCRIPT:
                # ``s[i][j]`` in a template body where ``s`` has a dependent extent: clang
                # gives ``s[i]`` a dependent type, not an array type; it is still a row.
                loc = self.lvalue(base)
                if loc is None:
                    return None
                if loc.decl is None or loc.indices is None \
                        or len(loc.indices) >= loc.decl.ndim:
                    return None
                loc.indices.append(self.expr(idx))
                loc.type = n.type
                return loc
            if ty.is_array_kind(base.ckind):
                loc = self.lvalue(base)
                if loc is None:
                    return None
                elem_t = ty.canonical_element(base.type)
            else:
                p = self.ptr_value(children[0])
                if p is None:
                    return None
                elem_t = n.type
                if ty.is_dependent_kind(n.ckind) and p.pointee is not None \
                        and self.type_bytes(elem_t) is None:
                    # ``sdata[tile.meta_group_rank()]``: a dependent index makes the whole
                    # subscript dependent in a template body; the pointer says what it is
                    elem_t = p.pointee
                loc = self.deref(p, elem_t)
                if p.decl is None and p.array.base_offset is not None \
                        and p.offset == Const(0, LONG):
                    loc.indices = []  # a carved array's own pointer: a plain subscript
            ie = self.expr(idx)
            loc.type = elem_t if ty.is_dependent_kind(n.ckind) \
                and self.type_bytes(n.type) is None else n.type
            if loc.indices is not None and loc.decl is not None:
                if len(loc.indices) < loc.decl.ndim:
                    loc.indices.append(ie)  # a plain chain: loc_offset computes the offset
                    return loc
                # A subscript inside the element (``extern __shared__ T s[][N]``: the
                # element is ``T[N]``): C's row-major offset, in bytes from here on.
                loc.offset = self.loc_offset(loc)
                loc.indices = None
                loc.member_offset = 0
            size = self.type_bytes(elem_t)
            if size is None:
                loc.unknown = loc.unknown or "element size depends on a template parameter"
                size = 0
            step = fold(Binary("*", self._long(ie), Const(size, LONG), LONG))
            loc.unknown = self.switched_step(loc.switched, loc.offset, step, loc.unknown)
            loc.offset = _plus(loc.offset, step)
            if loc.indices is not None:
                loc.indices.append(ie)
            return loc
        if kind == N.MEMBER_REF:
            children = n.children
            if len(children) != 1:
                return None
            ref = n.referenced
            if ref is not None and ref.kind in (K.CXX_METHOD, K.CONVERSION_FUNCTION,
                                                K.FUNCTION_TEMPLATE):
                return None  # ``h.operator float`` names a function, not a place
            base = strip(children[0])
            if ty.is_pointer_kind(base.ckind):
                p = self.ptr_value(children[0])
                if p is None:
                    return None
                loc = self.deref(p, p.pointee or ty.pointee(base.type))
                record = ty.canonical(ty.pointee(base.type))
            else:
                loc = self.lvalue(base)
                if loc is None:
                    return None
                record = ty.canonical(base.type)
            off = ty.field_offset(record, n.spelling)
            if off < 0:
                loc.unknown = loc.unknown or f"offset of member '{n.spelling}' is not known"
                off = 0
            loc.member_offset += off // 8
            loc.offset = _plus(loc.offset, Const(off // 8, LONG))
            loc.type = n.type
            return loc
        if kind == N.UNARY and len(n.children) == 1 \
                and unary_operator_kind(n.cursor) == UO_DEREF:
            p = self.ptr_value(n.children[0])
            if p is None:
                return None
            return self.deref(p, n.type)
        if kind in CASTS or kind == N.CALL:
            return None
        return None

    @staticmethod
    def _is_reference(n: Node) -> bool:
        ref = n.referenced
        return ref is not None and ty.is_reference(ref.type)

    def deref(self, p: Ptr, t: ci.Type) -> Loc:
        return Loc(p.array, p.decl, p.offset, t, None, 0, p.unknown, p.switched)

    @staticmethod
    def _long(e: Expr) -> Expr:
        return e if e.type == LONG else fold(Cast(e, LONG))

    def ptr_value(self, n: Node) -> Ptr | None:
        """The shared-memory pointer ``n`` evaluates to, or None."""
        kind = n.kind
        if kind == N.PAREN and len(n.children) == 1:
            return self.ptr_value(n.children[0])
        if kind == N.UNEXPOSED and len(n.children) == 1 and n.children[0].is_expr:
            inner = n.children[0]
            if ty.is_array_kind(inner.ckind):
                loc = self.lvalue(strip(inner))
                if loc is None:
                    return None
                return self.address(loc, self.pointee(n.type))
            p = self.ptr_value(inner)
            if p is not None and ty.is_pointer_kind(n.ckind):
                return Ptr(p.array, p.decl, p.offset, self.pointee(n.type), p.unknown,
                           p.switched)
            return p
        if kind == N.ARRAY_SUBSCRIPT and (ty.is_dependent_kind(n.ckind)
                                          or ty.is_array_kind(n.ckind)):
            # a row of a shared array whose extents a template parameter gives (``acc[w]``
            # of ``float acc[WARPS][N]`` or ``[WARPS][16 * LD]`` passed to
            # ``store_matrix_sync``): clang leaves no decay to see; it is the address of
            # the row's first element
            loc = self.lvalue(n)
            if loc is None or loc.decl is None or loc.indices is None \
                    or len(loc.indices) != loc.decl.ndim - 1:
                return None
            return self.address(loc, loc.decl.element)
        if kind == N.DECL_REF:
            got = self.local(n)
            if got is not None:
                v = self.values.get(got[0])
                if isinstance(v, Ptr) and got[1].address_taken and not lane_dependent(v.offset):
                    # a pointer written through its address or a reference (``adv(p)``
                    # with ``void adv(float *&p)``, ``float **pp = &p``), by each lane
                    # its own way: its array, at an offset that may differ between lanes
                    return Ptr(v.array, v.decl, _about(
                        OpaqueKind.VARIABLE, got[1].name, "has its address taken",
                        dedupe([v.offset, *THREAD_SYMS]), LONG), v.pointee, v.unknown)
                if isinstance(v, Ptr):
                    return self.int_switched(got[0], got[1], v)
                return None
            a = self.shared_decl(n.referenced)
            if a is not None:
                loc = self.lvalue(n)
                if loc is not None and ty.is_array_kind(n.ckind):
                    return self.address(loc, ty.element(ty.canonical(n.type)))
            return None
        if kind == N.UNARY and len(n.children) == 1:
            uo = unary_operator_kind(n.cursor)
            if uo == UO_ADDR_OF:
                loc = self.lvalue(strip(n.children[0]))
                return self.address(loc, loc.type) if loc is not None else None
            return None
        if kind == N.BINARY and n.spelling in ("+", "-") and len(n.children) == 2:
            lhs, rhs = n.children
            if ty.is_pointer_kind(lhs.ckind):
                p, k = self.ptr_value(lhs), rhs
            elif ty.is_pointer_kind(rhs.ckind) and n.spelling == "+":
                p, k = self.ptr_value(rhs), lhs
            else:
                return None
            if p is None or node_int_type(k) is None:
                return None
            return self.advance(p, self.expr(k), BINARY_OPS[n.spelling])
        if kind in CASTS:
            inner_nodes = n.expr_children()
            if not inner_nodes:
                return None
            p = self.ptr_value(inner_nodes[-1])
            if p is None or not ty.is_pointer_kind(n.ckind):
                return None
            return Ptr(p.array, p.decl, p.offset, self.pointee(n.type), p.unknown, p.switched)
        if kind == N.CALL:
            if id(n) in self.call_ptrs:
                return self.call_ptrs[id(n)]  # an inlined helper returning a pointer
            oper = operator_function(call_name(n))
            if ty.is_dependent_kind(n.ckind) and oper is not None and oper.op in ("+", "-"):
                # In a template body ``s + i`` on an array of dependent size, or ``(T *)s
                # + i``, is an unresolved operator call: the array decays, as it will
                # when instantiated; a pointer advances by its pointee's size.
                ops = [ch for ch in n.children if ch.is_expr and not is_callee_ref(ch)]
                if len(ops) == 2:
                    arrays = [ty.is_array_kind(strip(o).ckind)
                              or ty.is_pointer_kind(strip(o).ckind) for o in ops]
                    # an integer offset, or one of dependent type (``smem_ +
                    # Ktraits::kSmemSize``): evaluated with the instantiation's arguments
                    deps = [ty.is_dependent_kind(strip(o).ckind) for o in ops]
                    ints = [node_int_type(o) is not None or (not arrays[i] and deps[i])
                            for i, o in enumerate(ops)]
                    # a pointer operand of dependent type too (``smem_delta_a + 2 * M +
                    # kNThreads`` with ``weight_t *smem_delta_a``: itself an unresolved
                    # call): whatever its value turns out to be
                    if (arrays[0] or deps[0]) and ints[1]:
                        p = self.ptr_value(ops[0])
                        if p is not None or arrays[0]:
                            return None if p is None else self.advance(
                                p, self.expr(ops[1]), BINARY_OPS[oper.op])
                    if (arrays[1] or deps[1]) and oper.op == "+" and ints[0]:
                        p = self.ptr_value(ops[1])
                        return None if p is None else self.advance(p, self.expr(ops[0]), "+")
                    if not arrays[0] and node_int_type(ops[1]) is not None:
                        # ``SharedMemory<T>() + n``: the class converts to its pointer
                        p = self.conversion_ptr(strip(ops[0]))
                        return None if p is None else self.advance(
                            p, self.expr(ops[1]), BINARY_OPS[oper.op])
            return self.conversion_ptr(n)
        return None

    def conversion_ptr(self, n: Node) -> Ptr | None:
        """The shared pointer a class's conversion operator yields: NVIDIA's
        ``T *sdata = SharedMemory<T>();`` (``operator T *()`` returns the dynamic window).
        Resolved: the instantiated operator. In a template body: the class template's
        operator to a pointer, with the class's arguments read from the caller's."""
        ref = n.referenced
        env = Env()
        conv: ci.Cursor | None = None
        if ref is not None:
            if ref.kind == K.CONVERSION_FUNCTION:
                conv = ref
        elif ty.is_dependent_kind(n.ckind) or ty.is_record_kind(n.ckind):
            tmpl = next((ch.referenced for ch in n.children
                         if ch.kind == K.TEMPLATE_REF.value), None)
            if tmpl is None or tmpl.kind != K.CLASS_TEMPLATE:
                return None
            env = self.class_env(n, tmpl)
            owner = self.specialization_for(tmpl, env)
            if owner is None:
                return None
            if owner is not tmpl:
                env = Env()  # apex's and DeepSpeed's ``SharedMemory<float>``: its own
            convs = [ch for ch in owner.get_children() if ch.kind == K.CONVERSION_FUNCTION
                     and ty.is_pointer_result(ch)]
            convs.sort(key=lambda ch: ty.points_to_const(ch.result_type))
            conv = convs[0] if convs else None
        if conv is None:
            return None
        fn = self.member_function(conv)
        if fn is None or self.depth >= _MAX_DEPTH or fn_key(fn) in self.stack:
            return None
        n_acc, order, notes = len(self.accesses), self.order, len(self.w.notes)
        try:
            return self.run_body(fn, env, {})
        finally:
            # Run for its value only (each time the value is asked for): whatever it
            # would access is not reported here.
            del self.accesses[n_acc:]
            del self.w.notes[notes:]
            self.order = order

    def specialization_for(self, tmpl: ci.Cursor, env: Env) -> ci.Cursor | None:
        """The class that ``tmpl<args>`` (``env``) names: the explicit specialization
        whose arguments are those, else the template itself; None where that cannot be
        told (an argument not known, a partial specialization)."""
        specs = self.specializations(tmpl)
        if not specs:
            return tmpl
        if any(s.kind == K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION for s in specs):
            return None
        params = [ch for ch in tmpl.get_children() if ch.kind in (
            K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER,
            K.TEMPLATE_TEMPLATE_PARAMETER)]
        if any(p.kind == K.TEMPLATE_TEMPLATE_PARAMETER for p in params) \
                or len(env.types) + len(env.values) != len(params):
            return None
        matches: list[ci.Cursor] = []
        for spec in specs:
            same = self.same_arguments(spec, params, env)
            if same is None:
                return None
            if same:
                matches.append(spec)
        if len(matches) > 1:
            return None
        return matches[0] if matches else tmpl

    def class_env(self, n: Node, tmpl: ci.Cursor) -> Env:
        """The template arguments ``Cls<A, B>`` names, read with the caller's own."""
        return self.class_args(self.w.slice(n.extent), tmpl)

    def class_args(self, text: str, tmpl: ci.Cursor) -> Env:
        """The template arguments of ``tmpl`` that ``text`` (``Cls<A, B>``, source or a
        type's spelling) names, read with the caller's own."""
        env = Env()
        m = re.search(r"<(.*)>", text, re.S)
        if m is None:
            return env
        params = [ch for ch in tmpl.get_children() if ch.kind in (
            K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER)]
        for p, text in zip(params, split_top_level(m.group(1)), strict=False):
            spelled = " ".join(text.split())
            if p.kind == K.TEMPLATE_TYPE_PARAMETER:
                bound = self.env.types.get(spelled)
                size = self.w.type_size(spelled) if bound is None else None
                if bound is None and size is not None:
                    bound = (spelled, size)
                if bound is not None:
                    env.types[p.spelling] = bound
            elif spelled in self.env.values:
                env.values[p.spelling] = self.env.values[spelled]
            else:
                v = self.w.eval_text(spelled)
                if v is not None:
                    env.values[p.spelling] = v
        return env

    def member_function(self, cursor: ci.Cursor) -> Function | None:
        """A member function (a class template's, or an instantiated one) as a Function
        the executor can run; its body's ``__shared__`` declarations are scanned."""
        cache = self.w.member_functions
        k = key_of(cursor)
        if k in cache:
            return cache[k]
        node = build(cursor)
        body = next((ch for ch in node.children if ch.kind == N.COMPOUND_STMT), None)
        fn: Function | None = None
        if body is not None:
            parent = cursor.semantic_parent
            owner = str(parent.spelling) if parent is not None else ""
            name = (f"{owner}::operator {ty.spelling(cursor.result_type)}"
                    if cursor.kind == K.CONVERSION_FUNCTION else f"{owner}::{cursor.spelling}")
            fn = Function(node, name, False, True, [], body)
            self.w.scan_function(fn)
        cache[k] = fn
        return fn

    def method_target(self, c: Node, nargs: int) -> tuple[Function, Env] | None:
        """The member function a call ``obj.f(...)`` or ``p->f(...)`` runs, and the class
        template arguments to run it with.

        Resolved (an object of a concrete class): the method clang names; an implicit
        instantiation's body is already instantiated. In a template body on an object of
        a class template's type (NVIDIA's ``SharedMemory<T> smem; smem.getPointer()``):
        the class's arguments are read with the caller's (T = float); the explicit
        specialization ``SharedMemory<float>`` runs its own member, and with none the
        primary template's member runs with those arguments. A partial specialization,
        or arguments that cannot be compared, leave the call unresolved (not guessed)."""
        ref = c.referenced
        if ref is not None:
            if ref.kind != K.CXX_METHOD or not is_from_project(ref):
                return None
            owner = ref.semantic_parent
            if owner is None or "(lambda at " in ty.spelling(owner.type) \
                    or not str(owner.spelling):
                return None  # a lambda's body reads its captures: not run here
            fn = self.member_function(self.definition(ref))
            return (fn, Env()) if fn is not None and fn.body is not None else None
        if not c.children:
            return None
        member = strip(c.children[0])
        if member.kind != N.MEMBER_REF or member.referenced is not None:
            return None
        bases = member.expr_children()
        tokens = [str(t.spelling) for t in member.cursor.get_tokens()]
        if len(bases) != 1 or len(tokens) < 3 or tokens[-2] not in (".", "->") \
                or not tokens[-1].isidentifier():
            return None  # ``obj.template f<X>()``, ``obj.operator()``: not followed
        name = tokens[-1]
        t = strip(bases[0]).type
        if tokens[-2] == "->":
            t = ty.pointee(t)
        decl = ty.declaration(t)
        if decl is None or decl.kind not in (K.CLASS_TEMPLATE, K.STRUCT_DECL, K.CLASS_DECL) \
                or not is_from_project(decl):
            return None
        if decl.kind != K.CLASS_TEMPLATE:
            found = self.method_named(decl, name, nargs)
            return (found, Env()) if found is not None else None
        params = [ch for ch in decl.get_children() if ch.kind in (
            K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER,
            K.TEMPLATE_TEMPLATE_PARAMETER)]
        env = self.class_args(ty.spelling(t), decl)
        if any(p.kind == K.TEMPLATE_TEMPLATE_PARAMETER for p in params) \
                or len(env.types) + len(env.values) != len(params):
            return None  # an argument not known here: which specialization runs is not
        owner = self.specialization_for(decl, env)
        if owner is None:
            return None
        if owner is not decl:
            found = self.method_named(owner, name, nargs)
            return (found, Env()) if found is not None else None
        for m in self._project_names().methods.get(name, []):
            # ``template <> int tile<8>::get_j(int) const``: C++ runs it for tile<8>
            parent = m.semantic_parent
            tmpl = ci.conf.lib.clang_getSpecializedCursorTemplate(parent) \
                if parent is not None and parent.kind in (K.STRUCT_DECL, K.CLASS_DECL) \
                else None
            if tmpl is None or 70 <= tmpl._kind_id <= 73 or key_of(tmpl) != key_of(decl):
                continue
            same = self.same_arguments(parent, params, env)
            if same is None:
                return None
            if same and len(list(m.get_arguments())) == nargs:
                special = self.member_function(m)
                return (special, Env()) if special is not None \
                    and special.body is not None else None
        found = self.method_named(decl, name, nargs)
        if found is None:
            return None
        env.label = ", ".join([*(f"{k}={v[0]}" for k, v in env.types.items()),
                               *(f"{k}={v}" for k, v in env.values.items())])
        return found, env

    @staticmethod
    def definition(cursor: ci.Cursor) -> ci.Cursor:
        """The definition of a member declared in its class and defined outside it."""
        d = cursor.get_definition()
        return d if d is not None and d._kind_id == cursor._kind_id else cursor

    def method_named(self, cls: ci.Cursor, name: str, nargs: int) -> Function | None:
        """The one member function ``name`` of ``cls`` that takes ``nargs`` arguments."""
        cands = []
        for ch in cls.get_children():
            if ch.spelling != name:
                continue
            if ch.kind == K.FUNCTION_TEMPLATE:
                return None  # a member template: its arguments are not deduced here
            if ch.kind == K.CXX_METHOD and len(list(ch.get_arguments())) == nargs:
                cands.append(ch)
        if len(cands) != 1:
            return None  # overloads told apart by argument types: not guessed
        fn = self.member_function(self.definition(cands[0]))
        return fn if fn is not None and fn.body is not None else None

    def specializations(self, tmpl: ci.Cursor) -> list[ci.Cursor]:
        """The explicit and partial specializations of class template ``tmpl``, looked
        for in the namespace it is declared in (all of that namespace's blocks)."""
        cache = self.w.class_specializations
        k = key_of(tmpl)
        if k in cache:
            return cache[k]
        path: list[str] = []
        p = tmpl.semantic_parent
        while p is not None and p.kind == K.NAMESPACE:
            path.append(str(p.spelling))
            p = p.semantic_parent
        out: list[ci.Cursor] = []
        cache[k] = out
        if p is None or p.kind != K.TRANSLATION_UNIT:
            return out  # a member template: its specializations are not looked for
        path.reverse()
        kinds = (K.STRUCT_DECL.value, K.CLASS_DECL.value,
                 K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION.value)

        def walk(parent: ci.Cursor, depth: int) -> None:
            for ch in top_level(parent):
                kind = ch._kind_id
                if kind in (N.LINKAGE_SPEC, N.UNEXPOSED_DECL):
                    walk(ch, depth)
                elif depth < len(path):
                    if kind == N.NAMESPACE and ch.spelling == path[depth]:
                        walk(ch, depth + 1)
                elif kind in kinds:
                    spec = ci.conf.lib.clang_getSpecializedCursorTemplate(ch)
                    if spec is not None and not 70 <= spec._kind_id <= 73 \
                            and key_of(spec) == k:
                        out.append(ch)

        walk(self.w.tu.cursor, 0)
        return out

    def same_arguments(self, spec: ci.Cursor, params: list[ci.Cursor], env: Env) -> bool | None:
        """Whether explicit specialization ``spec`` is the one ``env``'s arguments name
        (None: an argument that cannot be compared)."""
        st = spec.type
        n = ty.template_argument_count(st)
        if n != len(params):
            return None
        m = re.search(r"<(.*)>", str(spec.displayname), re.S)
        texts = split_top_level(m.group(1)) if m else []
        for i, p in enumerate(params):
            if p.kind == K.TEMPLATE_TYPE_PARAMETER:
                at = ty.template_argument_type(st, i)
                bound = env.types.get(str(p.spelling))
                if at is None or bound is None:
                    return None
                want = self.canonical_type_name(bound[0])
                have = " ".join(ty.canonical_spelling(at).split())
                if want != have:
                    return False
            else:
                value = env.values.get(str(p.spelling))
                got = self.w.eval_text(texts[i]) if i < len(texts) else None
                if value is None or got is None:
                    return None
                if value != got:
                    return False
        return True

    def canonical_type_name(self, spelled: str) -> str:
        """``uint`` → ``unsigned int``: a type name as clang spells its canonical type."""
        aliases = {"unsigned": "unsigned int", "signed": "int", "signed int": "int",
                   "short int": "short", "unsigned short int": "unsigned short",
                   "long int": "long", "unsigned long int": "unsigned long",
                   "long long int": "long long", "unsigned long long int": "unsigned long long"}
        name = " ".join(spelled.replace("const ", "").replace("volatile ", "").split())
        name = aliases.get(name, name)
        if self.w.typedef_canon is None:
            table: dict[str, str] = {}
            for c in top_level(self.w.tu.cursor):
                if c.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL):
                    table.setdefault(str(c.spelling), " ".join(
                        ty.canonical_spelling(c.type).split()))
            self.w.typedef_canon = table
        return self.w.typedef_canon.get(name, name)

    @staticmethod
    def pointee(t: ci.Type) -> ci.Type | None:
        return ty.pointee_of_pointer(t)

    def address(self, loc: Loc, pointee: ci.Type | None) -> Ptr:
        offset = self.loc_offset(loc)
        if pointee is not None and loc.decl is not None \
                and "type-parameter-" in ty.spelling(pointee):
            # ``blk + i`` on a ``T blk[N]`` in a template body: clang's reference has the
            # canonical element (``type-parameter-0-0``), the declaration the name this
            # frame's arguments bind (``T``)
            declared = loc.decl.cursor.type
            while ty.is_array(declared):
                declared = ty.array_element(declared)
            if ty.canonical_spelling(declared) == ty.canonical_spelling(pointee):
                pointee = declared
        return Ptr(loc.array, loc.decl, offset, pointee, loc.unknown)

    def advance(self, p: Ptr, k: Expr, op: BinaryOp) -> Ptr:
        size = self.type_bytes(p.pointee) if p.pointee is not None else None
        unknown = p.unknown
        if size is None:
            size = 0
            unknown = unknown or "pointer arithmetic on a type of unknown size"
        step = fold(Binary("*", self._long(k), Const(size, LONG), LONG))
        unknown = self.switched_step(p.switched, p.offset, step, unknown)
        return Ptr(p.array, p.decl, _plus(p.offset, step, op), p.pointee, unknown, p.switched)

    def loc_offset(self, loc: Loc) -> Expr:
        """Byte offset of ``loc``: plain chains keep the ``(i*B + j)*E`` form."""
        if loc.indices is None or loc.decl is None:
            return loc.offset
        _, dim_exprs, elem_bytes, unknown = self.array_record(loc.decl)
        n = len(loc.indices)
        if n > len(dim_exprs):
            return Opaque(OpaqueKind.UNSUPPORTED, "subscript beyond the array's dimensions",
                          (), LONG)
        offset: Expr = Const(0, LONG)
        for k, ie in enumerate(loc.indices):
            offset = ie if k == 0 else fold(
                Binary("+", fold(Binary("*", offset, dim_exprs[k], LONG)), ie, LONG))
        scale: Expr = Const(1, LONG)
        for d in dim_exprs[n:]:
            scale = fold(Binary("*", scale, d, LONG))
        if elem_bytes is None:
            return Opaque(OpaqueKind.SIZE, unknown, dedupe([offset]), LONG)
        scale = fold(Binary("*", scale, Const(elem_bytes, LONG), LONG))
        if not (isinstance(scale, Const) and scale.value == 1):
            offset = fold(Binary("*", offset, scale, LONG))
        if loc.member_offset:
            offset = fold(Binary("+", offset, Const(loc.member_offset, LONG), LONG))
        if offset.type != LONG:
            offset = fold(Cast(offset, LONG))
        return offset

    # --- accesses ------------------------------------------------------------------------

    def leaves(self, t: ci.Type, depth: int = 0) -> list[tuple[int, int]] | None:
        """(offset, width) of the hardware accesses one copy of ``t`` makes."""
        canon = ty.canonical(t)
        if ty.is_dependent_kind(ty.kind_id(canon)) and depth <= 4:
            resolved = self.resolved_type(t)
            if resolved is not None:
                return self.leaves(resolved, depth + 1)
        size = self.type_bytes(t)
        if size is None:
            return None
        if ty.is_record(canon):
            align = ty.alignment(canon)
            if align == size and size in (1, 2, 4, 8, 16):
                return [(0, size)]  # vector types and aligned small structs: one access
            if depth > 4:
                return None
            out: list[tuple[int, int]] = []
            for f in ty.fields(canon):
                off = ty.field_offset(canon, f.spelling)
                sub = self.leaves(f.type, depth + 1)
                if off < 0 or sub is None:
                    return None
                out.extend((off // 8 + o, w) for o, w in sub)
                if len(out) > _MAX_LEAVES:
                    return None
            return out
        if ty.is_constant_array(canon):
            sub = self.leaves(ty.element(canon), depth + 1)
            esize = self.type_bytes(ty.element(canon))
            count = ty.array_length(canon)
            if sub is None or esize is None or count * len(sub) > _MAX_LEAVES:
                return None
            return [(i * esize + o, w) for i in range(count) for o, w in sub]
        return [(0, size)]

    def guard(self) -> Expr | None:
        result: Expr | None = None
        for g in self.guards:
            result = g if result is None else fold(Binary("&&", result, g, INT))
        return result

    def emit(self, loc: Loc, role: str, node: Node, unknown: str = "",
             width: int | None = None, matrix: bool = False,
             collective: bool = False) -> None:
        kinds = ROLE_KINDS[role]
        if not kinds or self.fn is None or self.root_fn is None:
            return
        if ty.is_array_kind(canonical_kind(loc.type)):
            return  # an array decays to a pointer: no access by itself
        offset = self.defined_here(self.loc_offset(loc))
        leaves: list[tuple[int, int]] | None
        plain = loc.indices is not None and loc.decl is not None
        if ty.is_dependent_kind(canonical_kind(loc.type)) and plain and loc.decl is not None:
            # Inside an uninstantiated template: the chain's type is dependent.
            assert loc.indices is not None
            if len(loc.indices) != loc.decl.ndim or loc.member_offset:
                return
            eb = self.array_record(loc.decl)[2]
            width = eb if eb is not None else 0
        if width is not None:
            leaves = [(0, width)]
        elif role == ATOMIC:
            size = self.type_bytes(loc.type)
            leaves = None if size is None else [(0, size)]
        else:
            leaves = self.leaves(loc.type)
            if leaves is None:
                resolved = self.resolved_type(loc.type)
                leaves = self.leaves(resolved) if resolved is not None else None
        reason = unknown or loc.unknown
        if not reason and loc.decl is not None:
            reason = self.array_record(loc.decl)[3]
        if leaves is None:
            leaves = [(0, max(self.type_bytes(loc.type) or 0, 0))]
            reason = reason or "the size of the accessed type is not known"
        guard = self.guard()
        span = self.w.span(node.extent)
        text = self.w.slice(node.extent)
        volatile = ty.is_volatile(node.type) or ty.is_volatile(loc.type)
        indices = tuple(loc.indices) if loc.indices is not None \
            and len(loc.indices) == len(loc.array.dims) else ()
        first = len(self.accesses)
        for kind in kinds:
            for off, w in leaves:
                o = offset if off == 0 else fold(Binary("+", offset, Const(off, LONG), LONG))
                self.order += 1
                self.accesses.append(Access(
                    array=loc.array.key, array_name=loc.array.name, kernel=self.root_fn.name,
                    kind=kind,  # type: ignore[arg-type]
                    width=w, offset=o, span=span, text=text, guard=guard,
                    instantiation=self.root_env.label, unknown_reason=reason or None,
                    launch_params=tuple(sorted(self.root_env.params)),
                    indices=indices, element_offset=loc.member_offset + off,
                    region=self.region, order=self.order, volatile=volatile,
                    matrix=matrix, collective=collective,
                    call_sites=tuple(reversed(self.calls)),
                    **self.atomic_fields(kind, loc.type),
                ))
        if loc.switched:
            for a in self.accesses[first:]:
                self.switched_uses[id(a)] = (a, loc.switched)

    def _define_under(self, o: Opaque, cases: list[tuple[Expr, Expr, int]]) -> None:
        """Record ``o``'s values under their conditions, only where each condition is
        a value of the thread index, the kernel's symbols and constants (no load, call or
        other opaque: what a condition reads from memory may change between two tests
        without any access cudalint records, and a call may give another value each
        time); an equal value an earlier ``if`` made is ambiguous and used by neither."""
        if o in self.defined_under or any(
                any(isinstance(x, Opaque) for x in walk(cond)) for cond, _, _ in cases):
            self.defined_under[o] = []
            return
        self.defined_under[o] = cases

    def defined_here(self, e: Expr) -> Expr:
        """``e`` with each variable that an ``if`` gave a value under a condition
        (:attr:`defined_under`) replaced by that value where the same condition guards
        this point (``if (tid < n) p = f(tid); ... if (tid < n) s[p] = v;``): the
        condition reads only the thread index, the kernel's symbols and constants
        (:meth:`_define_under`), so the same expression is the same value."""
        if not self.defined_under:
            return e
        for o in [x for x in walk(e) if isinstance(x, Opaque) and x in self.defined_under]:
            for cond, value, _ in self.defined_under[o]:
                if any(g == cond for g in self.guards):
                    e = fold(substitute(e, o, value))
                    break
        return e

    def atomic_fields(self, kind: str, value_type: ci.Type) -> dict[str, Any]:
        if kind != "atomic" or self.atomic is None:
            return {}
        op, used, operand = self.atomic
        spelled = ty.bare_spelling(value_type)
        bound = self.env.types.get(spelled)  # a template parameter: its argument
        spelled = bound[0] if bound is not None else ty.bare_spelling(ty.canonical(value_type))
        return {"atomic_op": op, "atomic_result_used": used, "atomic_operand": operand,
                "atomic_value_type": spelled or None}

    # --- statements ----------------------------------------------------------------------

    def stmt(self, n: Node) -> Exits:
        """Run one statement: by its cursor kind (:data:`_STMT_HANDLERS`, pyflakes'
        handler-per-node-type dispatch); an expression statement is scanned for accesses,
        any other statement runs its children."""
        check_budget()
        handler = _STMT_HANDLERS.get(n.kind)
        if handler is not None:
            return getattr(self, handler)(n)  # type: ignore[no-any-return]
        if n.is_expr:
            return self.full(n)
        return self.children(n)

    def children(self, n: Node) -> Exits:
        exits = Exits()
        for ch in n.children:
            e = self.stmt(ch)
            exits = Exits(_or(exits.ret, e.ret), _or(exits.brk, e.brk), _or(exits.cont, e.cont))
        return exits

    def compound_stmt(self, n: Node) -> Exits:
        return self.block(n.children)

    def decl_stmt(self, n: Node) -> Exits:
        for d in n.children:
            if d.kind == N.VAR_DECL:
                self.var_decl(d)
        return Exits()

    def return_stmt(self, n: Node) -> Exits:
        value: Expr | None = None
        for ch in n.children:
            if ch.is_expr:
                self.scan(ch, LOAD)
                if node_int_type(ch) is not None:
                    value = self.expr(ch)
                elif ty.is_pointer_kind(ch.ckind) or (
                        ty.is_dependent_kind(ch.ckind) and self.fn is not None
                        and ty.is_pointer_result(self.fn.node.cursor)):
                    # ``return (T *)raw + i;`` in a template is of dependent type
                    self.ret_ptrs.append(self.ptr_value(ch))
        self.flush()
        self.returns.append((self.guards, value))
        return Exits(ret=_TRUE)

    def break_stmt(self, n: Node) -> Exits:
        return Exits(brk=_TRUE)

    def continue_stmt(self, n: Node) -> Exits:
        return Exits(cont=_TRUE)

    def goto_stmt(self, n: Node) -> Exits:
        name = self._goto_label(n)
        if name is not None and self.fn is not None:
            self.goto_values.setdefault((fn_key(self.fn), name), []).append(
                (self.guard() or _TRUE, dict(self.values)))
        return Exits(ret=Opaque(OpaqueKind.BRANCH, "goto"))

    @staticmethod
    def _goto_label(n: Node) -> str | None:
        """The label ``goto L;`` names (None: a computed goto)."""
        for ch in n.cursor.get_children():
            if ch.kind == K.LABEL_REF:
                return str(ch.spelling)
        return None

    def label_entry(self, label: Node, dead: bool) -> None:
        """The values at ``label:``, which its ``goto``s reach as well as the statement
        before it: each variable whose values there differ is either (as after an
        ``if``); after an unconditional exit, the gotos' alone. A ``goto`` after the
        label makes a loop the walk does not follow: every variable the function writes
        may hold any value there, different in each lane."""
        fn = self.fn
        name = str(label.spelling)
        if fn is None or fn.body is None or not name:
            return
        here = int(label.extent.start.offset)
        gotos = [g for g in self._subtree(fn.body)
                 if g.kind == N.GOTO and self._goto_label(g) == name]
        if not gotos:
            return
        merged: dict[int, Value] | None = None if dead else self.values
        backward = any(int(g.extent.start.offset) > here for g in gotos)
        if not backward:
            for c, vals in self.goto_values.get((fn_key(fn), name), []):
                merged = dict(vals) if merged is None else self.merge(c, vals, merged)
        if backward or merged is None:
            merged = dict(self.values)
            for k in self.assigned_in(fn.body):
                v = merged.get(k)
                if v is not None:
                    merged[k] = self._loop_opaque(k, v, _CONTROL_FLOW, list(THREAD_SYMS),
                                                  OpaqueKind.BRANCH)
        self.values = merged
        self.memo.clear()

    def asm_stmt(self, n: Node) -> Exits:
        self.asm(n)
        return Exits()

    def labelled_stmt(self, n: Node) -> Exits:
        """``case X:``, ``default:``, ``label:``: the statement they label."""
        exits = Exits()
        for ch in n.children:
            if not ch.is_expr or ch is n.children[-1]:
                e = self.stmt(ch) if not ch.is_expr else self.full(ch)
                exits = Exits(_or(exits.ret, e.ret), _or(exits.brk, e.brk),
                              _or(exits.cont, e.cont))
        return exits

    def full(self, n: Node) -> Exits:
        saved, self.statement = self.statement, n
        self.scan(n, LOAD)
        self.statement = saved
        self.flush()
        return Exits()

    def block(self, children: list[Node]) -> Exits:
        saved = self.guards
        exits = Exits()
        dead = False
        for ch in children:
            if ch.kind in _JUMP_TARGETS:
                # ``case 1:`` after ``case 0: ...; break;`` (or a ``goto``'s label): a
                # jump reaches it whatever ran before, so it starts with the block's own
                # guards; the statements before it do not hide it
                if ch.kind != N.LABEL and self.switch_entries:
                    self.case_entry(dead)
                elif ch.kind == N.LABEL:
                    self.label_entry(ch, dead)
                dead = False
                self.guards = saved
            elif dead:
                continue  # after an unconditional exit, up to the next jump target
            e = self.stmt(ch)
            exits = Exits(_or(exits.ret, e.ret), _or(exits.brk, e.brk), _or(exits.cont, e.cont))
            leave = e.any()
            if leave is None:
                continue
            if _is_true(leave):
                dead = True  # unreachable, but for a later jump target
                continue
            g = _not(leave)
            # lanes that fail it have left the loop (a ``break`` of a switch leaves only
            # the switch: they go on in the iteration)
            if (e.cont is None or _is_false(e.cont)) and (
                    e.brk is None or _is_false(e.brk) or self.breakables[-1:] == [True]):
                self.exit_guards[id(g)] = g
            self.guards = (*self.guards, g)
        self.guards = saved
        return exits

    def case_entry(self, dead: bool) -> None:
        """The values at a ``case``/``default`` label of the innermost switch: those at
        the switch's head (the jump that reaches it), after an unconditional exit
        (``case 0: x = l; break; case 1:``: x as before the switch); where the cases
        before may also fall through to it, a variable whose two values differ is
        either (as after an ``if``: opaque, with both as inputs)."""
        entry, c = self.switch_entries[-1]
        self.values = dict(entry) if dead else self.merge(c, self.values, entry)
        self.memo.clear()

    def var_decl(self, d: Node) -> None:
        if any(ch.kind == N.CUDASHARED for ch in d.children):
            return  # declared in the scan; initializers are not allowed
        k = key_of(d.cursor)
        self.declarations += 1
        self.declared_at[k] = self.declarations
        exprs = [ch for ch in d.children if ch.is_expr]
        init = exprs[-1] if exprs else None
        t = d.type
        tk = canonical_kind(t)
        if init is not None and init.kind == N.INIT_LIST and ty.is_record_kind(tk) \
                and len(init.expr_children()) == 1:
            self.escapes(init, init.expr_children())  # ``Holder h{ks}`` (more: in scan)
        if init is not None and init.kind == N.INIT_LIST and len(init.expr_children()) == 1:
            init = init.expr_children()[0]
        if init is None:
            self.set_value(k, None)
            return
        if ty.is_reference_kind(tk):
            self.scan(init, ADDR)
            loc = self.lvalue(strip(init))
            self.flush()
            self.set_value(k, self.address(loc, ty.pointee(t)) if loc is not None else None)
            return
        if ty.is_pointer_kind(tk):
            self.scan(init, LOAD)
            p = self.ptr_value(init)
            self.flush()
            if p is not None:
                # The declared type decides what the pointer points to (an implicit
                # conversion: ``T *p = SharedMemory<T>()``, ``void *v = s``).
                p = Ptr(p.array, p.decl, p.offset, self.pointee(t) or p.pointee, p.unknown,
                        p.switched)
                self.addr_guards[k] = self.guards
                p = self.carve(d, p)
            self.set_value(k, p)
            return
        self.scan(init, LOAD)
        value: Expr | None = None
        if self.itype(t) is not None:
            value = self.convert(self.expr(init), init, t)
            target = self.shared_address(init)
            if target is not None:
                self.shared_addrs[k] = target
                self.addr_guards[k] = self.guards
            else:
                self.shared_addrs.pop(k, None)
        self.flush()
        self.set_value(k, value)

    def own_parameter(self, n: Node) -> bool:
        """``n`` (an inline-asm operand) is a parameter of a ``__device__`` function that
        is run on its own, not inlined into a kernel."""
        if self.depth != 0 or self.fn is None or self.fn.is_kernel:
            return False
        s = strip(n)
        while s.kind in CASTS and s.expr_children():
            s = strip(s.expr_children()[-1])
        ref = s.referenced if s.kind == N.DECL_REF else None
        var = self.fn.vars.get(key_of(ref)) if ref is not None else None
        return var is not None and var.is_param

    def returned_shared_address(self, c: Node) -> Ptr | None:
        """The shared-window address a helper returns when its body is one ``return``
        of such an address of a pointer parameter (ggml's
        ``ggml_cuda_cvta_generic_to_shared(p)``: ``return __cvta_generic_to_shared(p);``),
        reached as ``returned_value`` reaches one."""
        args = arguments(c)
        target = self.call_target(c, call_name(c), len(args))
        if target is None or target.body is None or target.is_kernel \
                or self.depth >= _MAX_DEPTH or fn_key(target) in self.stack:
            return None
        bound: dict[int, Value] = {}
        for p, a in zip(self.params(target), args, strict=False):
            if ty.is_pointer_kind(canonical_kind(p.type)):
                ptr = self.ptr_value(a)
                if ptr is not None:
                    bound[key_of(p.cursor)] = Ptr(ptr.array, ptr.decl, ptr.offset,
                                                  self.pointee(p.type) or ptr.pointee,
                                                  ptr.unknown)
        if not bound:
            return None
        which = self.asm_cvta_param(target)
        if which is not None:
            got = self.ptr_value(args[which]) if which < len(args) else None
            return None if got is None else Ptr(got.array, got.decl, got.offset,
                                                self.scalar(got.pointee), got.unknown)
        env = self.target_env(c, target)
        with self.frame(target, env, bound, body=False):
            ret = self._returned_expr(target.body.children)
            return self.shared_address(ret) if isinstance(ret, Node) else None

    def asm_writers(self, key: int) -> int:
        """How many ``asm`` statements of the function being run write the local ``key``
        (an address made once is the one every later read sees; one made in two places
        is whichever ran last: a branch, a loop)."""
        fn = self.fn
        if fn is None or fn.body is None:
            return 0
        count = 0
        for n in self.body_asms(fn.body):
            parts = asm_parts(n.cursor)
            operands = n.expr_children()
            outs = operands[:parts[1]] if parts is not None else operands
            for o in outs:
                got = self.local(o)
                if got is not None and got[0] == key:
                    count += 1
        return count

    def asm_cvta_param(self, target: Function) -> int | None:
        """Which pointer parameter's shared-window address ``target`` returns through
        inline PTX, the ``__cvta_generic_to_shared`` of code older than the intrinsic
        (``uint32_t smem_u32addr(const void *p) { uint32_t a; asm("{.reg .u64 u;
        cvta.to.shared.u64 u, %1; cvt.u32.u64 %0, u;}" : "=r"(a) : "l"(p)); return a; }``):
        declarations, one ``asm`` with one output whose instructions are that
        ``cvta.to.shared`` of an input that is the parameter and ``cvt``/``mov`` only,
        then ``return`` of the output. None for any other body."""
        assert target.body is not None
        stmts = target.body.children
        asm_node: Node | None = None
        ret: Node | None = None
        for st in stmts:
            if st.kind == N.DECL_STMT and asm_node is None:
                continue
            if st.kind == N.ASM and asm_node is None and ret is None:
                asm_node = st
            elif st.kind == N.RETURN and asm_node is not None and ret is None:
                ret = st
            else:
                return None
        if asm_node is None or ret is None:
            return None
        operands = asm_node.expr_children()
        source = _cvta_source(asm_node, operands)
        returned = ret.expr_children()
        if source is None or len(returned) != 1:
            return None
        out, back = _uncast(operands[0]), _uncast(returned[0])
        out_ref = out.referenced if out.kind == N.DECL_REF else None
        back_ref = back.referenced if back.kind == N.DECL_REF else None
        if out_ref is None or back_ref is None or key_of(out_ref) != key_of(back_ref) \
                or out_ref.kind != K.VAR_DECL:
            return None
        out_var = target.vars.get(key_of(out_ref))
        if out_var is None or out_var.assigned or out_var.address_taken or out_var.loop_var:
            return None  # written by that asm (the one statement besides declarations) only
        arg = _uncast(operands[source])
        ref = arg.referenced if arg.kind == N.DECL_REF else None
        if ref is None:
            return None
        for i, p in enumerate(self.params(target)):
            if key_of(p.cursor) == key_of(ref) and ty.is_pointer_kind(canonical_kind(p.type)):
                param = target.vars.get(key_of(p.cursor))
                return i if param is not None and not param.modified else None
        return None

    def shared_address(self, n: Node) -> Ptr | None:
        """The shared place an integer shared-window address designates (for inline PTX):
        ``__cvta_generic_to_shared(p)``, a local holding one, and such an address plus or
        minus a byte count (``base + (row * 40 + col) * sizeof(half)``)."""
        s = strip(n)
        while s.kind in CASTS and s.expr_children():
            s = strip(s.expr_children()[-1])
        if s.kind == N.CALL and call_name(s) == "__cvta_generic_to_shared":
            args = arguments(s)
            p = self.ptr_value(args[0]) if args else None
            if p is None:
                return None
            return Ptr(p.array, p.decl, p.offset, self.scalar(p.pointee), p.unknown)
        if s.kind == N.CALL and overloaded_callee(s) is None:
            return self.returned_shared_address(s)
        if s.kind == N.DECL_REF:
            ref = s.referenced
            if ref is None:
                return None
            k = key_of(ref)
            var = self.fn.vars.get(k) if self.fn is not None else None
            if var is not None and (var.assigned or var.address_taken):
                # written after its declaration: the recorded value may be old, unless
                # every write switches buffers (``addr ^= 0x2000``)
                return self.switched_address(k, var)
            if var is not None and var.asm_written and self.asm_stale(k, s):
                return None  # an ``asm`` in its loop changes it on every pass
            return self.shared_addrs.get(k)
        operands: list[Node] = []
        op = ""
        if s.kind == N.BINARY and s.spelling in ("+", "-") and len(s.children) == 2:
            operands, op = list(s.children), s.spelling
        elif s.kind == N.CALL and overloaded_callee(s) is not None:
            # In a template body an operand of dependent type leaves ``base + off`` an
            # unresolved operator call (``base + (k * STAGE + swz<K>(m, j)) * 2``).
            oper = operator_function(call_name(s))
            args = arguments(s)
            if oper is not None and oper.op in ("+", "-") and len(args) == 2:
                operands, op = args, oper.op
        if not operands:
            return None
        lhs, rhs = operands
        p = self.shared_address(lhs)
        other = rhs
        if p is None and op == "+":
            p, other = self.shared_address(rhs), lhs
        if p is None:
            return None
        if node_int_type(other) is None and (other.type is None
                                             or not ty.is_dependent(other.type)):
            return None
        # A dependent offset is evaluated with the instantiation's arguments; what clang
        # left unresolved in it stays opaque, with its reason.
        step = self._long(self.expr(other))
        return Ptr(p.array, p.decl, _plus(p.offset, step, BINARY_OPS[op]), p.pointee,
                   self.switched_step(p.switched, p.offset, step, p.unknown), p.switched)

    def switched_address(self, k: int, var: Var) -> Ptr | None:
        """The shared-window address in the local ``k`` when every write to it after its
        declaration switches buffers: ``k ^= C`` (or ``k = k ^ C``), ``C`` a constant.

        The switches are uniform (:meth:`note_switch`), so at any point each lane holds
        ``a0 ^ T`` with ``a0`` its address at the declaration and ``T`` the same XOR of
        the constants in every lane. XOR with a ``T`` whose low 8 bits are 0 is a bijection
        that keeps bits 0..7: each lane's bank (4- and 8-byte modes), which lanes share a
        word, and which share a 128-byte line; so every state costs what ``a0`` costs, and
        the access is recorded at ``a0`` (docs/bank-model.md, "Buffers switched by XOR").
        A switch by another constant, by a value that is not a constant, or under a
        condition that differs between lanes makes the access unknown with that reason;
        any other write leaves no address (None)."""
        base = self.shared_addrs.get(k)
        fn = self.fn
        if base is None or var.address_taken or fn is None or fn.body is None:
            return None
        ck = (k, self.env.label)
        if ck not in self.switch_checks:
            self.switch_checks[ck] = self._switch_writes(k, var, fn.body)
        why = self.switch_checks[ck]
        if why == "":
            return None
        why = why or self.switch_split.get(k)
        return Ptr(base.array, base.decl, base.offset, base.pointee, base.unknown or why or "",
                   switched=k)

    def switched_step(self, switched: int, offset: Expr, step: Expr, unknown: str) -> str:
        """``unknown``, or why not known when an address switched by XOR (``switched``,
        :meth:`switched_address`) that differs between lanes (``offset``) is offset by a
        step that also differs between lanes: ``(a0 ^ T) + d`` is not ``(a0 + d) ^ T``,
        so lanes that share an address in one buffer need not share it in the other
        (lanes at a0 = 0 and 8 KB plus d = 8 KB and 0 meet at 8 KB before a switch by
        0x2000, and hit bank 0 at 16 KB and 0 after it)."""
        if not switched or unknown or not may_differ(offset) or not may_differ(step):
            return unknown
        return (f"'{self.var_name(switched)}' switches buffers by XOR and is then offset by"
                " a value that differs between lanes, so which lanes share an address"
                " differs between the buffers")

    def _switch_writes(self, k: int, var: Var, body: Node) -> str | None:
        """None when every write to ``k`` under ``body`` is a switch by a constant whose
        low 8 bits are 0; why not when one is a switch by something else; "" when a write
        is no switch at all."""
        why: str | None = None
        writes: list[Node] = []
        for n in self._subtree(body):
            if n.kind == N.ASM and any((g := self.local(o)) is not None and g[0] == k
                                       for o in asm_outputs(n)):
                return ""  # an ``asm`` writes it: no switch cudalint reads
            target = self._write_target(n)
            t = strip(target) if target is not None else None
            if t is not None and t.kind == N.CONDITIONAL and len(t.children) == 3:
                # ``(c ? a : b) += 16`` writes one of its arms: no switch
                if any((g := self.local(arm)) is not None and g[0] == k
                       for arm in t.children[1:]):
                    return ""
                continue
            got = self.local(target) if target is not None else None
            if got is None or got[0] != k:
                continue
            writes.append(n)
            mask: Node | None = None
            if n.kind == N.COMPOUND_ASSIGN and n.spelling == "^=" and len(n.children) == 2:
                mask = n.children[1]
            elif n.kind == N.BINARY and n.spelling == "=" and len(n.children) == 2:
                rhs = strip(n.children[1])
                while rhs.kind in CASTS and rhs.expr_children():
                    rhs = strip(rhs.expr_children()[-1])
                if rhs.kind == N.BINARY and rhs.spelling == "^" and len(rhs.children) == 2:
                    a, b = rhs.children
                    ga, gb = self.local(a), self.local(b)
                    mask = b if ga is not None and ga[0] == k else (
                        a if gb is not None and gb[0] == k else None)
            if mask is None:
                return ""
            why = why or self._mask_reason(var.name, mask)
        self._switch_flow(k, writes, body)
        return why

    def _switch_flow(self, k: int, writes: list[Node], body: Node) -> None:
        """Switches the walk may not see made by every lane alike: one in a loop made by
        a backward ``goto`` (lanes leave it in different iterations) splits the lanes at
        once, and so does one in a lambda (the walk reads its body where it is defined,
        not under the guards of its calls: ``if (odd) flip();``); one inside a ``switch``
        statement is checked after the walk (:meth:`run`): a ``case`` the walk did not
        enter (one after another's ``break``) leaves its guard unseen."""
        labels = [n for n in self._subtree(body) if n.kind == N.LABEL]
        gotos = [n for n in self._subtree(body) if n.kind == N.GOTO]
        loops = [(int(a.extent.start.offset), int(g.extent.end.offset))
                 for a in labels for g in gotos
                 if int(a.extent.start.offset) < int(g.extent.start.offset)]
        hidden: dict[int, str] = {}  # where the walk may not go, and what it is
        for sw in self._subtree(body):
            if sw.kind == N.SWITCH:
                hidden.update((id(x), "a 'switch' case") for x in self._subtree(sw))
        lambdas: set[int] = set()
        for lam in self._subtree(body):
            if lam.kind == K.LAMBDA_EXPR.value:
                lambdas.update(id(x) for x in self._subtree(lam))
        for n in writes:
            if id(n) in lambdas:
                # the walk reads a lambda's body where it is defined, not where it is
                # called (``if (odd) flip();``): the guards of its calls are not seen
                self.switch_split.setdefault(k, self._lambda_switch(k))
            at = int(n.extent.start.offset)
            if any(lo <= at <= hi for lo, hi in loops):
                self.switch_split.setdefault(
                    k, f"'{self.var_name(k)}' switches buffers in a loop made by 'goto',"
                    " which lanes may leave in different iterations, so the lanes of a"
                    " warp may address different buffers")
            elif id(n) in hidden and n.children:
                self.switch_in_cases.setdefault(k, []).append((n.children[0], hidden[id(n)]))

    def _lambda_switch(self, k: int) -> str:
        return (f"'{self.var_name(k)}' switches buffers in a lambda, whose calls cudalint"
                " does not follow, so the lanes of a warp may address different buffers")

    def _mask_reason(self, name: str, mask: Node) -> str | None:
        """Why a buffer switch by ``mask`` does not keep every lane's bank; None when it
        does (a constant, its low 8 bits 0)."""
        fn = self.fn
        assert fn is not None
        # read here, away from the switch: nothing of it may stay in the memo
        saved, self.memo = self.memo, {}
        try:
            v = self.expr(mask)
        finally:
            self.memo = saved
        if not isinstance(v, Const) or _refs(mask, set()) & {
                key for key, x in fn.vars.items() if x.modified}:
            how = "a value that differs between lanes" if may_differ(v) else \
                "a value that is not a constant"
            return (f"'{name}' switches buffers by XOR with {how}, so the lanes' banks"
                    " after a switch are not known")
        if v.value % 256:
            return (f"'{name}' switches buffers by '^ {v.value:#x}', whose low 8 bits are"
                    " not 0: a switch may change each lane's bank, so the buffers can cost"
                    " differently (a multiple of 256 bytes keeps every bank)")
        return None

    def cast_written(self, target: Node) -> int | None:
        """The pointer local ``target`` writes as an integer, ``(uint32_t &)p`` (the key)."""
        t = strip(target)
        # written, so an lvalue: a cast to a reference (its type is the referred one)
        if t.kind not in CASTS or not t.expr_children() or node_int_type(t) is None:
            return None
        got = self.local(t.expr_children()[-1])
        if got is None or not ty.is_pointer_kind(canonical_kind(got[2].type)):
            return None
        return got[0]

    def int_switched(self, k: int, var: Var, v: Ptr) -> Ptr:
        """The pointer local ``k`` (value ``v``) where the code also writes it as an
        integer through a cast to a reference: ``(uint32_t &)p ^= 0x2000``, the
        pointer form of a buffer switch (:meth:`switched_address`), keeps the cost of
        ``v``; any other such write (``(uint32_t &)p += 4``) leaves it unknown, as the
        walk does not follow it."""
        fn = self.fn
        if fn is None or fn.body is None:
            return v
        by_var = self.cast_writes.get(fn_key(fn))
        if by_var is None:
            by_var = self.cast_writes[fn_key(fn)] = {}
            for n in self._subtree(fn.body):
                target = self._write_target(n)
                written = self.cast_written(target) if target is not None else None
                if written is not None:
                    by_var.setdefault(written, []).append(n)
        if k not in by_var:
            return v
        ck = (k, self.env.label)
        if ck not in self.switch_checks:
            why: str | None = None
            self._switch_flow(k, by_var[k], fn.body)
            for n in by_var[k]:
                if n.kind == N.COMPOUND_ASSIGN and n.spelling == "^=" and len(n.children) == 2:
                    why = why or self._mask_reason(var.name, n.children[1])
                else:
                    why = why or (f"'{var.name}' is written as an integer through a cast"
                                  " other than by a buffer switch ('^=' with a constant)")
            self.switch_checks[ck] = why
            self.switch_moves[ck] = self._moved_per_lane(k, fn.body)
        why = self.switch_checks[ck]  # also on a second read (``*p + p[1]``)
        why = why or self.switch_split.get(k)
        if not why and self.switch_moves[ck] and may_differ(v.offset):
            # ``p += d`` after ``(uint32_t &)p ^= C``: ``(a0 ^ T) + d`` (switched_step)
            why = (f"'{var.name}' switches buffers by XOR and is then offset by a value"
                   " that differs between lanes, so which lanes share an address differs"
                   " between the buffers")
        return Ptr(v.array, v.decl, v.offset, v.pointee, v.unknown or why or "", switched=k)

    def _moved_per_lane(self, k: int, body: Node) -> bool:
        """Whether the pointer local ``k`` is moved by a step that may differ between
        lanes (``p += d``, ``p -= d``, ``p = p + d``) anywhere under ``body``."""
        steps: list[Node] = []
        for n in self._subtree(body):
            target = self._write_target(n)
            got = self.local(target) if target is not None else None
            if got is None or got[0] != k or len(n.children) != 2:
                continue
            if n.kind == N.COMPOUND_ASSIGN and n.spelling in ("+=", "-="):
                steps.append(n.children[1])
            elif n.kind == N.BINARY and n.spelling == "=":
                rhs = strip(n.children[1])
                if rhs.kind == N.BINARY and rhs.spelling in ("+", "-") \
                        and len(rhs.children) == 2:
                    steps.extend(rhs.children)
        saved, self.memo = self.memo, {}
        try:
            return any(node_int_type(x) is not None and may_differ(self.expr(x))
                       for x in steps)
        finally:
            self.memo = saved

    def switched_apart(self, body: Node) -> None:
        """A loop that lanes leave in different iterations (a lane-dependent test or
        ``break``): a buffer switch in it leaves the lanes after it in different buffers
        (:meth:`switched_address`)."""
        for n in self._subtree(body):
            target = self._write_target(n)
            if target is None:
                continue
            got = self.local(target)
            k = got[0] if got is not None else self.cast_written(target)
            if k is not None and k in self.addr_guards:
                self.switch_split.setdefault(
                    k, f"'{self.var_name(k)}' switches buffers in a loop that lanes leave in"
                    " different iterations, so the lanes of a warp may address different"
                    " buffers")

    def note_switch(self, k: int, target: Node) -> None:
        """``k ^= ...`` on a shared-window address: lanes stay in one buffer only when
        every lane of a warp makes the switch, that is under no guard that differs between
        lanes beyond those in force where the address was made. ``target`` (the written
        operand) is marked as reached by the walk (:meth:`_switch_flow`)."""
        self.switch_walked.add(id(target))
        made = self.addr_guards.get(k, ())
        now = self.guards
        same = len(now) >= len(made) and all(a is b for a, b in zip(made, now, strict=False))
        extra = now[len(made):] if same else now
        if any(g is _LAMBDA_CALLERS for g in extra):
            self.switch_split.setdefault(k, self._lambda_switch(k))
        elif any(may_differ(g) for g in extra):
            self.switch_split.setdefault(
                k, f"'{self.var_name(k)}' switches buffers under a condition that differs"
                " between lanes, so the lanes of a warp may address different buffers")

    @staticmethod
    def scalar(t: ci.Type | None) -> ci.Type | None:
        """``t`` without its array dimensions (what an address into it points at)."""
        return ty.scalar(t)

    def carve(self, d: Node, p: Ptr) -> Ptr:
        """A pointer into the dynamic window at a uniform offset becomes its own array."""
        base = p.array.base_offset
        if base is None or p.unknown or lane_dependent(p.offset) or self.fn is None \
                or self.probing:
            return p
        var = self.fn.vars.get(key_of(d.cursor))
        if var is None or var.modified or p.pointee is None:
            return p
        k = key_of(d.cursor)
        rec = self.carved.get(k)
        if rec is None:
            size = self.type_bytes(p.pointee)
            pointee = p.pointee
            elem = ty.bare_spelling(pointee)
            align = max(ty.alignment(pointee), 0)
            named = self.named_type(pointee) if elem not in self.env.types \
                and type_size(pointee) <= 0 else None
            if named is not None:  # ``scan_t`` of the instantiation's traits class
                elem, align = named[0], named[2]
            elem = self.env.types.get(elem, (elem, 0))[0]  # ``T`` of the instantiation
            rec = SharedArray(
                key=f"{self.fn.name}::{d.spelling}", name=d.spelling, element_type=elem,
                element_bytes=size or 0, dims=(0,), span=self.w.span(d.extent),
                kernel=self.fn.name, alignment=align,
                base_offset=_plus(base, p.offset),
            )
            self.carved[k] = rec
            self.w.add_array(rec)
        return Ptr(rec, None, Const(0, LONG), p.pointee,
                   "" if rec.element_bytes else "element size is not known")

    def if_stmt(self, n: Node) -> Exits:
        children = n.children
        cond_i = next((i for i, ch in enumerate(children) if ch.is_expr), None)
        if cond_i is None:
            return Exits()
        for ch in children[:cond_i]:
            self.stmt(ch)
        cond = children[cond_i]
        self.scan(cond, LOAD)
        c = self.truth(cond)
        self.flush()
        rest = children[cond_i + 1:]
        then = rest[0] if rest else None
        other = rest[1] if len(rest) > 1 else None
        if isinstance(c, Const):  # decided at compile time (templates, constants)
            chosen = then if c.value else other
            return self.stmt(chosen) if chosen is not None else Exits()
        if self.probing and id(n) in self.latched_ifs and then is not None:
            # the update a lane makes in each iteration it reaches the branch in
            return self.stmt(then)
        pre = dict(self.values)
        saved = self.guards
        declared = self.declarations
        self.new_region()
        self.guards = (*saved, c)
        e1 = self.stmt(then) if then is not None else Exits()
        then_vals = self.values
        self.values = dict(pre)
        self.new_region()
        nc = _not(c)
        self.guards = (*saved, nc)
        e2 = self.stmt(other) if other is not None else Exits()
        else_vals = self.values
        self.guards = saved
        self.new_region()
        if _is_true(e1.any()):
            self.values = else_vals
        elif _is_true(e2.any()):
            self.values = then_vals
        else:
            self.values = self.merge(c, then_vals, else_vals, declared)
        self.memo.clear()
        return Exits(
            _or(_and(c, e1.ret), _and(nc, e2.ret)),
            _or(_and(c, e1.brk), _and(nc, e2.brk)),
            _or(_and(c, e1.cont), _and(nc, e2.cont)),
        )

    def merge(self, c: Expr, a: dict[int, Value], b: dict[int, Value],
              declared: int | None = None) -> dict[int, Value]:
        """The values after an ``if`` on ``c`` whose branches left ``a`` and ``b``.
        ``declared``: the count of declarations run before the ``if`` (a variable
        declared by then without a value, and given one in one branch only, has that
        value where the same condition holds again: :attr:`defined_under`)."""
        out: dict[int, Value] = {}
        for k in a.keys() | b.keys():
            x, y = a.get(k), b.get(k)
            if x is y or (x is not None and x == y):
                assert x is not None
                out[k] = x
                continue
            if x is None or y is None:
                # declared in one branch only: out of scope afterwards; or declared before
                # without a value and assigned in one branch only
                given = x if x is not None else y
                if declared is not None and isinstance(given, Expr) \
                        and self.declared_at.get(k, declared + 1) <= declared:
                    cond = c if x is not None else _not(c)
                    o = _about(OpaqueKind.VARIABLE, self.var_name(k), "has no known value here",
                               dedupe([cond, given]), given.type)
                    self._define_under(o, [(cond, given, len(self.accesses))])
                    out[k] = o
                continue
            name = self.var_name(k)
            if isinstance(x, Ptr) and isinstance(y, Ptr):
                if x.array.key == y.array.key:
                    out[k] = Ptr(x.array, x.decl,
                                 _about(OpaqueKind.BRANCH, name, _CONTROL_FLOW,
                                        dedupe([c, x.offset, y.offset]), LONG),
                                 x.pointee, x.unknown or y.unknown)
                continue
            if isinstance(x, Ptr) or isinstance(y, Ptr):
                continue
            if not lane_dependent(c) and not isinstance(c, Const) and x.type == y.type:
                # a condition every lane of a warp evaluates alike (run-time values, no
                # lane: NMS kernels' ``if (row_start == col_start) start = tid + 1;``):
                # the value is one of the two, which the model costs as two cases
                out[k] = Select(c, x, y, x.type)
                continue
            o = _about(OpaqueKind.BRANCH, name, _CONTROL_FLOW, dedupe([c, x, y]), x.type)
            if declared is not None:
                self._define_under(o, [(c, x, len(self.accesses)),
                                       (_not(c), y, len(self.accesses))])
            out[k] = o
        return out

    def switch(self, n: Node) -> Exits:
        exprs = [ch for ch in n.children if ch.is_expr]
        cond = exprs[0] if exprs else None
        c: Expr = Const(1)
        if cond is not None:
            self.scan(cond, LOAD)
            c = self.expr(cond)
            self.flush()
        assigned = self.assigned_in(n)
        pre = dict(self.values)
        saved = self.guards
        self.new_region()
        self.guards = (*saved, Opaque(OpaqueKind.BRANCH, "the case a switch takes", dedupe([c])))
        exits = Exits()
        written: dict[int, list[Value | None]] = {}
        self.switch_writes.append(written)
        self.switch_bases.append(len(self.guards))
        self.switch_entries.append((pre, c))
        self.breakables.append(False)
        try:
            for ch in n.children:
                if ch is not cond:
                    e = self.stmt(ch)
                    exits = Exits(_or(exits.ret, e.ret), _or(exits.brk, e.brk),
                                  _or(exits.cont, e.cont))
        finally:
            self.switch_writes.pop()
            self.switch_bases.pop()
            self.switch_entries.pop()
            self.breakables.pop()
        self.guards = saved
        self.new_region()
        end = self.values
        for k in assigned:  # the values the branches inside it merged into
            if k in pre:
                written.setdefault(k, []).append(end.get(k))
        self.values = pre
        for k in assigned:
            if k in pre:
                # after it, any case's value (each run in turn here, later ones over
                # earlier ones): every value given is an input, a lost one the lane's
                given: list[Expr] = []
                for v in written.get(k, []):
                    if isinstance(v, Ptr):
                        given.append(v.offset)
                    elif isinstance(v, Expr):
                        given.append(v)
                    else:
                        given.extend(THREAD_SYMS)
                self.values[k] = self._loop_opaque(k, pre[k], _CONTROL_FLOW, [c, *given],
                                                   OpaqueKind.BRANCH)
        self.memo.clear()
        return Exits(
            ret=exits.ret and Opaque(OpaqueKind.BRANCH, "return inside a switch",
                                     dedupe([c, exits.ret])),
            cont=exits.cont and Opaque(OpaqueKind.BRANCH, "continue inside a switch",
                                       dedupe([c, exits.cont])))

    # loops

    def assigned_in(self, n: Node) -> set[int]:
        """Keys of the locals written anywhere under ``n``."""
        hit = self.loop_assigned_cache.get(id(n))
        if hit is not None:
            return hit
        out: set[int] = set()
        self._collect_writes(n, out)
        self.loop_assigned_cache[id(n)] = out
        return out

    def _collect_writes(self, n: Node, out: set[int]) -> None:
        if n.kind == N.ASM:
            # an output operand (``"+r"(addr)``): the instructions write it
            for o in asm_outputs(n):
                got = self.local(o)
                if got is not None:
                    out.add(got[0])
        target = self._write_target(n)
        if target is not None:
            t = strip(target)
            arms = t.children[1:] if t.kind == N.CONDITIONAL and len(t.children) == 3 \
                else [target]  # ``(c ? x : y) = v`` writes one of the two
            for arm in arms:
                got = self.local(arm)
                if got is not None:
                    out.add(got[0])
        for ch in n.children:
            self._collect_writes(ch, out)

    @staticmethod
    def _write_target(n: Node) -> Node | None:
        """The operand an assignment, compound assignment or ++/-- writes, if ``n`` is one."""
        kind = n.kind
        if not n.children:
            return None
        if kind == N.BINARY and n.spelling == "=":
            return n.children[0]
        if kind == N.COMPOUND_ASSIGN:
            return n.children[0]
        if kind == N.UNARY and unary_operator_kind(n.cursor) in (
                UO_POST_INC, UO_POST_DEC, UO_PRE_INC, UO_PRE_DEC):
            return n.children[0]
        if kind != N.CALL:
            return None
        oper = operator_function(call_name(n))
        return n.children[0] if oper is not None and oper.writes else None

    def _loop_opaque(self, k: int, pre: Value, what: str, extra: list[Expr],
                     kind: OpaqueKind = OpaqueKind.LOOP) -> Value:
        """The variable ``k`` (``pre`` before the loop or branch) as an opaque value of
        ``kind`` whose reason is ``'NAME' what``."""
        name = self.var_name(k)
        start = pre.offset if isinstance(pre, Ptr) else pre
        # A constant start is kept as the input, so that the value reads as uniform, as
        # one from a uniform variable does (an opaque value without inputs may read the
        # thread index); the loop's runs add the thread index where the body makes it
        # lane-dependent (:meth:`loop`).
        inputs = dedupe([start, *extra]) or ((start,) if isinstance(start, Const) else ())
        if isinstance(pre, Ptr):
            return Ptr(pre.array, pre.decl, _about(kind, name, what, inputs, LONG),
                       pre.pointee, pre.unknown)
        return _about(kind, name, what, inputs, pre.type)

    def for_parts(self, n: Node) -> tuple[Node | None, Node | None, Node | None, Node] | None:
        """(init, cond, inc, body) of a ``for`` from the header's semicolons."""
        children = n.children
        if not children:
            return None
        body = children[-1]
        if len(children) == 4:
            return children[0], children[1], children[2], body
        start = int(n.extent.start.offset)
        src = self.w.bytes_at(n.extent.start)  # the file the loop is in (maybe a header)
        i = src.find(b"(", start)
        depth = 0
        semis: list[int] = []
        end = -1
        j = i
        while 0 <= j < len(src):
            byte = src[j:j + 1]
            if byte in (b"(", b"[", b"{"):
                depth += 1
            elif byte in (b")", b"]", b"}"):
                depth -= 1
                if depth == 0:
                    end = j
                    break
            elif byte == b";" and depth == 1:
                semis.append(j)
            j += 1
        if len(semis) != 2 or end < 0:
            return None
        init = cond = inc = None
        for ch in children[:-1]:
            off = int(ch.extent.start.offset)
            if off < semis[0]:
                init = ch
            elif off < semis[1]:
                cond = ch
            elif off < end:
                inc = ch
        return init, cond, inc, body

    def induction(self, cond: Node | None, inc: Node | None, assigned: set[int],
                  body_assigned: set[int],
                  ) -> _Ind | None:
        """(var key, op, step node, cmp, bound node) of a recognised counter."""
        if inc is None:
            return None
        inc = strip(inc)
        if inc.kind == N.BINARY and inc.spelling == "," and len(inc.children) == 2:
            # ``++i, j += 33``: the counter is the part the condition compares; the
            # other parts are carried values (see ``carried``)
            parts: list[Node] = []
            stack = [inc]
            while stack:
                x = strip(stack.pop())
                if x.kind == N.BINARY and x.spelling == "," and len(x.children) == 2:
                    stack.extend(reversed(x.children))
                else:
                    parts.append(x)
            found = [cand for part in parts
                     if (cand := self.induction(cond, part, assigned, body_assigned))]
            found.sort(key=lambda cand: cand[3] is None)
            for cand in found:
                written: set[int] = set()
                for part in parts:
                    if not any(x is cand[2] for x in self._subtree(part)):
                        self._collect_writes(part, written)
                if cand[0] not in written:
                    return cand
            return None
        key: int | None = None
        op: InductionOp | None = None
        step: Node | None = None
        if inc.kind == N.UNARY and len(inc.children) == 1:
            uo = unary_operator_kind(inc.cursor)
            got = self.local(inc.children[0])
            if got is not None and uo in (UO_POST_INC, UO_PRE_INC, UO_POST_DEC, UO_PRE_DEC):
                key = got[0]
                op = "+" if uo in (UO_POST_INC, UO_PRE_INC) else "-"
                step = None
        elif inc.kind == N.COMPOUND_ASSIGN and len(inc.children) == 2:
            got = self.local(inc.children[0])
            applied = COMPOUND_ASSIGN_OPS.get(inc.spelling)
            o = STEP_OPS.get(applied) if applied is not None else None
            if got is not None and o is not None:
                key, op, step = got[0], o, inc.children[1]
        elif inc.kind == N.BINARY and inc.spelling == "=" and len(inc.children) == 2:
            got = self.local(inc.children[0])
            rhs = strip(inc.children[1])
            o = STEP_OPS.get(rhs.spelling) if rhs.kind == N.BINARY else None
            if got is not None and o is not None and len(rhs.children) == 2:
                a = self.local(rhs.children[0])
                b = self.local(rhs.children[1])
                if a is not None and a[0] == got[0]:
                    key, op, step = got[0], o, rhs.children[1]
                elif b is not None and b[0] == got[0] and o in ("+", "*"):
                    key, op, step = got[0], o, rhs.children[0]
        if key is None or op is None or key in body_assigned:
            return None
        if step is not None and _refs(step, set()) & assigned:
            return None
        cmp: BoundOp | None = None
        bound: Node | None = None
        if cond is not None:
            c = strip(cond)
            cmps = BOUND_CMPS.get(c.spelling) if c.kind == N.BINARY else None
            if cmps is not None and len(c.children) == 2:
                a = self.local(c.children[0])
                b = self.local(c.children[1])
                if a is not None and a[0] == key:
                    cmp, bound = cmps[0], c.children[1]
                elif b is not None and b[0] == key:
                    cmp, bound = cmps[1], c.children[0]
            if bound is not None and _refs(bound, set()) & assigned:
                cmp, bound = None, None
        return key, op, step if step is not None else inc, cmp, bound

    def loop(self, n: Node) -> Exits:
        kind = n.kind
        init = cond = inc = None
        body: Node | None
        range_index: Sym | None = None
        if kind == N.FOR:
            parts = self.for_parts(n)
            if parts is None:
                body = n.children[-1] if n.children else None
                for ch in n.children[:-1]:
                    if ch.kind == N.DECL_STMT:
                        init = ch
            else:
                init, cond, inc, body = parts
        elif kind == N.WHILE:
            exprs = [ch for ch in n.children if ch.is_expr]
            cond = exprs[0] if exprs else None
            body = n.children[-1] if n.children else None
        elif kind == N.DO:
            body = n.children[0] if n.children else None
            exprs = [ch for ch in n.children[1:] if ch.is_expr]
            cond = exprs[0] if exprs else None
        else:  # range-for
            body = n.children[-1] if n.children else None
            range_index = self.range_over_constants(n)
        if init is not None:
            self.stmt(init)
        assigned = self.assigned_in(n)
        ind = None
        if kind == N.FOR:
            body_assigned = self.assigned_in(body) if body is not None else set()
            ind = self.induction(cond, inc, assigned, body_assigned)
        if ind is not None and ind[0] not in self.values:
            ind = None
        pre = dict(self.values)
        saved_guards = self.guards
        self.new_region()
        entry: dict[int, Value] = {}
        line = int(n.extent.start.line)
        for k in assigned:
            if k not in pre:
                continue
            if ind is not None and k == ind[0]:
                continue
            entry[k] = self._loop_opaque(k, pre[k], "is assigned in a loop", [])
        if ind is not None:
            entry[ind[0]] = self.counter(ind, pre[ind[0]], line)
        closed: set[int] = set()
        self.latched_keys = set()
        if not self.probing:
            latch = self.latched(n, body, cond, inc, assigned, pre)
            closed = self.carried(kind, cond, body, inc, pre, entry, ind, line, saved_guards,
                                  latch)
        after = self.after_loop  # the closed forms' values after the loop (``carried``)
        latched = self.latched_keys
        n_before = len(self.accesses)
        order_before = self.order
        regions_before = self._regions
        body_exits = Exits()
        this = _Pass(0)
        # a jump the straight walk does not follow: any variable may differ between lanes
        jumps = body is not None and self.has(body, (N.GOTO, N.LABEL))
        # Until no variable becomes lane-dependent any more: one that does in one run can
        # make another one do in the next (``if (y) x ^= 1; if (tid < 5) y ^= 1;``), and
        # each run marks at least one more, so the runs end.
        for attempt in range(len(entry) + 1):
            self.values = {**pre, **entry}
            self.memo.clear()
            self.guards = saved_guards
            body_exits = self._iterate(kind, cond, body, inc)
            this = self.last_pass
            # A variable that became lane-dependent in the body is lane-dependent at
            # the top of the next iteration: run the body again with that input. So is one
            # that some lanes write and others skip, and, with a jump, any.
            changed = False
            for k, v in list(entry.items()):
                if ind is not None and k == ind[0]:
                    continue
                end = self.values.get(k)
                apart = k in this.diverged or jumps
                if isinstance(v, Opaque) and isinstance(end, Expr) and \
                        (apart or may_differ(end)) and not may_differ(v):
                    entry[k] = replace(v, inputs=dedupe([*v.inputs, *THREAD_SYMS]))
                    changed = True
                elif isinstance(v, Ptr) and isinstance(end, Ptr) and \
                        (apart or may_differ(end.offset)) and \
                        not may_differ(v.offset):
                    assert isinstance(v.offset, Opaque)
                    entry[k] = Ptr(v.array, v.decl, replace(
                        v.offset, inputs=dedupe([*v.offset.inputs, *THREAD_SYMS]), type=LONG),
                        v.pointee, v.unknown)
                    changed = True
                elif jumps and isinstance(v, Expr) and not isinstance(v, Opaque) \
                        and not may_differ(v):
                    entry[k] = _about(OpaqueKind.BRANCH, self.var_name(k), _CONTROL_FLOW,
                                      THREAD_SYMS, v.type)
                    changed = True
            if not changed or attempt == len(entry):
                break
            del self.accesses[n_before:]
            self.order = order_before
        counter = entry.get(ind[0]) if ind is not None else None
        stop = _or(body_exits.brk, body_exits.ret)
        # not with a ``continue`` in the body: the exits of a block are joined without
        # the guards of the statements before them (``if (c) continue; break;`` reads as
        # an unconditional break), which the cut would take as exact. A range-for over a
        # list stops at its element's iteration number (``if (st == 2) break;``).
        stopping = counter if isinstance(counter, Sym) else range_index
        if isinstance(stopping, Sym) and stop is not None and not self.probing \
                and body is not None and not self.has(body, (N.CONTINUE,)):
            self.stop_early(stopping, stop, n_before)
        if self._regions == regions_before and isinstance(counter, Sym) \
                and counter.induction is not None:
            self.mark_unrolled(n, n_before, counter.name)
        end_vals = self.values
        self.values = dict(pre)
        if (this.lane_exit or jumps) and self.addr_guards and body is not None:
            self.switched_apart(body)
        for k in assigned:
            if k not in pre:
                continue
            entry_v = entry.get(k)
            last = end_vals.get(k)
            extra = [last] if isinstance(last, Expr) else (
                [last.offset] if isinstance(last, Ptr) else [])
            assigned_here = "is assigned in a loop"
            if this.lane_exit or k in this.left or jumps:
                # lanes leave the loop in different iterations, or some skip a write
                extra = [*extra, *THREAD_SYMS]
                assigned_here = _CONTROL_FLOW if jumps else (
                    "is assigned in a loop that lanes leave in different iterations"
                    if this.lane_exit else "is assigned in a loop where only some lanes write it")
            if k in after:
                self.values[k] = after[k]
            elif k in latched:
                self.values[k] = self._loop_opaque(
                    k, pre[k], "is updated under a condition in its loop", extra)
            elif k in closed:
                self.values[k] = self._loop_opaque(k, pre[k], assigned_here, extra)
            elif isinstance(entry_v, Sym):
                self.values[k] = _about(OpaqueKind.LOOP, self.var_name(k), "after its loop",
                                        dedupe([entry_v, *extra]), entry_v.type)
            elif isinstance(entry_v, Opaque | Ptr):
                self.values[k] = self._loop_opaque(k, pre[k], assigned_here, extra)
            elif entry_v is not None:
                self.values[k] = self._loop_opaque(
                    k, pre[k], "is a loop variable" if assigned_here == "is assigned in a loop"
                    else assigned_here, extra)
        self.guards = saved_guards
        self.memo.clear()
        self.new_region()
        if body_exits.ret is not None:
            return Exits(ret=Opaque(OpaqueKind.BRANCH, "return inside a loop",
                                    dedupe([body_exits.ret])))
        return Exits()

    def stop_early(self, counter: Sym, stop: Expr, first: int) -> None:
        """The accesses from ``first`` on (a loop's body) with the iterations past the
        first value of ``counter`` at which the body leaves the loop (``stop``: its
        ``break``s and ``return``s) taken out of the counter's sequence
        (:func:`cudalint.frontend.closed_forms.stopped`): a value the loop never reaches
        is no case of any access in it, not even a "possible" one."""
        cut = cf.stopped(counter, stop)
        if cut is None:
            return
        self.accesses[first:] = [replace(
            a, offset=cf.with_counter(a.offset, counter, cut),
            guard=None if a.guard is None else cf.with_counter(a.guard, counter, cut),
            indices=tuple(cf.with_counter(i, counter, cut) for i in a.indices),
        ) for a in self.accesses[first:]]

    def mark_unrolled(self, n: Node, first: int, var: str) -> None:
        """Mark the accesses from ``first`` on as the straight-line body of the ``for``
        ``n`` counted by ``var`` (``Access.unrolled_by``), unless a ``#pragma unroll 1``
        on the line before keeps the loop rolled."""
        src = self.w.bytes_at(n.extent.start)
        before = src[:int(n.extent.start.offset)].rstrip().rsplit(b"\n", 1)[-1].strip()
        m = _UNROLL_PRAGMA.match(before.decode("utf-8", "replace"))
        factor = int(m.group(1), 0) if m is not None and m.group(1) else 0
        if factor == 1:
            return
        for i in range(first, len(self.accesses)):
            a = self.accesses[i]
            if a.region == self.region and a.unrolled_by is None:
                self.accesses[i] = replace(a, unrolled_by=var, unroll_factor=factor)

    def range_over_constants(self, n: Node) -> Sym | None:
        """The start of a range-for. The range expression is evaluated once, before the
        first iteration (its shared loads are accesses: ``for (float x : {s[2 * tid],
        s[tid]})``). Over a braced list of integers, the loop variable is the list's
        element at the loop's iteration number, a uniform counter over ``0 .. N-1`` that
        the model enumerates like any counter's values (ggml's ``for (int stride_k :
        {warp_size, warp_size/2, ...})``). Any other range (a container, an array, a
        reference variable) leaves the variable as it was: read through the range's
        iterator, unknown. Returns the iteration counter where there is one."""
        kids = n.children
        if len(kids) < 3 or kids[0].kind != N.VAR_DECL:
            return None
        decl = kids[0]
        rng = strip(kids[1])
        while rng.kind == N.PAREN and rng.children:
            rng = strip(rng.children[0])
        shared = self.lvalue(rng) if ty.is_array_kind(rng.ckind) else None
        if shared is not None:
            self.scan(rng, ADDR)  # the row's own index loads, if any (``q[idx[r]]``)
            self.flush()
            self.range_over_shared(n, decl, rng, shared)
            return None
        self.scan(kids[1], LOAD)
        self.flush()
        t = decl.type
        it = self.itype(t)
        if it is None or ty.is_reference_kind(canonical_kind(t)):
            return None
        lst = strip(kids[1])
        while lst.kind != N.INIT_LIST and len(lst.children) == 1:
            lst = strip(lst.children[0])
        if lst.kind != N.INIT_LIST:
            return None
        var = self.fn.vars.get(key_of(decl.cursor)) if self.fn is not None else None
        if var is None or var.modified or any(
                self._write_target(x) is not None or x.kind == N.CALL
                for x in self._subtree(lst)):
            # the body writes the variable (an element is not what an iteration reads
            # then: the loop would carry it), or an element writes (``{i, i *= 2}``,
            # read here after the list's writes) or calls a function
            self.set_value(key_of(decl.cursor), Opaque(
                OpaqueKind.LOOP, f"'{decl.spelling}', a range-for variable over a list that"
                " writes or that its loop's body writes", THREAD_SYMS, it))
            return None
        values = [fold(self.convert(self.expr(e), e, t)) for e in lst.expr_children()]
        if not values or len(values) > _MAX_RANGE_CONSTANTS:
            return None
        name = decl.spelling or "a variable"
        index = Sym(self.range_index_name(n, name), INT, induction=Induction(
            Const(0, INT), "+", Const(1, INT), "<", Const(len(values), INT)))
        value = values[-1]
        for i in range(len(values) - 2, -1, -1):
            value = Select(Binary("==", index, Const(i, INT), INT), values[i], value, it)
        k = key_of(decl.cursor)
        self.declarations += 1
        self.declared_at[k] = self.declarations
        self.set_value(k, value)
        return index

    def range_index_name(self, n: Node, name: str) -> str:
        """The iteration counter's name of the range-for ``n`` (``k@L12:s``), one per loop:
        two loops on one line with one variable name (a macro's nested ``for (int s :
        {...})``, the inner shadowing the outer) get the column too, or the model would
        take them for one counter and pair only equal iterations."""
        got = self.range_names.get(id(n))
        if got is not None:
            return got
        line = int(n.extent.start.line)
        got = f"k@L{line}:{name}"
        if got in self.range_names.values():
            got = f"k@L{line}.{int(n.extent.start.column)}:{name}"
        self.range_names[id(n)] = got
        return got

    def range_over_shared(self, n: Node, decl: Node, rng: Node, loc: Loc) -> None:
        """``for (float v : s)`` over a ``__shared__`` array, a row of one (``q[r]``) or a
        reference to a row (``for (auto &row : q) for (float v : row)``), at ``loc``:
        iteration ``k`` reads element ``k`` in every lane (a load on the loop's line,
        ``k`` a uniform counter over the extent); ``for (float &v : s)`` (or a row
        pointer, ``for (auto r : s2)``) makes the variable that element's address, read
        and written in the body."""
        k = key_of(decl.cursor)
        name = decl.spelling or "a variable"
        canon = ty.canonical(rng.type)
        extent: int | None = ty.array_length(canon) \
            if ty.is_constant_array(canon) else None
        if extent is None and loc.decl is not None and loc.indices is not None \
                and len(loc.indices) < loc.decl.ndim:
            dim = len(loc.indices)
            extent = loc.decl.static_dims[dim]
            node = loc.decl.extents[dim] if dim < len(loc.decl.extents) else None
            if extent is None and node is not None:
                got = fold(self.expr(node))  # ``s[N]``: this instantiation's N
                extent = got.value if isinstance(got, Const) else None
        index: Expr = Sym(self.range_index_name(n, name), INT, induction=Induction(
            Const(0, INT), "+", Const(1, INT), "<", Const(extent, INT))) \
            if extent is not None and extent > 0 else _about(
                OpaqueKind.LOOP, name, "runs over a shared array whose extent is not known")
        elem_t = ty.canonical_element(rng.type)
        if loc.indices is not None and loc.decl is not None \
                and len(loc.indices) < loc.decl.ndim:
            loc.indices.append(index)
        else:
            size = self.type_bytes(elem_t)
            loc.indices = None
            loc.offset = _plus(loc.offset, fold(Binary(
                "*", self._long(index), Const(size or 0, LONG), LONG)))
            if size is None:
                loc.unknown = loc.unknown or "element size depends on a template parameter"
        loc.type = elem_t
        self.declarations += 1
        self.declared_at[k] = self.declarations
        t = decl.type
        if ty.is_reference_kind(canonical_kind(t)) or ty.is_pointer_kind(canonical_kind(t)):
            self.set_value(k, self.address(loc, ty.pointee(t) if ty.is_reference_kind(
                canonical_kind(t)) else self.pointee(t)))
            return
        self.emit(loc, LOAD, rng)
        it = self.itype(t)
        self.set_value(k, None if it is None else Opaque(
            OpaqueKind.LOAD, f"value loaded from '{loc.array.name}'", (index,), it))

    def counter(self, ind: _Ind, start: Value,
                line: int) -> Value:
        key, op, step_node, cmp, bound_node = ind
        name = self.var_name(key)
        if isinstance(start, Ptr):
            return self._loop_opaque(key, start, "is a loop variable", [])
        t = start.type
        if step_node.kind == N.UNARY:
            step: Expr = Const(1, t)
        else:
            step = self.expr(step_node)
            if op in ("+", "-", "*", "/"):
                step = fold(Cast(step, t)) if step.type != t else step
        bound = self.expr(bound_node) if bound_node is not None else None
        if lane_dependent(step):
            return _about(OpaqueKind.LOOP, name, "is a loop variable", dedupe([start, step]), t)
        if lane_dependent(start):
            if op not in ("+", "-"):
                return _about(OpaqueKind.LOOP, name, "is a loop variable",
                              dedupe([start, step]), t)
            k = Sym(f"k@L{line}:{name}", t)  # the loop's iteration count (shown by name)
            return fold(Binary(op, start, fold(Binary("*", k, step, t)), t))
        if bound is not None and lane_dependent(bound):
            cmp, bound = None, None
        return Sym(name, t, induction=Induction(start, op, step, cmp, bound))

    def _iterate(self, kind: int, cond: Node | None, body: Node | None,
                 inc: Node | None) -> Exits:
        """One pass through a loop: condition, body, increment (a ``do`` tests last).
        ``self.last_pass`` is then the pass's :class:`_Pass`."""
        lane_exit = False
        if cond is not None:
            if kind != N.DO:
                self.scan(cond, LOAD)
            c = self.truth(cond)
            self.flush()
            if lane_dependent(c):
                self.guards = (*self.guards, c)
            lane_exit = may_differ(c)
        this = _Pass(len(self.guards))
        self.passes.append(this)
        self.breakables.append(True)
        try:
            body_exits = self.stmt(body) if body is not None else Exits()
            cont = body_exits.cont
            if cont is not None and not _is_true(cont):
                self.guards = (*self.guards, _not(cont))
            if inc is not None:
                self.full(inc)
            if kind == N.DO and cond is not None:
                self.scan(cond, LOAD)
                c = self.truth(cond)
                self.flush()
                lane_exit = lane_exit or may_differ(c)
        finally:
            self.passes.pop()
            self.breakables.pop()
        brk = body_exits.brk
        this.lane_exit = lane_exit or (brk is not None and may_differ(brk))
        self.last_pass = this
        return body_exits

    def latched(self, n: Node, body: Node | None, cond: Node | None, inc: Node | None,
                assigned: set[int], pre: dict[int, Value]) -> _Latch | None:
        """The loop's branch ``if (C) { ... }`` that, once a lane skips it, the lane skips
        in every later iteration: the variables it updates (``S``) change nowhere else in
        the loop and are read nowhere outside it, and ``C`` is ``a < v`` (or ``v > a``,
        ``<=``, ``>=``) for one of them, ``v``, unsigned and only ever halved, with ``a``
        the same in every iteration. A lane that fails ``C`` keeps its ``S``, so it fails
        ``C`` again; a lane in the branch in iteration ``it`` has therefore passed it in
        every iteration before, and holds the values the updates give when they run
        unconditionally (the active-thread halving of a wavelet or scan level:
        ``if (tid < active) { ... idx <<= 1; active >>= 1; }``). None for any other loop.
        """
        if body is None or self.fn is None or self.has(n, (N.GOTO, N.LABEL)):
            return None  # a jump into the branch enters it without the test
        stmts = body.children if body.kind == N.COMPOUND_STMT else [body]
        for i, st in enumerate(stmts):
            if st.kind == N.IF:
                got = self._latch_of(st, stmts[:i] + stmts[i + 1:], cond, inc, assigned, pre)
                if got is not None:
                    return got
            if self.has(st, _JUMPS):
                return None  # an exit before the branch: a lane may skip it unfailed
        return None

    def _latch_of(self, st: Node, others: list[Node], cond: Node | None, inc: Node | None,
                  assigned: set[int], pre: dict[int, Value]) -> _Latch | None:
        parts = [ch for ch in st.children if ch.kind != N.DECL_STMT]
        if len(parts) != 2 or not parts[0].is_expr or len(parts) != len(st.children):
            return None  # an else, or a declaration in the condition
        test, then = parts
        keys = {k for k in self.assigned_in(then) if k in pre}
        if not keys:
            return None
        rest = [x for x in (*others, cond, inc) if x is not None]
        for x in rest:
            if self.assigned_in(x) & keys or _reads(x) & keys:
                return None
        # inside the branch, what changes in the loop is S or declared in the branch
        if (_reads(st) & assigned) - keys:
            return None
        c = strip(test)
        # strict, and compared as unsigned: once v is 0 no lane passes (``a <= 0`` would)
        if c.kind != N.BINARY or len(c.children) != 2 or c.spelling not in ("<", ">"):
            return None
        if any((t := node_int_type(ch)) is None or t.signed or t.bits < 32
               for ch in c.children):
            return None
        lhs, rhs = strip(c.children[0]), strip(c.children[1])
        small, big = (lhs, rhs) if c.spelling == "<" else (rhs, lhs)
        got = self.local(big)
        if got is None or got[0] not in keys:
            return None
        v = got[0]
        vt = node_int_type(big)
        if vt is None or vt.signed or vt.bits < 32 or not self._invariant(small, assigned, pre):
            return None
        for k in keys:
            var = self.fn.vars.get(k) if self.fn is not None else None
            if var is None or var.address_taken:
                return None  # changed through a pointer elsewhere
        if self._bound_by_reference(keys):
            return None
        for w in _writes(then, v, self):
            if not _halves(w):
                return None
        return _Latch(st, frozenset(keys), v)

    def _invariant(self, n: Node, assigned: set[int], pre: dict[int, Value]) -> bool:
        """``n`` computes the same value in every iteration of a loop that writes
        ``assigned``: it names locals and parameters set before the loop that nothing
        changes in it (not through a pointer or a reference either), constants and the
        built-in indices; it loads nothing from memory (whose contents may change) and
        calls nothing."""
        x = strip(n)
        kind = x.kind
        if kind in (N.INTEGER_LITERAL, N.CHARACTER_LITERAL, N.BOOL_LITERAL):
            return True
        if kind == N.DECL_REF:
            ref = x.referenced
            if ref is None:
                return False
            if ref.kind in (K.ENUM_CONSTANT_DECL, K.TEMPLATE_NON_TYPE_PARAMETER):
                return True
            k = key_of(ref)
            var = self.fn.vars.get(k) if self.fn is not None else None
            return var is not None and k in pre and k not in assigned \
                and not var.address_taken and int_type(ref.type) is not None \
                and "volatile" not in ty.spelling(ref.type) \
                and not self._bound_by_reference({k})
        if kind == N.MEMBER_REF:
            base = strip(x.children[0]) if x.children else None
            return base is not None and base.kind == N.DECL_REF \
                and base.spelling in _BUILTIN_INDICES and base.referenced is not None \
                and base.referenced.kind == K.VAR_DECL and not x.children[0].children
        if kind == N.BINARY and x.spelling not in ("=", ","):
            return all(self._invariant(ch, assigned, pre) for ch in x.children)
        if kind == N.UNARY and unary_operator_kind(x.cursor) in (
                UO_PLUS, UO_MINUS, UO_NOT, UO_LNOT):
            return all(self._invariant(ch, assigned, pre) for ch in x.children)
        if kind in (N.UNEXPOSED, _CSTYLE_CAST) and len(x.children) == 1:
            return self._invariant(x.children[0], assigned, pre)
        return False

    def _bound_by_reference(self, keys: set[int] | frozenset[int]) -> bool:
        """One of ``keys`` is a reference, or a reference declared in the function names
        one (``unsigned &r = active;``): writes through it change a variable unseen."""
        if self.fn is None or self.fn.body is None:
            return False
        if any(key_of(p.cursor) in keys and ty.is_reference_kind(canonical_kind(p.type))
               for p in self.params(self.fn)):
            return True
        stack = [self.fn.body]
        while stack:
            x = stack.pop()
            if x.kind == N.VAR_DECL and ty.is_reference_kind(canonical_kind(x.cursor.type)) \
                    and (key_of(x.cursor) in keys or _reads(x) & set(keys)):
                return True
            stack.extend(x.children)
        return False

    def carried(self, kind: int, cond: Node | None, body: Node | None, inc: Node | None,
                pre: dict[int, Value], entry: dict[int, Value],
                ind: _Ind | None, line: int,
                guards: tuple[Expr, ...], latch: _Latch | None = None) -> set[int]:
        """Closed forms of the values a loop carries from one iteration to the next.

        One pass runs with each carried variable a placeholder ``V``; a variable whose
        value at the end of the pass is ``f(V)`` with ``f`` ``V + c``, ``(V + c) & (2^k-1)``,
        ``(V + c) % m``, an involution (``V ^ c``, ``c - V``, ``~V``, ``!V``) or a value set
        anew, ``c`` the same in every iteration, gets its value at the top of iteration
        ``it`` in ``entry`` (``(start + 4*it) & 63``). Any other variable keeps an opaque
        value that says why. Returns the keys that got a closed form.
        """
        self.after_loop = {}
        self.latched_keys = set()
        names: dict[int, str] = {}
        holders: dict[int, Sym] = {}
        probe = dict(entry)
        for k in entry:
            if ind is not None and k == ind[0]:
                continue
            p = pre[k]
            name = self.var_name(k)
            if isinstance(p, Ptr):
                if p.unknown:
                    continue
                v = Sym(f"{name}@L{line}", LONG, lane_dependent=lane_dependent(p.offset))
                probe[k] = Ptr(p.array, p.decl, v, p.pointee, p.unknown)
            else:
                v = Sym(f"{name}@L{line}", p.type, lane_dependent=lane_dependent(p))
                probe[k] = v
            names[k], holders[k] = name, v
        if not holders:
            return set()
        n_acc, order, notes = len(self.accesses), self.order, len(self.w.notes)
        n_ret, n_ptr = len(self.returns), len(self.ret_ptrs)
        self.probing = True
        if latch is not None:
            self.latched_ifs = {id(latch.node)}
        try:
            self.values = {**pre, **probe}
            self.memo.clear()
            self.guards = guards
            exits = self._iterate(kind, cond, body, inc)
            end = self.values
        finally:
            # Run for the values only: what the pass accessed is not reported.
            self.probing = False
            self.latched_ifs = set()
            del self.accesses[n_acc:]
            del self.w.notes[notes:]
            del self.returns[n_ret:]
            del self.ret_ptrs[n_ptr:]
            self.order = order
            self.guards = guards
            self.memo.clear()
        before: set[int] = set()
        for pv in pre.values():
            for x in cf.nodes(pv.offset if isinstance(pv, Ptr) else pv):
                if isinstance(x, Opaque):
                    before.add(id(x))
        moving: dict[int, str] = {}  # opaque entry values of the other loop variables
        for k, ev in entry.items():
            e = ev.offset if isinstance(ev, Ptr) else ev
            if isinstance(e, Opaque) and k not in holders:
                moving[id(e)] = self.var_name(k)
        counter = entry.get(ind[0]) if ind is not None else None
        steps: set[Sym] = set()
        if isinstance(counter, Ptr):
            counter = None
        if counter is not None:
            steps = {x for x in cf.nodes(counter) if isinstance(x, Sym)
                     and (x.induction is not None or x.name.startswith("k@L"))}
        skipped = exits.cont is not None and not _is_false(exits.cont)
        forms: dict[int, _Closed] = {}
        for k, v in holders.items():
            got = self.closed_form(names[k], pre[k], v, end.get(k), holders, moving,
                                   before, steps, skipped)
            if isinstance(got, str):
                entry[k] = self._loop_opaque(k, pre[k], got, [])
            else:
                forms[k] = got
        if latch is not None:
            self._latched_forms(latch, forms, entry, pre, names, line, ind, counter)
        if forms:
            # the loop is named by its counter, unless the counter's own iteration count
            # (a lane-dependent start) has that name already
            label = sorted(names[k] for k in forms)[0]
            if ind is not None and not (counter is not None and any(
                    isinstance(x, Sym) and x.name.startswith("k@L") for x in cf.nodes(counter))):
                label = self.var_name(ind[0])
            it, exact = self.iteration(ind, counter, line, label, list(forms.values()))
            if not exact and any(f.geometric for f in forms.values()):
                for k in [k for k, f in forms.items() if f.geometric]:
                    del forms[k]
                    entry[k] = self._loop_opaque(
                        k, pre[k], "is multiplied in a loop whose iterations cudalint cannot "
                        "count", [])
                if forms:
                    it, exact = self.iteration(ind, counter, line, label, list(forms.values()))
            for k, f in forms.items():
                entry[k] = f.build(it)
            if exact and exits.brk is None and exits.ret is None:
                self.after_loop = _after_loop(forms, it)
            if ind is not None and isinstance(counter, Sym) and isinstance(it, Sym) \
                    and it.induction is not None and it.induction.index:
                # the counter in the same iteration number: d = start >> k beside
                # offset = 1 << k, one k for both (enumerated together)
                geo = cf.geometric_shift(it.induction, counter.type)
                assert geo is not None
                left, c = geo
                amount = cf.affine(Const(0, INT), it, Const(c, INT), INT)
                t = counter.type
                entry[ind[0]] = fold(Binary("<<" if left else ">>",
                                            cf.as_type(it.induction.start, t), amount, t))
        return set(forms)

    def _latched_forms(self, latch: _Latch, forms: dict[int, _Closed],
                       entry: dict[int, Value], pre: dict[int, Value], names: dict[int, str],
                       line: int, ind: _Ind | None, counter: Expr | None) -> None:
        """The latched branch's variables (:meth:`latched`) in the branch's iteration
        number: the iterations in which its halved ``v`` is above 0 (after them no lane
        passes ``a < v``), whatever the loop's own count (a superset of the iterations
        that run). Taken out of ``forms``: they hold after the branch only in the lanes
        that took it, and after the loop in none.

        Where the loop's counter gives its iteration number exactly (a known trip count:
        ``for (l = 0; l < 2; ++l)`` runs two, whatever ``v``), that number. Else it
        ranges over ``v``'s own halvings where the block shape gives ``v``'s start, shown
        by ``v``'s value where every shape gives the same ones ("when active = 32"), else
        as an iteration of the loop's counter ("in iteration 2 of the 'l' loop"; the
        symbol ``k@L6:l|active``); and where the start is not known, over every halving
        of a value of ``v``'s type before 0."""
        self.latched_keys = set(latch.keys)
        got = {k: forms.pop(k) for k in latch.keys if k in forms}
        f = got.get(latch.v)
        start = pre[latch.v]
        ok = f is not None and f.geometric and not f.left and f.shift > 0 \
            and isinstance(start, Expr) and not lane_dependent(start) \
            and len(got) == len(latch.keys)
        if not ok:
            for k in latch.keys:
                entry[k] = self._loop_opaque(k, pre[k], "is updated under a condition in "
                                             "its loop", [])
            return
        assert isinstance(start, Expr) and f is not None
        counted = self.var_name(ind[0]) if ind is not None else None
        label = names[latch.v] if counted is None else f"{counted}|{names[latch.v]}"
        it: Expr
        if ind is not None and isinstance(counter, Sym) and counter.induction is not None \
                and counter.induction.op in ("+", "-") and cf.known_parts(counter.induction) \
                and (trip := cf.trip_count(counter.induction)) is not None \
                and trip <= cf.MAX_CYCLE:
            it, _ = self.iteration(ind, counter, line, label, list(got.values()))
        elif all(x.name in BLOCK_DIM for x in cf.nodes(start) if isinstance(x, Sym)) \
                and not any(isinstance(x, Opaque) for x in cf.nodes(start)):
            it = Sym(f"k@L{line}:{label}", INT, induction=Induction(
                start, ">>", Const(f.shift, INT), ">", Const(0, start.type), index=True))
        else:
            most = -(-(start.type.bits - int(start.type.signed)) // f.shift)
            it = Sym(f"k@L{line}:{counted or names[latch.v]}", INT, induction=Induction(
                Const(0, INT), "+", Const(1, INT), "<", Const(most, INT)))
        for k, form in got.items():
            entry[k] = form.build(it)

    def closed_form(self, name: str, start: Value, v: Sym, end: Value | None,
                    holders: dict[int, Sym], moving: dict[int, str], before: set[int],
                    steps: set[Sym], skipped: bool) -> _Closed | str:
        """The closed form of one carried variable, or why it has none (a clause after
        its name: "'pos' is updated under a condition in its loop")."""
        if isinstance(start, Ptr):
            if not isinstance(end, Ptr) or end.array.key != start.array.key:
                return "is assigned in a loop"
            e: Expr = end.offset
        elif end is None or isinstance(end, Ptr):
            return "is assigned in a loop"
        else:
            e = end
        if e == v:
            return _Closed(lambda it: start, 1)
        if skipped:
            return "is updated in a loop whose 'continue' can skip the update"
        why = self.changing(name, e, v, holders, moving, before, steps)
        if why is not None:
            return why
        if isinstance(start, Ptr):
            if cf.coefficient(e, v, 64) != 1:
                return "is updated in a loop in a way that has no closed form cudalint knows"
            step_bytes = cf.subst(e, v, Const(0, LONG))
            return _Closed(lambda it: Ptr(start.array, start.decl, cf.affine(
                start.offset, it, step_bytes, LONG), start.pointee, start.unknown),
                1 if step_bytes == Const(0, LONG) else None)
        t = start.type
        v0 = start
        if not cf.mentions(e, v):  # set anew every iteration, the same value each time
            return _Closed(lambda it: fold(Select(
                Binary("==", it, Const(0, it.type), INT), v0, cf.as_type(e, t), t)), 1, True)
        a = cf.coefficient(e, v, t.bits)
        if a == 1:  # v += c (through any widening conversions)
            c = cf.as_type(cf.subst(e, v, Const(0, t)), t)
            return _Closed(lambda it: cf.affine(v0, it, c, t),
                           1 if isinstance(c, Const) and c.value == 0 else None)
        if a == -1:  # v = c - v: two values in turn
            return self._involution(e, v, v0, t)
        core = cf.peel(e, t.bits)
        if isinstance(core, Unary) and core.op == "~" and cf.peel(core.operand, t.bits) == v:
            return self._involution(e, v, v0, t)
        if isinstance(core, Unary) and core.op == "!" and cf.peel(core.operand, t.bits) == v:
            flipped = cf.subst(e, v, v0)
            if cf.within(v0, 1):
                return _Closed(lambda it: fold(Select(
                    Binary("&", it, Const(1, it.type), it.type), flipped, v0, t)), 2)
            again = cf.subst(e, v, flipped)
            return _Closed(lambda it: fold(Select(
                Binary("==", it, Const(0, it.type), INT), v0, fold(Select(
                    Binary("&", it, Const(1, it.type), it.type), flipped, again, t)), t)),
                2, True)
        if isinstance(core, Binary) and core.op == "^":
            other = core.rhs if cf.peel(core.lhs, t.bits) == v else (
                core.lhs if cf.peel(core.rhs, t.bits) == v else None)
            if other is not None and not cf.mentions(other, v):
                return self._involution(e, v, v0, t)
        if isinstance(core, Binary) and core.op == "&":
            mask, x = (core.rhs, core.lhs) if isinstance(core.rhs, Const) else (
                core.lhs, core.rhs)
            if isinstance(mask, Const) and mask.value > 0 and \
                    mask.value & (mask.value + 1) == 0 and not cf.mentions(mask, v):
                bits = mask.value.bit_length()
                if cf.coefficient(x, v, bits) == 1 and core.type.bits >= bits:
                    return self._masked(e, core, x, v, v0, t, mask.value)
        factor: Const | None = None
        if isinstance(core, Binary) and core.op in ("<<", ">>", "*", "/"):
            if cf.peel(core.lhs, t.bits) == v and isinstance(core.rhs, Const):
                factor = core.rhs
            elif core.op == "*" and isinstance(core.lhs, Const) \
                    and cf.peel(core.rhs, t.bits) == v:
                factor = core.lhs
        if isinstance(core, Binary) and factor is not None:  # v <<= c, v *= 2^c, v /= 2^c
            f = factor.value
            if core.op in ("<<", ">>"):
                shift = f if 0 <= f < t.bits else None
            else:
                shift = f.bit_length() - 1 if f > 0 and f & (f - 1) == 0 else None
            if shift is not None and (core.op != "/" or not t.signed or cf.bounds(v0) is not None):
                left = core.op in ("<<", "*")
                by = Const(shift, INT)

                def scaled(it: Expr) -> Expr:
                    amount = cf.affine(Const(0, INT), it, by, INT)
                    if t.bits < 32:
                        # shifted as the int it is promoted to, then narrowed: an
                        # unsigned char doubled 8 times is 0, not a shift by 8
                        wide = fold(Binary("<<" if left else ">>", fold(Cast(v0, INT)),
                                           amount, INT))
                        return fold(Cast(wide, t))
                    return fold(Binary("<<", v0, amount, t) if left
                                else Binary(">>", v0, amount, t))

                return _Closed(scaled, 1 if shift == 0 else None, geometric=shift != 0,
                               start=v0, left=left, shift=shift)
        if isinstance(core, Binary) and core.op == "%" and not cf.mentions(core.rhs, v):
            x = core.lhs
            if cf.coefficient(x, v, x.type.bits) == 1:
                return self._modular(core, x, v, v0, t)
        return "is updated in a loop in a way that has no closed form cudalint knows"

    @staticmethod
    def _involution(e: Expr, v: Sym, v0: Expr, t: IntType) -> _Closed:
        """``f(f(v)) == v``: ``v0`` in even iterations, ``f(v0)`` in odd ones."""
        flipped = cf.subst(e, v, v0)
        return _Closed(lambda it: fold(Select(
            Binary("&", it, Const(1, it.type), it.type), cf.as_type(flipped, t), v0, t)), 2)

    @staticmethod
    def _masked(e: Expr, core: Binary, x: Expr, v: Sym, v0: Expr, t: IntType,
                mask: int) -> _Closed:
        """``v = (v + c) & mask``, ``mask + 1`` a power of two: ``(v0 + it*c) & mask``
        from the second iteration on (addition commutes with reduction modulo 2^k)."""
        ct = core.type
        c = cf.as_type(cf.subst(x, v, Const(0, t)), ct)
        span = mask + 1
        period = span // math.gcd(c.value % span, span) if isinstance(c, Const) else span
        in_range = cf.within(v0, mask)

        def build(it: Expr) -> Expr:
            inner = fold(Binary("&", cf.affine(v0, it, c, ct), Const(mask, ct), ct))
            later = cf.as_type(inner, t)
            if in_range:
                return later
            return fold(Select(Binary("==", it, Const(0, it.type), INT), v0, later, t))

        return _Closed(build, period, not in_range)

    @staticmethod
    def _modular(core: Binary, x: Expr, v: Sym, v0: Expr, t: IntType) -> _Closed | str:
        """``v = (v + c) % m``: ``(v0 + it*c) % m`` when nothing is negative (C's ``%``
        follows the dividend's sign, which breaks the identity)."""
        ct = x.type
        c = cf.as_type(cf.subst(x, v, Const(0, t)), ct)
        m = cf.as_type(core.rhs, ct)
        # unsigned arithmetic wraps modulo 2^bits, which a power of two m divides: the
        # identity holds from any start (no value is negative)
        wraps = not ct.signed and isinstance(m, Const) and 0 < m.value <= 1 << ct.bits \
            and m.value & (m.value - 1) == 0
        if cf.bounds(v0) is None and not wraps:
            return "is updated modulo a value in a loop from a start that may be negative"
        if ct.signed and not (isinstance(c, Const) and c.value >= 0 and cf.bounds(m) is not None):
            return "is updated modulo a value in a loop by a step that may be negative"
        in_range = isinstance(m, Const) and m.value > 0 and cf.within(v0, m.value - 1)
        period: int | None = None
        if isinstance(m, Const) and isinstance(c, Const) and m.value > 0:
            period = m.value // math.gcd(c.value % m.value, m.value)

        def build(it: Expr) -> Expr:
            later = cf.as_type(fold(Binary("%", cf.affine(v0, it, c, ct), m, ct)), t)
            if in_range:
                return later
            return fold(Select(Binary("==", it, Const(0, it.type), INT), v0, later, t))

        return _Closed(build, period, not in_range)

    def changing(self, name: str, e: Expr, v: Sym, holders: dict[int, Sym],
                 moving: dict[int, str], before: set[int], steps: set[Sym]) -> str | None:
        """Why the update of ``name`` (``e``, in its own value ``v``) reads something that
        is not the same in every iteration; None when it reads nothing of the kind."""
        others = {h: self.var_name(k) for k, h in holders.items() if h != v}
        found: list[tuple[int, str]] = []
        stack: list[Expr] = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, Opaque):
                if id(x) in before:
                    continue  # computed before the loop
                ok = x.kind
                if id(x) in moving:
                    found.append((4, f"is updated from '{moving[id(x)]}', which also changes "
                                     "in the loop"))
                elif ok is OpaqueKind.BRANCH and x.name == name:
                    found.append((0, "is updated under a condition in its loop"))
                elif ok is OpaqueKind.LOOP and x.name == name:
                    found.append((1, "is updated in an inner loop"))
                elif ok is OpaqueKind.LOAD:
                    found.append((2, f"is updated in its loop from loaded data ({x.reason})"))
                elif ok is OpaqueKind.BRANCH and x.name is not None:
                    found.append((3, f"is updated from '{x.name}', which {x.clause}"))
                elif not ok.constant:
                    found.append((6, f"is updated in its loop from a value cudalint cannot "
                                     f"follow ({x.reason})"))
                stack.extend(x.inputs)
            elif isinstance(x, Select):
                if cf.mentions(x, v):
                    found.append((0, "is updated under a condition in its loop"))
                stack.extend((x.cond, x.then, x.other))
            elif isinstance(x, Sym):
                if x in others:
                    found.append((4, f"is updated from '{others[x]}', which also changes "
                                     "in the loop"))
                elif x in steps:
                    found.append((5, "is updated in its loop by an amount that changes "
                                     "every iteration"))
            elif isinstance(x, Unary | Cast):
                stack.append(x.operand)
            elif isinstance(x, Binary):
                stack.extend((x.lhs, x.rhs))
        return min(found)[1] if found else None

    def iteration(self, ind: _Ind | None,
                  counter: Expr | None, line: int, label: str, forms: list[_Closed],
                  ) -> tuple[Expr, bool]:
        """The loop's iteration number (0 first) for the closed forms of ``forms``.

        From the counter where it is ``start ± it*step`` (exact: the model enumerates the
        counter's values). Where the counter's values are not known but every form
        repeats within 64 iterations: a loop variable over one cycle (every value those
        forms take, in any loop of at least that many iterations). Else a free uniform
        iteration count, as for a counter that starts at a lane-dependent value. The flag
        says whether the number is the counter's (exact, enumerated by the model).
        """
        cycle: int | None = 1
        for f in forms:
            if f.period is None or cycle is None:
                cycle = None
                break
            cycle = math.lcm(cycle, f.period)
        if cycle is not None and any(f.first for f in forms):
            cycle += 1  # iteration 0 is off the cycle: 0 .. cycle
        if cycle is not None and cycle > cf.MAX_CYCLE:
            cycle = None
        periodic: Expr | None = None
        if cycle is not None:
            periodic = Sym(f"k@L{line}:{label}", INT, induction=Induction(
                Const(0, INT), "+", Const(1, INT), "<", Const(cycle, INT)))
        if isinstance(counter, Sym) and counter.induction is not None \
                and counter.induction.op in ("+", "-"):
            d = counter.induction
            t = counter.type
            known = cf.known_parts(d)
            trip = cf.trip_count(d)
            if periodic is not None and (not known or (trip is not None and trip > cf.MAX_CYCLE)):
                return periodic, False  # the model could not enumerate the counter
            dist: Expr = counter if d.start == Const(0, d.start.type) else fold(Binary(
                "-", counter, cf.as_type(d.start, t), t))
            if d.op == "-":
                dist = fold(Binary("-", cf.as_type(d.start, t), counter, t))
            step = cf.as_type(d.step, t)
            exact = known and (trip is None or trip <= cf.MAX_CYCLE)
            return (dist if step == Const(1, t) else fold(Binary("/", dist, step, t))), exact
        if isinstance(counter, Sym) and counter.induction is not None and (cf.known_parts(
                counter.induction) or cf.known_start(counter)) \
                and cf.geometric_shift(counter.induction, counter.type):
            # a doubling or halving counter the model enumerates: the iteration number of
            # that same sequence (the counter is rewritten in it, see ``carried``)
            return Sym(f"k@L{line}:{counter.name}", INT, induction=Induction(
                counter.induction.start, counter.induction.op, counter.induction.step,
                counter.induction.cmp, counter.induction.bound, index=True)), True
        if periodic is not None:
            return periodic, False
        most = cf.geometric_trips(counter)
        if most is not None:
            # a doubling or halving counter from a start (or to a bound) cudalint does not
            # know: every iteration number it can reach, a superset of the ones it does
            return Sym(f"k@L{line}:{label}", INT, induction=Induction(
                Const(0, INT), "+", Const(1, INT), "<", Const(most, INT))), True
        if counter is not None and ind is not None:
            ks = [x for x in cf.nodes(counter) if isinstance(x, Sym) and x.name.startswith("k@L")]
            if ks:
                # the iteration count of a counter with a lane-dependent start
                return ks[0], False
        name = self.var_name(ind[0]) if ind is not None else label
        return Sym(f"k@L{line}:{name}", INT), False

    # --- expressions with side effects and accesses --------------------------------------

    def escapes(self, at: Node, values: list[Node]) -> None:
        """A pointer into a shared array stored in a struct (``Holder h{ks}``, ``g.p =
        ks``): the accesses through the struct's member are not followed, so say so
        rather than leave them out without a word."""
        for v in values:
            if not ty.is_pointer_or_array_kind(canonical_kind(strip(v).type)):
                continue
            p = self.ptr_value(strip(v))
            if p is None:
                continue
            self.w.notes.append(Note(
                "warning",
                f"a pointer into shared array '{p.array.name}' is stored in a struct member;"
                " accesses through it are not analyzed",
                self.w.span(at.extent)))

    def scan(self, c: Node, role: str) -> None:
        """Emit the accesses of expression ``c`` in evaluation order; queue its writes."""
        kind = c.kind
        children = c.children
        if kind == _INIT_LIST and ty.is_record_kind(c.ckind):
            self.escapes(c, [ch for ch in children if ch.is_expr])  # ``Holder h{ks}``
        if (kind in (N.ARRAY_SUBSCRIPT, N.MEMBER_REF, N.DECL_REF) or (
                kind == N.UNARY and len(children) == 1
                and unary_operator_kind(c.cursor) == UO_DEREF)) and self.may_be_shared(c):
            loc = self.lvalue(c)
            if loc is not None:
                self.scan_lvalue_parts(c)
                self.emit(loc, role, c)
                return
            if kind == N.DECL_REF:
                return
        if kind in (N.UNEXPOSED, N.PAREN):
            for ch in children:
                self.scan(ch, role)
            return
        if kind == N.UNARY_EXPR:
            return  # sizeof / alignof: unevaluated
        if kind == N.BINARY and len(children) == 2:
            op = c.spelling
            if op == "=":
                self.scan(children[1], LOAD)
                self.scan(children[0], STORE)
                if strip(children[0]).kind == N.MEMBER_REF:
                    self.escapes(c, [children[1]])  # ``g.p = ks``
                self.queue_write(children[0], children[1], None)
                return
            if op in ("&&", "||"):
                self.scan(children[0], LOAD)
                lhs = self.truth(children[0])
                saved = self.guards
                pending = len(self.pending)
                self.guards = (*saved, lhs if op == "&&" else _not(lhs))
                self.scan(children[1], LOAD)
                self.guards = saved
                self.one_arm(pending, lhs)  # ``c && (x = v)``: only where c holds
                return
        elif kind == N.COMPOUND_ASSIGN and len(children) == 2:
            self.scan(children[1], LOAD)
            self.scan(children[0], RMW)
            applied = COMPOUND_ASSIGN_OPS.get(c.spelling)
            if applied is not None:  # clang spells every compound assignment one of these
                self.queue_write(children[0], children[1], applied)
            return
        elif kind == N.UNARY and len(children) == 1:
            uo = unary_operator_kind(c.cursor)
            if uo in (UO_POST_INC, UO_POST_DEC, UO_PRE_INC, UO_PRE_DEC):
                self.scan(children[0], RMW)
                self.queue_write(children[0], None,
                                 "+" if uo in (UO_POST_INC, UO_PRE_INC) else "-")
                return
            if uo == UO_ADDR_OF:
                self.scan(children[0], ATOMIC if role == ATOMIC else ADDR)
                return
        elif kind == N.CONDITIONAL and len(children) == 3:
            self.scan(children[0], LOAD)
            cond = self.truth(children[0])
            saved = self.guards
            pending = len(self.pending)
            self.guards = (*saved, cond)
            self.scan(children[1], role)
            self.guards = (*saved, _not(cond))
            self.scan(children[2], role)
            self.guards = saved
            self.one_arm(pending, cond)  # writes in one arm only
            return
        elif kind == N.CALL:
            self.call_stmt(c, role)
            return
        elif kind == K.LAMBDA_EXPR.value:
            self.lambda_body(c)
            return
        for ch in children:
            self.scan(ch, LOAD)

    def lambda_body(self, lam: Node) -> None:
        """A lambda's body, run where the lambda is defined (its calls are not followed)
        as statements: its branches, loops and ``goto`` loops as anywhere else (read as
        one expression before, a loop or ``goto`` in it ran once and an ``if`` guarded
        nothing). Its accesses run under a guard of the lanes that call it (unknown: a
        conflict found is possible, not proved), its parameters differ between lanes
        (:meth:`decl_ref`), and a captured local the function changes anywhere may hold
        another value when it runs, in each lane its own. What it writes to the
        function's locals is not applied here: such a local is unknown wherever it is
        read (:meth:`lambda_written`)."""
        fn = self.fn
        body = next((ch for ch in reversed(lam.children) if ch.kind == N.COMPOUND_STMT), None)
        if fn is None or body is None:
            return
        inner = {key_of(x.cursor) for x in self._subtree(lam)
                 if x.kind in (N.VAR_DECL, N.PARM_DECL)}
        saved = (self.values, self.guards, self.returns, self.memo, self.pending,
                 self.ret_ptrs)
        values = dict(self.values)
        for k, var in fn.vars.items():
            v = values.get(k)
            if k not in inner and v is not None and var.modified:
                values[k] = self._loop_opaque(k, v, _CAPTURED, list(THREAD_SYMS),
                                              OpaqueKind.BRANCH)
        self.values, self.memo, self.pending = values, {}, []
        self.returns, self.ret_ptrs = [], []
        self.guards = (*self.guards, _LAMBDA_CALLERS)
        self.new_region()
        try:
            self.stmt(body)
            self.flush()
        finally:
            (self.values, self.guards, self.returns, self.memo, self.pending,
             self.ret_ptrs) = saved
            self.memo.clear()
            self.new_region()

    def lambda_written(self) -> set[int]:
        """The function's locals that a lambda in it writes (declared outside it)."""
        fn = self.fn
        if fn is None or fn.body is None:
            return set()
        hit = self.body_facts.get(("lambda_written", id(fn.body)))
        if hit is not None and hit[0] is fn.body:
            return cast(set[int], hit[1])
        out: set[int] = set()
        for lam in self._subtree(fn.body):
            if lam.kind == K.LAMBDA_EXPR.value:
                inner = {key_of(x.cursor) for x in self._subtree(lam)
                         if x.kind in (N.VAR_DECL, N.PARM_DECL)}
                out |= self.assigned_in(lam) - inner
        self.body_facts[("lambda_written", id(fn.body))] = (fn.body, out)
        return out

    def may_be_shared(self, c: Node) -> bool:
        """A cheap test: can ``c`` designate shared memory? (Its root names a shared array
        or a local that holds a shared pointer; anything else is surely not.)"""
        while True:
            kind = c.kind
            if kind == N.DECL_REF:
                ref = c.referenced
                if ref is None:
                    return False
                k = key_of(ref)
                if isinstance(self.values.get(k), Ptr):
                    return True
                if self.fn is not None and k in self.fn.arrays:
                    return True
                return k in self.w.file_arrays
            children = c.children
            if not children:
                return False
            if kind == N.ARRAY_SUBSCRIPT and len(children) == 2 \
                    and not ty.is_pointer_or_array_kind(children[0].ckind) \
                    and ty.is_pointer_or_array_kind(children[1].ckind):
                c = children[1]  # i[s]
                continue
            if kind in (N.BINARY, N.CONDITIONAL) or kind in CASTS or kind == N.CALL:
                return True  # pointer arithmetic, casts: let lvalue() decide
            c = children[0]

    def scan_lvalue_parts(self, c: Node) -> None:
        """The loads inside an lvalue chain (subscripts, pointer operands), not the chain."""
        kind = c.kind
        if kind in (N.PAREN, N.UNEXPOSED):
            for ch in c.children:
                if ch.is_expr and ty.is_array_kind(ch.ckind):
                    self.scan_lvalue_parts(ch)
                elif ch.is_expr and ty.is_pointer_kind(ch.ckind):
                    self.scan(ch, LOAD)
                else:
                    self.scan_lvalue_parts(ch)
            return
        if kind == N.ARRAY_SUBSCRIPT and len(c.children) == 2:
            self.scan_lvalue_parts(c.children[0])
            self.scan(c.children[1], LOAD)
            return
        if kind == N.MEMBER_REF and len(c.children) == 1:
            self.scan_lvalue_parts(c.children[0])
            return
        if kind == N.UNARY and len(c.children) == 1:
            self.scan(c.children[0], LOAD)

    def dependent_write(self, c: Node, targets: list[Node], op: BinaryOp | None) -> None:
        """An unresolved operator call in a template body (``i += 32`` on ``I i``) writes
        a local whose type the instantiation makes an integer: follow its value."""
        if overloaded_callee(c) is None or not targets:
            return
        rhs = targets[1] if len(targets) > 1 else None
        if op is None and rhs is None:
            return
        self.queue_write(targets[0], rhs, op)

    def itype(self, t: ci.Type) -> IntType | None:
        """``int_type``, also for a type template parameter bound to an integer type."""
        it = int_type(t)
        if it is not None or not ty.is_dependent_kind(canonical_kind(t)) or not self.env.types:
            return it
        bound = self.env.types.get(ty.bare_spelling(t))
        return _INT_SPELLINGS.get(" ".join(bound[0].split())) if bound is not None else None

    def conditional_write(self, target: Node, rhs: Node | None, op: BinaryOp | None) -> None:
        """``(c ? x : y) = v`` (or ``op=``, ``++``): ``x`` where ``c`` holds, ``y``
        elsewhere; each becomes a value of control flow whose inputs are the condition,
        the value written (for a plain ``=`` of an integer) and its old value; a pointer
        arm is lost."""
        c = self.truth(target.children[0])
        if isinstance(c, Const):  # decided at compile time: a write to that arm
            self.queue_write(target.children[1 if c.value else 2], rhs, op)
            return
        new = self.expr(rhs) if rhs is not None and node_int_type(rhs) is not None else None
        for arm in target.children[1:]:
            got = self.local(arm)
            if got is None:
                continue
            k = got[0]
            self.note_write(k)
            old = self.values.get(k)
            if isinstance(old, Ptr) or ty.is_pointer_kind(canonical_kind(got[2].type)):
                self.pending.append((k, None))
                continue
            t = self.itype(got[2].type)
            if t is None:
                continue
            parts = [c, *([old] if isinstance(old, Expr) else []),
                     *([new] if new is not None else THREAD_SYMS)]
            # constants only: the same in every lane (an opaque value without inputs may
            # read the thread index)
            self.pending.append((k, _about(OpaqueKind.BRANCH, self.var_name(k), _CONTROL_FLOW,
                                           dedupe(parts) or (Const(0, INT),), t)))

    def one_arm(self, first: int, cond: Expr) -> None:
        """The writes queued from ``first`` on happen only where ``cond`` (or its negation)
        holds: each becomes a value of control flow whose inputs are the condition, the
        new value and the old one."""
        for i in range(first, len(self.pending)):
            k, v = self.pending[i]
            old = self.values.get(k)
            olds = [old] if isinstance(old, Expr) else (
                [old.offset] if isinstance(old, Ptr) else [])
            if isinstance(v, Expr):
                self.pending[i] = (k, _about(OpaqueKind.BRANCH, self.var_name(k),
                                             _CONTROL_FLOW, dedupe([cond, v, *olds]), v.type))
            elif isinstance(v, Ptr):
                self.pending[i] = (k, Ptr(v.array, v.decl, _about(
                    OpaqueKind.BRANCH, self.var_name(k), _CONTROL_FLOW,
                    dedupe([cond, v.offset, *olds]), LONG), v.pointee, v.unknown))

    def queue_write(self, target: Node, rhs: Node | None, op: BinaryOp | None) -> None:
        """Queue the write of ``rhs`` (``op`` None) or of ``old op rhs`` (``op``; ``rhs``
        None: ``old op 1``, an increment) to the local ``target``."""
        t = strip(target)
        if t.kind == N.CONDITIONAL and len(t.children) == 3:
            self.conditional_write(t, rhs, op)
            return
        got = self.local(target)
        if got is None:
            cast = self.cast_written(target)
            if cast is not None:
                self.note_switch(cast, target)  # ``(uint32_t &)p ^= 0x2000`` (:meth:`int_switched`)
            return
        k, _, ref = got
        self.note_write(k)  # under the guards of the expression (``c && (x = 1)``)
        t = ref.type
        tk = canonical_kind(t)
        cur = self.values.get(k)
        if ty.is_pointer_kind(tk):
            new_p: Ptr | None = None
            if op is None and rhs is not None:
                new_p = self.ptr_value(rhs)
            elif isinstance(cur, Ptr) and op in ("+", "-"):
                step = Const(1, INT) if rhs is None else self.expr(rhs)
                new_p = self.advance(cur, step, op)
            self.pending.append((k, new_p))
            return
        it = self.itype(t)
        if it is None:
            if isinstance(cur, Expr):
                self.pending.append((k, None))  # a value this walk cannot follow
            return
        if k in self.addr_guards:
            self.note_switch(k, target)  # ``addr ^= 0x2000``: a buffer switch
        if op is None:
            assert rhs is not None
            self.pending.append((k, self.convert(self.expr(rhs), rhs, t)))
            return
        old = self.expr(strip(target))
        if rhs is None:
            self.pending.append((k, fold(Binary(op, old, Const(1, it), it))))
            return
        r = self.expr(rhs)
        shift = op in ("<<", ">>")
        ct = (it if it.bits >= 32 else INT) if shift else _usual(it, r.type)
        lhs = old if old.type == ct else fold(Cast(old, ct))
        rr = r if r.type == ct or op in ("<<", ">>") else fold(Cast(r, ct))
        value = fold(Binary(op, lhs, rr, ct))
        if value.type != it:
            value = fold(Cast(value, it))
        self.pending.append((k, value))

    def callee(self, c: Node) -> ci.Cursor | None:
        return c.referenced

    def call_target(self, c: Node, name: str, nargs: int) -> Function | None:
        """The function with a body here that a call runs; in a template body, the one
        candidate of the unresolved name that takes ``nargs`` arguments."""
        bound = self.template_function(c)
        if bound is not None:
            fns = [f for f in self.w.functions_by_name.get(bound, ())
                   if f.body is not None and len(self.params(f)) == nargs]
            return fns[0] if len(fns) == 1 else None
        method = self.method_target(c, nargs) or self.static_member_call(c, nargs)
        if method is not None:
            self.method_envs[id(c)] = method[1]
            return method[0]
        ref = self.callee(c)
        if ref is not None and ref.kind == K.TEMPLATE_NON_TYPE_PARAMETER:
            return None  # ``f(...)`` of a parameter this instantiation does not bind
        if ref is not None:
            return self.w.function_for(ref, name, nargs)
        over = overloaded_callee(c)
        if over is None:
            return None
        found: Function | None = None
        for cand in overload_candidates(over):
            fn = self.w.function_for(cand, name, nargs)
            if fn is None or fn.body is None or len(self.params(fn)) != nargs:
                continue
            if found is not None and found is not fn:
                return None  # overloads told apart by argument types: not guessed
            found = fn
        return found

    def target_env(self, c: Node, target: Function) -> Env:
        """The template arguments the function a call runs takes: a member function's
        are its class's; a function template's come from the call."""
        env = self.method_envs.get(id(c))
        if env is not None:
            return env
        # a template argument may name the caller's constants (``constexpr uint WSUBM =
        # WM / WMITER;`` then ``f<WSUBM>(...)``): C++ allows only constants there, so a
        # local whose value is a constant here is that constant
        consts = {self.var_name(k): v.value for k, v in self.values.items()
                  if isinstance(v, Const) and self.fn is not None and k in self.fn.vars}
        consts.update(self.sizeof_arguments(c))
        caller = self.env
        if consts:
            caller = replace(self.env, values={**consts, **self.env.values})
        env = self.w.call_env(c, target, caller)
        return self.class_arguments(c, target, env)

    def sizeof_arguments(self, c: Node) -> dict[str, int]:
        """The call's explicit template arguments that are expressions this instantiation
        gives a value, by their text, which :meth:`Walker.call_env` reads when it cannot
        evaluate an argument's text itself: ``sizeof`` of a local array
        (``ggml_cuda_memcpy_1<sizeof(tmp_h2)>(...)``, ``sizeof(tmp[0])``) or of a type
        that is no C type (``<KQ_cs*sizeof(half)>``), with the instantiation's values."""
        out: dict[str, int] = {}
        for ch in c.children:
            callee = strip(ch)
            if callee.kind not in (N.DECL_REF, N.MEMBER_REF):
                continue
            for arg in callee.children:
                if arg.is_expr and node_int_type(arg) is not None:
                    v = fold(self.expr(arg))
                    if isinstance(v, Const):
                        out[" ".join(self.w.slice(arg.extent).split())] = v.value
            break
        return out

    def class_arguments(self, c: Node, target: Function, env: Env) -> Env:
        """``env`` with the explicit type arguments of a call that name class types
        whose members the callee may read (``f<T_B_KQ>(...)`` of a local ``using T_B_KQ
        = tile<8, 8, half2>``), or class templates (``f<frag>(...)`` for a template
        template parameter), resolved in the caller."""
        types = [p for p in target.template_params if p.is_type]
        if not types or not c.children:
            return env
        callee = strip(c.children[0])
        if callee.kind not in (N.DECL_REF, N.MEMBER_REF):
            return env
        m = re.search(r"<(.*)>\s*$", self.w.slice(callee.extent), re.S)
        if m is None:
            return env
        classes: dict[str, Any] = {}
        for p, text in zip(target.template_params, split_top_level(m.group(1)),
                           strict=False):
            if p.is_type and p.name not in env.classes:
                got: Any = self.class_template(text)
                if got is None:
                    got = self.dependent_type(text)
                if isinstance(got, (DependentClass, ci.Cursor)):
                    classes[p.name] = got
        return replace(env, classes={**env.classes, **classes}) if classes else env

    def class_template(self, text: str) -> ci.Cursor | None:
        """The class template ``text`` names (``frag``, ``ns::frag``, a template template
        parameter this instantiation binds), if it names one."""
        name = " ".join(text.split()).rpartition("::")[2]
        bound = self.env.classes.get(name)
        if isinstance(bound, ci.Cursor):
            return bound
        if not name.isidentifier() or name in self.env.types or name in self.env.classes:
            return None
        found = self._project_names().templates.get(name, [])
        return found[0] if len(found) == 1 else None

    def template_function(self, c: Node) -> str | None:
        """The function a call through a non-type template parameter runs
        (``warp_reduction(v)`` in ``blockReduce<warpReduceSum>``), by name."""
        if not self.env.functions or not c.children:
            return None
        s = strip(c.children[0])
        if s.kind != N.DECL_REF:
            return None
        ref = s.referenced
        if ref is None or ref.kind != K.TEMPLATE_NON_TYPE_PARAMETER:
            return None
        return self.env.functions.get(str(ref.spelling))

    def call_stmt(self, c: Node, role: str) -> None:
        name = call_name(c)
        children = c.children
        args = arguments(c)
        if name in ATOMICS:
            operand: int | None = None
            if len(args) >= 2:
                value = self.expr(args[1]) if node_int_type(args[1]) is not None else None
                operand = value.value if isinstance(value, Const) else None
            top = strip(self.statement) if self.statement is not None else None
            while top is not None and top is not c and ty.is_void(top.type) and \
                    len([ch for ch in top.children if ch.is_expr]) == 1:
                top = strip(next(ch for ch in top.children if ch.is_expr))  # (void)call
            used = top is not c
            for i, a in enumerate(args):
                if i == 0:
                    self.atomic = (name, used, operand)
                    self.scan_pointer_target(a, ATOMIC, c)
                    self.atomic = None
                else:
                    self.scan(a, LOAD)
            self.new_region()
            return
        oper = operator_function(name)
        if oper is not None and children:
            targets = [ch for ch in children if ch.is_expr and not (
                strip(ch).kind == N.DECL_REF and strip(ch).spelling == name)
                and not is_callee_ref(ch)]
            if oper.op == "=" and len(targets) >= 2:
                for ch in targets[1:]:
                    self.scan(ch, LOAD)
                self.scan(targets[0], STORE)
                self.dependent_write(c, targets, None)
                return
            if oper.applies is not None and targets:
                for ch in targets[1:]:
                    self.scan(ch, LOAD)
                self.scan(targets[0], RMW)
                self.dependent_write(c, targets, oper.applies)
                return
            for ch in children:
                self.scan(ch, LOAD)
            return
        ref = self.callee(c)
        if any(ch.kind == N.CALL and ch.spelling in LAUNCH_CONFIG_CALLS for ch in children):
            for ch in children:
                self.scan(ch, LOAD)
            return
        if name in ASYNC_COPIES or name in MATRIX_CALLS:
            self.special_copy(c, name, args)
            return
        if name in BARRIERS and not self.is_user_function(ref):
            for a in args:
                self.scan(a, LOAD)
            self.new_region()
            return
        target = self.call_target(c, name, len(args))
        if target is not None and target.body is not None and not target.is_kernel:
            if shared_inert(self.w, target):  # running it finds nothing (inert.py)
                self.skip_inert(c, target, args)
                return
            self.inline(c, target, args)
            return
        # Method calls on objects (cooperative groups): the object is no access.
        for ch in children:
            if ch.kind == N.MEMBER_REF:
                continue
            self.scan(ch, LOAD)
        if not self.barrier_free(ref):
            self.new_region()

    def is_user_function(self, ref: ci.Cursor | None) -> bool:
        return ref is not None and is_from_project(ref)

    def barrier_free(self, ref: ci.Cursor | None) -> bool:
        """Calls declared outside the file (CUDA headers, the shim) are, except barriers."""
        if ref is None:
            return False
        if ref.kind in (K.CONSTRUCTOR, K.CONVERSION_FUNCTION, K.DESTRUCTOR):
            return True
        return not is_from_project(ref)

    def scan_pointer_target(self, a: Node, role: str, node: Node) -> None:
        """``a`` is a pointer argument whose target the call accesses (atomics)."""
        s = strip(a)
        if s.kind == N.UNARY and unary_operator_kind(s.cursor) == UO_ADDR_OF:
            self.scan(s, role)
            return
        p = self.ptr_value(a)
        self.scan(a, LOAD)
        if p is not None and p.pointee is not None:
            self.emit(self.deref(p, p.pointee), role, node)

    def special_copy(self, c: Node, name: str, args: list[Node]) -> None:
        if name in MATRIX_CALLS:
            self.wmma(c, name, args)
            return
        for a in args:
            # the barrier or pipeline a copy completes on (``memcpy_async(dst, src, n,
            # barrier)`` with a ``cuda::barrier`` in shared memory, often a template's
            # ``T &``) is passed by reference and signalled by the hardware: no load of
            # its bytes. Pointers and integers are read as usual.
            read = node_int_type(a) is not None or ty.is_pointer_kind(canonical_kind(a.type))
            self.scan(a, LOAD if read else ADDR)
        role = MATRIX_CALLS.get(name, STORE)
        for a in args:
            p = self.ptr_value(a)
            if p is None:
                continue
            reason = (
                f"'{name}' copies into shared memory asynchronously; its bank cost is not"
                " modelled" if role == STORE and name not in MATRIX_CALLS else
                f"'{name}' (tensor-core fragment access) is not modelled"
            )
            width = 16 if name not in MATRIX_CALLS else 4
            loc = self.deref(p, p.pointee) if p.pointee is not None else None
            if loc is not None:
                self.emit(loc, role, c, unknown=reason, width=width)
            break
        self.new_region()

    def wmma(self, c: Node, name: str, args: list[Node]) -> None:
        """``load_matrix_sync(frag, p, ldm[, layout])`` / ``store_matrix_sync(p, frag, ldm,
        layout)`` on shared memory: the accesses nvcc lowers the call to
        (:mod:`cudalint.frontend.wmma`, measured on sm_90), one record per call."""
        for a in args:
            self.scan(a, LOAD)
        store = name == "store_matrix_sync"
        if len(args) < 3:
            return
        p = self.ptr_value(args[0] if store else args[1])
        if p is None or p.pointee is None:
            return  # global memory
        self.new_region()
        role = STORE if store else LOAD
        loc = self.deref(p, p.pointee)
        frag = self.fragment(args[1] if store else args[0], args[3] if len(args) > 3 else None)
        low = wmma_lower(frag, store) if isinstance(frag, WmmaFragment) else frag
        m = re.search(r"(\d+)", self.w.arch)
        if not isinstance(low, str) and m is not None and int(m.group(1)) < 80:
            low = (f"nvcc lowers wmma fragment accesses differently on {self.w.arch}; cudalint"
                   " models sm_80 and newer (measured on sm_90)")
        if isinstance(low, str):
            self.emit(loc, role, c, unknown=f"'{name}': {low}", width=4)
            self.new_region()
            return
        lane = fold(Binary("%", self.linear_thread(), Const(32, UINT), UINT))
        loc.offset = _plus(loc.offset, wmma_lane_offset(low, lane, self.expr(args[2])))
        saved = self.guards
        if low.matrices and low.matrices < 4:  # LDSM .x1/.x2: lanes 8N.. give no row
            self.guards = (*saved, Binary("<", lane, Const(8 * low.matrices, UINT), UINT))
        try:
            self.emit(loc, role, c, width=low.width, matrix=low.matrices > 0,
                      collective=True)
        finally:
            self.guards = saved
        self.new_region()

    def fragment(self, frag: Node, layout: Node | None) -> WmmaFragment | str:
        """The ``nvcuda::wmma::fragment<Use, M, N, K, T[, Layout]>`` type of ``frag`` (with
        the memory layout argument of an accumulator's load/store), or why it is not
        known. Template parameters take the instantiation's arguments."""
        t = frag.type
        if ty.is_reference(t):
            t = ty.pointee(t)
        m = re.search(r"fragment\s*<(.*)>", ty.spelling(t), re.S)
        parts = split_top_level(m.group(1)) if m is not None else []
        canon = ty.canonical(t)
        if len(parts) < 5:
            return "the fragment's type is not known"

        def last(text: str) -> str:
            text = " ".join(text.replace("const", " ").split())
            bound = self.env.types.get(text)
            if bound is not None:
                text = bound[0]
            return text.split("::")[-1].strip()

        ints: list[int] = []
        for i, text in enumerate(parts[1:4], start=1):
            v: int | None = None
            if ty.template_argument_count(canon) == len(parts):
                v = ty.template_argument_value(canon, i)
            text = text.strip()
            if v is None:
                v = int(text) if text.isdigit() else self.env.values.get(text)
            if v is None:
                v = self.w.eval_text(text)
            if v is None and self.fn is not None:
                # a constant local of the function (``constexpr int HEADS = 8;`` then
                # ``fragment<matrix_a, HEADS, 16, 16, ...>`` in a template kernel)
                named = {c.value for k, c in self.values.items() if isinstance(c, Const)
                         and k in self.fn.vars and self.fn.vars[k].name == text
                         and not self.fn.vars[k].modified}
                v = named.pop() if len(named) == 1 else None
            if v is None:
                return f"the fragment's shape ('{text}') is not known"
            ints.append(v)
        elem_text = parts[4]
        if ty.template_argument_count(canon) == len(parts):
            et = ty.template_argument_type(canon, 4)
            if et is not None and "type-parameter" not in ty.spelling(et):
                elem_text = ty.spelling(et)
        elem = _WMMA_ELEMENTS.get(last(elem_text))
        use = {"matrix_a": "a", "matrix_b": "b", "accumulator": "acc"}.get(last(parts[0]))
        if use is None or elem is None:
            return f"a wmma fragment of '{' '.join(elem_text.split())}' is not modelled"
        lay: str | None
        if use == "acc":
            if layout is None:
                return "the accumulator's memory layout is not given"
            text = self.w.slice(layout.extent)
            value = self.expr(layout)
            lay = "row" if "mem_row_major" in text or value == Const(0, value.type) else (
                "col" if "mem_col_major" in text or value == Const(1, value.type) else None)
        else:
            lay = {"row_major": "row", "col_major": "col"}.get(last(parts[5])) \
                if len(parts) > 5 else None
        if lay is None:
            return "the fragment's layout is not known"
        return WmmaFragment(use, ints[0], ints[1], ints[2], elem, lay)  # type: ignore[arg-type]

    def asm(self, n: Node) -> None:
        """Inline PTX. ``ld``/``st``/``atom``/``red`` on ``.shared`` (widths from
        ``.v2``/``.v4`` and the type), ``ldmatrix``/``stmatrix`` (each lane addresses one
        16-byte row) and ``cp.async`` (its shared destination is written) become accesses
        at the address operand (``[%N]``, ``[%N+16]``), traced through
        ``__cvta_generic_to_shared``. Plain ``ld``/``st`` are LDS/STS of that width and
        follow the measured rule; the others' bank cost is not measured: they are
        recorded with their addresses and reported unknown with the reason."""
        operands = n.expr_children()
        parts = asm_parts(n.cursor)
        n_out = -1
        if parts is not None and parts[1] + parts[2] == len(operands):
            template, n_out = parts[0], parts[1]
        else:
            template = asm_template_text(self.w.slice(n.extent))
        self.new_region()
        for i, ch in enumerate(operands):
            self.scan(ch, STORE if 0 <= i < n_out else LOAD)
        self.flush()
        traced = self.asm_instructions(n, template, operands)
        if traced is None and _SHARED_ASM.search(template) is not None:
            self.asm_untraced(n, template)
        written = operands[:n_out] if n_out >= 0 else asm_outputs(n)
        results = self.asm_results(n, template, operands, n_out)
        for i, ch in enumerate(written):
            got = self.local(ch)  # an output: the asm writes the local
            if got is not None:
                it = self.itype(got[2].type)
                value, addr = results.get(i, (None, None))
                self.set_value(got[0], None if it is None else value or _about(
                    OpaqueKind.VARIABLE, got[1].name, "is written by inline asm", THREAD_SYMS,
                    it))
                if addr is not None:
                    self.shared_addrs[got[0]] = addr
                else:
                    self.shared_addrs.pop(got[0], None)
        source = _cvta_source(n, operands) if n_out == 1 else None
        got = self.local(operands[0]) if source is not None else None
        if source is not None and got is not None and not (
                got[1].assigned or got[1].address_taken or got[1].loop_var) \
                and self.asm_writers(got[0]) == 1:
            # ``asm("{...cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a;}" : "=r"(addr) :
            # "l"(p))``: addr is p's shared-window address, as __cvta_generic_to_shared's
            p = self.ptr_value(operands[source])
            if p is not None:
                self.shared_addrs[got[0]] = Ptr(p.array, p.decl, p.offset,
                                                self.scalar(p.pointee), p.unknown)
                self.addr_guards[got[0]] = self.guards
        self.new_region()

    def asm_results(self, n: Node, template: str, operands: list[Node], n_out: int,
                    ) -> dict[int, tuple[Expr | None, Ptr | None]]:
        """The values an ``asm`` statement of one integer instruction (:data:`_PTX_ARITH`:
        ``add.u32 %0, %0, 128``, ``mov.b32 %0, %1``) leaves in its output: (its value,
        the shared-window address it holds), by output; an output it does not name, or
        one of another instruction, is not here (the caller makes it unknown). An
        operand read is an input, a ``"+r"`` output (its value before), or an immediate.
        The address is followed only where the statement runs once in its function (at
        the top of the body, in no loop, branch or ``goto`` loop), as a local's address
        is kept once for the whole function (:meth:`shared_address`)."""
        body = [x for x in re.split(r"[;\n]", template.replace("{", ";").replace("}", ";"))
                if x.strip()]
        m = _PTX_ARITH.match(body[0].strip()) if len(body) == 1 and n_out > 0 else None
        if m is None:
            return {}
        op, sign, bits, dest = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        srcs = [x for x in (m.group(5), m.group(6)) if x is not None]
        if dest >= n_out or len(srcs) != (1 if op == "mov" else 2):
            return {}
        constraints = asm_output_constraints(n.cursor, n_out)
        got = self.local(operands[dest])
        it = self.itype(got[2].type) if got is not None else None
        if constraints is None or it is None or it.bits != bits or (
                op == "shr" and (sign == "s") != it.signed):
            return {}
        values: list[Expr] = []
        addrs: list[Ptr | None] = []
        for src in srcs:
            special = self.ptx_special(src)
            if special is not None:
                values.append(special)
                addrs.append(None)
                continue
            imm = _PTX_IMMEDIATE.match(src)
            if imm is not None:
                values.append(Const((-1 if imm.group(1) else 1) * int(imm.group(2), 0), it))
                addrs.append(None)
                continue
            ref = re.fullmatch(r"[%$](\d+)", src)
            i = int(ref.group(1)) if ref is not None else -1
            if not 0 <= i < len(operands) or (i < n_out and not constraints[i].startswith("+")):
                return {}  # a register of its own, or an output it has not set
            if node_int_type(operands[i]) is None:
                return {}
            values.append(self.expr(operands[i]))
            addrs.append(self.shared_address(operands[i]))
        value: Expr = values[0] if op == "mov" else fold(
            Binary(_PTX_ARITH_OPS[op], values[0], values[1], it))
        value = self._as(value, it)
        addr: Ptr | None = None
        fn = self.fn
        once = fn is not None and fn.body is not None and any(
            ch is n for ch in fn.body.children) and not self.in_cycle(n, fn.body)
        if once and op == "mov":
            addr = addrs[0]
        elif once and op in ("add", "sub") and addrs[0] is not None and addrs[1] is None:
            p = addrs[0]
            step = self._long(values[1])
            addr = Ptr(p.array, p.decl, _plus(p.offset, step, _PTX_ARITH_OPS[op]), p.pointee,
                       self.switched_step(p.switched, p.offset, step, p.unknown), p.switched)
        elif once and op == "add" and addrs[1] is not None and addrs[0] is None:
            p = addrs[1]
            step = self._long(values[0])
            addr = Ptr(p.array, p.decl, _plus(p.offset, step), p.pointee,
                       self.switched_step(p.switched, p.offset, step, p.unknown), p.switched)
        return {dest: (value, addr)}

    def ptx_special(self, name: str) -> Expr | None:
        """The value of a PTX special register read in inline asm: ``%laneid`` is the
        linear thread index mod 32 (a warp is 32 consecutive linear indices, whatever the
        block's shape), ``%tid.x`` threadIdx.x, ``%ntid.x`` blockDim.x; None for the
        others (``%smid``, ``%warpid``, ``%clock``: no value known here)."""
        m = re.fullmatch(r"%(laneid|tid\.[xyz]|ntid\.[xyz])", name)
        if m is None:
            return None
        reg = m.group(1)
        if reg == "laneid":
            return fold(Binary("%", self.linear_thread(), Const(32, UINT), UINT))
        axis = reg[-1]
        if reg.startswith("tid"):
            return Sym(f"threadIdx.{axis}", UINT, lane_dependent=True)
        return Sym(f"blockDim.{axis}", UINT)

    def cycles(self, body: Node) -> list[tuple[int, int]]:
        """The source spans under ``body`` that may run more than once: loops, and the
        stretch from a label to a ``goto`` after it."""
        hit = self.body_facts.get(("cycles", id(body)))
        if hit is not None and hit[0] is body:
            return cast(list[tuple[int, int]], hit[1])
        nodes = self._subtree(body)
        spans = [(int(x.extent.start.offset), int(x.extent.end.offset)) for x in nodes
                 if x.kind in LOOPS]
        labels = [int(x.extent.start.offset) for x in nodes if x.kind == N.LABEL]
        for g in nodes:
            if g.kind == N.GOTO:
                spans.extend((lo, int(g.extent.end.offset)) for lo in labels
                             if lo < int(g.extent.start.offset))
        self.body_facts[("cycles", id(body))] = (body, spans)
        return spans

    def in_cycle(self, n: Node, body: Node, other: Node | None = None) -> bool:
        """Whether ``n`` (and ``other`` with it) lies in one of :meth:`cycles`."""
        a = int(n.extent.start.offset)
        b = a if other is None else int(other.extent.start.offset)
        return any(lo <= a <= hi and lo <= b <= hi for lo, hi in self.cycles(body))

    def asm_stale(self, k: int, read: Node) -> bool:
        """Whether the shared-window address kept for the local ``k`` may be stale at
        ``read``: an ``asm`` that writes ``k`` (other than the one that makes it,
        :func:`_cvta_source`) shares a loop or ``goto`` loop with it, so a later pass reads
        what that ``asm`` left."""
        fn = self.fn
        if fn is None or fn.body is None:
            return False
        for w in self.body_asms(fn.body):
            if _cvta_source(w, w.expr_children()) is not None:
                continue
            if any((g := self.local(o)) is not None and g[0] == k for o in asm_outputs(w)) \
                    and self.in_cycle(w, fn.body, read):
                return True
        return False

    def asm_instructions(self, n: Node, template: str, operands: list[Node]) -> int | None:
        """Emit the shared accesses of the PTX instructions in ``template``; how many, or
        None when it holds none that cudalint reads."""
        count: int | None = None
        written: set[int] = set()  # operands an instruction before this one wrote
        for instr in re.split(r"[;\n]", template):
            m = _PTX_SHARED_OP.match(instr)
            dest = _PTX_DEST.match(instr)
            before = set(written)
            if dest is not None:
                written.update(int(x) for x in re.findall(r"[%$](\d+)", dest.group(1)))
            if m is None:
                continue
            op, suffixes = m.group(1), m.group(2)
            if ".bulk" in suffixes or (op in ("ld", "st") and ".async" in suffixes):
                continue  # a bulk/TMA copy: no per-lane access (left to asm_untraced)
            count = count or 0
            if ".shared" not in suffixes:
                continue  # global memory, cp.async.wait_group, ...
            count += 1
            name = op if op in ("ldmatrix", "stmatrix", "cp.async") else f"{op}.shared"
            addr = _PTX_OPERAND.search(instr)
            index = int(addr.group(1)) if addr is not None else -1
            # an address operand an earlier instruction of the statement wrote (``add.u32
            # %0, %0, 128; st.shared.f32 [%0], %1;`` on ``"+r"(a)``) is not the operand's
            # value: not traced
            p = self.asm_address(operands[index]) \
                if 0 <= index < len(operands) and index not in before else None
            if addr is None or p is None:
                # a helper run on its own, its address a parameter: each call from a
                # kernel binds it (``inline``), so nothing is lost here
                own = 0 <= index < len(operands) and self.own_parameter(operands[index])
                self.w.notes.append(Note(
                    "note" if own else "warning",
                    f"inline PTX '{name}' touches shared memory that cudalint cannot trace"
                    " to an array; it is not analyzed",
                    self.w.span(n.extent), unanalyzed=0 if own else 1,
                ))
                continue
            if addr.group(3) is not None:  # [%1+8], [%1-8]
                p = self.advance_bytes(p, int(addr.group(3), 0), BINARY_OPS[addr.group(2)])
            role, width, reason, guard = self.ptx_access(op, suffixes, instr, operands)
            if "::cluster" in suffixes:
                reason = reason or (f"inline PTX '{name}' on '.shared::cluster' may address"
                                    " another block's shared memory")
            pointee = p.pointee if p.pointee is not None else (
                p.decl.element if p.decl is not None else None)
            if pointee is None:
                continue
            self.new_region()  # one instruction each: nvcc does not merge them
            saved = self.guards
            if guard is not None:
                self.guards = (*saved, guard)
            try:
                self.emit(self.deref(p, pointee), role, n, unknown=reason, width=width,
                          matrix=op in ("ldmatrix", "stmatrix"),
                          collective=op in ("ldmatrix", "stmatrix"))
            finally:
                self.guards = saved
        return count

    def ptx_access(self, op: str, suffixes: str, instr: str, operands: list[Node],
                   ) -> tuple[str, int, str, Expr | None]:
        """(role, bytes per lane, unknown reason or "", guard) of one PTX instruction."""
        if op in ("ldmatrix", "stmatrix"):
            m = _PTX_COUNT.search(suffixes)
            matrices = int(m.group(1)[1]) if m else 4
            lane = fold(Binary("%", self.linear_thread(), Const(32, UINT), UINT))
            guard = None if matrices == 4 else Binary("<", lane, Const(8 * matrices, UINT),
                                                      UINT)
            # Each of lanes 0..8N-1 addresses one 16-byte row of N 8x8 matrices; the
            # measured rule (Access.matrix) costs one phase per matrix.
            return (LOAD if op == "ldmatrix" else STORE), 16, "", guard
        if op == "cp.async":
            size: int | None = None
            tail = instr[instr.rfind("]") + 1:] if "]" in instr else ""
            sm = re.match(r"\s*,\s*(?:(\d+)|[%$](\d+))", tail)
            if sm and sm.group(1):
                size = int(sm.group(1))
            elif sm and sm.group(2) and int(sm.group(2)) < len(operands):
                v = self.expr(operands[int(sm.group(2))])
                size = v.value if isinstance(v, Const) else None
            copy = size if size is not None and size in (4, 8, 16) else 16
            bypass = ".cg" in suffixes
            return STORE, copy, (
                "inline PTX 'cp.async.cg' writes shared memory asynchronously; its cost"
                " follows the 128-byte lines it writes, not the bank rule (timed on the"
                " H100, docs/bank-model.md), and is not modelled" if bypass else
                "inline PTX 'cp.async' writes shared memory asynchronously; its bank cost is"
                " measured only for some patterns (docs/bank-model.md)"), None
        bytes_ = ptx_width(suffixes)
        reason = "" if bytes_ is not None else (
            f"inline PTX '{op}.shared' with a width cudalint does not read")
        if op in ("atom", "red"):
            return ATOMIC, bytes_ or 4, reason or (
                f"inline PTX '{op}.shared' atomic: its cost depends on the operation and is"
                " not modelled"), None
        return (LOAD if op == "ld" else STORE), bytes_ or 4, reason, None

    def asm_address(self, node: Node) -> Ptr | None:
        if ty.is_pointer_kind(node.ckind):
            p = self.ptr_value(node)
            return None if p is None else Ptr(p.array, p.decl, p.offset, self.scalar(
                p.pointee), p.unknown, p.switched)
        return self.shared_address(node)

    def advance_bytes(self, p: Ptr, k: int, op: BinaryOp) -> Ptr:
        return Ptr(p.array, p.decl, _plus(p.offset, Const(k, LONG), op), p.pointee, p.unknown,
                   p.switched)

    @staticmethod
    def linear_thread() -> Expr:
        x, y, z = (Sym(f"threadIdx.{a}", UINT, lane_dependent=True) for a in "xyz")
        bx, by = (Sym(f"blockDim.{a}", UINT) for a in "xy")
        return Binary("+", x, Binary("*", bx, Binary("+", y, Binary("*", by, z, UINT),
                                                      UINT), UINT), UINT)

    def asm_untraced(self, n: Node, text: str) -> None:
        """Shared-memory PTX that is no per-lane access cudalint reads (``mbarrier``,
        ``wgmma``, bulk copies): an unknown access where a shared address is in reach,
        else a note that it is not analyzed."""
        m = _SHARED_ASM.search(text)
        assert m is not None
        instr = m.group(1)
        role = LOAD if instr.startswith(("ld", "ldmatrix")) else (
            ATOMIC if instr.startswith(("atom", "red")) else STORE)
        for ch in n.children:
            if not ch.is_expr:
                continue
            for sub in self._subtree(ch):
                p = self.ptr_value(sub) if ty.is_pointer_kind(sub.ckind) \
                    else self.shared_address(sub)
                if p is not None and p.pointee is not None:
                    self.emit(self.deref(p, self.scalar(p.pointee) or p.pointee), role, n,
                              unknown=f"inline PTX '{instr}' on shared memory is not modelled",
                              width=16 if instr in ("ldmatrix", "stmatrix", "cp.async") else 4)
                    return
        self.w.notes.append(Note(
            "warning",
            f"inline PTX '{instr}' touches shared memory that cudalint cannot trace"
            " to an array; it is not analyzed",
            self.w.span(n.extent), unanalyzed=1,
        ))

    @staticmethod
    def _subtree(n: Node) -> list[Node]:
        """``n`` and every node under it, in pre-order (iteratively: a recursive version
        copied each subtree's list into its parent's, most of a host flow's time on
        ggml's ``fattn-tile.cu``)."""
        out: list[Node] = []
        stack = [n]
        while stack:
            x = stack.pop()
            out.append(x)
            stack.extend(reversed(x.children))
        return out

    def lane_events(self, body: Node) -> list[Node]:
        """The nodes of ``body`` that :meth:`lane_source` looks at, in its order: every
        call, up to the first ``asm`` or read of ``threadIdx``/``laneid`` (which ends
        the list). Kept by body (:attr:`lane_event_lists`, shared by a file's host
        executors): only these decide its answer."""
        hit = self.lane_event_lists.get(id(body))
        if hit is not None and hit[0] is body:
            return hit[1]
        events: list[Node] = []
        for n in self._subtree(body):
            if n.kind in (N.ASM, N.MS_ASM) or (
                    n.kind == N.DECL_REF and n.spelling in ("threadIdx", "laneid")):
                events.append(n)
                break
            if n.kind == N.CALL:
                events.append(n)
        self.lane_event_lists[id(body)] = (body, events)
        return events

    def body_asms(self, body: Node) -> list[Node]:
        """The ``asm`` statements under ``body``, in order (kept like :meth:`lane_events`)."""
        hit = self.body_facts.get(("asm", id(body)))
        if hit is not None and hit[0] is body:
            return cast(list[Node], hit[1])
        found = [n for n in self._subtree(body) if n.kind == N.ASM]
        self.body_facts[("asm", id(body))] = (body, found)
        return found

    def body_casts_const(self, body: Node) -> bool:
        """Whether a ``const_cast`` is under ``body`` (kept like :meth:`lane_events`)."""
        hit = self.body_facts.get(("const_cast", id(body)))
        if hit is not None and hit[0] is body:
            return bool(hit[1])
        found = any(n.kind == K.CXX_CONST_CAST_EXPR.value for n in self._subtree(body))
        self.body_facts[("const_cast", id(body))] = (body, found)
        return found

    # inlining

    def inline(self, c: Node, target: Function, args: list[Node]) -> None:
        params = self.params(target)
        for i, a in enumerate(args):
            by_ref = i < len(params) and self._binds_reference(params[i])
            self.scan(a, ADDR if by_ref else LOAD)
        self.new_region()
        if self.depth >= _MAX_DEPTH or fn_key(target) in self.stack:
            # Accesses left out must be said (a warning, CL004) where the callee can reach
            # shared memory: its own arrays, file-scope ones, or a pointer/reference.
            reaches = bool(target.arrays or self.w.file_arrays) or any(
                ty.is_pointer_or_reference_kind(canonical_kind(p.type)) for p in params)
            note = Note(
                "warning" if reaches else "note",
                f"call to '{target.name}' is too deep or recursive; its shared"
                " accesses at this call are not analyzed", self.w.span(c.extent))
            if note not in self.w.notes:
                self.w.notes.append(note)
            return
        self.inlined.add(fn_key(target))
        bound: dict[int, Value] = {}
        ptr_args: dict[int, list[Expr]] = {}
        addrs: dict[int, Ptr] = {}
        for p, a in zip(params, args, strict=False):
            pt = p.type
            tk = canonical_kind(pt)
            k = key_of(p.cursor)
            if ty.is_pointer_kind(tk) or (ty.is_dependent_kind(tk) and (
                    ty.is_pointer_kind(canonical_kind(a.type))
                    or ty.is_array_kind(canonical_kind(a.type)))):
                # ``template <typename P> f(P p)`` given a shared pointer or array: P is
                # a pointer (the array decays), and ``p[i]`` in the body indexes it
                ptr = self.ptr_value(a)
                if ptr is not None:
                    bound[k] = Ptr(ptr.array, ptr.decl, ptr.offset, self.pointee(pt) or
                                   ptr.pointee, ptr.unknown)
                else:
                    ptr_args[k] = self.pointer_inputs(a)
            elif ty.is_reference_kind(tk):
                loc = self.lvalue(strip(a))
                if loc is not None:
                    bound[k] = self.address(loc, ty.pointee(pt))
                elif int_type(ty.pointee(pt)) is not None:
                    bound[k] = self.convert(self.expr(a), a, ty.pointee(pt))
                if int_type(ty.pointee(pt)) is not None and ty.is_const(ty.pointee(pt)):
                    # ``const uint32_t &addr``: a shared-window address the callee's PTX
                    # uses, as by value
                    addr = self.shared_address(a)
                    if addr is not None:
                        addrs[k] = addr
            elif int_type(pt) is not None:
                bound[k] = self.convert(self.expr(a), a, pt)
                addr = self.shared_address(a)
                if addr is not None:  # a shared-window address the callee's PTX uses
                    addrs[k] = addr
        self.uniform_objects(target, params, args, bound)
        env = self.target_env(c, target)
        saved_ptr_args, self.ptr_args = self.ptr_args, ptr_args
        saved_groups, self.group_args = self.group_args, {
            **self.group_args, **self._group_arguments(params, args)}
        # this call's addresses only: an earlier call's must not stand for an argument
        # this one passes that is not one (``st32(x, v)`` after ``st32(cvta(&a[t]), v)``)
        saved_addrs, self.shared_addrs = self.shared_addrs, {**self.shared_addrs, **addrs}
        for k in addrs:
            self.addr_guards[k] = self.guards
        for k in bound.keys() - addrs.keys():
            self.shared_addrs.pop(k, None)
        self.calls.append(self.w.span(c.extent))
        saved_this, self.uniform_this = self.uniform_this, self.uniform_receiver(c, target)
        try:
            self.call_ptrs[id(c)] = self.run_body(target, env, bound)
        finally:
            self.calls.pop()
            self.uniform_this = saved_this
            self.ptr_args = saved_ptr_args
            self.group_args = saved_groups
            self.shared_addrs = saved_addrs
        self.memo.clear()
        self.new_region()

    def skip_inert(self, c: Node, target: Function, args: list[Node]) -> None:
        """A call of a function that cannot reach shared memory or a barrier: its
        arguments are read, and the state afterwards is what ``inline`` leaves."""
        for a in args:
            self.scan(a, LOAD)
        self.new_region()
        self.inlined.add(fn_key(target))
        self.call_ptrs[id(c)] = None
        self.memo.clear()
        self.new_region()

    def _group_arguments(self, params: list[Node], args: list[Node]) -> dict[int, str]:
        """The groups passed to ``thread_group`` parameters (``sumReduction(tile16, ...)``
        in NVIDIA's simpleCooperativeGroups): the argument's own type, or what a caller's
        ``thread_group`` parameter was given."""
        out: dict[int, str] = {}
        for p, a in zip(params, args, strict=False):
            if not re.search(r"\bthread_group\b", ty.canonical_spelling(p.type)):
                continue
            # the group itself, under the conversion to its base class
            arg = next((n for n in self._subtree(a) if n.kind == N.DECL_REF), strip(a))
            ref = arg.referenced if arg.kind == N.DECL_REF else None
            given = self.group_args.get(key_of(ref)) if ref is not None else None
            spelled = given or ty.canonical_spelling(arg.type)
            if "thread_block" in spelled:
                out[key_of(p.cursor)] = spelled
        return out

    @contextlib.contextmanager
    def frame(self, target: Function, env: Env, bound: dict[int, Value], *,
              body: bool) -> Iterator[None]:
        """Enter a call of ``target``: its template arguments ``env`` and parameters
        ``bound``, on the call stack; the caller's frame comes back on leaving. ``body``:
        the callee's statements run, so the per-body state (guards, returns, pending
        writes, returned pointers) is the callee's own too; else only an expression of it
        is evaluated."""
        saved = (self.fn, self.env, self.values, self.guards, self.returns, self.memo,
                 self.pending, self.ret_ptrs)
        self.fn, self.env, self.values, self.memo = target, env, bound, {}
        gotos = self.goto_values
        if body:
            self.returns, self.pending, self.ret_ptrs = [], [], []
            self.goto_values = {}  # this call's gotos (a label is the callee's own)
        self.stack.append(fn_key(target))
        self.frame_envs.append((target, env))
        self.depth += 1
        try:
            yield
        finally:
            self.frame_envs.pop()
            self.goto_values = gotos
            self.depth -= 1
            self.stack.pop()
            (self.fn, self.env, self.values, self.guards, self.returns, self.memo,
             self.pending, self.ret_ptrs) = saved

    def run_body(self, target: Function, env: Env, bound: dict[int, Value]) -> Ptr | None:
        """Run ``target``'s body with parameters ``bound``; the shared pointer it returns."""
        with self.frame(target, env, bound, body=True):
            assert target.body is not None
            self.stmt(target.body)
            returned = self.ret_ptrs
        return self.merge_returns(target.name, returned)

    @staticmethod
    def merge_returns(name: str, returned: list[Ptr | None]) -> Ptr | None:
        if not returned or any(p is None for p in returned):
            return None
        first = returned[0]
        assert first is not None
        if any(p is None or p.array.key != first.array.key for p in returned):
            return None
        offsets = dedupe(p.offset for p in returned if p is not None)
        if len({repr(p.offset) for p in returned if p is not None}) == 1:
            return first
        return Ptr(first.array, first.decl, Opaque(
            OpaqueKind.BRANCH, f"the pointer '{name}' returns, which {_CONTROL_FLOW}", offsets,
            LONG),
            first.pointee, first.unknown)

    @staticmethod
    def _binds_reference(param: Node) -> bool:
        """A reference parameter: the argument is not read at the call; the callee reads
        or writes the place it names (``set(s[i], v)`` stores in ``set``)."""
        return ty.is_reference_kind(canonical_kind(param.type))

    # Launch sites (host code) are evaluated by cudalint.frontend.host.

    # --- pure expressions ----------------------------------------------------------------

    def expr(self, c: Node) -> Expr:
        hit = self.memo.get(id(c))
        if hit is None:
            if self.expr_depth >= MAX_EXPR_DEPTH:
                # Lane-dependent on purpose: what it hides might read threadIdx.
                return Opaque(OpaqueKind.UNSUPPORTED,
                              f"an expression nested more than {MAX_EXPR_DEPTH} levels deep",
                              (_LANE,), node_int_type(c) or INT)
            self.expr_depth += 1
            try:
                hit = fold(self._expr(c))
            finally:
                self.expr_depth -= 1
            self.memo[id(c)] = hit
        return hit

    def _opaque(self, kind: OpaqueKind, reason: str, c: Node,
                t: IntType | None = None) -> Opaque:
        """An opaque value of ``kind`` whose inputs are the values of ``c``'s operands."""
        inputs = dedupe(self.expr(ch) for ch in c.expr_children())
        return Opaque(kind, reason, inputs, t or INT)

    def _expr(self, c: Node) -> Expr:
        """The value of expression ``c``, by its cursor kind (:data:`_EXPR_HANDLERS`); a
        kind without a handler is a constant clang can evaluate, or unsupported."""
        handler = _EXPR_HANDLERS.get(c.kind)
        if handler is not None:
            return getattr(self, handler)(c)  # type: ignore[no-any-return]
        v = evaluate_int(c.cursor)
        if v is not None:
            return Const(v, node_int_type(c) or INT)
        kind_name = K.from_id(c.kind).name.lower()
        return self._opaque(OpaqueKind.UNSUPPORTED, f"unsupported expression ({kind_name})", c,
                            node_int_type(c))

    def literal(self, c: Node) -> Expr:
        v = evaluate_int(c.cursor)
        if v is None:
            return Opaque(OpaqueKind.LITERAL, "literal that is not an integer")
        return Const(v, node_int_type(c) or INT)

    def paren(self, c: Node) -> Expr:
        children = c.expr_children()
        if len(children) == 1:
            return self.expr(children[0])
        return self._opaque(OpaqueKind.UNSUPPORTED, "( )", c)

    def unexposed(self, c: Node) -> Expr:
        children = c.children
        if len(children) == 1 and children[0].is_expr:
            return self.convert(self.expr(children[0]), children[0], c.type)
        v = evaluate_int(c.cursor)
        if v is not None:
            return Const(v, node_int_type(c) or INT)
        if not children and ty.is_dependent(c.cursor.type):
            # clang's recovery from an error, or a name a template leaves unresolved
            return self._opaque(OpaqueKind.UNRESOLVED,
                                f"{_quoted_text(self.w.slice(c.extent))}, {_UNRESOLVED}", c)
        return self._opaque(OpaqueKind.UNSUPPORTED, "unsupported expression", c)

    def compound_assign(self, c: Node) -> Expr:
        children = c.expr_children()
        t = node_int_type(c)
        op = COMPOUND_ASSIGN_OPS.get(c.spelling)
        if len(children) == 2 and t is not None and op is not None:
            return Binary(op, self.expr(children[0]), self.expr(children[1]), t)
        return self._opaque(OpaqueKind.UNSUPPORTED, "assignment inside an index", c, t)

    def conditional(self, c: Node) -> Expr:
        children = c.expr_children()
        t = node_int_type(c)
        if len(children) == 3 and t is None and ty.is_dependent_kind(c.ckind):
            # ``std::is_same_v<T, double> ? 8 : 4`` in a template body: clang leaves the
            # type open; with integer arms it is theirs, converted as C++ converts them
            arms = [self.expr(a) for a in children[1:]]
            types = [node_int_type(a) or (v.type if ty.is_dependent_kind(a.ckind)
                                          and not isinstance(v, Opaque) else None)
                     for a, v in zip(children[1:], arms, strict=True)]
            if types[0] is not None and types[1] is not None:
                ct = _usual(types[0], types[1])
                return Select(self.truth(children[0]), self._as(arms[0], ct),
                              self._as(arms[1], ct), ct)
        if len(children) != 3 or t is None:
            return self._opaque(OpaqueKind.UNSUPPORTED,
                                "conditional expression that is not an integer", c)
        return Select(self.truth(children[0]), self.expr(children[1]),
                      self.expr(children[2]), t)

    def cast(self, c: Node) -> Expr:
        children = c.expr_children()
        t = node_int_type(c)
        if not children or t is None:
            return self._opaque(OpaqueKind.UNSUPPORTED,
                                "conversion to a type that is not an integer", c)
        return self.convert(self.expr(children[-1]), children[-1], c.type)

    def unary_expr(self, c: Node) -> Expr:
        """``sizeof``/``alignof``."""
        v = evaluate_int(c.cursor)
        if v is not None:
            return Const(v, node_int_type(c) or LONG)
        got = self.type_trait_size(c)
        if got is not None:
            return Const(got, node_int_type(c) or LONG)
        size = self.local_array_size(c)
        if size is not None:
            return Const(size, node_int_type(c) or LONG)
        return Opaque(OpaqueKind.SIZE, "size of a type that depends on a template parameter",
                      (), node_int_type(c) or LONG)

    def type_trait_size(self, c: Node) -> int | None:
        """``sizeof(T)``/``alignof(T)`` of a type operand this instantiation decides: a
        type parameter (``T`` = double), a member type of a class it selects
        (``sizeof(typename traits<T>::elem)``, an explicit specialization's own), a
        local alias of one (``using E = ...; sizeof(E)``), a pointer. The whole operand
        is resolved, never a name inside it (``sizeof(T *)`` is 8, not the size of T).
        None for an expression operand or a type not known here."""
        if any(ch.is_expr for ch in c.children):
            return None
        m = re.fullmatch(r"\s*(sizeof|alignof|_Alignof|__alignof__|__alignof)\s*\((.*)\)\s*",
                         self.w.slice(c.extent), re.S)
        if m is None:
            return None
        align = m.group(1) != "sizeof"
        operand = " ".join(re.sub(r"\b(?:const|volatile)\b", " ", m.group(2)).split())
        operand = operand.rstrip("&").strip()  # a reference's size is its type's
        if operand.endswith("*") and "(" not in operand:
            return 8  # a device pointer
        name: str | None = None
        size: int | None = None
        bound = self.env.types.get(operand)
        if bound is not None:
            name, size = re.sub(r"\b(?:const|volatile)\b", " ", bound[0]), bound[1]
            if operand == bound[0]:
                name = None  # a parameter the instantiation leaves open
        else:
            got = self.dependent_type(operand)
            if isinstance(got, str):
                name = got
                size = self.w.type_size(got)
            elif isinstance(got, DependentClass) and not got.env.values \
                    and not got.env.types and not got.env.classes \
                    and got.decl.kind in (K.STRUCT_DECL, K.CLASS_DECL):
                t = got.decl.type  # a class that is no template's instance
                size, a = ty.type_size(t), ty.alignment(t)
                return (a if align else size) if size > 0 and a > 0 else None
        if name is None or size is None:
            return None
        return self.w.type_align(name) if align else size

    def local_array_size(self, c: Node) -> int | None:
        """``sizeof(tmp)`` of a local array whose extents depend on template parameters
        (``half2 tmp[cpy_ne_D / 2];``, ggml's ``ggml_cuda_memcpy_1<sizeof(tmp)>``): the
        element's size times the extents, evaluated in this instantiation. None for
        ``alignof``, any other operand, or an extent or element size not known here."""
        if not self.w.slice(c.extent).lstrip().startswith("sizeof") or self.fn is None:
            return None
        operand = next((ch for ch in c.children if ch.is_expr), None)
        ref = strip(operand) if operand is not None else None
        # ``sizeof(tmp[0])``: an element (of a row) of the array, one level per subscript
        subscripts = 0
        while ref is not None and ref.kind in (N.PAREN, N.ARRAY_SUBSCRIPT) and ref.children:
            subscripts += ref.kind == N.ARRAY_SUBSCRIPT
            ref = strip(ref.children[0])
        if ref is None or ref.kind != N.DECL_REF or ref.referenced is None:
            return None
        decl = self.local_decls().get(key_of(ref.referenced))
        if decl is None:
            return None
        # the extents, outermost first (clang lists the innermost first: ``t[A][B]``
        # gives B, A), without the initializer: a list, or the construction of a class
        # element (``half2 tmp[n];``), which clang places at the name
        at_name = int(decl.cursor.location.offset)
        exprs = sorted((ch for ch in decl.children if ch.is_expr and ch.kind != N.INIT_LIST
                        and not (ch.kind == N.CALL
                                 and int(ch.extent.start.offset) <= at_name)),
                       key=lambda ch: int(ch.extent.start.offset))
        if not exprs:
            return None
        # one array level per extent written here: an element that is itself an array
        # through a typedef (``vec4 tmp[N]``, ``typedef float vec4[4]``) keeps its size
        element: ci.Type | None = decl.type
        for _ in exprs:
            element = ty.element(element) if element is not None and ty.is_array_kind(
                element.kind.value) else None
        if element is None:
            return None
        size = type_size(element)
        if size <= 0:  # a type parameter of the instantiation (``T tmp[n]``)
            ref = next((ch for ch in decl.children if ch.kind == N.TYPE_REF), None)
            if ref is None or ref.spelling not in self.env.types:
                return None
            size = self.env.types[ref.spelling][1]
        if subscripts > len(exprs):
            return None
        for e in exprs[subscripts:]:
            n = fold(self.expr(e))
            if not isinstance(n, Const) or n.value <= 0:
                return None
            size *= n.value
        return size

    def local_decls(self) -> dict[int, Node]:
        """The local array declarations of the function being run, by key."""
        fn = self.fn
        if fn is None:
            return {}
        got = self._local_decls.get(id(fn.node))
        if got is None:
            got = {key_of(d.cursor): d for d in self._subtree(fn.node)
                   if d.kind == N.VAR_DECL and ty.is_array_kind(d.ckind)}
            self._local_decls[id(fn.node)] = got
        return got

    def subscript_value(self, c: Node) -> Expr:
        """A value read through a subscript: a load, whose inputs are every index of the
        chain (``t[i][j]``: ``i`` too) and what the base pointer was computed from
        (``p[0]`` with ``p = in + threadIdx.x`` differs between lanes)."""
        children = c.children
        indices = list(children[1:])
        base = strip(children[0]) if children else c
        while base.kind == N.ARRAY_SUBSCRIPT:
            bc = base.children
            indices += bc[1:]
            base = strip(bc[0]) if bc else base
            if not bc:
                break
        name = base.spelling or self.w.slice(base.extent) or "memory"
        inputs = dedupe([*(self.expr(ch) for ch in indices), *self.pointer_inputs(base)])
        root = base
        while root.kind in (N.MEMBER_REF, N.ARRAY_SUBSCRIPT) and root.children and \
                not ty.is_pointer_kind(strip(root.children[0]).ckind):
            if root.kind == N.ARRAY_SUBSCRIPT:
                inputs = dedupe([*inputs, *(self.expr(ch) for ch in root.children[1:]
                                            if node_int_type(ch) is not None)])
            root = strip(root.children[0])
        got = self.local(root) if root.kind == N.DECL_REF else None
        this_rooted = root.kind == K.CXX_THIS_EXPR.value or (
            root.kind == N.MEMBER_REF and not root.children)
        if ty.is_array_kind(base.ckind) and (
                (got is not None and got[0] not in (self.fn.arrays if self.fn else {})
                 and not self.uniform_struct(got[1], got[2])
                 and not (self.values.get(got[0]) is _UNIFORM_OBJECT
                          and not got[1].modified))
                or (this_rooted and not self.uniform_this)):
            # a thread's own array (``int offs[2]; offs[0] = 2 * tid;``, ``q.tbl[3]``):
            # each lane holds its own contents
            inputs = dedupe([*inputs, *THREAD_SYMS])
        return Opaque(OpaqueKind.LOAD, f"value loaded from '{name}'", inputs,
                      node_int_type(c) or INT)

    def pointer_inputs(self, n: Node, depth: int = 0) -> list[Expr]:
        """What the address a pointer holds depends on, for a load through it: the integer
        offsets added to it (``in + threadIdx.x``), followed through the locals it was
        computed from. An array, a kernel's parameter or a file-scope pointer is the same
        in every lane (no input); a pointer cudalint cannot follow (a device function's
        parameter, a local assigned again, a call) may differ between lanes."""
        s = strip(n)
        while s.kind in CASTS and s.expr_children():
            s = strip(s.expr_children()[-1])
        if not ty.is_pointer_kind(s.ckind) and s.kind != N.BINARY:
            return []  # an array (its address is uniform), or not a pointer at all
        lost: list[Expr] = [Opaque(OpaqueKind.VARIABLE,
                                   f"'{s.spelling or 'the pointer'}' is a pointer cudalint"
                                   " does not follow", (_LANE,), INT)]
        if depth > 8:
            return lost
        if s.kind == N.DECL_REF:
            ref = s.referenced
            if ref is None:
                return lost
            var = self.fn.vars.get(key_of(ref)) if self.fn is not None else None
            if var is None:
                return []  # a file-scope pointer
            if var.modified:
                return lost  # ``in += threadIdx.x``: where it points now is not followed
            if var.is_param:
                if self.fn is not None and self.fn.is_kernel:
                    return []
                return self.ptr_args.get(key_of(ref), lost)
            if var.init is None:
                return lost
            return self.pointer_inputs(var.init, depth + 1)
        if s.kind == N.BINARY and s.spelling in ("+", "-") and len(s.children) == 2:
            out: list[Expr] = []
            for ch in s.children:
                if node_int_type(ch) is not None:
                    out.append(self.expr(ch))
                else:
                    out += self.pointer_inputs(ch, depth + 1)
            return out
        return lost

    def convert(self, e: Expr, source: Node, target: ci.Type) -> Expr:
        """``e`` (the value of cursor ``source``) converted to the clang type ``target``."""
        t = self.itype(target)
        if t is None:
            return e  # pointer decay, lvalue-to-rvalue on non-integers, dependent types
        s = node_int_type(source)
        src_kind = source.ckind
        if s is None and isinstance(e, Sym) and e.name.partition(".")[0] in BUILTIN_VARS:
            s = e.type  # threadIdx.x through clang's own headers: a pseudo-object
        if s is None:
            if ty.is_dependent_kind(src_kind):
                return e
            if isinstance(e, Opaque):
                return replace(e, type=t)
            return Opaque(OpaqueKind.UNSUPPORTED, "conversion of a value that is not an integer",
                          dedupe([e]), t)
        if ty.is_bool_kind(canonical_kind(target)) and not ty.is_bool_kind(src_kind):
            return fold(Binary("!=", e, Const(0, e.type), e.type))
        if e.type == t:
            return e
        return fold(Cast(e, t))

    def truth(self, c: Node) -> Expr:
        """A condition as an integer that is non-zero when it holds."""
        e = self.expr(c)
        if node_int_type(c) is None and not ty.is_dependent_kind(c.ckind) \
                and not isinstance(e, Opaque):
            if ty.is_pointer_kind(c.ckind):
                return Opaque(OpaqueKind.UNSUPPORTED, "condition on a pointer", dedupe([e]))
            return Opaque(OpaqueKind.UNSUPPORTED, "condition that is not an integer", dedupe([e]))
        return e

    def binary(self, c: Node) -> Expr:
        children = c.expr_children()
        op = c.spelling
        if op == "=" and len(children) == 2:
            return self.convert(self.expr(children[1]), children[1], c.type)
        if op == "," and len(children) == 2:
            return self.expr(children[1])
        if len(children) == 1 and children[0].kind == c.kind:
            # clang's constant wrapper around an instantiated ``if constexpr`` condition
            # (libclang gives it the kind of what it wraps)
            return self.expr(children[0])
        bop = BINARY_OPS.get(op)
        if len(children) != 2 or bop is None:
            return self._opaque(OpaqueKind.UNSUPPORTED, f"operator '{op}' inside an index", c)
        lhs, rhs = self.expr(children[0]), self.expr(children[1])
        t = node_int_type(c)
        if t is None and not ty.is_dependent_kind(c.ckind):
            return Opaque(OpaqueKind.UNSUPPORTED, "arithmetic that is not on integers",
                          dedupe([lhs, rhs]))
        if bop in ("&&", "||"):
            return Binary(bop, lhs, rhs, INT)
        if bop in COMPARISONS:
            return Binary(bop, lhs, rhs, lhs.type)
        return Binary(bop, lhs, rhs, t or lhs.type)

    def unary(self, c: Node) -> Expr:
        children = c.expr_children()
        if len(children) != 1:
            return self._opaque(OpaqueKind.UNSUPPORTED, "unsupported unary operator", c)
        uo = unary_operator_kind(c.cursor)
        t = node_int_type(c) or INT
        if uo in (UO_MINUS, UO_PLUS, UO_NOT):
            if node_int_type(c) is None:
                return self._opaque(OpaqueKind.UNSUPPORTED, "arithmetic that is not on integers",
                                    c)
            return Unary(_UO_OPS[uo], self.expr(children[0]), t)
        if uo == UO_LNOT:
            return Unary("!", self.truth(children[0]), INT)
        if uo == UO_DEREF:
            return self._opaque(OpaqueKind.LOAD, "value loaded through a pointer", c, t)
        if uo in (UO_POST_INC, UO_POST_DEC):
            return self.expr(children[0])  # the value before the increment
        if uo in (UO_PRE_INC, UO_PRE_DEC):
            step: BinaryOp = "+" if uo == UO_PRE_INC else "-"
            return Binary(step, self.expr(children[0]), Const(1, t), t)
        return self._opaque(OpaqueKind.UNSUPPORTED, "unsupported unary operator", c, t)

    def call(self, c: Node) -> Expr:
        name = call_name(c)
        args = arguments(c)
        t = node_int_type(c)
        oper = operator_function(name)
        if oper is not None and overloaded_callee(c) is not None:
            value = self.dependent_operator(c, oper.op, args)
            if value is not None:
                return value
        minmax = _MIN_MAX.get(name)
        if minmax is not None and len(args) == 2 and t is not None:
            return Binary(minmax, self.expr(args[0]), self.expr(args[1]), t)
        if name in ("__mul24", "__umul24") and len(args) == 2 and t is not None:
            return Binary("*", self.expr(args[0]), self.expr(args[1]), t)
        bit = _BIT_CALLS.get(name)
        if bit is not None and len(args) == 1 and t is not None:
            op, operand = bit
            return fold(Unary(op, fold(Cast(self.expr(args[0]), operand)), t))
        cg = self.cooperative(c, name, t)
        if cg is not None:
            return cg
        v = evaluate_int(c.cursor)  # constexpr functions
        if v is not None:
            return Const(v, t or INT)
        inputs = dedupe(self.expr(a) for a in args)
        ref = c.referenced
        if ref is not None and ref.kind == K.CXX_METHOD:
            member = next((ch for ch in c.children if ch.kind == N.MEMBER_REF), None)
            if member is not None:
                inputs = dedupe([*inputs, *(self.expr(ch) for ch in member.expr_children()
                                            if node_int_type(ch) is not None)])
        target = self.call_target(c, name, len(args))
        if target is not None and not target.is_kernel:
            value = self.returned_value(c, target, args)
            if value is not None:
                return value
        if ref is not None and ref.kind == K.CXX_METHOD:
            # a method that is not followed (a lambda reading its captures, an object's
            # members): its value depends on state outside its arguments, which each
            # thread may hold its own copy of (``[&] { return i + threadIdx.x; }``)
            inputs = dedupe([*inputs, *THREAD_SYMS])
            owner = ref.semantic_parent
            if owner is not None and "(lambda at " in ty.spelling(owner.type):
                callee = c.children[0] if c.children else c
                return Opaque(OpaqueKind.CALL,
                              f"call to the lambda {_quoted_text(self.w.slice(callee.extent))}"
                              ", which cudalint does not follow", inputs, t or INT)
        if self.lane_source(name, target):
            inputs = dedupe([*inputs, *THREAD_SYMS])
        kind, reason = self.call_reason(c, name, inputs)
        return Opaque(kind, reason, inputs, t or INT)

    def lane_source(self, name: str, target: Function | None, depth: int = 0) -> bool:
        """Whether a call of ``name`` (``target`` its definition, if cudalint has it) may
        return different values in lanes whose arguments are equal: an atomic (each lane
        its own old value), a shuffle, vote or clock, or a function whose body reads the
        thread index, runs such a call or inline asm (``flip(x)`` returning early in odd
        lanes). A body-less function outside these (``sqrtf``) is a function of its
        arguments."""
        if name.startswith(_LANE_CALLS):
            return True
        if target is None or target.body is None:
            return False
        key = fn_key(target)
        hit = self.lane_sources.get(key)
        if hit is not None:
            return hit
        self.lane_sources[key] = True  # recursion: assume the worst while looking
        found = depth > 8
        for n in self.lane_events(target.body):
            if found:
                break
            if n.kind in (N.ASM, N.MS_ASM) or (
                    n.kind == N.DECL_REF and n.spelling in ("threadIdx", "laneid")):
                found = True
            elif n.kind == N.CALL:
                callee_name = call_name(n)
                if callee_name.startswith(_LANE_CALLS):
                    found = True
                else:
                    sub = self.call_target(n, callee_name, len(arguments(n)))
                    found = sub is not None and sub is not target and \
                        self.lane_source(callee_name, sub, depth + 1)
        self.lane_sources[key] = found
        return found

    def call_reason(self, c: Node, name: str,
                    inputs: tuple[Expr, ...]) -> tuple[OpaqueKind, str]:
        """Why a call's value is opaque, in the words the user wrote: never ``call to ''``
        (calls through pointers, unresolved operators; issue 13, item 5)."""
        if name and operator_function(name) is None:
            return OpaqueKind.CALL, f"call to '{name}'"
        for e in inputs:  # an operand clang could not resolve is the cause to name
            if isinstance(e, Opaque) and e.kind is OpaqueKind.UNRESOLVED:
                return OpaqueKind.UNRESOLVED, e.reason
        if name:  # an operator clang left unresolved
            for e in inputs:
                # an operand unknown for a reason of its own (a template helper's result
                # that moves under a condition): that reason, not clang's
                if isinstance(e, Opaque) and not e.kind.constant:
                    return e.kind, e.reason
            return OpaqueKind.UNRESOLVED, f"{_quoted_text(self.w.slice(c.extent))}, {_UNRESOLVED}"
        callee = c.children[0] if c.children else c
        why = self.call_why.get(id(c))
        if why is not None:  # ``T::get_i(l)`` of a class this instantiation leaves open
            return OpaqueKind.NAME, f"{_quoted_text(self.w.slice(callee.extent))}, {why}"
        return OpaqueKind.CALL, f"call through {_quoted_text(self.w.slice(callee.extent))}"

    def dependent_operator(self, c: Node, op: str, args: list[Node]) -> Expr | None:
        """``a OP b`` in a template body where an operand's type is a template parameter:
        clang leaves an unresolved operator call. The instantiation decides whether the
        operands are integers; when both are, it is the built-in operator."""
        vals = [self.expr(a) for a in args]
        # An operand of dependent type (an unresolved call such as ``swz<K>(i, j)``) has
        # the type of the value the instantiation gives it.
        types = [node_int_type(a) or self.itype(a.type)
                 or (v.type if ty.is_dependent_kind(a.ckind) and not isinstance(v, Opaque)
                     else None)
                 for a, v in zip(args, vals, strict=True)]
        if any(t is None for t in types):
            return None
        bop = BINARY_OPS.get(op)
        if len(args) == 2 and (bop is not None or op == ","):
            lhs, rhs = vals
            lt, rt = types
            assert lt is not None and rt is not None
            if bop is None:  # ","
                return rhs
            if bop in ("&&", "||"):
                return Binary(bop, lhs, rhs, INT)
            if bop in ("<<", ">>"):
                ct = lt if lt.bits >= 32 else INT
                lhs = lhs if lhs.type == ct else fold(Cast(lhs, ct))
                return Binary(bop, lhs, rhs, ct)
            ct = _usual(lt, rt)
            lhs = lhs if lhs.type == ct else fold(Cast(lhs, ct))
            rhs = rhs if rhs.type == ct else fold(Cast(rhs, ct))
            return Binary(bop, lhs, rhs, ct)
        uop = UNARY_OPS.get(op)
        if len(args) == 1 and uop is not None:
            t0 = types[0]
            assert t0 is not None
            if uop == "!":
                return Unary("!", vals[0], INT)
            ct = t0 if t0.bits >= 32 else INT
            v = vals[0] if vals[0].type == ct else fold(Cast(vals[0], ct))
            return Unary(uop, v, ct)
        return None

    def returned_value(self, c: Node, target: Function, args: list[Node]) -> Expr | None:
        """The value ``target`` returns when its body is one ``return EXPR;`` reached
        through ``static_assert``s and ``if``/``if constexpr`` statements whose conditions
        are constants of the call (``if constexpr (kStep == 8) return a; else return b;``,
        the swizzle helpers of GEMM kernels)."""
        if target.body is None or self.depth >= _MAX_DEPTH or fn_key(target) in self.stack:
            return None
        result = target.node.cursor.result_type
        if int_type(result) is None and self.itype(result) is None \
                and not ty.is_open_result(result):
            return None
        bound: dict[int, Value] = {}
        ptr_args: dict[int, list[Expr]] = {}
        env = self.target_env(c, target)
        for p, a in zip(self.params(target), args, strict=False):
            if int_type(p.type) is not None:
                bound[key_of(p.cursor)] = self.convert(self.expr(a), a, p.type)
            elif ty.is_pointer_kind(canonical_kind(p.type)):
                ptr_args[key_of(p.cursor)] = self.pointer_inputs(a)
            elif ty.is_dependent_kind(canonical_kind(p.type)) and env.types and (
                    given := env.types.get(ty.bare_spelling(p.type))) is not None and (
                    it := _INT_SPELLINGS.get(" ".join(given[0].split()))) is not None:
                # ``T dividend`` of ``ceil_div<T>``: the integer type the call gives T
                v = self.expr(a)
                bound[key_of(p.cursor)] = v if v.type == it else fold(Cast(v, it))
        self.uniform_objects(target, self.params(target), args, bound)
        saved_ptr_args, self.ptr_args = self.ptr_args, ptr_args
        saved_this, self.uniform_this = self.uniform_this, self.uniform_receiver(c, target)
        try:
            key = self._returned_key(c, target, env, bound, ptr_args)
            if key is None:
                return self._returned(c, target, env, bound, result)
            return self._returned_kept(key, c, target, env, bound, result)
        finally:
            self.ptr_args = saved_ptr_args
            self.uniform_this = saved_this

    def _returned_key(self, c: Node, target: Function, env: Env, bound: dict[int, Value],
                      ptr_args: dict[int, list[Expr]]) -> tuple[object, ...] | None:
        """What :meth:`_returned` reads besides the function's own nodes, for
        :attr:`returned_values`: the call, the callee and its template arguments, the
        parameters' values (only constants: ``get_config(DKQ, DV, ncols).nbatch_fa``,
        evaluated dozens of times in an unrolled kernel), the call stack (and each
        frame's template arguments where the evaluation asked for them:
        :meth:`_frames_key`), and the executor's state an expression reads (the object
        being uniform, a class member's scope, a loop being probed, the nesting depth,
        why the last dependent type was not resolved). None where the store is off
        (host evaluation), a parameter is not a constant or a pointer is passed."""
        if self.returned_values is None or any(ptr_args.values()) \
                or not all(type(v) is Const for v in bound.values()):
            return None
        return (id(c), fn_key(target), _env_signature(env), tuple(sorted(bound.items())),
                tuple(self.stack), self.depth, self.uniform_this, id(self.class_scope),
                self.in_class_member, self.probing, self.expr_depth, self.why_unresolved)

    def _frames_key(self) -> tuple[object, ...]:
        """The frames' functions and template arguments (:meth:`declaring_env` reads
        them), for a :meth:`_returned_kept` run that asked for them."""
        return tuple((fn_key(f), _env_signature(e)) for f, e in self.frame_envs)

    def _returned_kept(self, key: tuple[object, ...], c: Node, target: Function, env: Env,
                       bound: dict[int, Value], result: ci.Type) -> Expr | None:
        """:meth:`_returned`, worked out once per :meth:`_returned_key`, with what it
        leaves for the caller (``returned_open`` set, ``why_unresolved``). A run that
        added an access or a note, or moved the accesses' order, is not kept: those are
        effects, not its value."""
        store = self.returned_values
        assert store is not None
        hit = store.get(key)
        if hit is not None and hit[0] is _FRAMES:  # it read the frames' envs
            full = (*key, self._frames_key())
            hit = store.get(full)
        if hit is not None and hit[0] is c:
            _, value, opened, why, _alive = hit
            self.returned_open = self.returned_open or opened
            self.why_unresolved = why
            return value
        was_open, self.returned_open = self.returned_open, False
        n_acc, order, notes = len(self.accesses), self.order, len(self.w.notes)
        frames_read = self.frames_read
        try:
            value = self._returned(c, target, env, bound, result)
        finally:
            opened = self.returned_open
            self.returned_open = was_open or opened
        if len(self.accesses) == n_acc and self.order == order and len(self.w.notes) == notes:
            # the call, the envs and the class scope kept alive: the key's ids stay theirs
            kept = (c, value, opened, self.why_unresolved,
                    (env, list(self.frame_envs), self.class_scope))
            if self.frames_read == frames_read:
                store[key] = kept
            else:
                store[key] = (_FRAMES, None, False, None, None)
                full = (*key, self._frames_key())
                store[full] = kept
        return value

    def _returned(self, c: Node, target: Function, env: Env, bound: dict[int, Value],
                  result: ci.Type) -> Expr | None:
        assert target.body is not None
        with self.frame(target, env, bound, body=False):
            ret = self._returned_expr(target.body.children)
            if not isinstance(ret, Node):
                return None
            if node_int_type(ret) is None and not ty.is_dependent_kind(ret.ckind):
                return None
            value = self.expr(ret)
            into = c.type if node_int_type(c) is not None else result
            return self.convert(value, ret, into) if self.itype(into) is not None else value

    def _returned_expr(self, stmts: list[Node]) -> Node | bool:
        """The expression the first ``return`` reached in ``stmts`` returns; True when
        they end without returning, False when a statement is one this does not follow
        (anything with an effect, or an ``if`` whose condition is not a constant). A
        step whose answer depends on a value sets ``returned_open`` (any new one must)."""
        for st in stmts:
            if st.kind == N.RETURN:
                ret = st.expr_children()
                return ret[0] if len(ret) == 1 else False
            if st.kind == N.DECL_STMT and all(
                    d.kind == _STATIC_ASSERT for d in st.children):
                continue
            if st.kind == N.DECL_STMT:
                if not self._local_values(st):
                    return False
                continue
            if st.kind == N.NULL_STMT:
                continue
            if st.kind == N.COMPOUND_STMT:
                got = self._returned_expr(st.children)
            elif st.kind == N.IF:
                parts = [ch for ch in st.children if ch.kind != N.DECL_STMT]
                if len(parts) not in (2, 3) or not parts[0].is_expr or not all(
                        _effect_free(ch) for ch in st.children
                        if ch.kind == N.DECL_STMT or ch is parts[0]):
                    return False  # ``if ((d = 2 * d) > 0)``: d's new value not followed
                self.returned_open = True
                cond = fold(self.truth(parts[0]))
                if not isinstance(cond, Const):
                    return False
                branch = parts[1] if cond.value else (parts[2] if len(parts) == 3 else None)
                got = True if branch is None else self._returned_expr([branch])
            elif st.kind == N.SWITCH:
                got = self._returned_switch(st)
            else:
                return False
            if got is not True:
                return got
        return True

    def _returned_switch(self, st: Node) -> Node | bool:
        """A ``switch`` on a constant on the way to a helper's ``return`` (``switch
        (ncols) { case 1: return a; case 2: case 3: return b; default: return c; }``):
        the statements from the matching label on, to a ``break`` or ``return``."""
        self.returned_open = True
        parts = [ch for ch in st.children if ch.kind != N.DECL_STMT]
        if len(parts) != 2 or not parts[0].is_expr or parts[1].kind != N.COMPOUND_STMT \
                or not all(_effect_free(ch) for ch in st.children if ch is not parts[1]):
            return False  # ``switch (d++)``: d's new value not followed
        cond = fold(self.expr(parts[0]))
        if not isinstance(cond, Const):
            return False
        flat: list[tuple[str, int | None, Node | None]] = []  # labels and statements

        def add(n: Node) -> bool:
            if n.kind == N.CASE:
                exprs = [ch for ch in n.children if ch.is_expr]
                value = fold(self.expr(exprs[0])) if exprs else None
                if not isinstance(value, Const) or len(n.children) != 2:
                    return False  # a range (``case 1 ... 3``) or a value not known
                flat.append(("case", value.value, None))
                return add(n.children[1])
            if n.kind == N.DEFAULT:
                flat.append(("default", None, None))
                return all(add(ch) for ch in n.children)
            if _nested_label(n):
                return False  # ``case 2:`` inside an ``if`` block: a jump into it
            flat.append(("stmt", None, n))
            return True

        if not all(add(ch) for ch in parts[1].children):
            return False
        start = next((i for i, (k, v, _) in enumerate(flat)
                      if k == "case" and v == cond.value), None)
        if start is None:
            start = next((i for i, (k, _, _) in enumerate(flat) if k == "default"), None)
        if start is None:
            return True  # no label matches: the switch runs nothing
        for _, _, n in flat[start:]:
            if n is None:
                continue
            if n.kind == N.BREAK:
                return True
            got = self._returned_expr([n])
            if got is not True:
                return got
        return True

    def _local_values(self, st: Node) -> bool:
        """``int x = i * 2;`` on the way to a helper's ``return``: each integer local
        that nothing assigns again takes its initializer's value. False for any other
        declaration (it would need the body run)."""
        for d in st.children:
            if d.kind == _STATIC_ASSERT:
                continue
            if d.kind != N.VAR_DECL or self.fn is None:
                return False
            var = self.fn.vars.get(key_of(d.cursor))
            exprs = [ch for ch in d.children if ch.is_expr]
            if var is None or var.modified or len(exprs) != 1 or int_type(d.type) is None:
                return False
            self.values[key_of(d.cursor)] = self.convert(self.expr(exprs[0]), exprs[0], d.type)
        return True

    # class values of constant evaluation (``get_config(D, V, ncols).nbatch_combine``)

    def record_fields(self, n: Node, depth: int = 0) -> dict[str, Expr] | None:
        """The integer fields of the class value ``n`` builds, as C++'s constant
        evaluation builds it: a constructor whose member initializers read its
        parameters (``cfg(128, 2)``, ``cfg{128, 2}``, ``return {128, 2};``), an
        aggregate's braced list, a function returning one through the statements
        :meth:`_returned_expr` follows (ggml's ``ggml_cuda_fattn_mma_get_config(DKQ, DV,
        ncols)``: a chain of ``if (DKQ == 64 && DV == 64 && ncols == 8) return
        fattn_mma_config{...};`` on the instantiation's arguments), a copy of one, a
        ``const`` local set from one. Each field is an expression of the values at the
        call (symbolic where they are); a field whose value is not built that way is
        left out, and None is returned for a value that is not."""
        if depth > _MAX_DEPTH:
            return None
        n = strip(n)
        if n.kind == N.FUNCTIONAL_CAST and len(n.expr_children()) == 1 \
                and strip(n.expr_children()[0]).kind in (N.INIT_LIST, N.CALL):
            n = strip(n.expr_children()[0])  # ``cfg{1, 2}`` of an aggregate
        if n.kind == N.INIT_LIST:
            return self.aggregate_fields(n, depth)
        if n.kind == N.DECL_REF:
            return self.local_record(n, depth)
        if n.kind != N.CALL:
            return None
        ref = n.referenced
        args = arguments(n)
        if ref is not None and ref.kind == K.CONSTRUCTOR:
            return self.constructed_fields(ref, args, depth)
        target = self.call_target(n, call_name(n), len(args))
        if target is None or target.is_kernel or target.body is None \
                or self.depth >= _MAX_DEPTH or fn_key(target) in self.stack \
                or len(args) != len(self.params(target)):
            return None
        env = self.target_env(n, target)
        bound: dict[int, Value] = {}
        for p, a in zip(self.params(target), args, strict=True):
            if int_type(p.type) is not None:
                bound[key_of(p.cursor)] = self.convert(self.expr(a), a, p.type)
        with self.frame(target, env, bound, body=False):
            ret = self._returned_expr(target.body.children)
            return self.record_fields(ret, depth + 1) if isinstance(ret, Node) else None

    def constructed_fields(self, ctor: ci.Cursor, args: list[Node],
                           depth: int) -> dict[str, Expr] | None:
        """The fields a constructor call sets: each member initializer's value with the
        call's arguments (``cfg(int n, int j) : nthreads(n), J(j) {}``), then the
        default member initializers. None where the constructor's body has a statement
        (it may assign a member) or its definition is not here. An implicit copy or
        move is the copied value's fields."""
        definition = self.definition(ctor)
        owner = definition.semantic_parent
        if owner is None or owner.kind == K.UNION_DECL:
            return None
        fn = self.member_function(definition) if is_from_project(definition) else None
        if fn is None or fn.body is None:
            if (ctor.is_copy_constructor() or ctor.is_move_constructor()) and len(args) == 1:
                return self.record_fields(args[0], depth + 1)  # implicitly declared
            return None
        if any(st.kind != N.NULL_STMT and not (st.kind == N.DECL_STMT and all(
                d.kind == _STATIC_ASSERT for d in st.children)) for st in fn.body.children):
            return None
        params = self.params(fn)
        if len(args) != len(params) or self.depth >= _MAX_DEPTH \
                or fn_key(fn) in self.stack:
            return None  # a default argument: not followed
        bound: dict[int, Value] = {}
        for p, a in zip(params, args, strict=True):
            if int_type(p.type) is not None:
                bound[key_of(p.cursor)] = self.convert(self.expr(a), a, p.type)
        fields: dict[str, Expr] = {}
        items = fn.node.children
        with self.frame(fn, Env(), bound, body=False):
            for i, ch in enumerate(items[:-1]):
                init = items[i + 1]
                if not init.is_expr:
                    continue
                if ch.kind == _MEMBER_INIT:
                    field_decl = ch.referenced
                    if field_decl is None or field_decl.kind != K.FIELD_DECL \
                            or field_decl.is_bitfield() or int_type(field_decl.type) is None:
                        continue
                    fields[str(field_decl.spelling)] = self.convert(
                        self.expr(init), init, field_decl.type)
                elif ch.kind == N.TYPE_REF and ch.referenced is not None \
                        and key_of(ch.referenced) == key_of(owner):
                    # ``cfg(int n) : cfg(n, 0) {}``: the constructor it delegates to
                    sub = self.record_fields(init, depth + 1)
                    if sub is None:
                        return None
                    fields.update(sub)
            self._default_members(owner, fields)
        return fields

    def aggregate_fields(self, n: Node, depth: int) -> dict[str, Expr] | None:
        """``cfg{128, 2}`` (or ``= {128, 2}``) of an aggregate: its fields in declaration
        order take the list's values; fields after the list their default member
        initializer, else zero. None for a class with bases, a designated or nested
        list, or a list longer than the fields."""
        t = ty.canonical(n.type)
        if not ty.is_record(t):
            return None
        decl = ty.declaration(t)
        kids = list(decl.get_children())
        if decl.kind == K.UNION_DECL or any(k.kind == K.CXX_BASE_SPECIFIER for k in kids):
            return None  # a union's list sets its first member only
        # an unnamed bit-field (``int : 4;``) takes no initializer
        field_decls = [k for k in kids if k.kind == K.FIELD_DECL
                       and not (k.is_bitfield() and not k.spelling)]
        values = n.expr_children()
        if len(values) > len(field_decls) or any(
                strip(v).kind in (N.INIT_LIST, N.UNEXPOSED) for v in values):
            return None
        if any(ty.may_take_several_initializers(f.type) for f in field_decls[:len(values)]):
            return None  # brace elision: ``ae{1, n}`` sets ``int arr[2]`` from both
        fields: dict[str, Expr] = {}
        for f, v in zip(field_decls, values, strict=False):
            if int_type(f.type) is not None and not f.is_bitfield():
                fields[str(f.spelling)] = self.convert(self.expr(v), v, f.type)
        rest = field_decls[len(values):]
        self._default_members(decl, fields, rest)
        for f in rest:
            it = int_type(f.type)
            if it is not None and str(f.spelling) not in fields and not f.is_bitfield() \
                    and not any(ch.kind.is_expression() for ch in f.get_children()):
                fields[str(f.spelling)] = Const(0, it)  # value-initialized
        return fields

    def _default_members(self, record: ci.Cursor, fields: dict[str, Expr],
                         only: list[ci.Cursor] | None = None) -> None:
        """Add the default member initializers (``int nstages = 2;``) of ``record``'s
        integer fields that ``fields`` does not set; a constant only (one naming
        another member is left out)."""
        for f in only if only is not None else record.get_children():
            if f.kind != K.FIELD_DECL or str(f.spelling) in fields or f.is_bitfield():
                continue
            it = int_type(f.type)
            inits = [ch for ch in f.get_children() if ch.kind.is_expression()]
            if it is None or len(inits) != 1:
                continue
            v = evaluate_int(inits[0])
            if v is not None:
                fields[str(f.spelling)] = fold(Cast(Const(v, INT), it))

    def local_record(self, n: Node, depth: int) -> dict[str, Expr] | None:
        """A ``const`` local of class type set from a value :meth:`record_fields`
        builds (``constexpr cfg c = get_config<D>();``). Its initializer is evaluated
        where the local is read, so every name in it must hold the value it held at the
        declaration: template parameters, enumerators, functions and ``const``
        variables nothing writes."""
        ref = n.referenced
        if ref is None or ref.kind != K.VAR_DECL or self.fn is None \
                or not ty.is_const(ref.type):
            return None
        k = key_of(ref)
        var = self.fn.vars.get(k)
        if var is None or var.is_param or var.modified or var.init is None \
                or k in self.in_progress or _has_mutable(ty.canonical(ref.type)):
            return None  # a ``mutable`` member: a ``const`` method may write it
        for d in self._subtree(var.init):
            if d.kind == N.MEMBER_REF and not d.children:
                return None  # a member of the object a method runs on
            if d.kind != N.DECL_REF:
                continue
            r = d.referenced
            if r is None:
                return None
            if r.kind in (K.VAR_DECL, K.PARM_DECL):
                other = self.fn.vars.get(key_of(r))
                if not ty.is_const(r.type) or (other is not None and other.modified):
                    return None
            elif r.kind not in (K.TEMPLATE_NON_TYPE_PARAMETER, K.ENUM_CONSTANT_DECL,
                                K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD):
                return None
        self.in_progress.add(k)
        try:
            return self.record_fields(var.init, depth + 1)
        finally:
            self.in_progress.discard(k)

    def cooperative(self, c: Node, name: str, t: IntType | None) -> Expr | None:
        """Cooperative-groups queries: ``thread_rank()`` and friends of a block or tile."""
        ref = c.referenced
        if ref is None and not name and c.children and len(arguments(c)) == 0:
            # ``tile.meta_group_rank()`` in a template body where ``tile`` is
            # ``cg::tiled_partition<G>(cta)``: clang leaves the call unresolved and
            # nameless
            method = self.w.slice(strip(c.children[0]).extent).rpartition(".")[2].strip()
            size = self._dependent_tile_size(c) if method in _TILE_QUERIES else None
            return None if size is None else self._tile_query(method, size, t or UINT)
        if ref is None or ref.kind != K.CXX_METHOD:
            return None
        parent = ref.semantic_parent
        ns = parent.semantic_parent if parent is not None else None
        if ns is None or ns.spelling not in (_COOPERATIVE_NS, "__v1", "details"):
            return None
        cls = parent.spelling if parent is not None else ""
        member = next((ch for ch in c.children if ch.kind == N.MEMBER_REF), None)
        obj_type = ""
        if member is not None and member.children:
            obj_type = ty.canonical_spelling(member.children[0].type)
            obj = strip(member.children[0])
            if obj.kind == N.DECL_REF and obj.referenced is not None and re.search(
                    r"\bthread_group\b", obj_type):
                # a ``thread_group`` parameter: the group the call passed
                obj_type = self.group_args.get(key_of(obj.referenced), obj_type)
        tile = re.search(r"thread_block_tile<\s*(\d+)", obj_type)
        linear = _linear_thread()
        bx, by, bz = (Sym(f"blockDim.{a}", UINT) for a in "xyz")
        rt = t or UINT
        if tile is not None or cls.startswith("thread_block_tile"):
            size = int(tile.group(1)) if tile is not None else 32
            return self._tile_query(name, size, rt)
        if cls == "thread_block" or "thread_block" in obj_type:
            if name == "thread_rank":
                return self._as(linear, rt)
            if name in ("size", "num_threads"):
                return self._as(Binary("*", Binary("*", bx, by, UINT), bz, UINT), rt)
        return None

    def _tile_query(self, name: str, size: int, rt: IntType) -> Expr | None:
        """``thread_rank()``, ``meta_group_rank()``, ``size()`` of a tile of ``size``
        threads partitioned from the thread block."""
        linear = _linear_thread()
        if name == "thread_rank":
            return self._as(fold(Binary("%", linear, Const(size, UINT), UINT)), rt)
        if name == "meta_group_rank":
            return self._as(fold(Binary("/", linear, Const(size, UINT), UINT)), rt)
        if name in ("size", "num_threads"):
            return Const(size, rt)
        return None

    def _dependent_tile_size(self, c: Node) -> int | None:
        """The size of the tile an unresolved ``obj.method()`` call is made on, where
        ``obj`` is a local declared as ``thread_block_tile<N>`` or initialised by
        ``tiled_partition<N>(...)`` with ``N`` known in this instantiation."""
        callee = strip(c.children[0]) if c.children else None
        if callee is None or self.fn is None:
            return None
        # the object, by name: clang does not always expose it under the member
        obj = self.w.slice(callee.extent).rpartition(".")[0].strip()
        decls = [v for v in self.fn.vars.values()
                 if v.name == obj and not v.is_param and not v.modified and v.init is not None]
        if len(decls) != 1:
            return None
        init = decls[0].init
        assert init is not None
        text = self.w.slice(init.extent)
        m = re.search(r"\b(?:tiled_partition|thread_block_tile)\s*<\s*([^<>,]+?)\s*[,>]",
                      text)
        if m is None:
            return None
        names = dict(self.w.named_consts())
        names.update(self.env.values)
        size = cexpr.evaluate(m.group(1), names, self.w.macro_types)
        return size if size is not None and 0 < size <= 1024 else None

    @staticmethod
    def _as(e: Expr, t: IntType) -> Expr:
        return e if e.type == t else fold(Cast(e, t))

    def member_ref(self, c: Node) -> Expr:
        children = c.children
        base = strip(children[0]) if len(children) == 1 else None
        t = node_int_type(c) or INT
        if base is not None and base.kind == N.DECL_REF and base.spelling in BUILTIN_VARS:
            ref = base.referenced
            if ref is not None and (self.fn is None or key_of(ref) not in self.fn.vars):
                member = c.spelling or self.w.slice(c.extent).rpartition(".")[2].strip()
                if member in ("x", "y", "z"):
                    name = f"{base.spelling}.{member}"
                    return Sym(name, UINT, lane_dependent=base.spelling == "threadIdx")
        v = evaluate_int(c.cursor)
        if v is not None:
            return Const(v, t)
        if base is not None and ty.is_record_kind(base.ckind) and c.referenced is not None \
                and c.referenced.kind == K.FIELD_DECL:
            # ``get_config(DKQ, DV, ncols).nbatch_combine`` in a template body: the
            # field of the value the call builds with this instantiation's arguments
            fields = self.record_fields(base)
            got_field = fields.get(c.spelling) if fields is not None else None
            if got_field is not None:
                return self._as(got_field, t)
        what = self.w.slice(c.extent) or c.spelling
        inputs = dedupe(self.expr(ch) for ch in children if ch.is_expr
                        and node_int_type(ch) is not None)
        root = base
        while root is not None and root.kind in (N.MEMBER_REF, N.ARRAY_SUBSCRIPT) \
                and root.children and not ty.is_pointer_kind(strip(root.children[0]).ckind):
            # ``q.in.M``, ``q.tbl[3].M``: the object the chain starts from (an index on
            # the way is an input: ``params.tbl[threadIdx.x]``)
            if root.kind == N.ARRAY_SUBSCRIPT:
                inputs = dedupe([*inputs, *(self.expr(ch) for ch in root.children[1:]
                                            if node_int_type(ch) is not None)])
            root = strip(root.children[0])
        got = self.local(root) if root is not None and root.kind == N.DECL_REF else None
        if got is not None and not self.uniform_struct(got[1], got[2]) and not (
                self.values.get(got[0]) is _UNIFORM_OBJECT and not got[1].modified):
            inputs = dedupe([*inputs, *THREAD_SYMS])  # a member of a local struct
        elif (root is None or root.kind == K.CXX_THIS_EXPR.value or (
                root.kind == N.MEMBER_REF and not root.children)) and not self.uniform_this:
            # A member of the object a member function runs on (``base + i`` in
            # ``h.at(i)``): the object is not followed, and each thread may hold its own.
            inputs = dedupe([*inputs, *THREAD_SYMS])
        return Opaque(OpaqueKind.LOAD, f"value loaded from '{what}'", inputs, t)

    def constant_only(self, var: Var, key: int) -> bool:
        """A local that is no integer, not address-taken, whose initializer and every
        value assigned to it read only literals and the local itself (``float j = -3;
        ... j++``): each lane computes the same values in the same order."""
        if var.address_taken or var.init is None or self.asm_writers(key):
            return False
        for n in (var.init, *var.writes):
            for d in self._subtree(n):
                if d.kind == N.DECL_REF and (d.referenced is None
                                             or key_of(d.referenced) != key):
                    return False
                if d.kind in (N.CALL, N.MEMBER_REF, N.ARRAY_SUBSCRIPT, N.ASM):
                    return False
        return True

    def uniform_objects(self, target: Function, params: list[Node], args: list[Node],
                        bound: dict[int, Value]) -> None:
        """Bind each struct parameter (by value or ``const &``) whose argument is a
        kernel's unwritten by-value parameter, or such a parameter of the caller, to
        :data:`_UNIFORM_OBJECT`: its members are the same in every lane where the callee
        does not write them either (``smem_elts(params)`` reading ``p.M``)."""
        if not self.cast_free(target):
            return
        for p, a in zip(params, args, strict=False):
            k = key_of(p.cursor)
            pk = canonical_kind(p.type)
            if k in bound:
                continue
            if ty.is_reference_kind(pk):
                target_type = ty.pointee(p.type)
                if not ty.is_const(target_type):
                    continue
            else:
                target_type = p.type
            arg = _uncast(a)
            record = ty.is_record(ty.canonical(target_type)) or (
                # ``const Params &`` of ``template <typename Params>``: the argument's
                ty.is_dependent_kind(canonical_kind(target_type)) and arg.type is not None
                and ty.is_record(ty.canonical(arg.type)))
            if not record:
                continue  # a struct or class only, not a scalar of a template's type
            ctor = arg.referenced if arg.kind == N.CALL else None
            if ctor is not None and ctor.kind == K.CONSTRUCTOR and len(arg.children) == 1 \
                    and (ctor.is_copy_constructor() or ctor.is_move_constructor()):
                arg = _uncast(arg.children[0])  # the copy a by-value parameter gets
            got = self.local(arg) if arg.kind == N.DECL_REF else None
            if got is not None and (self.uniform_struct(got[1], got[2]) or (
                    self.values.get(got[0]) is _UNIFORM_OBJECT and not got[1].modified)):
                bound[k] = _UNIFORM_OBJECT

    def uniform_receiver(self, c: Node, target: Function) -> bool:
        """``c`` calls the ``const`` member function ``target`` on an object the same in
        every lane (:meth:`uniform_objects`'s arguments): ``params.rows()``."""
        callee = c.children[0] if c.children else None
        if callee is None or callee.kind != N.MEMBER_REF or len(callee.children) != 1 \
                or not target.node.cursor.is_const_method() or not self.cast_free(target):
            return False
        obj = _uncast(callee.children[0])
        got = self.local(obj) if obj.kind == N.DECL_REF else None
        return got is not None and (self.uniform_struct(got[1], got[2]) or (
            self.values.get(got[0]) is _UNIFORM_OBJECT and not got[1].modified))

    def casts_const(self, definition: ci.Cursor) -> bool:
        """A called function's definition holds a ``const_cast`` (a ``const`` method or a
        ``const &`` parameter writing through it)."""
        key = key_of(definition)
        hit = self.untouched.get((key, -2))
        if hit is None:
            hit = any(c.kind == K.CXX_CONST_CAST_EXPR for c in definition.walk_preorder())
            self.untouched[(key, -2)] = hit
        return hit

    def cast_free(self, target: Function) -> bool:
        """``target`` has no ``const_cast`` (through which a ``const`` method or a
        ``const &`` parameter may still write the object)."""
        key = fn_key(target)
        hit = self.untouched.get((key, -1))
        if hit is None:
            hit = target.body is None or not self.body_casts_const(target.body)
            self.untouched[(key, -1)] = hit
        return hit

    def uniform_struct(self, var: Var, ref: Node) -> bool:
        """``var`` is a kernel's parameter passed by value that the kernel never writes
        (no assignment to it or a member, no address or reference taken, no method
        that may change it called): each lane holds the launch's copy, so its members
        are the same in every lane (``params.M``)."""
        fn = self.fn
        if fn is None or not fn.is_kernel or not var.is_param or var.modified \
                or ty.is_reference_kind(canonical_kind(ref.type)) \
                or ty.is_pointer_kind(canonical_kind(ref.type)):
            return False
        target = ref.referenced if ref.kind == N.DECL_REF else None
        return target is not None and self.untouched_object(fn, key_of(target))

    def untouched_object(self, fn: Function, key: int) -> bool:
        """No way the scanner does not see writes the object ``key`` of ``fn``: a
        reference or structured binding made from it (``P &r = params``), a
        ``const_cast``, an ``asm`` output naming it, a ``mutable`` member, a copy
        constructor of its own (a by-value copy that may read the lane)."""
        cache_key = (fn_key(fn), key)
        hit = self.untouched.get(cache_key)
        if hit is not None:
            return hit
        ok = True
        record = None
        assert fn.body is not None
        def names_it(n: Node) -> bool:
            return any(d.kind == N.DECL_REF and d.referenced is not None
                       and key_of(d.referenced) == key for d in self._subtree(n))

        for n in self._subtree(fn.body):
            if n.kind == N.DECL_REF and n.referenced is not None \
                    and key_of(n.referenced) == key and record is None:
                record = ty.declaration(ty.canonical(n.type)) if n.type else None
            called = n.referenced if n.kind == N.CALL else None
            body = called.get_definition() if called is not None else None
            if n.kind == K.CXX_CONST_CAST_EXPR.value \
                    or (n.kind in (N.VAR_DECL, K.UNEXPOSED_DECL.value) and (
                        ty.is_reference_kind(n.ckind) or n.kind != N.VAR_DECL)
                        and names_it(n)) \
                    or (n.kind == N.ASM and names_it(n)) \
                    or (body is not None and self.casts_const(body)):
                ok = False
                break
        if ok and record is not None:
            ok = not any(
                (m.kind == K.FIELD_DECL and m.is_mutable_field())
                or (m.kind == K.CONSTRUCTOR and m.is_copy_constructor()
                    and not m.is_default_method())
                for m in record.get_children())
        self.untouched[cache_key] = ok
        return ok

    # --- members of dependent class types (``T::I``, ``T::get_i(l)``) ------------------
    #
    # In a template body, ``TB::I`` and ``TB::get_i(l)`` name members of a class type the
    # instantiation decides: a type parameter, a local ``using TB = typename
    # sizes<D, n>::TB;``, a ``typedef tile<16, 8, T> TB;``. Each instantiation resolves
    # that type from its arguments, picks the specialization C++ picks (an explicit one
    # for exactly these arguments, else the most specialized matching partial one, else
    # the primary template) and reads the member there with that specialization's own
    # parameters bound. Whatever cannot be decided (a pattern this does not match, two
    # partial specializations neither more specialized) stays unknown: never guessed.

    def _project_names(self) -> _ProjectNames:
        """The unit's class templates, classes, typedefs and enumerators in project code,
        by unqualified name (built once per unit)."""
        tu = self.w.tu
        got = _PROJECT_NAMES.get("unit")
        if got is not None and got[0] is self.w and got[1] is tu:
            return got[2]
        names = _ProjectNames()

        def walk(parent: ci.Cursor, depth: int) -> None:
            for ch in top_level(parent):
                kind = ch.kind
                if kind in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
                    if depth < 8 and is_from_project(ch):
                        walk(ch, depth + 1)
                elif kind == K.CLASS_TEMPLATE:
                    names.templates.setdefault(str(ch.spelling), []).append(ch)
                elif kind in (K.STRUCT_DECL, K.CLASS_DECL, K.TYPEDEF_DECL,
                              K.TYPE_ALIAS_DECL) and is_from_project(ch):
                    if kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL) \
                            or "<" not in str(ch.displayname):
                        names.types.setdefault(str(ch.spelling), []).append(ch)
                elif kind == K.CXX_METHOD and is_from_project(ch):
                    names.methods.setdefault(str(ch.spelling), []).append(ch)
                elif kind == K.ENUM_DECL and is_from_project(ch):
                    for e in ch.get_children():
                        if e.kind == K.ENUM_CONSTANT_DECL:
                            names.enums.setdefault(str(e.spelling), set()).add(
                                int(e.enum_value))

        walk(tu.cursor, 0)
        _PROJECT_NAMES["unit"] = (self.w, tu, names)
        return names

    def _children(self, decl: ci.Cursor) -> list[ci.Cursor]:
        """``decl``'s children (cached for the unit)."""
        table = self._project_names().children
        k = key_of(decl)
        got = table.get(k)
        if got is None:
            got = table[k] = list(top_level(decl))
        return got

    def _template_params(self, decl: ci.Cursor) -> list[ci.Cursor]:
        table = self._project_names().params
        k = key_of(decl)
        got = table.get(k)
        if got is None:
            got = table[k] = [ch for ch in self._children(decl) if ch.kind in (
                K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER,
                K.TEMPLATE_TEMPLATE_PARAMETER)]
        return got

    def _static_member(self, decl: ci.Cursor, name: str) -> ci.Cursor | None:
        """The first static data member of ``decl`` named ``name``, if one."""
        table = self._project_names().statics
        k = key_of(decl)
        got = table.get(k)
        if got is None:
            got = table[k] = {}
            for ch in self._children(decl):
                if ch.kind == K.VAR_DECL:
                    got.setdefault(str(ch.spelling), ch)
        return got.get(name)

    def _local_alias(self, name: str) -> ci.Cursor | None:
        """The ``typedef``/``using`` named ``name`` in the body being run, if one."""
        fn = self.fn
        if fn is None or fn.body is None:
            return None
        table = self._project_names().aliases
        found = table.get(fn_key(fn))
        if found is None:
            found = table[fn_key(fn)] = {}
            for n in self._subtree(fn.body):
                if n.kind in (_TYPEDEF, _ALIAS):
                    # two in different scopes: which one is meant is not tracked
                    found[n.spelling] = None if n.spelling in found else n.cursor
        return found.get(name)

    def _value_text(self, text: str) -> int | None:
        """The value of the constant expression ``text`` (a template argument as written)
        with this instantiation's arguments, the body's constant locals (outside a class's
        own member), the unit's constants and enumerators."""
        text = " ".join(text.split())
        if not text:
            return None
        unit = self._project_names()
        if unit.names is None:
            unit.names = dict(self.w.named_consts())
            for e, vals in unit.enums.items():
                if len(vals) == 1:
                    unit.names.setdefault(e, next(iter(vals)))
        names = dict(unit.names)
        for name, local in self._local_constants(text).items():
            if local is None:
                names.pop(name, None)  # two locals of that name: which one is not known
            else:
                names[name] = local
        names.update(self.env.values)
        scope = self.class_scope
        if scope is not None and scope.decl is not None:
            # a static member of the class whose member is being read, named alone
            # (``conditional_t<!kIsComplex, float2, float4>`` in the class's alias)
            for ident in set(re.findall(r"(?<![\w:.])([A-Za-z_]\w*)(?!\s*(?:::|\())", text)):
                if ident not in names and ident not in self.env.types:
                    v = self.member_value(scope, ident)
                    if isinstance(v, Const):
                        names[ident] = v.value

        def member(m: re.Match[str]) -> str:
            owner, name = m.group(1), m.group(2)
            cls = self.dependent_type(owner)
            if isinstance(cls, DependentClass):
                v = self.member_value(cls, name)
                return f"({v.value})" if isinstance(v, Const) else "@"
            if owner in names or self._project_names().templates.get(owner) \
                    or owner in self.env.types:
                return "@"  # a member of a type that is not resolved: no value
            return name  # a namespace's name (``ns::ROW``)

        text = re.sub(r"\b([A-Za-z_]\w*)\s*::\s*(?:template\s+)?([A-Za-z_]\w*)", member, text)
        got = None if "@" in text or "::" in text \
            else cexpr.evaluate(text, names, self.w.macro_types)
        if got is None and self.fn is not None and self.why_unresolved is None:
            open_params = [p.name for p in self.fn.template_params
                           if not p.is_type and p.name not in self.env.values
                           and re.search(rf"\b{re.escape(p.name)}\b", text)]
            if open_params:
                self.why_unresolved = (
                    f"depends on the template parameter '{open_params[0]}', which this "
                    "instantiation leaves open" if len(open_params) == 1 else
                    "depends on the template parameters "
                    f"{', '.join(repr(n) for n in open_params)}, which this instantiation "
                    "leaves open")
        return got

    def _local_constants(self, text: str) -> dict[str, int | None]:
        """The constant values the body's locals named in ``text`` hold here (outside a
        class's own member), by name; None for a name two locals with different values
        have (``{ constexpr int n = 1; ... } { constexpr int n = 0; ... }``)."""
        fn = self.fn
        if self.in_class_member or fn is None:
            return {}
        table = self._project_names().local_names
        named = table.get((fn_key(fn), text))
        if named is None:
            idents = set(re.findall(r"[A-Za-z_]\w*", text))
            named = table[(fn_key(fn), text)] = [
                (var.name, k) for k, var in fn.vars.items() if var.name in idents]
        out: dict[str, int | None] = {}
        for ident, k in named:
            v = self.values.get(k)
            if isinstance(v, Const):
                if ident not in out:
                    out[ident] = v.value
                elif out[ident] != v.value:
                    out[ident] = None
        return out

    def dependent_type(self, text: str, depth: int = 0) -> DependentClass | str | None:
        """The type ``text`` (as written or spelled in the body being run) names in this
        instantiation: a :class:`DependentClass`, a non-class type's canonical name, or
        None where it is not known."""
        scope = self.class_scope
        # The answer depends on the arguments and on the body's constant locals, which
        # are the same wherever the body runs with the same arguments (a template
        # argument is a constant expression): kept for the unit, across calls.
        local = self._local_constants(text)
        key = (f"{text}|{sorted(local.items())}" if local else text, self._env_key(self.env),
               fn_key(self.fn) if self.fn is not None else 0,
               key_of(scope.decl) if scope is not None else -1 - self.in_class_member)
        table = self._project_names().answers
        hit = table.get(key)
        if hit is not None:
            if hit[0] is None and hit[1] is not None:
                self.why_unresolved = hit[1]
            return hit[0]
        before, self.why_unresolved = self.why_unresolved, None
        got = self._dependent_type(text, depth)
        why = self.why_unresolved if got is None else None
        self.why_unresolved = why or before
        table[key] = (got, why)
        return got

    def _env_key(self, env: Env) -> str:
        """``env``'s arguments as one text (equal for equal arguments)."""
        hit = self.env_keys.get(id(env))
        if hit is not None and hit[0] is env:
            return hit[1]
        key = repr((sorted(env.values.items()), sorted(env.types.items()),
                    sorted((k, v.name if isinstance(v, DependentClass) else
                            f"{v.spelling}@{key_of(v)}" if isinstance(v, ci.Cursor)
                            else str(v)) for k, v in env.classes.items()),
                    sorted(env.functions.items())))
        self.env_keys[id(env)] = (env, key)  # the Env kept: its id stays its own
        return key

    def _dependent_type(self, text: str, depth: int) -> DependentClass | str | None:
        text = " ".join(text.split())
        for prefix in ("typename ", "struct ", "class ", "const ", "volatile "):
            while text.startswith(prefix):
                text = text[len(prefix):]
        text = text.replace(" const", "").strip()
        if not text or depth > 12:
            return None
        scope = _split_scope(text)
        if scope is not None:
            owner_text, member = scope
            if owner_text == "":
                return self.dependent_type(member, depth + 1)  # ``::tile<...>``
            cond = re.fullmatch(r"(?:(?:::)?\s*std\s*::\s*)?conditional\s*<(.*)>", owner_text,
                                re.S)
            if cond is not None and member == "type" \
                    and not self._project_names().templates.get("conditional"):
                # ``typename std::conditional<C, A, B>::type``: as ``conditional_t``
                return self.dependent_type(f"conditional_t<{cond.group(1)}>", depth + 1)
            owner = self.dependent_type(owner_text, depth + 1)
            if owner is None and "<" not in owner_text \
                    and not (owner_text in self.env.types or owner_text in self.env.classes):
                # ``ns::tile<...>``: a namespace (names are looked up unqualified)
                return self.dependent_type(member, depth + 1)
            if not isinstance(owner, DependentClass):
                return None
            return self.member_type(owner, member, depth + 1)
        m = re.fullmatch(r"([A-Za-z_]\w*)\s*<(.*)>", text, re.S)
        if m is not None and m.group(1) == "conditional_t" \
                and not self._project_names().templates.get("conditional_t"):
            # ``std::conditional_t<C, A, B>`` (the namespace is dropped above): A or B as
            # this instantiation decides C
            args = split_top_level(m.group(2))
            c = self._value_text(args[0]) if len(args) == 3 else None
            if c is None:
                return None
            return self.dependent_type(args[1] if c else args[2], depth + 1)
        if m is not None:
            bound = self.env.classes.get(m.group(1))  # a template template parameter
            found = [bound] if isinstance(bound, ci.Cursor) \
                else self._project_names().templates.get(m.group(1), [])
            if not found and self.fn is not None \
                    and any(p.name == m.group(1) for p in self.fn.template_params):
                self.why_unresolved = (f"depends on the template parameter '{m.group(1)}', "
                                       "which this instantiation leaves open")
            if len(found) != 1:
                return None
            return self.specialize(found[0], split_top_level(m.group(2)), depth + 1)
        if not re.fullmatch(r"[A-Za-z_][\w ]*", text):
            return None  # a pointer, an array, a function type: not a class
        got = self.env.classes.get(text)
        if isinstance(got, (DependentClass, str)):
            return got
        bound = self.env.types.get(text)
        if bound is not None:
            if bound[0] == text:
                return self.canonical_type_name(text)
            with self.class_member(Env()):
                resolved = self.dependent_type(bound[0], depth + 1)
            return resolved if resolved is not None else self.canonical_type_name(bound[0])
        alias = None if self.in_class_member else self._local_alias(text)
        owner_decl = self._class_in_scope()
        if alias is None and owner_decl is not None:
            alias = next((ch for ch in self._children(owner_decl)
                          if ch.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL)
                          and ch.spelling == text), None)
        if alias is not None:
            return self.dependent_type(ty.spelling(alias.underlying_typedef_type), depth + 1)
        scope_cls = self.class_scope
        if (self.fn is not None and any(p.name == text for p in self.fn.template_params)) \
                or (scope_cls is not None and any(
                    p.spelling == text for p in self._template_params(scope_cls.decl))):
            self.why_unresolved = (f"depends on the template parameter '{text}', which "
                                   "this instantiation leaves open")
            return None
        decls = self._project_names().types.get(text, [])
        if len(decls) == 1:
            d = decls[0]
            if d.kind in (K.STRUCT_DECL, K.CLASS_DECL):
                return DependentClass(d, Env(), text)
            with self.class_member(Env()):
                got = self.dependent_type(ty.spelling(d.underlying_typedef_type), depth + 1)
            if got is None and _resolved_typedef(d):
                # an alias of a library's class (``using complex_t = c10::complex<float>``):
                # the type clang made of it, by its canonical name
                name = self.canonical_type_name(ty.canonical_spelling(d.type))
                self.w.note_type(name, ty.canonical(d.type))
                return name
            return got
        if len(decls) > 1:
            return None
        if text in _BUILTIN_TYPES or self.w.type_size(text) is not None:
            return self.canonical_type_name(text)
        return None

    def member_type(self, owner: DependentClass, name: str,
                    depth: int) -> DependentClass | str | None:
        """The member type ``name`` of ``owner`` (``typename sizes<D, 8>::TB``)."""
        for ch in self._children(owner.decl):
            if ch.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL) and ch.spelling == name:
                with self.class_member(owner.env, owner):
                    return self.dependent_type(ty.spelling(ch.underlying_typedef_type),
                                               depth + 1)
        return None

    def specialize(self, tmpl: ci.Cursor, texts: list[str],
                   depth: int) -> DependentClass | None:
        """``tmpl<texts...>``: the declaration C++ instantiates for these arguments."""
        params = self._template_params(tmpl)
        if len(texts) > len(params) or any(
                p.kind == K.TEMPLATE_TEMPLATE_PARAMETER for p in params):
            return None
        args: list[_Arg] = []
        primary = Env()
        for i, p in enumerate(params):
            text = texts[i] if i < len(texts) else None
            if text is None:  # the default argument, read with the earlier ones
                toks = [str(t.spelling) for t in p.get_tokens()]
                if "=" not in toks:
                    return None
                text = " ".join(toks[toks.index("=") + 1:])
                with self.class_member(primary, DependentClass(tmpl, primary, "")):
                    arg = self._argument(p, text, depth)
            else:
                arg = self._argument(p, text, depth)
            if arg is None:
                return None
            args.append(arg)
            self._bind(primary, str(p.spelling), arg)
        unit = self._project_names()
        cache_key = (key_of(tmpl), tuple(_arg_key(a) for a in args))
        if cache_key in unit.classes:
            return unit.classes[cache_key]
        unit.classes[cache_key] = got_class = self._specialize(tmpl, params, args, primary,
                                                               depth)
        return got_class

    def _specialize(self, tmpl: ci.Cursor, params: list[ci.Cursor], args: list[_Arg],
                    primary: Env, depth: int) -> DependentClass | None:
        matches: list[tuple[ci.Cursor, Env, set[int]]] = []
        for spec in self.specializations(tmpl):
            got = self._match(spec, params, args, depth)
            if got is None:  # a pattern that cannot be compared: not guessed
                self.why_unresolved = (
                    f"is a specialization of '{tmpl.spelling}' cudalint cannot choose (it does "
                    f"not compare the pattern '{' '.join(str(spec.displayname).split())}')")
                return None
            if isinstance(got, tuple):
                matches.append((spec, got[0], got[1]))
        name = f"{tmpl.spelling}<{', '.join(_arg_key(a) for a in args)}>"
        if not matches:
            return DependentClass(tmpl, primary, name)
        # C++'s partial ordering: the one whose pattern every other's deduces from
        best = [m for m in matches if all(
            o is m or (self._deduces(o[0], m[0]) and not self._deduces(m[0], o[0]))
            for o in matches)]
        if len(best) != 1:
            # ambiguous (C++ rejects it) or an ordering not modelled
            self.why_unresolved = (f"needs C++'s partial ordering of the specializations "
                                   f"of '{tmpl.spelling}', which cudalint does not decide")
            return None
        return DependentClass(best[0][0], best[0][1], name)

    def _pattern(self, spec: ci.Cursor) -> tuple[list[str], set[str]]:
        """A specialization's argument patterns (as written) and own parameters."""
        m = re.search(r"<(.*)>", str(spec.displayname), re.S)
        pats = [" ".join(p.split()) for p in split_top_level(m.group(1))] if m else []
        own = {str(p.spelling) for p in self._template_params(spec)} \
            if spec.kind == K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION else set()
        return pats, own

    def _deduces(self, general: ci.Cursor, special: ci.Cursor) -> bool:
        """Whether ``general``'s pattern deduces from ``special``'s (every argument list
        ``special`` matches, ``general`` matches too), both flat patterns that
        :meth:`_match` matched: a parameter of ``general`` takes the same text at each of
        its places; a fixed argument of ``general`` is fixed alike in ``special``."""
        gpats, gown = self._pattern(general)
        spats, sown = self._pattern(special)
        if len(gpats) != len(spats):
            return False
        bound: dict[str, str] = {}
        patterns = self._project_names().patterns
        for i, (g, sp) in enumerate(zip(gpats, spats, strict=True)):
            if g in gown:
                if bound.setdefault(g, sp) != sp:
                    return False
            elif sp in sown:
                return False  # fixed in ``general``, open in ``special``
            else:
                a = patterns.get((key_of(general), i))
                b = patterns.get((key_of(special), i))
                if a is None or b is None or _arg_key(a) != _arg_key(b):
                    return False
        return True

    def _argument(self, p: ci.Cursor, text: str, depth: int) -> _Arg | None:
        if p.kind == K.TEMPLATE_TYPE_PARAMETER:
            got = self.dependent_type(text, depth + 1)
            cv = self._cv_of(text) if got is not None else ""
            if cv and isinstance(got, str):
                return f"{cv} {got}"  # ``tr<const float>`` is not ``tr<float>``
            if cv and isinstance(got, DependentClass):
                return DependentClass(got.decl, got.env, f"{cv} {got.name}")
            return got
        return self._value_text(text)

    def _cv_of(self, text: str, depth: int = 0) -> str:
        """The cv-qualifiers of type argument ``text`` at its top level in this
        instantiation (``const float``, ``T`` with T = const float, a local ``using U =
        volatile T``): '', 'const', 'volatile' or 'const volatile'. A pointer's or a
        template argument's own qualifiers are not the type's. '' where
        :meth:`_cv_known` does not know them."""
        return self._cv_known(text, depth) or ""

    def _cv_known(self, text: str, depth: int = 0) -> str | None:
        """:meth:`_cv_of`, None where the qualifiers come through a name this does not
        follow exactly: a member alias adds its own (``typename addc<T>::type`` with
        ``using type = const T`` is ``const float`` for T = float)."""
        nest = 0
        flat: list[str] = []
        for tok in re.findall(r"[A-Za-z_]\w*|::|\S", text):
            if tok in "<([":
                nest += 1
            elif tok in ">)]":
                nest -= 1
            elif nest == 0:
                flat.append(tok)
        if "*" in flat or "&" in flat:
            return ""
        cv = {w for w in flat if w in ("const", "volatile")}
        rest = [w for w in flat if w not in ("const", "volatile", "typename", "struct", "class")]
        more: str | None = ""
        if depth >= 8:
            more = None
        elif "::" in rest:
            bare = " ".join(w for w in text.split() if w not in (
                "const", "volatile", "typename", "struct", "class"))
            # a library class by its qualified template-id (``c10::complex<float>``), as
            # clang resolved it: no qualifier beyond those written
            more = "" if bare.endswith(">") and self.w.type_size(bare) is not None \
                else self._scoped_cv(text, depth)
        elif len(rest) == 1 and rest[0].isidentifier() \
                and not text.rstrip().endswith(">"):  # ``tr<T>``: a class, no cv of its own
            bound = self.env.types.get(rest[0])
            inner = self.env.classes.get(rest[0])
            alias = None if self.in_class_member else self._local_alias(rest[0])
            if bound is not None and bound[0] != rest[0]:
                more = self._cv_known(bound[0], depth + 1)
            elif isinstance(inner, str):
                more = self._cv_known(inner, depth + 1)
            elif isinstance(inner, DependentClass):
                more = " ".join(w for w in inner.name.split()[:2] if w in ("const", "volatile"))
            elif alias is not None:
                more = self._cv_known(ty.spelling(alias.underlying_typedef_type), depth + 1)
            elif bound is None and inner is None:
                more = self._named_cv(rest[0], depth)
        if more is None:
            return None
        cv.update(more.split())
        return " ".join(q for q in ("const", "volatile") if q in cv)

    def _scoped_cv(self, text: str, depth: int) -> str | None:
        """The cv-qualifiers ``A<T>::m`` adds through the member alias ``m`` of the class
        this instantiation makes ``A<T>`` (``using type = const X;``); None where ``m`` is
        not a member alias of a class resolved here."""
        scope = _split_scope(text)
        if scope is None:
            return None
        owner_text = re.sub(r"^(?:\s*\b(?:typename|const|volatile|struct|class)\b)+", "",
                            scope[0]).strip()
        words = scope[1].split()
        if not owner_text or not words or not words[0].isidentifier():
            return None
        owner = self.dependent_type(owner_text, depth + 1)
        if owner is None and "<" not in owner_text \
                and owner_text not in self.env.types and owner_text not in self.env.classes:
            return self._cv_known(words[0], depth + 1)  # ``ns::half_t``: a namespace
        if not isinstance(owner, DependentClass):
            return None
        alias = next((ch for ch in self._children(owner.decl)
                      if ch.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL)
                      and ch.spelling == words[0]), None)
        if alias is None:
            return None  # a nested class, a static member: not compared
        with self.class_member(owner.env, owner):
            return self._cv_known(ty.spelling(alias.underlying_typedef_type), depth + 1)

    def _class_in_scope(self) -> ci.Cursor | None:
        """The class whose member aliases are in scope: the class scope being run, or
        the class of the member function being run."""
        owner_decl = self.class_scope.decl if self.class_scope is not None else None
        if owner_decl is None and not self.in_class_member and self.fn is not None:
            parent = self.fn.node.cursor.semantic_parent
            if parent is not None and parent.kind in (
                    K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION,
                    K.STRUCT_DECL, K.CLASS_DECL):
                owner_decl = parent
        return owner_decl

    def _named_cv(self, name: str, depth: int) -> str | None:
        """The cv-qualifiers the type name ``name`` (no template argument names it) has
        through a member alias of the class being run or a typedef of the unit
        (``typedef const float cf;``): the names :meth:`_dependent_type` follows."""
        owner_decl = self._class_in_scope()
        alias = next((ch for ch in self._children(owner_decl)
                      if ch.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL)
                      and ch.spelling == name), None) if owner_decl is not None else None
        if alias is not None:
            return self._cv_known(ty.spelling(alias.underlying_typedef_type), depth + 1)
        decls = self._project_names().types.get(name, [])
        if len(decls) > 1:
            return None
        if len(decls) == 1:
            d = decls[0]
            if d.kind in (K.STRUCT_DECL, K.CLASS_DECL):
                return ""
            if _resolved_typedef(d):
                # a typedef of a type clang resolved (``using complex_t =
                # c10::complex<float>``): the qualifiers of its canonical type
                canon = ty.canonical(d.type)
                return " ".join(q for q, on in (("const", ty.is_const(canon)),
                                                ("volatile", ty.is_volatile(canon))) if on)
            with self.class_member(Env()):
                return self._cv_known(ty.spelling(d.underlying_typedef_type), depth + 1)
        return "" if name in _BUILTIN_TYPES or self.w.type_size(name) is not None else None

    def _bind(self, env: Env, name: str, arg: _Arg) -> None:
        if isinstance(arg, DependentClass):
            env.classes[name] = arg
        elif isinstance(arg, str):
            size = self.w.type_size(re.sub(r"\b(?:const|volatile)\b", " ", arg))
            if size is not None:
                env.types[name] = (arg, size)
            else:
                env.classes[name] = arg
        else:
            env.values[name] = arg
        env.label = ", ".join([*(f"{k}={v}" for k, v in env.values.items()),
                               *(f"{k}={v[0]}" for k, v in env.types.items()),
                               *(f"{k}={_arg_key(v)}" for k, v in env.classes.items())])

    def _match(self, spec: ci.Cursor, params: list[ci.Cursor], args: list[_Arg],
               depth: int) -> tuple[Env, set[int]] | bool | None:
        """Whether specialization ``spec`` matches ``args``: its own parameters' values
        and the positions it fixes; False where it does not; None where its pattern is
        one this does not compare (an own parameter inside a larger type or expression)."""
        m = re.search(r"<(.*)>", str(spec.displayname), re.S)
        pats = split_top_level(m.group(1)) if m else []
        if len(pats) != len(params):
            return None
        own = {str(p.spelling): p for p in self._template_params(spec)} \
            if spec.kind == K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION else {}
        env = Env()
        bound: dict[str, _Arg] = {}
        fixed: set[int] = set()
        for i, (pat, p, arg) in enumerate(zip(pats, params, args, strict=True)):
            pat = " ".join(pat.split())
            if pat in own:
                if pat in bound and _arg_key(bound[pat]) != _arg_key(arg):
                    return False
                bound[pat] = arg
                continue
            if any(re.search(rf"\b{re.escape(n)}\b", pat) for n in own):
                return None
            patterns = self._project_names().patterns
            if (key_of(spec), i) in patterns:
                want = patterns[(key_of(spec), i)]
            else:
                with self.class_member(Env()):
                    want = patterns[(key_of(spec), i)] = self._argument(p, pat, depth)
            if want is None:
                return None
            if _arg_key(want) != _arg_key(arg):
                return False
            fixed.add(i)
        if set(bound) != set(own):
            return None
        for name, arg in bound.items():
            self._bind(env, name, arg)
        return env, fixed

    @contextlib.contextmanager
    def class_member(self, env: Env, cls: DependentClass | None = None) -> Iterator[None]:
        """Evaluate inside class ``cls`` (its own template arguments ``env``): names are
        its parameters, members and the unit's, not the body's locals."""
        saved = (self.env, self.memo, self.in_class_member, self.class_scope)
        self.env, self.memo, self.in_class_member, self.class_scope = env, {}, True, cls
        try:
            yield
        finally:
            self.env, self.memo, self.in_class_member, self.class_scope = saved

    def member_value(self, cls: DependentClass, name: str) -> Expr | None:
        """The static data member ``name`` of ``cls``: its value where it is a constant,
        an opaque value saying why not, None where ``cls`` has no such member here."""
        var = self._static_member(cls.decl, name)
        if var is None:
            return None
        cache_key = (key_of(var), cls.name or repr((
            sorted(cls.env.values.items()), sorted(cls.env.types.items()),
            sorted((k, _arg_key(v)) for k, v in cls.env.classes.items()))))
        hit = self.member_values.get(cache_key)
        if hit is not None:
            return hit
        t = int_type(var.type) or INT
        v = evaluate_int(var)
        value: Expr
        init = [ch for ch in build(var).children if ch.is_expr]
        if v is not None:
            value = Const(v, t)
        elif init and ty.is_const(var.type) and cls.name not in self.member_stack \
                and len(self.member_stack) < _MAX_MEMBER_DEPTH:
            self.member_stack.append(cls.name)
            try:
                with self.class_member(cls.env, cls):
                    value = self.convert(self.expr(init[-1]), init[-1], var.type) \
                        if int_type(var.type) is not None else self.expr(init[-1])
            finally:
                self.member_stack.pop()
        else:
            value = _about(OpaqueKind.NAME, f"{cls.name or cls.decl.spelling}::{name}",
                           "has no initializer in its class" if not init
                           else "is not a compile-time constant", (), t)
        if not isinstance(value, Const) and not (
                isinstance(value, Opaque) and value.name is not None):
            value = _about(OpaqueKind.NAME, f"{cls.name or cls.decl.spelling}::{name}",
                           "is not a compile-time constant", (), t)
        self.member_values[cache_key] = value
        return value

    def dependent_member(self, c: Node, text: str) -> Expr | None:
        """``TB::I`` in a template body: the member's value in this instantiation."""
        scope = _split_scope(text)
        if scope is None or not scope[0]:
            return None
        self.why_unresolved = None
        cls = self.dependent_type(scope[0])
        if not isinstance(cls, DependentClass):
            if self.why_unresolved is not None:
                return Opaque(OpaqueKind.NAME, f"'{text}', a member of a class that "
                              f"{self.why_unresolved}", (), node_int_type(c) or INT)
            return None
        value = self.member_value(cls, scope[1])
        if value is None:
            return None
        t = node_int_type(c)
        if isinstance(value, Const):
            return value if t is None or t == value.type else fold(Cast(value, t))
        clause = value.clause if isinstance(value, Opaque) and value.clause \
            else "is not a compile-time constant"
        full = f"{cls.name}::{scope[1]}"
        if full != text:  # ``K::w`` (knob<4>::w), which ...
            return Opaque(OpaqueKind.NAME, f"'{text}' ({full}), which {clause}", (),
                          t or value.type)
        return _about(OpaqueKind.NAME, text, clause, (), t or value.type)

    def type_trait(self, c: Node) -> int | str | None:
        """``std::is_same_v<A, B>`` or ``std::is_same<A, B>::value`` in a template body
        (ggml's ``if constexpr (std::is_same_v<T, half2>)``): 1 where this
        instantiation makes A and B one type, 0 where it makes them two, cv-qualifiers
        included; the trait as written where either is not known here; None for
        anything else."""
        text = " ".join(self.w.slice(c.extent).split())
        m = re.fullmatch(r"(?:::\s*)?(?:std\s*::\s*)?is_same(?:_v\s*<(.*)>|\s*<(.*)>\s*::\s*value)",
                         text, re.S)
        if m is None:
            return None
        args = split_top_level(m.group(1) if m.group(1) is not None else m.group(2))
        if len(args) != 2:
            return text
        names: list[tuple[str, str]] = []
        for a in args:
            got = self.dependent_type(a)
            if isinstance(got, str):
                name = f"type {got}"
            elif isinstance(got, DependentClass):
                name = f"class {key_of(got.decl)} {self._env_key(got.env)}"
            else:
                return text
            cv = self._cv_known(a)
            if cv is None:
                return text  # qualifiers an alias adds that are not followed
            names.append((name, cv))
        kinds = {n.split()[0] for n, _ in names}
        if len(kinds) != 1:
            return text  # a class against a name: not compared
        return int(names[0] == names[1])

    def own_member(self, ref: ci.Cursor) -> Expr | None:
        """A class template's static data member named inside its own member function
        or member initializer (``I`` in ``if constexpr (I == 16)``), read with the class
        arguments the call runs with."""
        parent = ref.semantic_parent
        if parent is None or parent.kind not in (
                K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION):
            return None
        env = self.env
        params = self._template_params(parent)
        if not params or any(str(p.spelling) not in env.values
                             and str(p.spelling) not in env.types
                             and str(p.spelling) not in env.classes for p in params):
            return None
        cls = DependentClass(parent, env, env.label or "")
        return self.member_value(cls, str(ref.spelling))

    def static_member_call(self, c: Node, nargs: int) -> tuple[Function, Env] | None:
        """``TB::get_i(l)`` in a template body (or through a specialization whose member
        clang names without a body): the static member function of the class this
        instantiation resolves, with that class's arguments."""
        if not c.children:
            return None
        callee = strip(c.children[0])
        ref = callee.referenced if callee.kind == N.DECL_REF else None
        if callee.kind != N.DECL_REF:
            return None
        if ref is not None:
            if ref.kind != K.CXX_METHOD or not ref.is_static_method():
                return None
            owner = ref.semantic_parent
            if owner is None or owner.kind not in (K.STRUCT_DECL, K.CLASS_DECL):
                return None
            text = f"{ty.spelling(owner.type)}::{ref.spelling}"
        else:
            text = " ".join(self.w.slice(callee.extent).split())
        scope = _split_scope(text)
        if scope is None or not scope[0] or not scope[1].isidentifier():
            return None
        self.why_unresolved = None
        cls = self.dependent_type(scope[0])
        if not isinstance(cls, DependentClass):
            if self.why_unresolved is not None:
                self.call_why[id(c)] = (f"a member function of a class that "
                                        f"{self.why_unresolved}")
            return None
        special = self.explicit_member(cls, scope[1], nargs)
        if special is not None:  # ``template <> int tile<8>::get_i(int)``
            return (special, Env()) if isinstance(special, Function) \
                and special.node.cursor.is_static_method() else None
        fn = self.method_named(cls.decl, scope[1], nargs)
        if fn is None or not fn.node.cursor.is_static_method():
            return None
        return fn, cls.env

    def explicit_member(self, cls: DependentClass, name: str,
                        nargs: int) -> Function | bool | None:
        """The explicit specialization of member function ``name`` for exactly the class
        ``cls`` (``template <> int tile<8>::get_i(int l)``, which C++ runs for
        ``tile<8>`` instead of the member of the template ``cls.decl``): its Function;
        True where one is declared for a class that cannot be compared with ``cls`` (or
        has no body here): not guessed; None where there is none."""
        for m in self._project_names().methods.get(name, []):
            parent = m.semantic_parent
            if parent is None or parent.kind not in (K.STRUCT_DECL, K.CLASS_DECL):
                continue
            tmpl = ci.conf.lib.clang_getSpecializedCursorTemplate(parent)
            if tmpl is None or 70 <= tmpl._kind_id <= 73 or key_of(tmpl) != key_of(cls.decl):
                continue  # not a member of an instantiation of ``cls.decl``
            primary = tmpl if tmpl.kind == K.CLASS_TEMPLATE \
                else ci.conf.lib.clang_getSpecializedCursorTemplate(tmpl)
            found = re.search(r"<(.*)>", str(parent.displayname), re.S)
            other = None
            if found is not None and primary is not None \
                    and primary.kind == K.CLASS_TEMPLATE:
                before = self.why_unresolved
                with self.class_member(Env()):
                    other = self.specialize(primary, split_top_level(found.group(1)), 1)
                self.why_unresolved = before
            if other is None:
                return True
            if other.name == cls.name and len(list(m.get_arguments())) == nargs:
                fn = self.member_function(m)
                return fn if fn is not None and fn.body is not None else True
        return None

    def decl_ref(self, c: Node) -> Expr:
        ref = c.referenced
        name = c.spelling
        t = node_int_type(c)
        if ref is None or ref.kind == K.OVERLOADED_DECL_REF:
            trait = self.type_trait(c)
            if isinstance(trait, str):  # never "'', which is not a variable"
                return _about(OpaqueKind.NAME, trait,
                              "is a type trait this instantiation leaves open", (), t or _BOOL)
            if trait is not None:
                return Const(trait, t or _BOOL)
        if ref is None:
            # ``T::J`` of a dependent type has no spelling: the name as written
            name = name or " ".join(self.w.slice(c.extent).split()) or "?"
            member = self.dependent_member(c, name)
            if member is not None:
                return member
            return Opaque(OpaqueKind.NAME, f"unresolved name '{name}'", (), t or INT)
        rk = ref.kind
        if rk == K.ENUM_CONSTANT_DECL:
            return Const(int(ref.enum_value), t or INT)
        if rk == K.TEMPLATE_NON_TYPE_PARAMETER:
            pt = int_type(ref.type) or INT
            if name in self.env.values:
                return Const(self.env.values[name], pt)
            return Sym(name, _BOOL if ty.is_bool_kind(canonical_kind(ref.type)) else pt)
        if rk not in (K.VAR_DECL, K.PARM_DECL):
            v = evaluate_int(c.cursor)
            if v is not None:
                return Const(v, t or INT)
            return _about(OpaqueKind.NAME, name, "is not a variable", (), t or INT)
        k = key_of(ref)
        var = self.fn.vars.get(k) if self.fn is not None else None
        if var is None and rk == K.PARM_DECL and self.fn is not None:
            # a parameter of a function inside this one (a lambda's): each call binds it,
            # in each lane its own value
            return _about(OpaqueKind.VARIABLE, name, "is a parameter of a lambda",
                          THREAD_SYMS, t or INT)
        if var is None:
            # A variable outside the function: a constant, or memory.
            if name == "warpSize":
                return Const(32, INT)
            v = evaluate_int(c.cursor)
            if v is not None:
                return Const(v, t or INT)
            own = self.own_member(ref)  # ``I`` in a class template's own member
            if own is not None:
                return own if t is None or not isinstance(own, Const) \
                    else self._as(own, t)
            return Opaque(OpaqueKind.LOAD, f"value loaded from '{name}'", (), t or INT)
        if t is None and not ty.is_dependent_kind(c.ckind):
            # A kernel's parameter is the same in every lane; any other value that is not
            # an integer (``float f = threadIdx.x * 32.0f``) may differ between lanes.
            if rk == K.PARM_DECL and self.fn is not None and self.fn.is_kernel:
                return _about(OpaqueKind.NOT_INTEGER, name, "is not an integer")
            if rk == K.VAR_DECL and self.constant_only(var, k):
                # ``for (float i = -R; i <= R; i++)``: set from constants only, the
                # same in every lane (its own value aside)
                return _about(OpaqueKind.VARIABLE, name, "is not an integer", (Const(0, INT),))
            return _about(OpaqueKind.VARIABLE, name, "is not an integer")
        if var.address_taken:
            # written through its pointer anywhere, by each lane its own way (``if (tid >
            # 3) *p = 1``): never taken for the same in every lane
            cur = self.values.get(k)
            return _about(OpaqueKind.VARIABLE, name, "has its address taken",
                          dedupe([cur, *THREAD_SYMS]) if isinstance(cur, Expr) else (),
                          t or INT)
        if k in self.lambda_written():
            # a lambda writes it, wherever it is called (calls are not followed)
            return _about(OpaqueKind.VARIABLE, name, "is written by a lambda", THREAD_SYMS,
                          t or INT)
        cur = self.values.get(k)
        if isinstance(cur, Expr):
            return cur
        if isinstance(cur, Ptr):
            # A reference bound to shared memory (``void cmp(uint& a, ...)`` called with
            # ``s_key[pos]``): reading it loads that element, which differs between lanes
            # where the element's address does.
            return Opaque(OpaqueKind.LOAD, f"value loaded from '{name}'",
                          dedupe([cur.offset]), t or INT)
        # Not reached by the walk (host code asking about launch arguments, a goto):
        # a variable that is never modified holds its initializer.
        if ty.is_const(ref.type) or not var.modified:
            v = evaluate_int(c.cursor)
            if v is not None:
                return Const(v, t or INT)
        if var.is_param and self.fn is not None and self.fn.is_kernel and not var.modified:
            return Sym(name, t or INT)
        if var.modified or var.init is None:
            return _about(OpaqueKind.VARIABLE, name, "has no known value here", (), t or INT)
        hit = self.lazy_cache.get(k)
        if hit is not None:
            return hit
        if k in self.in_progress:
            return _about(OpaqueKind.VARIABLE, name, "depends on itself", (), t or INT)
        self.in_progress.add(k)
        try:
            e = self.convert(self.expr(var.init), var.init, ref.type)
        finally:
            self.in_progress.discard(k)
        self.lazy_cache[k] = e
        return e


#: ``Executor.stmt``'s handler per statement kind: a method name, so that a subclass's
#: override (the host-code evaluator's) is the one called.
_STMT_HANDLERS: dict[int, str] = {
    N.COMPOUND_STMT: "compound_stmt",
    N.DECL_STMT: "decl_stmt",
    N.IF: "if_stmt",
    **dict.fromkeys(LOOPS, "loop"),
    N.RETURN: "return_stmt",
    N.BREAK: "break_stmt",
    N.CONTINUE: "continue_stmt",
    N.SWITCH: "switch",
    N.ASM: "asm_stmt",
    N.MS_ASM: "asm_stmt",
    N.CASE: "labelled_stmt",
    N.DEFAULT: "labelled_stmt",
    N.LABEL: "labelled_stmt",
    N.GOTO: "goto_stmt",
}

#: ``Executor.expr``'s handler per expression kind (a method name, as above).
_EXPR_HANDLERS: dict[int, str] = {
    N.INTEGER_LITERAL: "literal",
    N.CHARACTER_LITERAL: "literal",
    N.BOOL_LITERAL: "literal",
    N.PAREN: "paren",
    N.UNEXPOSED: "unexposed",
    N.DECL_REF: "decl_ref",
    N.MEMBER_REF: "member_ref",
    N.BINARY: "binary",
    N.COMPOUND_ASSIGN: "compound_assign",
    N.UNARY: "unary",
    N.CONDITIONAL: "conditional",
    **dict.fromkeys(CASTS, "cast"),
    N.CALL: "call",
    N.UNARY_EXPR: "unary_expr",
    N.ARRAY_SUBSCRIPT: "subscript_value",
}
