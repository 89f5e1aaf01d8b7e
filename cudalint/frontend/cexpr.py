"""C integer constant expressions written in text, parsed as C and evaluated with C's rules.

Some constants reach cudalint as text rather than through clang's AST: ``#define`` bodies
that name a launch or template argument, ``-D NAME=VALUE`` flags and the configuration's
``defines``, the arguments of ``__launch_bounds__`` and explicit instantiations, and the
``// cudalint: block-dim(...)`` annotation. They are parsed with pycparser's C expression
grammar and evaluated with C's integer semantics on an LP64 target (CUDA's):

- literals take their C type: ``u``/``l``/``ll`` suffixes, decimal literals that do not
  fit ``int`` become ``long``, hex and octal ones may become unsigned (``0x10``, ``010``);
- the usual arithmetic conversions: ``1u - 2`` wraps to 4294967295, ``-1 < 1u`` is 0;
- division and ``%`` truncate toward zero (``-7 / 2`` is -3, ``-7 % 2`` is -1);
- shifts by a negative count or by the width or more, and division by zero, have no value;
- casts to the standard integer types and the ``<stdint.h>`` names, ``sizeof`` of a
  built-in type, ``?:``, ``&&``/``||`` (short-circuit), comparisons, ``!``, ``~``.

Anything else (floating constants, unknown names, assignments, function calls) has no
value: :func:`evaluate` returns None, never raises.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from functools import lru_cache

from pycparser import c_ast, c_parser

from cudalint.frontend.consteval import binary_value, wrap
from cudalint.ir import INT, LONG, UINT, IntType

ULONG = IntType(64, False)
_CHAR = IntType(8, True)
_UCHAR = IntType(8, False)
_SHORT = IntType(16, True)
_USHORT = IntType(16, False)
_BOOL = IntType(1, False)

#: A value and its C type.
Typed = tuple[int, IntType]

#: The ``<stdint.h>``/``<stddef.h>`` names a cast may use, declared to the parser.
_TYPEDEFS: dict[str, IntType] = {
    "int8_t": _CHAR, "uint8_t": _UCHAR, "int16_t": _SHORT, "uint16_t": _USHORT,
    "int32_t": INT, "uint32_t": UINT, "int64_t": LONG, "uint64_t": ULONG,
    "size_t": ULONG, "ptrdiff_t": LONG, "intptr_t": LONG, "uintptr_t": ULONG,
    "bool": _BOOL,
}
_PRELUDE = "".join(f"typedef int {name};" for name in _TYPEDEFS)
_RESULT = "__cudalint_value"

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_SIZES = {8: 1, 16: 2, 32: 4, 64: 8, 1: 1}
_ARITHMETIC = frozenset(["+", "-", "*", "/", "%", "&", "|", "^"])
_COMPARISON = frozenset(["<", "<=", ">", ">=", "==", "!="])


class _NoValue(Exception):
    """The expression has no integer value (or one cudalint does not compute)."""


_parser: c_parser.CParser | None = None
_parser_lock = threading.Lock()  # one parser, not re-entrant (the language server's threads)


@lru_cache(maxsize=4096)
def _parse(text: str) -> c_ast.Node | None:
    """The expression tree of ``text``, or None when it is not one C expression."""
    global _parser
    text = _COMMENT.sub(" ", text).strip()
    if not text:
        return None
    with _parser_lock:
        if _parser is None:
            _parser = c_parser.CParser()
        try:
            unit = _parser.parse(f"{_PRELUDE}\nlong long {_RESULT} = ({text}\n);")
        except Exception:  # pycparser raises ParseError and, on some input, its own others
            return None
    # Text that closes the parenthesis and declares more is not one expression.
    if len(unit.ext) != len(_TYPEDEFS) + 1:
        return None
    decl = unit.ext[-1]
    if not isinstance(decl, c_ast.Decl) or decl.name != _RESULT or decl.init is None:
        return None
    node: c_ast.Node = decl.init
    return node


def evaluate(text: str, names: Mapping[str, int] | None = None,
             types: Mapping[str, IntType] | None = None) -> int | None:
    """The value of the C integer constant expression ``text``, or None.

    ``names`` gives identifiers' values (enumerators, constants, macros already
    evaluated) and ``types`` their C types, where known (else the type of an
    unsuffixed literal of that value)."""
    r = evaluate_typed(text, names, types)
    return None if r is None else r[0]


def evaluate_typed(text: str, names: Mapping[str, int] | None = None,
                   types: Mapping[str, IntType] | None = None) -> Typed | None:
    """:func:`evaluate` with the value's C type."""
    tree = _parse(text)
    if tree is None:
        return None
    try:
        return _Evaluator(names or {}, types or {}).value(tree)
    except (_NoValue, RecursionError):
        return None


