"""Cursor kinds, small helpers and the facts the walker records about a function.

Shared by the walker (declarations, templates, launches) and the executor (values,
guards and accesses in statement order). What they ask of a clang *type* is in
``types.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import clang.cindex as ci

from cudalint.frontend.tree import UNSET, Node, build, cursor_key
from cudalint.frontend.types import int_type
from cudalint.frontend.types import type_size as type_size  # tests import it from here
from cudalint.ir import (
    UINT,
    BinaryOp,
    BoundOp,
    Const,
    Expr,
    InductionOp,
    IntType,
    Span,
    Sym,
    UnaryOp,
)

K = ci.CursorKind


class N:
    """Cursor kinds as ints (``Node.kind``)."""

    ARRAY_SUBSCRIPT = K.ARRAY_SUBSCRIPT_EXPR.value
    MEMBER_REF = K.MEMBER_REF_EXPR.value
    DECL_REF = K.DECL_REF_EXPR.value
    UNEXPOSED = K.UNEXPOSED_EXPR.value
    PAREN = K.PAREN_EXPR.value
    BINARY = K.BINARY_OPERATOR.value
    COMPOUND_ASSIGN = K.COMPOUND_ASSIGNMENT_OPERATOR.value
    UNARY = K.UNARY_OPERATOR.value
    CALL = K.CALL_EXPR.value
    VAR_DECL = K.VAR_DECL.value
    PARM_DECL = K.PARM_DECL.value
    DECL_STMT = K.DECL_STMT.value
    IF = K.IF_STMT.value
    FOR = K.FOR_STMT.value
    CONDITIONAL = K.CONDITIONAL_OPERATOR.value
    COMPOUND_STMT = K.COMPOUND_STMT.value
    INIT_LIST = K.INIT_LIST_EXPR.value
    FUNCTIONAL_CAST = K.CXX_FUNCTIONAL_CAST_EXPR.value
    INTEGER_LITERAL = K.INTEGER_LITERAL.value
    CHARACTER_LITERAL = K.CHARACTER_LITERAL.value
    BOOL_LITERAL = K.CXX_BOOL_LITERAL_EXPR.value
    UNARY_EXPR = K.CXX_UNARY_EXPR.value
    TYPE_REF = K.TYPE_REF.value
    CUDAGLOBAL = K.CUDAGLOBAL_ATTR.value
    CUDADEVICE = K.CUDADEVICE_ATTR.value
    CUDASHARED = K.CUDASHARED_ATTR.value
    UNEXPOSED_ATTR = K.UNEXPOSED_ATTR.value
    TEMPLATE_NON_TYPE = K.TEMPLATE_NON_TYPE_PARAMETER.value
    TEMPLATE_TYPE = K.TEMPLATE_TYPE_PARAMETER.value
    TEMPLATE_TEMPLATE = K.TEMPLATE_TEMPLATE_PARAMETER.value
    UNEXPOSED_DECL = K.UNEXPOSED_DECL.value
    NAMESPACE = K.NAMESPACE.value
    LINKAGE_SPEC = K.LINKAGE_SPEC.value
    FUNCTION_DECL = K.FUNCTION_DECL.value
    FUNCTION_TEMPLATE = K.FUNCTION_TEMPLATE.value
    ENUM_DECL = K.ENUM_DECL.value
    ENUM_CONSTANT_DECL = K.ENUM_CONSTANT_DECL.value
    WHILE = K.WHILE_STMT.value
    ALIGNED_ATTR = K.ALIGNED_ATTR.value
    DO = K.DO_STMT.value
    RETURN = K.RETURN_STMT.value
    BREAK = K.BREAK_STMT.value
    CONTINUE = K.CONTINUE_STMT.value
    SWITCH = K.SWITCH_STMT.value
    CASE = K.CASE_STMT.value
    DEFAULT = K.DEFAULT_STMT.value
    LABEL = K.LABEL_STMT.value
    GOTO = K.GOTO_STMT.value
    ASM = K.ASM_STMT.value
    MS_ASM = K.MS_ASM_STMT.value
    NULL_STMT = K.NULL_STMT.value

# --- roles of an access site ---------------------------------------------------------------

LOAD = "load"
STORE = "store"
RMW = "rmw"  # compound assignment, ++, --: a load then a store
ADDR = "addr"  # &tile[i]: not an access by itself
ATOMIC = "atomic"

ROLE_KINDS: dict[str, tuple[str, ...]] = {
    LOAD: ("load",),
    STORE: ("store",),
    RMW: ("load", "store"),
    ATOMIC: ("atomic",),
    ADDR: (),
}

ATOMICS = frozenset(
    f"atomic{op}{suffix}"
    for op in ("Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "And", "Or", "Xor", "CAS")
    for suffix in ("", "_block", "_system")
)

BUILTIN_VARS = ("threadIdx", "blockIdx", "blockDim", "gridDim")

THREAD_SYMS: tuple[Expr, ...] = tuple(
    Sym(f"threadIdx.{c}", UINT, lane_dependent=True) for c in "xyz"
)

# --- operator spellings, read once: the IR's typed operators by C's spelling ---------------

#: C's binary operators that the IR models, by spelling (not ``,``, ``=``, ``->*``).
BINARY_OPS: dict[str, BinaryOp] = {
    "+": "+", "-": "-", "*": "*", "/": "/", "%": "%", "<<": "<<", ">>": ">>", "&": "&",
    "|": "|", "^": "^", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!=",
    "&&": "&&", "||": "||",
}
COMPARISONS = frozenset(["<", "<=", ">", ">=", "==", "!="])
#: The operation each compound assignment applies (``+=`` applies ``+``).
COMPOUND_ASSIGN_OPS: dict[str, BinaryOp] = {
    "+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "<<=": "<<", ">>=": ">>",
    "&=": "&", "|=": "|", "^=": "^",
}
#: The unary operators the IR models, by spelling.
UNARY_OPS: dict[str, UnaryOp] = {"-": "-", "+": "+", "~": "~", "!": "!"}
#: The operations a loop's step may apply to its variable (``Induction.op``).
STEP_OPS: dict[str, InductionOp] = {
    "+": "+", "-": "-", "*": "*", "/": "/", "<<": "<<", ">>": ">>",
}
#: The comparisons a loop's condition may bound its variable with (``Induction.cmp``):
#: each as written (``i < n``) and with its operands swapped (``n > i``).
BOUND_CMPS: dict[str, tuple[BoundOp, BoundOp]] = {
    "<": ("<", ">"), "<=": ("<=", ">="), ">": (">", "<"), ">=": (">=", "<="),
    "!=": ("!=", "!="),
}


@dataclass(frozen=True)
class OperatorFunction:
    """The name of an operator function (``operator+=``, an unresolved call in a
    template body), read once."""

    #: What follows ``operator``: ``+=``, ``++``, ``()``, ``[]``.
    op: str
    #: Whether it writes its first operand (``=``, a compound assignment, ``++``, ``--``).
    writes: bool
    #: The operation a write applies to the old value (``+`` for ``+=`` and ``++``);
    #: None for ``=`` and for an operator that writes nothing.
    applies: BinaryOp | None


_OPERATOR_FUNCTIONS: dict[str, OperatorFunction | None] = {}


def operator_function(name: str) -> OperatorFunction | None:
    """``name`` as an operator function (``operator+=``); None for any other name."""
    hit = _OPERATOR_FUNCTIONS.get(name, UNSET)
    if hit is not UNSET:
        return hit  # type: ignore[return-value]
    got: OperatorFunction | None = None
    if name.startswith("operator"):
        op = name[len("operator"):].strip()
        if op == "=":
            got = OperatorFunction(op, True, None)
        elif op in ("++", "--"):
            got = OperatorFunction(op, True, "+" if op == "++" else "-")
        else:
            applies = COMPOUND_ASSIGN_OPS.get(op)
            got = OperatorFunction(op, applies is not None, applies)
    if len(_OPERATOR_FUNCTIONS) < 4096:
        _OPERATOR_FUNCTIONS[name] = got
    return got

LOOPS = frozenset(
    k.value for k in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.CXX_FOR_RANGE_STMT)
)
CASTS = frozenset(
    k.value for k in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR,
                      K.CXX_CONST_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR)
)
TOP_LEVEL_KINDS = frozenset(
    k.value for k in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.VAR_DECL, K.ENUM_DECL,
                      K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL)
)
#: ``// cudalint: block-dim(X[, Y[, Z]])``; each extent a C constant expression.
BLOCK_DIM_ANNOTATION = re.compile(
    r"//\s*cudalint:\s*block-dim\(([^()]*(?:\([^()]*\)[^()]*)*)\)"
)
EXPLICIT_INSTANTIATION = re.compile(
    r"\btemplate\s+(?!<)[^;{}]*?\b([A-Za-z_]\w*)\s*<([^;{}]*?)>\s*\("
)
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(.+?)[ \t]*$", re.M)

BUILTIN_TYPE_SIZES = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1,
    "short": 2, "unsigned short": 2, "int": 4, "unsigned": 4, "unsigned int": 4,
    "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8,
    "float": 4, "double": 8,
}


# --- small helpers ---------------------------------------------------------------------------


def node_int_type(n: Node) -> IntType | None:
    """``int_type`` of a node's type, computed once per node."""
    if n.itype is _UNKNOWN:
        n.itype = int_type(n.type)
    return n.itype  # type: ignore[no-any-return]


