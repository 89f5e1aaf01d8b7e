"""Walk a clang AST and build the IR: kernels, shared arrays, accesses and launches.

The walk runs in two passes per function. The *scan* visits the body once and records
the local variables (and every write to them), the ``__shared__`` declarations, each
access site with its role (load / store / read-modify-write / atomic) and the enclosing
``if`` conditions, and each ``<<<>>>`` launch. The *translation* then turns the recorded
cursors into IR expressions, once per template instantiation of the function.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import clang.cindex as ci

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
    binary_value,
    evaluate_int,
    fold,
    is_from_main_file,
    unary_operator_kind,
)
from cudalint.frontend.tree import UNSET, Node, build, cursor_key, top_level
from cudalint.ir import (
    INT,
    LONG,
    UINT,
    Access,
    Binary,
    Cast,
    Const,
    Expr,
    IntType,
    Kernel,
    Launch,
    Note,
    Opaque,
    Select,
    SharedArray,
    Span,
    Sym,
    TranslationUnit,
    Unary,
)

K = ci.CursorKind
TK = ci.TypeKind


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

# --- roles of an access site ---------------------------------------------------------------

LOAD = "load"
STORE = "store"
RMW = "rmw"  # compound assignment, ++, --: a load then a store
ADDR = "addr"  # &tile[i]: not an access by itself
ATOMIC = "atomic"

_ROLE_KINDS: dict[str, tuple[str, ...]] = {
    LOAD: ("load",),
    STORE: ("store",),
    RMW: ("load", "store"),
    ATOMIC: ("atomic",),
    ADDR: (),
}

_ATOMICS = frozenset(
    f"atomic{op}{suffix}"
    for op in ("Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "And", "Or", "Xor", "CAS")
    for suffix in ("", "_block", "_system")
)

_BUILTIN_VARS = ("threadIdx", "blockIdx", "blockDim", "gridDim")

_THREAD_SYMS: tuple[Expr, ...] = tuple(
    Sym(f"threadIdx.{c}", UINT, lane_dependent=True) for c in "xyz"
)

_BINARY_OPS = frozenset(
    ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
     "<", "<=", ">", ">=", "==", "!=", "&&", "||"]
)
_COMPARISONS = frozenset(["<", "<=", ">", ">=", "==", "!="])

_LOOPS = frozenset(
    k.value for k in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.CXX_FOR_RANGE_STMT)
)
_CASTS = frozenset(
    k.value for k in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR,
                      K.CXX_CONST_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR)
)
_TOP_LEVEL_KINDS = frozenset(
    k.value for k in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.VAR_DECL, K.ENUM_DECL,
                      K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL)
)
_ARRAY_TYPES = frozenset(
    [TK.CONSTANTARRAY, TK.DEPENDENTSIZEDARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY]
)

_SIGNED_KINDS = frozenset(
    [TK.CHAR_S, TK.SCHAR, TK.SHORT, TK.INT, TK.LONG, TK.LONGLONG, TK.INT128, TK.WCHAR]
)
_UNSIGNED_KINDS = frozenset(
    [TK.CHAR_U, TK.UCHAR, TK.USHORT, TK.UINT, TK.ULONG, TK.ULONGLONG, TK.UINT128,
     TK.CHAR16, TK.CHAR32]
)

_BLOCK_DIM_ANNOTATION = re.compile(
    r"//\s*cudalint:\s*block-dim\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\)"
)
_EXPLICIT_INSTANTIATION = re.compile(
    r"\btemplate\s+(?!<)[^;{}]*?\b([A-Za-z_]\w*)\s*<([^;{}]*?)>\s*\("
)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(.+?)[ \t]*$", re.M)
_INT_SUFFIX = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b")

_BUILTIN_TYPE_SIZES = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1,
    "short": 2, "unsigned short": 2, "int": 4, "unsigned": 4, "unsigned int": 4,
    "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8,
    "float": 4, "double": 8,
}


# --- small helpers ---------------------------------------------------------------------------


_int_type_cache: dict[int, IntType | None] = {}

_DEPENDENT_KINDS = frozenset([TK.DEPENDENT.value, TK.UNEXPOSED.value])
_BOOL = TK.BOOL.value
_ENUM = TK.ENUM.value


def canonical_kind(t: ci.Type) -> int:
    """The canonical type's kind as an int (``TypeKind.X.value``)."""
    return int(ci.conf.lib.clang_getCanonicalType(t)._kind_id)


def int_type(t: ci.Type) -> IntType | None:
    """The IR integer type of a clang type; None for anything that is not an integer.

    ``bool`` maps to ``int``: its values are 0 and 1 and comparisons yield it.
    """
    ct = ci.conf.lib.clang_getCanonicalType(t)
    ct._tu = t._tu
    kind = ct._kind_id
    if kind == _ENUM:
        decl = ct.get_declaration()
        return int_type(decl.enum_type) if decl is not None else INT
    if kind in _int_type_cache:
        return _int_type_cache[kind]
    result: IntType | None
    tk = TK.from_id(kind)
    if tk == TK.BOOL:
        result = INT
    elif tk in _SIGNED_KINDS or tk in _UNSIGNED_KINDS:
        result = IntType(ct.get_size() * 8, tk in _SIGNED_KINDS)
    else:
        result = None
    _int_type_cache[kind] = result
    return result


def node_int_type(n: Node) -> IntType | None:
    """``int_type`` of a node's type, computed once per node."""
    if n.itype is _UNKNOWN:
        n.itype = int_type(n.type)
    return n.itype  # type: ignore[no-any-return]


_UNKNOWN = UNSET


def _strip(c: Node) -> Node:
    """``c`` without implicit casts and parentheses."""
    while c.kind in (N.UNEXPOSED, N.PAREN) and len(c.children) == 1:
        c = c.children[0]
    return c


def _arguments(call: Node) -> list[Node]:
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