def literal_type(value: int) -> IntType:
    """The type C gives an unsuffixed decimal literal of ``value`` (negative values: the
    type that holds them)."""
    for t in (INT, LONG):
        if wrap(value, t) == value:
            return t
    return ULONG


def _int_literal(spelling: str) -> Typed:
    try:
        return _int_literal_of(spelling)
    except ValueError:  # 08, 0x, 1'2'': spellings the lexer let through
        raise _NoValue(spelling) from None


def _int_literal_of(spelling: str) -> Typed:
    body = spelling.rstrip("uUlL")
    suffix = spelling[len(body):].lower()
    if "'" in body:  # C++14 digit separators
        body = body.replace("'", "")
    if body[:2] in ("0x", "0X"):
        value, decimal = int(body[2:], 16), False
    elif body[:2] in ("0b", "0B"):
        value, decimal = int(body[2:], 2), False
    elif len(body) > 1 and body[0] == "0":
        value, decimal = int(body[1:], 8), False
    else:
        value, decimal = int(body, 10), True
    unsigned = "u" in suffix
    longs = suffix.count("l")
    candidates: list[IntType] = []
    if not longs:
        candidates += [UINT] if unsigned else ([INT] if decimal else [INT, UINT])
    if unsigned:
        candidates.append(ULONG)
    else:
        candidates += [LONG] if decimal else [LONG, ULONG]
    for t in candidates:
        if wrap(value, t) == value:
            return value, t
    raise _NoValue(spelling)


_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39, '"': 34, "a": 7, "b": 8,
            "f": 12, "v": 11}


def _char_literal(spelling: str) -> Typed:
    body = spelling[1:-1]
    if len(body) == 1:
        return ord(body), INT
    if len(body) == 2 and body[0] == "\\" and body[1] in _ESCAPES:
        return _ESCAPES[body[1]], INT
    raise _NoValue(spelling)


def _promote(t: IntType) -> IntType:
    """C's integer promotions: types narrower than ``int`` become ``int``."""
    return INT if t.bits < 32 else t


def _common(a: IntType, b: IntType) -> IntType:
    """C's usual arithmetic conversions of two (promoted) integer types."""
    a, b = _promote(a), _promote(b)
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    s, u = (a, b) if a.signed else (b, a)
    if u.bits >= s.bits:
        return u
    return s  # the signed type is wider, so it holds every value of the unsigned one


def _type_of_names(names: list[str]) -> IntType:
    if len(names) == 1 and names[0] in _TYPEDEFS:
        return _TYPEDEFS[names[0]]
    words = [n for n in names if n not in ("signed", "const", "volatile")]
    unsigned = "unsigned" in words
    words = [n for n in words if n != "unsigned"]
    base = {
        (): 32, ("int",): 32, ("char",): 8, ("short",): 16, ("short", "int"): 16,
        ("long",): 64, ("long", "int"): 64, ("long", "long"): 64,
        ("long", "long", "int"): 64,
    }.get(tuple(words))
    if base is None:
        if words == ["bool"] or words == ["_Bool"]:
            return _BOOL
        raise _NoValue(" ".join(names))
    return IntType(base, not unsigned)


def _typename(node: c_ast.Node) -> IntType:
    if not isinstance(node, c_ast.Typename) or not isinstance(node.type, c_ast.TypeDecl):
        raise _NoValue("not an integer type")
    inner = node.type.type
    if not isinstance(inner, c_ast.IdentifierType):
        raise _NoValue("not an integer type")
    return _type_of_names(list(inner.names))