_UNKNOWN = UNSET


def strip(c: Node) -> Node:
    """``c`` without implicit casts and parentheses."""
    while c.kind in (N.UNEXPOSED, N.PAREN) and len(c.children) == 1:
        c = c.children[0]
    return c


def enclosing(parents: Mapping[int, Node], n: Node) -> Node | None:
    """The parent of ``n`` in ``parents`` (by ``id``) past implicit casts and parentheses:
    ``strip`` upwards. None at the top."""
    up = parents.get(id(n))
    while up is not None and up.kind in (N.UNEXPOSED, N.PAREN):
        up = parents.get(id(up))
    return up


def arguments(call: Node) -> list[Node]:
    """The argument nodes of a call or constructor expression."""
    by_bytes = {bytes(ch.cursor): ch for ch in call.children}
    out: list[Node] = []
    for a in call.cursor.get_arguments():
        if a is None:
            continue
        node = by_bytes.get(bytes(a))
        if node is None:  # not a direct child (cannot happen for calls libclang builds)
            node = build(a)
        out.append(node)
    return out


def function_reference(n: Node) -> tuple[str, bool] | None:
    """What a template argument expression names when it is a function (``f``,
    ``&f``, ``(&ns::f)``): the name, and whether it is a non-type template parameter of
    the enclosing template (``k<f>`` inside ``launch<f>``) rather than a function."""
    n = strip(n)
    if n.kind == N.UNARY and len(n.children) == 1:  # ``&f``
        n = strip(n.children[0])
    if n.kind != N.DECL_REF:
        return None
    ref = n.referenced
    if ref is None:
        return None
    if ref.kind == K.FUNCTION_DECL:
        return str(ref.spelling), False
    if ref.kind == K.TEMPLATE_NON_TYPE_PARAMETER:
        return str(ref.spelling), True
    return None