def _dedupe(items: Iterable[Expr]) -> tuple[Expr, ...]:
    out: list[Expr] = []
    for e in items:
        if isinstance(e, Const) or e in out:
            continue
        out.append(e)
    return tuple(out)


def _split_top_level(text: str) -> list[str]:
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
class _Var:
    """A local variable or parameter of the function and every write to it."""

    name: str
    init: Node | None
    is_param: bool = False
    writes: list[Node] = field(default_factory=list)  # right-hand sides
    assigned: bool = False
    in_loop: bool = False
    loop_var: bool = False
    address_taken: bool = False

    @property
    def modified(self) -> bool:
        return self.assigned or self.address_taken or self.loop_var


@dataclass
class _ArrayDecl:
    cursor: ci.Cursor
    name: str
    kernel: str | None
    ndim: int
    static_dims: list[int | None]
    extents: list[Node | None]
    element_type: ci.Type
    dependent: bool
    span: Span
    dim_spans: tuple[Span, ...]
    dim_texts: tuple[str, ...]


@dataclass
class _Site:
    node: Node
    array: _ArrayDecl
    indices: list[Node]
    role: str
    guards: tuple[tuple[Node, bool], ...]
    member: Node | None = None


@dataclass
class _TemplateParam:
    name: str
    is_type: bool


@dataclass
class _Env:
    """Template arguments of one instantiation."""

    label: str | None = None
    values: dict[str, int] = field(default_factory=dict)
    types: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass
class _Function:
    node: Node
    name: str
    is_kernel: bool
    is_device: bool
    template_params: list[_TemplateParam]
    body: Node | None
    vars: dict[int, _Var] = field(default_factory=dict)
    arrays: dict[int, _ArrayDecl] = field(default_factory=dict)
    sites: list[_Site] = field(default_factory=list)
    launches: list[Node] = field(default_factory=list)


def _key(c: ci.Cursor) -> int:
    return cursor_key(c)


# --- the walker ----------------------------------------------------------------------------


