"""Evaluate IR expressions with C semantics, fast: each expression compiles once to a
Python function of its symbols, which is then called per lane.

C semantics: ``/`` truncates toward zero, ``%`` takes the sign of the dividend, results
wrap to their type's width (unsigned modulo 2^n, signed two's complement), ``>>`` on a
signed value is arithmetic, comparisons and logical operators give 0 or 1. Division by
zero and out-of-range shifts raise :class:`EvalError` (they are undefined in C).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from cudalint.ir import (
    BIT_INTRINSICS,
    INT,
    Binary,
    Cast,
    Const,
    Expr,
    IntType,
    Opaque,
    Select,
    Sym,
    Unary,
    bit_intrinsic,
    walk,
)


class EvalError(ArithmeticError):
    """The expression has no defined value for these inputs."""


#: What evaluating a compiled expression can raise: unsigned division is emitted as
#: Python's ``//`` and ``%`` (exact for non-negative operands) and raises
#: ZeroDivisionError on a zero divisor.
EVAL_ERRORS = (EvalError, ZeroDivisionError)


def wrap(value: int, t: IntType) -> int:
    mask = (1 << t.bits) - 1
    value &= mask
    if t.signed and value >> (t.bits - 1):
        value -= 1 << t.bits
    return value


def c_div(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def c_mod(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("remainder by zero")
    return a - c_div(a, b) * b


def c_shl(a: int, b: int, bits: int) -> int:
    if b < 0 or b >= bits:
        raise EvalError(f"shift by {b}")
    return a << b


def c_shr(a: int, b: int, bits: int) -> int:
    if b < 0 or b >= bits:
        raise EvalError(f"shift by {b}")
    return a >> b


_HELPERS: dict[str, object] = {
    "_bits": bit_intrinsic,
    "_wrap": wrap,
    "_div": c_div,
    "_mod": c_mod,
    "_shl": c_shl,
    "_shr": c_shr,
    "IntType": IntType,
}

_SIMPLE = {"+": "+", "-": "-", "*": "*", "&": "&", "|": "|", "^": "^"}
_COMPARE = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}


def free_symbols(expr: Expr) -> set[Sym]:
    """Every symbol the expression reads (Opaque inputs included)."""
    try:
        return set(_free_symbols_cached(expr))
    except RecursionError:  # too deep to hash as a cache key
        return _free_symbols(expr)


@lru_cache(maxsize=8192)
def _free_symbols_cached(expr: Expr) -> frozenset[Sym]:
    return frozenset(_free_symbols(expr))


def _free_symbols(expr: Expr) -> set[Sym]:
    return {e for e in walk(expr) if isinstance(e, Sym)}


def type_range(t: IntType) -> tuple[int, int]:
    """The least and greatest value of type ``t``."""
    if t.signed:
        half = 1 << (t.bits - 1)
        return -half, half - 1
    return 0, (1 << t.bits) - 1


def _fits(lo: int, hi: int, t: IntType) -> bool:
    if t.signed:
        half = 1 << (t.bits - 1)
        return -half <= lo and hi < half
    return lo >= 0 and hi < (1 << t.bits)


_ORDERED = ("<", "<=", ">", ">=", "==", "!=", "&&", "||")


def interval(e: Expr, env: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
    """Bounds of the exact value of ``e`` for its symbols in the ranges ``env``, shown
    only where no operation leaves its C type (no value wraps), every ``/`` and ``%``
    has a non-negative dividend and a positive divisor (C's truncation is then Python's
    floor, and nothing divides by zero), every bit operation and shift has non-negative
    operands (and a shift count below the width), and every operation is one of ``+ - *
    / % & | ^ << >>``, a negation, a cast, a comparison or ``&&``/``||``; None otherwise
    (and for a symbol without a range). Where it is shown, :func:`compile_expr` and
    :func:`compile_warp` with ``plain`` compute the same values with plain integer
    arithmetic."""
    out: tuple[int, int] | None
    if isinstance(e, Const):
        v = wrap(e.value, e.type)
        return v, v
    if isinstance(e, Sym):
        return env.get(e.name)
    if isinstance(e, Cast):
        out = interval(e.operand, env)
    elif isinstance(e, Unary):
        x = interval(e.operand, env)
        if x is None:
            return None
        if e.op in ("popc", "clz", "ffs"):
            out = (0, e.operand.type.bits)
        elif e.op not in ("-", "+"):
            return None
        else:
            out = (-x[1], -x[0]) if e.op == "-" else x
    elif isinstance(e, Binary):
        a, b = interval(e.lhs, env), interval(e.rhs, env)
        if a is None or b is None:
            return None
        if e.op == "+":
            out = (a[0] + b[0], a[1] + b[1])
        elif e.op == "-":
            out = (a[0] - b[1], a[1] - b[0])
        elif e.op == "*":
            products = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
            out = (min(products), max(products))
        elif e.op in ("/", "%") and a[0] >= 0 and b[0] > 0:
            out = (a[0] // b[1], a[1] // b[0]) if e.op == "/" else (0, min(a[1], b[1] - 1))
        elif e.op in _ORDERED:
            return (0, 1)
        elif a[0] < 0 or b[0] < 0:
            return None
        elif e.op == "&":
            out = (0, min(a[1], b[1]))
        elif e.op in ("|", "^"):
            out = (0, (1 << max(a[1], b[1]).bit_length()) - 1)
        elif e.op in ("<<", ">>") and b[1] < e.type.bits:
            out = (a[0] << b[0], a[1] << b[1]) if e.op == "<<" else (a[0] >> b[1], a[1] >> b[0])
        else:
            return None
    else:
        return None
    if out is None or not _fits(out[0], out[1], e.type):
        return None
    return out


class _Compiler:
    def __init__(self, names: dict[str, str], plain: bool = False) -> None:
        self.names = names
        #: Plain integer arithmetic (no wrap, ``//`` and ``%``), where :func:`interval`
        #: shows it gives the C values.
        self.plain = plain
        self.consts: dict[str, IntType] = {}
        #: Temporaries (``_t0``, ``_t1``, ...) of the inlined signed divisions.
        self.temps = 0

    def _signed_divmod(self, a: str, b: str, op: str, helper: str) -> str:
        """C's signed ``a / b`` or ``a % b``: Python's ``//`` and ``%`` when ``a >= 0`` and
        ``b > 0`` (where truncation and flooring agree: the common case, an index), the
        helper otherwise (negative operands, and division by zero's EvalError). ``a`` and
        ``b`` are evaluated once each, ``a`` first, as in the call ``helper(a, b)``."""
        x, y = f"_t{self.temps}", f"_t{self.temps + 1}"
        self.temps += 2
        return f"({x} {op} {y} if (({x} := {a}) >= 0) & (({y} := {b}) > 0) else {helper}({x}, {y}))"

    def w(self, code: str, t: IntType) -> str:
        if self.plain:
            return code
        mask = (1 << t.bits) - 1
        if not t.signed:
            return f"({code} & {mask:#x})"
        half = 1 << (t.bits - 1)
        # two's complement without a call: ((x + 2^(n-1)) mod 2^n) - 2^(n-1)
        return f"((({code}) + {half:#x} & {mask:#x}) - {half:#x})"

    def emit(self, e: Expr) -> str:
        if isinstance(e, Const):
            return repr(wrap(e.value, e.type))
        if isinstance(e, Sym):
            return self.names[e.name]
        if isinstance(e, Cast):
            return self.w(self.emit(e.operand), e.type)
        if isinstance(e, Unary):
            x = self.emit(e.operand)
            if e.op == "-":
                return self.w(f"(-{x})", e.type)
            if e.op == "~":
                return self.w(f"(~{x})", e.type)
            if e.op == "!":
                return f"(0 if {x} else 1)"
            if e.op in BIT_INTRINSICS:
                return self.w(f"_bits({e.op!r}, {x}, {e.operand.type.bits})", e.type)
            return x
        if isinstance(e, Select):
            c, a, b = self.emit(e.cond), self.emit(e.then), self.emit(e.other)
            return f"({a} if {c} else {b})"
        if isinstance(e, Opaque):
            raise EvalError(f"opaque value: {e.reason}")
        a, b = self.emit(e.lhs), self.emit(e.rhs)
        op = e.op
        if op in _SIMPLE:
            return self.w(f"({a} {_SIMPLE[op]} {b})", e.type)
        if op in _COMPARE:
            return f"(1 if {a} {_COMPARE[op]} {b} else 0)"
        if op in ("/", "%") and self.plain:
            return f"({a} {'//' if op == '/' else '%'} {b})"
        if op == "/":
            if not e.type.signed:
                return f"({a} // {b})"
            return self.w(self._signed_divmod(a, b, "//", "_div"), e.type)
        if op == "%":
            if not e.type.signed:
                return f"({a} % {b})"
            return self.w(self._signed_divmod(a, b, "%", "_mod"), e.type)
        if op in ("<<", ">>") and self.plain:
            return f"({a} {op} {b})"
        if op == "<<":
            return self.w(f"_shl({a}, {b}, {e.type.bits})", e.type)
        if op == ">>":
            return self.w(f"_shr({a}, {b}, {e.type.bits})", e.type)
        if op == "&&":
            return f"(1 if ({a}) and ({b}) else 0)"
        if op == "||":
            return f"(1 if ({a}) or ({b}) else 0)"
        if op == "min":
            return f"min({a}, {b})"
        if op == "max":
            return f"max({a}, {b})"
        raise EvalError(f"unsupported operator {op!r}")


def contains_opaque(expr: Expr) -> Opaque | None:
    stack: list[Expr] = [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, Opaque):
            return e
        if isinstance(e, Unary | Cast):
            stack.append(e.operand)
        elif isinstance(e, Binary):
            stack.extend((e.lhs, e.rhs))
        elif isinstance(e, Select):
            stack.extend((e.cond, e.then, e.other))
    return None


#: Python's parser refuses more than 200 nested parentheses; deeper expressions are
#: evaluated by nested closures instead (slower, no limit but the recursion limit).
_MAX_SOURCE_NESTING = 150


@lru_cache(maxsize=4096)
def compile_expr(expr: Expr, params: tuple[str, ...], plain: bool = False
                 ) -> Callable[..., int]:
    """A Python function computing ``expr`` from the symbols named in ``params``, in order.

    Opaque sub-expressions must have been replaced by symbols first. ``plain``: with
    plain integer arithmetic, for values where :func:`interval` shows it exact.
    """
    names = {p: f"v{i}" for i, p in enumerate(params)}
    comp = _Compiler(names, plain)
    body = comp.emit(expr)
    if _nesting(body) > _MAX_SOURCE_NESTING:
        return _closure_function(expr, params)
    args = ", ".join(names[p] for p in params)
    src = f"lambda {args}: {body}"
    env: dict[str, object] = dict(_HELPERS)
    env.update(comp.consts)
    try:
        fn: Callable[..., int] = eval(src, env)
    except (SyntaxError, RecursionError, MemoryError):  # too deep for the parser
        return _closure_function(expr, params)
    return fn


def _nesting(src: str) -> int:
    depth = top = 0
    for ch in src:
        if ch == "(":
            depth += 1
            top = max(top, depth)
        elif ch == ")":
            depth -= 1
    return top


def _closure_function(expr: Expr, params: tuple[str, ...]) -> Callable[..., int]:
    index = {p: i for i, p in enumerate(params)}
    fn = _closure(expr, index)
    return lambda *args: fn(args)


def _closure(e: Expr, index: dict[str, int]) -> Callable[[tuple[int, ...]], int]:
    """``e`` as a closure over the argument tuple, with the semantics of ``_Compiler``."""
    if isinstance(e, Const):
        value = wrap(e.value, e.type)
        return lambda args: value
    if isinstance(e, Sym):
        i = index[e.name]
        return lambda args: args[i]
    if isinstance(e, Opaque):
        raise EvalError(f"opaque value: {e.reason}")
    if isinstance(e, Cast):
        x, t = _closure(e.operand, index), e.type
        return lambda args: wrap(x(args), t)
    if isinstance(e, Unary):
        x, t = _closure(e.operand, index), e.type
        if e.op == "-":
            return lambda args: wrap(-x(args), t)
        if e.op == "~":
            return lambda args: wrap(~x(args), t)
        if e.op == "!":
            return lambda args: 0 if x(args) else 1
        if e.op in BIT_INTRINSICS:
            which, bits = e.op, e.operand.type.bits
            return lambda args: wrap(bit_intrinsic(which, x(args), bits), t)
        return x
    if isinstance(e, Select):
        c, a, b = (_closure(p, index) for p in (e.cond, e.then, e.other))
        return lambda args: a(args) if c(args) else b(args)
    lhs, rhs, t, op = _closure(e.lhs, index), _closure(e.rhs, index), e.type, e.op
    ops: dict[str, Callable[[int, int], int]] = {
        "+": lambda a, b: wrap(a + b, t), "-": lambda a, b: wrap(a - b, t),
        "*": lambda a, b: wrap(a * b, t), "&": lambda a, b: wrap(a & b, t),
        "|": lambda a, b: wrap(a | b, t), "^": lambda a, b: wrap(a ^ b, t),
        "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b),
        ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b),
        "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
        "/": (lambda a, b: wrap(c_div(a, b), t)) if t.signed else (lambda a, b: a // b),
        "%": (lambda a, b: wrap(c_mod(a, b), t)) if t.signed else (lambda a, b: a % b),
        "<<": lambda a, b: wrap(c_shl(a, b, t.bits), t),
        ">>": lambda a, b: wrap(c_shr(a, b, t.bits), t),
        "min": min, "max": max,
    }
    if op == "&&":
        return lambda args: 1 if lhs(args) and rhs(args) else 0
    if op == "||":
        return lambda args: 1 if lhs(args) or rhs(args) else 0
    f = ops.get(op)
    if f is None:
        raise EvalError(f"unsupported operator {op!r}")
    return lambda args: f(lhs(args), rhs(args))


#: Parenthesis depth up to which ``compile_warp`` emits Python source (the parser
#: refuses 200 nested levels).
_WARP_MAX_NESTING = 150


class _LiftingCompiler(_Compiler):
    """``_Compiler`` with every constant passed in (``_k0``, ``_k1``, ...) instead of
    written into the source, so that offsets differing only in constants (the padded
    layouts a fix tries, the instantiations of a template) share one compiled function."""

    def __init__(self, names: dict[str, str], plain: bool = False,
                 lanes: frozenset[str] | None = None) -> None:
        super().__init__(names, plain)
        self.lifted: list[int] = []
        #: With the names of the per-lane values: every operation that reads none of
        #: them is computed once per warp, before the lanes (``_h0 = ...``), in order.
        self.lanes = lanes
        self.hoisted: list[str] = []

    def emit(self, e: Expr) -> str:
        if isinstance(e, Const):
            self.lifted.append(wrap(e.value, e.type))
            return f"_k{len(self.lifted) - 1}"
        if self.lanes is not None and isinstance(e, Binary | Unary | Cast | Select) and not any(
                s.name in self.lanes for s in free_symbols(e)):
            code = super().emit(e)
            self.hoisted.append(code)
            return f"_h{len(self.hoisted) - 1}"
        return super().emit(e)


#: Compiled per-warp functions by their source (constants lifted out). Process-wide,
#: not per analysis run: a pure function of the source text, bounded below.
_WARP_CODE: dict[str, Callable[..., list[int | None]]] = {}


@lru_cache(maxsize=4096)
def compile_warp(
    offset: Expr, guard: Expr | None, params: tuple[str, ...], lane_params: int,
    plain: bool = False,
) -> Callable[..., list[int | None]] | None:
    """One function that evaluates ``offset`` (where ``guard`` holds) for a whole warp.

    ``f(lanes, loop_values, free_values)``: ``lanes`` holds per lane None (inactive) or
    the values of the first ``lane_params`` names of ``params``; the other names take
    ``loop_values + free_values``. The result is per lane None (inactive, or the guard
    is 0) or the offset: the same values, errors and order of evaluation as calling
    ``compile_expr``'s functions lane by lane, in one call per warp. None when the
    expressions nest too deeply to compile as source (use ``compile_expr`` then).
    ``plain``: with plain integer arithmetic, for values where :func:`interval` shows
    it exact (for the offset, and the guard).
    """
    names = {p: f"v{i}" for i, p in enumerate(params)}
    comp = _LiftingCompiler(names, plain)
    body = comp.emit(offset)
    cond = comp.emit(guard) if guard is not None else None
    consts = tuple(comp.lifted)
    # The same with what reads no lane computed once per warp (``1 << k`` in every lane
    # costs as much as the rest of the index): when that raises (an undefined shift in
    # a branch or for a guard no lane passes), the warp is evaluated lane by lane.
    fast = _LiftingCompiler(names, plain, frozenset(params[:lane_params]))
    fast_body = fast.emit(offset)
    fast_cond = fast.emit(guard) if guard is not None else None
    depth = top = 0
    for ch in body + (cond or "") + "".join(fast.hoisted):
        if ch == "(":
            depth += 1
            top = max(top, depth)
        elif ch == ")":
            depth -= 1
    if top > _WARP_MAX_NESTING:
        return None
    lane_vars = ", ".join(names[p] for p in params[:lane_params])
    rest = [names[p] for p in params[lane_params:]]

    def function(name: str, b: str, c: str | None, hoisted: list[str]) -> list[str]:
        lines = [f"def {name}(_lanes, _rest_a, _rest_b, _k):"]
        if consts:
            lines.append(f"    {', '.join(f'_k{i}' for i in range(len(consts)))}, = _k")
        if rest:
            lines.append(f"    {', '.join(rest)}, = (*_rest_a, *_rest_b)")
        if hoisted:
            lines.append("    try:")
            lines += [f"        _h{i} = {code}" for i, code in enumerate(hoisted)]
            lines += ["    except Exception:",
                      "        return _lane_by_lane(_lanes, _rest_a, _rest_b, _k)"]
        lines += [
            "    _out = []",
            "    _add = _out.append",
            "    for _lane in _lanes:",
            "        if _lane is None:",
            "            _add(None)",
            "            continue",
            f"        {lane_vars}, = _lane" if lane_vars else "        pass",
        ]
        if c is not None:
            lines.append(f"        _add(None if not ({c}) else ({b}))")
        else:
            lines.append(f"        _add({b})")
        lines.append("    return _out")
        return lines

    lines = function("_lane_by_lane", body, cond, [])
    if fast.hoisted and tuple(fast.lifted) == consts:
        lines += function("_warp", fast_body, fast_cond, fast.hoisted)
    else:
        lines.append("_warp = _lane_by_lane")
    source = "\n".join(lines)
    fn = _WARP_CODE.get(source)
    if fn is None:
        env: dict[str, object] = dict(_HELPERS)
        env.update(comp.consts)
        try:
            exec(source, env)
        except (SyntaxError, RecursionError, MemoryError):  # too deep for the parser
            return None
        fn = env["_warp"]  # type: ignore[assignment]
        assert fn is not None
        if len(_WARP_CODE) >= 4096:
            _WARP_CODE.clear()
        _WARP_CODE[source] = fn
    compiled = fn

    def warp(lanes: object, loop_values: object, free_values: object) -> list[int | None]:
        return compiled(lanes, loop_values, free_values, consts)

    return warp


def evaluate(expr: Expr, env: dict[str, int]) -> int:
    """Evaluate once (slow path, for tests and one-off values)."""
    params = tuple(sorted(env))
    return compile_expr(expr, params)(*(env[p] for p in params))


def conjuncts(expr: Expr) -> list[Expr]:
    """``a && b && c`` -> ``[a, b, c]``."""
    if isinstance(expr, Binary) and expr.op == "&&":
        return conjuncts(expr.lhs) + conjuncts(expr.rhs)
    return [expr]


def conjoined(parts: list[Expr]) -> Expr | None:
    """``[a, b]`` -> ``a && b``; None for no parts (no guard)."""
    out: Expr | None = None
    for part in parts:
        out = part if out is None else Binary("&&", out, part, INT)
    return out
