"""Evaluate IR expressions with C semantics, fast: each expression compiles once to a
Python function of its symbols, which is then called per lane.

C semantics: ``/`` truncates toward zero, ``%`` takes the sign of the dividend, results
wrap to their type's width (unsigned modulo 2^n, signed two's complement), ``>>`` on a
signed value is arithmetic, comparisons and logical operators give 0 or 1. Division by
zero and out-of-range shifts raise :class:`EvalError` (they are undefined in C).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from cudalint.ir import Binary, Cast, Const, Expr, IntType, Opaque, Select, Sym, Unary


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
    out: set[Sym] = set()
    stack: list[Expr] = [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, Sym):
            out.add(e)
        elif isinstance(e, Unary | Cast):
            stack.append(e.operand)
        elif isinstance(e, Binary):
            stack.extend((e.lhs, e.rhs))
        elif isinstance(e, Select):
            stack.extend((e.cond, e.then, e.other))
        elif isinstance(e, Opaque):
            stack.extend(e.inputs)
    return out


class _Compiler:
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.consts: dict[str, IntType] = {}

    def type_ref(self, t: IntType) -> str:
        key = f"_t{t.bits}{'s' if t.signed else 'u'}"
        self.consts[key] = t
        return key

    def w(self, code: str, t: IntType) -> str:
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
        if op == "/":
            if not e.type.signed:
                return f"({a} // {b})"
            return self.w(f"_div({a}, {b})", e.type)
        if op == "%":
            if not e.type.signed:
                return f"({a} % {b})"
            return self.w(f"_mod({a}, {b})", e.type)
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


@lru_cache(maxsize=4096)
def compile_expr(expr: Expr, params: tuple[str, ...]) -> Callable[..., int]:
    """A Python function computing ``expr`` from the symbols named in ``params``, in order.

    Opaque sub-expressions must have been replaced by symbols first.
    """
    names = {p: f"v{i}" for i, p in enumerate(params)}
    comp = _Compiler(names)
    body = comp.emit(expr)
    args = ", ".join(names[p] for p in params)
    src = f"lambda {args}: {body}"
    env: dict[str, object] = dict(_HELPERS)
    env.update(comp.consts)
    fn: Callable[..., int] = eval(src, env)
    return fn


def evaluate(expr: Expr, env: dict[str, int]) -> int:
    """Evaluate once (slow path, for tests and one-off values)."""
    params = tuple(sorted(env))
    return compile_expr(expr, params)(*(env[p] for p in params))


def evaluate_many(expr: Expr, params: Sequence[str], rows: Sequence[Sequence[int]]) -> list[int]:
    fn = compile_expr(expr, tuple(params))
    return [fn(*row) for row in rows]