def dedupe(items: Iterable[Expr]) -> tuple[Expr, ...]:
    out: list[Expr] = []
    for e in items:
        if isinstance(e, Const) or e in out:
            continue
        out.append(e)
    return tuple(out)


def split_top_level(text: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    cur = ""
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


# --- recorded facts ------------------------------------------------------------------------


@dataclass
class Var:
    """A local variable or parameter of the function and every write to it."""

    name: str
    init: Node | None
    is_param: bool = False
    writes: list[Node] = field(default_factory=list)  # right-hand sides
    assigned: bool = False
    loop_var: bool = False
    address_taken: bool = False
    #: An output operand of an ``asm`` statement (``"+r"(v)``, ``"=r"(v)``): written by
    #: instructions the source does not spell as C.
    asm_written: bool = False

    @property
    def modified(self) -> bool:
        return self.assigned or self.address_taken or self.loop_var or self.asm_written


@dataclass
class ArrayDecl:
    cursor: ci.Cursor
    name: str
    kernel: str | None
    ndim: int
    static_dims: list[int | None]
    extents: list[Node | None]
    #: The element's clang type (ask ``types.py`` about it).
    element: ci.Type
    dependent: bool
    span: Span
    dim_spans: tuple[Span, ...]
    dim_texts: tuple[str, ...]
    #: ``extern __shared__ T name[]``: the dynamic shared-memory window.
    dynamic: bool = False
    #: Alignment in bytes from ``__align__``/``alignas``/``aligned`` on the declaration.
    declared_alignment: int = 0


@dataclass
class TemplateParam:
    name: str
    is_type: bool
    #: A non-type parameter's default argument, where it is a constant (``int K = 2``,
    #: ``bool SW = true``).
    default: int | None = None
    #: The canonical type kind of a non-type parameter (``bool``, ``unsigned``): how its
    #: integral argument reads (:func:`template_int_argument`).
    type_kind: int | None = None


@dataclass
class Env:
    """Template arguments of one instantiation."""

    label: str | None = None
    values: dict[str, int] = field(default_factory=dict)
    types: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: Integer kernel parameters a launch passes as constants (``Bc=32``), by name; or as
    #: a component of its block shape, by that component's name (``bdim=blockDim.x``).
    params: dict[str, int | str] = field(default_factory=dict)
    #: Non-type parameters bound to a function (``blockReduce<warpReduceSum>``), by name.
    functions: dict[str, str] = field(default_factory=dict)
    #: Type parameters bound to a class type whose members the body reads (``T::I``,
    #: ``T::get_i(l)``): the executor's resolved class (``execute.DependentClass``), by name.
    classes: dict[str, Any] = field(default_factory=dict)


@dataclass
class Function:
    node: Node
    name: str
    is_kernel: bool
    is_device: bool
    template_params: list[TemplateParam]
    body: Node | None
    vars: dict[int, Var] = field(default_factory=dict)
    arrays: dict[int, ArrayDecl] = field(default_factory=dict)
    launches: list[Node] = field(default_factory=list)
    #: Device functions this function calls (by name), for call-site analysis.
    calls: set[str] = field(default_factory=set)
    #: Whether no call of it can reach shared memory or a barrier (``inert.py``); None
    #: until asked.
    shared_inert: bool | None = field(default=None, compare=False)


def key_of(c: ci.Cursor) -> int:
    return cursor_key(c)