class _Walker:
    def __init__(
        self, tu: ci.TranslationUnit, path: str, source: bytes, notes: list[Note],
        defines: tuple[str, ...],
    ) -> None:
        self.tu = tu
        self.path = path
        self.main = tu.spelling
        self.source = source
        self.text = source.decode("utf-8", errors="replace")
        self.lines = self.text.splitlines()
        self.notes = notes
        self.defines = defines
        self.file_arrays: dict[int, _ArrayDecl] = {}
        self.functions: list[_Function] = []
        self.kernels_by_name: dict[str, _Function] = {}
        self.file_consts: dict[str, int] = {}
        self._named_consts: dict[str, int] | None = None
        self._type_sizes: dict[str, int] | None = None

    # spans and text

    def span(self, extent: ci.SourceRange) -> Span:
        s, e = extent.start, extent.end
        return Span(self.path, s.line, s.column, e.line, e.column)

    def slice(self, extent: ci.SourceRange) -> str:
        s, e = extent.start.offset, extent.end.offset
        if e < s:
            return ""
        return self.source[s:e].decode("utf-8", errors="replace")

    # top level

    def run(self) -> TranslationUnit:
        self._collect(self.tu.cursor)
        for fn in list(self.functions):
            try:
                self._scan_function(fn)
            except Exception as exc:  # a construct the walker does not expect: skip it
                self._internal_error(fn, exc)
                self.functions.remove(fn)
        envs = self._instantiations()
        kernels: list[Kernel] = []
        arrays: dict[str, SharedArray] = {}
        accesses: list[Access] = []
        launches: list[Launch] = []
        for a in self.file_arrays.values():
            rec = _Translator(self, None, _Env()).array_record(a)[0]
            arrays[rec.key] = rec
        for fn in self.functions:
            try:
                if fn.is_kernel:
                    kernels.append(self._kernel_record(fn))
                if fn.is_device or fn.is_kernel:
                    fn_envs = envs.get(fn.name, [_Env()]) if fn.template_params else [_Env()]
                    for env in fn_envs:
                        tr = _Translator(self, fn, env)
                        for a in fn.arrays.values():
                            rec = tr.array_record(a)[0]
                            arrays.setdefault(rec.key, rec)
                        for site in fn.sites:
                            accesses.extend(tr.accesses(site))
                tr = _Translator(self, fn, _Env())
                for call in fn.launches:
                    launch = tr.launch(call)
                    if launch is not None:
                        launches.append(launch)
            except Exception as exc:  # a construct the walker does not expect: skip it
                self._internal_error(fn, exc)
        return TranslationUnit(
            file=self.path,
            kernels=tuple(kernels),
            arrays=tuple(arrays.values()),
            accesses=tuple(accesses),
            launches=tuple(launches),
            notes=tuple(self.notes),
        )

    def _internal_error(self, fn: _Function, exc: Exception) -> None:
        self.notes.append(Note(
            "warning",
            f"cudalint could not analyze '{fn.name}' ({type(exc).__name__}: {exc});"
            " its shared accesses are not reported",
            self.span(fn.node.extent),
        ))

    def _collect(self, parent: ci.Cursor) -> None:
        for c in top_level(parent):
            kind = c._kind_id
            if kind not in _TOP_LEVEL_KINDS or not is_from_main_file(c):
                continue
            if kind in (N.NAMESPACE, N.LINKAGE_SPEC, N.UNEXPOSED_DECL):
                self._collect(c)
                continue
            node = build(c)
            if kind == N.VAR_DECL:
                self._file_var(node)
            elif kind == N.ENUM_DECL:
                for e in node.children:
                    if e.kind == N.ENUM_CONSTANT_DECL:
                        self.file_consts.setdefault(e.spelling, int(e.cursor.enum_value))
            else:
                self._function(node)

    def _file_var(self, c: Node) -> None:
        if any(ch.kind == N.CUDASHARED for ch in c.children):
            a = self._array_decl(c, None)
            if a is not None:
                self.file_arrays[_key(c.cursor)] = a
            return
        if node_int_type(c) is not None:
            v = evaluate_int(c.cursor) if c.type.is_const_qualified() else None
            if v is not None:
                self.file_consts.setdefault(c.spelling, v)

    def _function(self, c: Node) -> None:
        is_kernel = is_device = False
        body = None
        params: list[_TemplateParam] = []
        for ch in c.children:
            k = ch.kind
            if k == N.CUDAGLOBAL:
                is_kernel = True
            elif k == N.CUDADEVICE:
                is_device = True
            elif k == N.COMPOUND_STMT:
                body = ch
            elif k == N.TEMPLATE_NON_TYPE:
                params.append(_TemplateParam(ch.spelling, False))
            elif k in (N.TEMPLATE_TYPE, N.TEMPLATE_TEMPLATE):
                params.append(_TemplateParam(ch.spelling, True))
        fn = _Function(c, c.spelling, is_kernel, is_device and not is_kernel, params, body)
        if body is None:
            return
        self.functions.append(fn)
        if is_kernel:
            self.kernels_by_name.setdefault(fn.name, fn)

    # arrays

    def _array_decl(self, c: Node, kernel: str | None) -> _ArrayDecl | None:
        t = c.type
        span = self.span(c.extent)
        canon = t.get_canonical()
        if canon.kind == TK.INCOMPLETEARRAY or (
            canon.kind not in _ARRAY_TYPES and t.kind == TK.INCOMPLETEARRAY
        ):
            self.notes.append(Note(
                "note", f"dynamic shared memory is not analyzed yet ('{c.spelling}')", span
            ))
            return None
        dims: list[int | None] = []
        dependent = False
        cur = t if t.kind in _ARRAY_TYPES else canon
        while cur.kind in _ARRAY_TYPES:
            if cur.kind == TK.CONSTANTARRAY:
                dims.append(int(cur.element_count))
            elif cur.kind == TK.INCOMPLETEARRAY:
                self.notes.append(Note(
                    "note", f"dynamic shared memory is not analyzed yet ('{c.spelling}')", span
                ))
                return None
            else:
                dims.append(None)
                dependent = True
            cur = cur.element_type
            if cur.kind not in _ARRAY_TYPES:
                cc = cur.get_canonical()
                if cc.kind in _ARRAY_TYPES:
                    cur = cc
        elem = cur
        if elem.get_size() < 0:
            dependent = True
        extents = sorted(
            (
                ch for ch in c.children
                if ch.is_expr and ch.kind not in (N.CALL, N.INIT_LIST)
                and TK.from_id(canonical_kind(ch.type)) not in _ARRAY_TYPES
            ),
            key=lambda ch: int(ch.extent.start.offset),
        )
        ext_list: list[Node | None]
        if len(extents) == len(dims):
            ext_list = list(extents)
            dim_spans = tuple(self.span(e.extent) for e in extents)
            dim_texts = tuple(self.slice(e.extent) for e in extents)
        else:
            ext_list = [None] * len(dims)
            dim_spans = ()
            dim_texts = tuple(str(d) for d in dims) if None not in dims else ()
        return _ArrayDecl(
            c.cursor, c.spelling, kernel, len(dims), dims, ext_list, elem, dependent, span,
            dim_spans, dim_texts,
        )

    # the scan

    def _scan_function(self, fn: _Function) -> None:
        for ch in fn.node.children:
            if ch.kind == N.PARM_DECL:
                fn.vars[_key(ch.cursor)] = _Var(ch.spelling, None, is_param=True)
        assert fn.body is not None
        _Scanner(self, fn).visit(fn.body, LOAD, (), 0)

    # template instantiations

    def _instantiations(self) -> dict[str, list[_Env]]:
        found: dict[str, dict[str, _Env]] = {}
        for fn in self.functions:
            for call in fn.launches:
                name = call.spelling
                kernel = self.kernels_by_name.get(name)
                if kernel is None or not kernel.template_params:
                    continue
                env = self._launch_env(call, kernel)
                if env is not None and env.label is not None:
                    found.setdefault(name, {}).setdefault(env.label, env)
        for m in _EXPLICIT_INSTANTIATION.finditer(self.text):
            kernel = self.kernels_by_name.get(m.group(1))
            if kernel is None or not kernel.template_params:
                continue
            env = self._text_env(kernel, _split_top_level(m.group(2)))
            if env is not None and env.label is not None:
                found.setdefault(kernel.name, {}).setdefault(env.label, env)
        return {k: list(v.values()) for k, v in found.items()}

    def launch_callee(self, call: Node) -> Node | None:
        for ch in call.children:
            s = _strip(ch)
            if s.kind == N.DECL_REF:
                return s
            return None
        return None

    def _launch_env(self, call: Node, kernel: _Function) -> _Env | None:
        callee = self.launch_callee(call)
        if callee is None:
            return None
        spec = callee.referenced
        if spec is None:
            return None
        n = spec.get_num_template_arguments()
        if n <= 0 or n != len(kernel.template_params):
            return None
        env = _Env()
        parts: list[str] = []
        for i, p in enumerate(kernel.template_params):
            kind = spec.get_template_argument_kind(i)
            if kind == ci.TemplateArgumentKind.INTEGRAL:
                v = int(spec.get_template_argument_value(i))
                env.values[p.name] = v
                parts.append(f"{p.name}={v}")
            elif kind == ci.TemplateArgumentKind.TYPE:
                at = spec.get_template_argument_type(i)
                size = int(at.get_size())
                if size <= 0:
                    return None
                env.types[p.name] = (at.spelling, size)
                parts.append(f"{p.name}={at.spelling}")
            else:
                return None
        env.label = ", ".join(parts)
        return env

    def _text_env(self, kernel: _Function, args: list[str]) -> _Env | None:
        if len(args) != len(kernel.template_params):
            return None
        env = _Env()
        parts: list[str] = []
        for p, text in zip(kernel.template_params, args, strict=True):
            if p.is_type:
                size = self.type_size(text)
                if size is None:
                    return None
                spelled = " ".join(text.split())
                env.types[p.name] = (spelled, size)
                parts.append(f"{p.name}={spelled}")
            else:
                v = self.eval_text(text)
                if v is None:
                    return None
                env.values[p.name] = v
                parts.append(f"{p.name}={v}")
        env.label = ", ".join(parts)
        return env

    # constants named in text (explicit instantiations, __launch_bounds__)

    def named_consts(self) -> dict[str, int]:
        if self._named_consts is None:
            table: dict[str, int] = {}
            self._named_consts = table
            macros: dict[str, str] = {m.group(1): m.group(2) for m in _DEFINE.finditer(self.text)}
            for d in self.defines:
                name, _, value = d.partition("=")
                macros[name.strip()] = value or "1"
            table.update(self.file_consts)
            for _ in range(4):  # macros naming macros
                for name, value in macros.items():
                    if name not in table:
                        v = self._eval_text_in(value, table)
                        if v is not None:
                            table[name] = v
        return self._named_consts

    def eval_text(self, text: str) -> int | None:
        return self._eval_text_in(text, self.named_consts())

    @staticmethod
    def _eval_text_in(text: str, names: dict[str, int]) -> int | None:
        text = _INT_SUFFIX.sub(r"\1", text.split("//")[0].strip())
        text = text.replace("&&", " and ").replace("||", " or ")
        try:
            tree = ast.parse(text, mode="eval")
        except (SyntaxError, ValueError):
            return None

        def ev(n: ast.AST) -> int:
            if isinstance(n, ast.Constant) and isinstance(n.value, int):
                return int(n.value)
            if isinstance(n, ast.Name) and n.id in names:
                return names[n.id]
            if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd, ast.Invert)):
                v = ev(n.operand)
                if isinstance(n.op, ast.USub):
                    return -v
                return ~v if isinstance(n.op, ast.Invert) else v
            if isinstance(n, ast.BinOp):
                ops = {
                    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "/",
                    ast.Mod: "%", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&",
                    ast.BitOr: "|", ast.BitXor: "^",
                }
                op = ops.get(type(n.op))
                if op is not None:
                    r = binary_value(op, ev(n.left), ev(n.right), LONG)
                    if r is not None:
                        return r
            raise ValueError(text)

        try:
            return ev(tree.body)
        except (ValueError, RecursionError):
            return None

    def type_size(self, text: str) -> int | None:
        spelled = " ".join(text.replace("const", " ").split())
        if spelled in _BUILTIN_TYPE_SIZES:
            return _BUILTIN_TYPE_SIZES[spelled]
        if self._type_sizes is None:
            sizes: dict[str, int] = {}
            for c in top_level(self.tu.cursor):
                if c.kind in (K.STRUCT_DECL, K.CLASS_DECL, K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL,
                              K.UNION_DECL):
                    size = c.type.get_size()
                    if size > 0:
                        sizes.setdefault(c.spelling, int(size))
            self._type_sizes = sizes
        return self._type_sizes.get(spelled)

    # kernels

    def _kernel_record(self, fn: _Function) -> Kernel:
        c = fn.node.cursor
        loc = c.location
        span = Span(self.path, loc.line, loc.column, loc.line, loc.column + len(fn.name))
        max_threads = None
        for ch in fn.node.children:
            if ch.kind == N.UNEXPOSED_ATTR:
                text = self.slice(ch.extent)
                m = re.match(r"\s*(?:__launch_bounds__|launch_bounds)\s*\((.*)\)\s*$", text, re.S)
                if m:
                    args = _split_top_level(m.group(1))
                    if args:
                        max_threads = self.eval_text(args[0])
        annotated = None
        start = c.extent.start.line
        if start >= 2 and start - 2 < len(self.lines):
            m2 = _BLOCK_DIM_ANNOTATION.search(self.lines[start - 2])
            if m2:
                annotated = (
                    int(m2.group(1)), int(m2.group(2) or 1), int(m2.group(3) or 1)
                )
        return Kernel(
            name=fn.name, span=span, max_threads=max_threads, annotated_block=annotated,
            template_params=tuple(p.name for p in fn.template_params),
        )