class _Evaluator:
    def __init__(self, names: Mapping[str, int], types: Mapping[str, IntType]) -> None:
        self.names = names
        self.types = types

    def value(self, n: c_ast.Node) -> Typed:
        if isinstance(n, c_ast.Constant):
            if n.type == "char" or n.value.startswith("'"):
                return _char_literal(n.value)
            if n.type == "string" or n.type in ("float", "double", "long double"):
                raise _NoValue(n.value)
            return _int_literal(n.value)
        if isinstance(n, c_ast.ID):
            if n.name in ("true", "false"):
                return int(n.name == "true"), _BOOL
            if n.name not in self.names:
                raise _NoValue(n.name)
            v = self.names[n.name]
            t = self.types.get(n.name) or literal_type(v)
            return wrap(v, t), t
        if isinstance(n, c_ast.UnaryOp):
            return self.unary(n)
        if isinstance(n, c_ast.BinaryOp):
            return self.binary(n)
        if isinstance(n, c_ast.TernaryOp):
            cond, _ = self.value(n.cond)
            chosen, other = (n.iftrue, n.iffalse) if cond else (n.iffalse, n.iftrue)
            v, t = self.value(chosen)
            # The result has the common type of both arms, even where the other one has
            # no value (1 ? 2 : 1u / 0 is unsigned).
            t = _common(t, self.ctype(other))
            return wrap(v, t), t
        if isinstance(n, c_ast.Cast):
            t = _typename(n.to_type)
            v, _ = self.value(n.expr)
            return (int(v != 0) if t == _BOOL else wrap(v, t)), t
        raise _NoValue(type(n).__name__)

    def ctype(self, n: c_ast.Node) -> IntType:
        """The C type of ``n`` without evaluating it (an arm ``?:`` does not take)."""
        if isinstance(n, c_ast.Cast):
            return _typename(n.to_type)
        if isinstance(n, c_ast.TernaryOp):
            return _common(self.ctype(n.iftrue), self.ctype(n.iffalse))
        if isinstance(n, c_ast.UnaryOp):
            if n.op == "sizeof":
                return ULONG
            return INT if n.op == "!" else _promote(self.ctype(n.expr))
        if isinstance(n, c_ast.BinaryOp):
            if n.op in _COMPARISON or n.op in ("&&", "||"):
                return INT
            if n.op in ("<<", ">>"):
                return _promote(self.ctype(n.left))
            return _common(self.ctype(n.left), self.ctype(n.right))
        return self.value(n)[1]  # a constant or a name: its value is at hand

    def unary(self, n: c_ast.UnaryOp) -> Typed:
        if n.op == "sizeof":
            if isinstance(n.expr, c_ast.Typename):
                inner = getattr(n.expr.type, "type", None)
                if isinstance(inner, c_ast.IdentifierType) and inner.names in (
                        ["float"], ["double"]):
                    return (4 if inner.names == ["float"] else 8), ULONG
                return _SIZES[_typename(n.expr).bits], ULONG
            raise _NoValue("sizeof of an expression")
        v, t = self.value(n.expr)
        if n.op == "!":
            return int(v == 0), INT
        t = _promote(t)
        if n.op == "+":
            return wrap(v, t), t
        if n.op == "-":
            return wrap(-v, t), t
        if n.op == "~":
            return wrap(~v, t), t
        raise _NoValue(n.op)

    def binary(self, n: c_ast.BinaryOp) -> Typed:
        op = n.op
        if op in ("&&", "||"):
            a, _ = self.value(n.left)
            if (op == "&&" and not a) or (op == "||" and a):
                return int(op == "||"), INT
            b, _ = self.value(n.right)
            return int(bool(b)), INT
        a, ta = self.value(n.left)
        b, tb = self.value(n.right)
        if op in ("<<", ">>"):
            t = _promote(ta)
            r = binary_value(op, a, b, t)
        elif op in _ARITHMETIC or op in _COMPARISON:
            t = _common(ta, tb)
            r = binary_value(op, a, b, t)
            if op in _COMPARISON:
                t = INT
        else:
            raise _NoValue(op)
        if r is None:
            raise _NoValue(op)
        return r, t