class _Scanner:
    """Pass 1 over one function body: variables, writes, shared declarations, sites."""

    def __init__(self, walker: _Walker, fn: _Function) -> None:
        self.w = walker
        self.fn = fn

    def shared_decl(self, ref: Node | None) -> _ArrayDecl | None:
        if ref is None:
            return None
        k = _key(ref)
        return self.fn.arrays.get(k) or self.w.file_arrays.get(k)

    def match(self, node: Node) -> tuple[_ArrayDecl, list[Node]] | None:
        """The shared array and subscripts (outermost first) of a subscript chain."""
        indices: list[Node] = []
        cur = node
        while True:
            if cur.kind == N.ARRAY_SUBSCRIPT:
                children = cur.children
                if len(children) != 2:
                    return None
                indices.append(children[1])
                cur = _strip(children[0])
            elif cur.kind == N.DECL_REF:
                a = self.shared_decl(cur.referenced)
                if a is None:
                    return None
                indices.reverse()
                return a, indices
            else:
                return None

    def mark_write(self, target: Node, rhs: Node | None, loop: int,
                   address: bool = False) -> None:
        t = _strip(target)
        while t.kind in (N.MEMBER_REF, N.ARRAY_SUBSCRIPT):
            children = t.children
            if not children:
                return
            t = _strip(children[0])
        if t.kind != N.DECL_REF:
            return
        ref = t.referenced
        if ref is None:
            return
        var = self.fn.vars.get(_key(ref))
        if var is None:
            return
        if address:
            var.address_taken = True
        else:
            var.assigned = True
        if loop:
            var.in_loop = True
        if rhs is not None:
            var.writes.append(rhs)

    def site(self, node: Node, role: str, guards: tuple[tuple[Node, bool], ...],
             loop: int) -> bool:
        """Record ``node`` if it is a complete shared access; True when it was one."""
        if node.kind == N.MEMBER_REF:
            children = node.children
            if len(children) != 1:
                return False
            inner = _strip(children[0])
            m = self.match(inner) if inner.kind in (N.ARRAY_SUBSCRIPT, N.DECL_REF) \
                else None
            if m is None or len(m[1]) != m[0].ndim:
                return False
            if TK.from_id(canonical_kind(node.type)) in _ARRAY_TYPES:
                return False  # an array member: the subscript on it is not modelled yet
            self.fn.sites.append(_Site(node, m[0], m[1], role, guards, member=node))
            for idx in m[1]:
                self.visit(idx, LOAD, guards, loop)
            return True
        m = self.match(node)
        if m is None:
            return False
        a, indices = m
        if len(indices) == a.ndim:
            self.fn.sites.append(_Site(node, a, indices, role, guards))
        for idx in indices:
            self.visit(idx, LOAD, guards, loop)
        return True

    def visit(self, c: Node, role: str, guards: tuple[tuple[Node, bool], ...],
              loop: int) -> None:
        kind = c.kind
        # DECL_REF_EXPR alone: a shared scalar (``count`` in ``x = count``).
        if kind in (N.ARRAY_SUBSCRIPT, N.MEMBER_REF, N.DECL_REF) and (
            self.site(c, role, guards, loop) or kind == N.DECL_REF
        ):
            return
        children = c.children
        if kind in (N.UNEXPOSED, N.PAREN):
            for ch in children:
                self.visit(ch, role, guards, loop)
            return
        if kind == N.BINARY and len(children) == 2:
            op = c.spelling
            if op == "=":
                self.mark_write(children[0], children[1], loop)
                self.visit(children[0], STORE, guards, loop)
                self.visit(children[1], LOAD, guards, loop)
                return
        elif kind == N.COMPOUND_ASSIGN and len(children) == 2:
            self.mark_write(children[0], children[1], loop)
            self.visit(children[0], RMW, guards, loop)
            self.visit(children[1], LOAD, guards, loop)
            return
        elif kind == N.UNARY and len(children) == 1:
            uo = unary_operator_kind(c.cursor)
            if uo in (UO_POST_INC, UO_POST_DEC, UO_PRE_INC, UO_PRE_DEC):
                self.mark_write(children[0], None, loop)
                self.visit(children[0], RMW, guards, loop)
                return
            if uo == UO_ADDR_OF:
                self.mark_write(children[0], None, loop, address=True)
                self.visit(children[0], ATOMIC if role == ATOMIC else ADDR, guards, loop)
                return
        elif kind == N.CALL:
            name = c.spelling
            if name in _ATOMICS:
                for i, a in enumerate(_arguments(c)):
                    self.visit(a, ATOMIC if i == 0 else LOAD, guards, loop)
                return
            if name.startswith("operator") and children:
                op = name[len("operator"):]
                if op == "=":
                    self.mark_write(children[0], children[-1], loop)
                    first_role = STORE
                elif op in ("++", "--") or (
                    op.endswith("=") and op not in ("==", "!=", "<=", ">=")
                ):
                    self.mark_write(children[0], children[-1] if len(children) > 2 else None,
                                    loop)
                    first_role = RMW
                else:
                    first_role = LOAD
                self.visit(children[0], first_role, guards, loop)
                for ch in children[1:]:
                    self.visit(ch, LOAD, guards, loop)
                return
            if any(ch.kind == N.CALL and ch.spelling == "cudaConfigureCall"
                   for ch in children):
                self.fn.launches.append(c)
        elif kind == N.VAR_DECL:
            self.var_decl(c, children, guards, loop)
            return
        elif kind == N.IF:
            cond_i = next((i for i, ch in enumerate(children) if ch.is_expr), None)
            if cond_i is not None:
                cond = children[cond_i]
                for ch in children[:cond_i]:
                    self.visit(ch, LOAD, guards, loop)
                self.visit(cond, LOAD, guards, loop)
                rest = children[cond_i + 1:]
                if rest:
                    self.visit(rest[0], LOAD, (*guards, (cond, True)), loop)
                if len(rest) > 1:
                    self.visit(rest[1], LOAD, (*guards, (cond, False)), loop)
                return
        elif kind == N.CONDITIONAL and len(children) == 3:
            cond = children[0]
            self.visit(cond, LOAD, guards, loop)
            self.visit(children[1], role, (*guards, (cond, True)), loop)
            self.visit(children[2], role, (*guards, (cond, False)), loop)
            return
        elif kind in _LOOPS:
            for ch in children:
                if kind == N.FOR and ch.kind == N.DECL_STMT:
                    for d in ch.children:
                        if d.kind == N.VAR_DECL:
                            self.var_decl(d, d.children, guards, loop + 1,
                                          loop_var=True)
                    continue
                self.visit(ch, LOAD, guards, loop + 1)
            return
        for ch in children:
            self.visit(ch, LOAD, guards, loop)

    def var_decl(self, c: Node, children: list[Node],
                 guards: tuple[tuple[Node, bool], ...], loop: int,
                 loop_var: bool = False) -> None:
        if any(ch.kind == N.CUDASHARED for ch in children):
            a = self.w._array_decl(c, self.fn.name)
            if a is not None:
                self.fn.arrays[_key(c.cursor)] = a
            return
        init = None
        if TK.from_id(canonical_kind(c.type)) not in _ARRAY_TYPES:
            exprs = [ch for ch in children if ch.is_expr]
            init = exprs[-1] if exprs else None
        self.fn.vars[_key(c.cursor)] = _Var(c.spelling, init, in_loop=loop > 0, loop_var=loop_var)
        for ch in children:
            self.visit(ch, LOAD, guards, loop)


class _Translator:
    """Pass 2: cursors to IR expressions under one set of template arguments."""

    def __init__(self, walker: _Walker, fn: _Function | None, env: _Env) -> None:
        self.w = walker
        self.fn = fn
        self.env = env
        self.var_cache: dict[int, Expr] = {}
        self.memo: dict[int, Expr] = {}  # by id() of Nodes, which live as long as the walk
        self.in_progress: set[int] = set()
        self.array_cache: dict[int, tuple[SharedArray, list[Expr], int | None, str]] = {}

    # shared arrays under this environment

    def array_record(self, a: _ArrayDecl) -> tuple[SharedArray, list[Expr], int | None, str]:
        k = _key(a.cursor)
        hit = self.array_cache.get(k)
        if hit is not None:
            return hit
        dim_exprs: list[Expr] = []
        dims: list[int] = []
        for d, ext in zip(a.static_dims, a.extents, strict=True):
            if d is not None:
                dims.append(d)
                dim_exprs.append(Const(d, LONG))
                continue
            e = self.expr(ext) if ext is not None else Opaque("unknown extent")
            if isinstance(e, Const):
                dims.append(e.value)
                dim_exprs.append(Const(e.value, LONG))
            else:
                dims.append(0)
                dim_exprs.append(e)
        element_type = a.element_type.spelling
        elem_bytes: int | None = int(a.element_type.get_size())
        unknown = ""
        if elem_bytes is not None and elem_bytes <= 0:
            bound = self.env.types.get(element_type)
            if bound is not None:
                element_type, elem_bytes = bound
            else:
                elem_bytes = None
                unknown = f"element type depends on template parameter {element_type}"
        base = a.kernel or ""
        if a.dependent and self.env.label:
            base = f"{base}<{self.env.label}>"
        key = f"{base}::{a.name}"
        rec = SharedArray(
            key=key, name=a.name, element_type=element_type, element_bytes=elem_bytes or 0,
            dims=tuple(dims), span=a.span, dim_spans=a.dim_spans, dim_texts=a.dim_texts,
            kernel=a.kernel,
        )
        result = (rec, dim_exprs, elem_bytes, unknown)
        self.array_cache[k] = result
        return result

    # accesses

    def accesses(self, site: _Site) -> list[Access]:
        kinds = _ROLE_KINDS[site.role]
        if not kinds:
            return []
        assert self.fn is not None
        rec, dim_exprs, elem_bytes, unknown = self.array_record(site.array)
        offset: Expr | None = None
        for k, idx in enumerate(site.indices):
            ie = self.expr(idx)
            if offset is None:
                offset = ie
            else:
                offset = fold(Binary("+", fold(Binary("*", offset, dim_exprs[k], LONG)), ie,
                                     LONG))
        if offset is None:
            offset = Const(0, LONG)
        width = elem_bytes or 0
        member_offset = 0
        if site.member is not None:
            width = max(int(site.member.type.get_size()), 0)
            record = site.array.element_type.get_canonical()
            off = record.get_offset(site.member.spelling)
            if off >= 0:
                member_offset = off // 8
            elif elem_bytes is not None:  # e.g. a member of a template-dependent record
                elem_bytes = None
                unknown = f"offset of member '{site.member.spelling}' is not known"
        if elem_bytes is None:
            offset = Opaque(unknown, _dedupe([offset]), LONG)
        else:
            if elem_bytes != 1:
                offset = fold(Binary("*", offset, Const(elem_bytes, LONG), LONG))
            if member_offset:
                offset = fold(Binary("+", offset, Const(member_offset, LONG), LONG))
            if offset.type != LONG:
                offset = fold(Cast(offset, LONG))
        guard = self.guard(site.guards)
        span = self.w.span(site.node.extent)
        text = self.w.slice(site.node.extent)
        return [
            Access(
                array=rec.key, kernel=self.fn.name, kind=kind,  # type: ignore[arg-type]
                width=width, offset=offset, span=span, text=text, guard=guard,
                instantiation=self.env.label, unknown_reason=unknown or None,
            )
            for kind in kinds
        ]

    def guard(self, guards: tuple[tuple[Node, bool], ...]) -> Expr | None:
        result: Expr | None = None
        for cond, positive in guards:
            e = self.expr(cond)
            if not positive:
                e = fold(Unary("!", e, INT))
            result = e if result is None else fold(Binary("&&", result, e, INT))
        return result

    # launches

    def launch(self, call: Node) -> Launch | None:
        config = next(
            (ch for ch in call.children
             if ch.kind == N.CALL and ch.spelling == "cudaConfigureCall"),
            None,
        )
        if config is None:
            return None
        args = _arguments(config)
        block = self.dim3_value(args[1], 0) if len(args) > 1 else None
        label = None
        kernel = self.w.kernels_by_name.get(call.spelling)
        if kernel is not None and kernel.template_params:
            env = self.w._launch_env(call, kernel)
            label = env.label if env is not None else None
        return Launch(call.spelling, block, self.w.span(call.extent), label)

    def dim3_value(self, c: Node, depth: int) -> tuple[int, int, int] | None:
        if depth > 8:
            return None
        c = _strip(c)
        kind = c.kind
        if kind == N.FUNCTIONAL_CAST:
            inner = c.expr_children()
            return self.dim3_value(inner[-1], depth + 1) if inner else None
        if kind in (N.CALL, N.INIT_LIST):
            args = _arguments(c) if kind == N.CALL else c.expr_children()
            if kind == N.CALL and c.spelling != "dim3":
                return None
            if len(args) == 1 and node_int_type(args[0]) is None:
                return self.dim3_value(args[0], depth + 1)  # copy of another dim3
            values: list[int] = []
            for a in args:
                v = self.expr(a)
                if not isinstance(v, Const):
                    return None
                values.append(v.value)
            while len(values) < 3:
                values.append(1)
            return (values[0], values[1], values[2]) if len(values) == 3 else None
        if kind == N.DECL_REF:
            ref = c.referenced
            if ref is None or ref.kind != K.VAR_DECL:
                return None
            var = self.fn.vars.get(_key(ref)) if self.fn is not None else None
            if var is not None:
                if var.modified or var.init is None:
                    return None
                return self.dim3_value(var.init, depth + 1)
            if not ref.type.is_const_qualified():
                return None
            inits = build(ref).expr_children()
            return self.dim3_value(inits[-1], depth + 1) if inits else None
        e = self.expr(c)
        if isinstance(e, Const):
            return (e.value, 1, 1)
        return None

    # expressions

    def expr(self, c: Node) -> Expr:
        hit = self.memo.get(id(c))
        if hit is None:
            hit = fold(self._expr(c))
            self.memo[id(c)] = hit
        return hit

    def _opaque(self, reason: str, c: Node, t: IntType | None = None) -> Opaque:
        inputs = _dedupe(self.expr(ch) for ch in c.expr_children())
        return Opaque(reason, inputs, t or INT)

    def _expr(self, c: Node) -> Expr:
        kind = c.kind
        if kind in (N.INTEGER_LITERAL, N.CHARACTER_LITERAL, N.BOOL_LITERAL):
            v = evaluate_int(c.cursor)
            if v is None:
                return Opaque("literal that is not an integer")
            return Const(v, node_int_type(c) or INT)
        if kind == N.PAREN:
            children = c.expr_children()
            return self.expr(children[0]) if len(children) == 1 else self._opaque("( )", c)
        if kind == N.UNEXPOSED:
            children = c.children
            if len(children) == 1 and children[0].is_expr:
                return self.convert(self.expr(children[0]), children[0], c.type)
            v = evaluate_int(c.cursor)
            if v is not None:
                return Const(v, node_int_type(c) or INT)
            return self._opaque("unsupported expression", c)
        if kind == N.DECL_REF:
            return self.decl_ref(c)
        if kind == N.MEMBER_REF:
            return self.member_ref(c)
        if kind == N.BINARY:
            return self.binary(c)
        if kind == N.UNARY:
            return self.unary(c)
        if kind == N.CONDITIONAL:
            children = c.expr_children()
            t = node_int_type(c)
            if len(children) != 3 or t is None:
                return self._opaque("conditional expression that is not an integer", c)
            return Select(self.truth(children[0]), self.expr(children[1]),
                          self.expr(children[2]), t)
        if kind in _CASTS:
            children = c.expr_children()
            t = node_int_type(c)
            if not children or t is None:
                return self._opaque("conversion to a type that is not an integer", c)
            return self.convert(self.expr(children[-1]), children[-1], c.type)
        if kind == N.CALL:
            return self.call(c)
        if kind == N.UNARY_EXPR:
            v = evaluate_int(c.cursor)
            if v is not None:
                return Const(v, node_int_type(c) or LONG)
            for ch in c.children:
                if ch.kind == N.TYPE_REF and ch.spelling in self.env.types:
                    return Const(self.env.types[ch.spelling][1], node_int_type(c) or LONG)
            return Opaque("size of a type that depends on a template parameter", (),
                          node_int_type(c) or LONG)
        if kind == N.ARRAY_SUBSCRIPT:
            children = c.children
            base = _strip(children[0]) if children else c
            while base.kind == N.ARRAY_SUBSCRIPT:
                bc = base.children
                base = _strip(bc[0]) if bc else base
                if not bc:
                    break
            name = base.spelling or self.w.slice(base.extent) or "memory"
            inputs = _dedupe(self.expr(ch) for ch in children[1:])
            return Opaque(f"value loaded from '{name}'", inputs, node_int_type(c) or INT)
        v = evaluate_int(c.cursor)
        if v is not None:
            return Const(v, node_int_type(c) or INT)
        kind_name = K.from_id(kind).name.lower()
        return self._opaque(f"unsupported expression ({kind_name})", c,
                            node_int_type(c))

    def convert(self, e: Expr, source: Node, target: ci.Type) -> Expr:
        """``e`` (the value of cursor ``source``) converted to the clang type ``target``."""
        t = int_type(target)
        if t is None:
            return e  # pointer decay, lvalue-to-rvalue on non-integers, dependent types
        s = node_int_type(source)
        src_kind = canonical_kind(source.type)
        if s is None:
            if src_kind in _DEPENDENT_KINDS:
                return e
            if isinstance(e, Opaque):
                return Opaque(e.reason, e.inputs, t)
            return Opaque("conversion of a value that is not an integer", _dedupe([e]), t)
        if canonical_kind(target) == _BOOL and src_kind != _BOOL:
            return fold(Binary("!=", e, Const(0, e.type), e.type))
        if e.type == t:
            return e
        return fold(Cast(e, t))

    def truth(self, c: Node) -> Expr:
        """A condition as an integer that is non-zero when it holds."""
        e = self.expr(c)
        if node_int_type(c) is None and canonical_kind(c.type) not in _DEPENDENT_KINDS \
                and not isinstance(e, Opaque):
            return Opaque("condition that is not an integer", _dedupe([e]))
        return e

    def binary(self, c: Node) -> Expr:
        children = c.expr_children()
        op = c.spelling
        if len(children) != 2 or op not in _BINARY_OPS:
            return self._opaque(f"operator '{op}' inside an index", c)
        lhs, rhs = self.expr(children[0]), self.expr(children[1])
        t = node_int_type(c)
        if t is None and canonical_kind(c.type) not in _DEPENDENT_KINDS:
            return Opaque("arithmetic that is not on integers", _dedupe([lhs, rhs]))
        if op in ("&&", "||"):
            return Binary(op, lhs, rhs, INT)  # type: ignore[arg-type]
        if op in _COMPARISONS:
            return Binary(op, lhs, rhs, lhs.type)  # type: ignore[arg-type]
        return Binary(op, lhs, rhs, t or lhs.type)  # type: ignore[arg-type]

    def unary(self, c: Node) -> Expr:
        children = c.expr_children()
        if len(children) != 1:
            return self._opaque("unsupported unary operator", c)
        uo = unary_operator_kind(c.cursor)
        t = node_int_type(c) or INT
        if uo in (UO_MINUS, UO_PLUS, UO_NOT):
            if node_int_type(c) is None:
                return self._opaque("arithmetic that is not on integers", c)
            op = {UO_MINUS: "-", UO_PLUS: "+", UO_NOT: "~"}[uo]
            return Unary(op, self.expr(children[0]), t)  # type: ignore[arg-type]
        if uo == UO_LNOT:
            return Unary("!", self.truth(children[0]), INT)
        if uo == UO_DEREF:
            return self._opaque("value loaded through a pointer", c, t)
        if uo in (UO_POST_INC, UO_POST_DEC, UO_PRE_INC, UO_PRE_DEC):
            return self._opaque("increment inside an index", c, t)
        return self._opaque("unsupported unary operator", c, t)

    def call(self, c: Node) -> Expr:
        name = c.spelling
        args = _arguments(c)
        t = node_int_type(c)
        if name in ("min", "max") and len(args) == 2 and t is not None:
            return Binary(name, self.expr(args[0]), self.expr(args[1]), t)  # type: ignore[arg-type]
        v = evaluate_int(c.cursor)  # constexpr functions
        if v is not None:
            return Const(v, t or INT)
        inputs = _dedupe(self.expr(a) for a in args)
        return Opaque(f"call to '{name}'", inputs, t or INT)

    def member_ref(self, c: Node) -> Expr:
        children = c.children
        base = _strip(children[0]) if len(children) == 1 else None
        t = node_int_type(c) or INT
        if base is not None and base.kind == N.DECL_REF and base.spelling in _BUILTIN_VARS:
            ref = base.referenced
            if ref is not None and (self.fn is None or _key(ref) not in self.fn.vars):
                name = f"{base.spelling}.{c.spelling}"
                return Sym(name, UINT, lane_dependent=base.spelling == "threadIdx")
        v = evaluate_int(c.cursor)
        if v is not None:
            return Const(v, t)
        what = self.w.slice(c.extent) or c.spelling
        inputs = _dedupe(self.expr(ch) for ch in children if ch.is_expr
                         and node_int_type(ch) is not None)
        return Opaque(f"value loaded from '{what}'", inputs, t)

    def decl_ref(self, c: Node) -> Expr:
        ref = c.referenced
        name = c.spelling
        t = node_int_type(c)
        if ref is None:
            return Opaque(f"unresolved name '{name}'", (), t or INT)
        rk = ref.kind
        if rk == K.ENUM_CONSTANT_DECL:
            return Const(int(ref.enum_value), t or INT)
        if rk == K.TEMPLATE_NON_TYPE_PARAMETER:
            pt = int_type(ref.type) or INT
            if name in self.env.values:
                return Const(self.env.values[name], pt)
            return Sym(name, pt)
        if rk not in (K.VAR_DECL, K.PARM_DECL):
            v = evaluate_int(c.cursor)
            if v is not None:
                return Const(v, t or INT)
            return Opaque(f"'{name}' is not a variable", (), t or INT)
        var = self.fn.vars.get(_key(ref)) if self.fn is not None else None
        if var is None:
            # A variable outside the function: a constant, or memory.
            if name == "warpSize":
                return Const(32, INT)
            v = evaluate_int(c.cursor)
            if v is not None:
                return Const(v, t or INT)
            return Opaque(f"value loaded from '{name}'", (), t or INT)
        if t is None and canonical_kind(c.type) not in _DEPENDENT_KINDS:
            return Opaque(f"'{name}' is not an integer", (), INT)
        if var.is_param:
            assert self.fn is not None
            if var.modified:
                return self.modified_var(var, c, Sym(name, t or INT))
            if self.fn.is_kernel:
                return Sym(name, t or INT)
            return Opaque(
                f"parameter '{name}' of device function '{self.fn.name}'", _THREAD_SYMS,
                t or INT,
            )
        if ref.type.is_const_qualified() or not var.modified:
            v = evaluate_int(c.cursor)
            if v is not None:
                return Const(v, t or INT)
        if var.modified or var.init is None:
            return self.modified_var(var, c, None)
        k = _key(ref)
        hit = self.var_cache.get(k)
        if hit is not None:
            return hit
        if k in self.in_progress:
            return Opaque(f"'{name}' depends on itself", (), t or INT)
        self.in_progress.add(k)
        try:
            e = self.convert(self.expr(var.init), var.init, ref.type)
        finally:
            self.in_progress.discard(k)
        self.var_cache[k] = e
        return e

    def modified_var(self, var: _Var, c: Node, seed: Expr | None) -> Expr:
        ref = c.referenced
        k = _key(ref)
        t = node_int_type(c) or INT
        if var.loop_var:
            reason = f"'{var.name}' is a loop variable"
        elif var.address_taken:
            reason = f"the address of '{var.name}' is taken"
        elif var.assigned and var.in_loop:
            reason = f"'{var.name}' is assigned in a loop"
        elif var.assigned:
            reason = f"'{var.name}' is reassigned"
        else:
            reason = f"'{var.name}' has no initializer"
        hit = self.var_cache.get(k)
        if hit is not None:
            return hit
        if k in self.in_progress:
            return Opaque(reason, (), t)
        self.in_progress.add(k)
        try:
            sources: list[Expr] = [] if seed is None else [seed]
            if var.init is not None:
                sources.append(self.expr(var.init))
            sources.extend(self.expr(w) for w in var.writes)
        finally:
            self.in_progress.discard(k)
        e = Opaque(reason, _dedupe(sources), t)
        self.var_cache[k] = e
        return e


def walk_translation_unit(
    tu: ci.TranslationUnit, path: str, source: bytes, notes: list[Note],
    defines: tuple[str, ...] = (),
) -> TranslationUnit:
    """The IR of a parsed translation unit (``path`` names its main file in spans)."""
    return _Walker(tu, path, source, notes, defines).run()
