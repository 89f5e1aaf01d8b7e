"""Constant evaluation: libclang's evaluator for cursors, and C-semantics folding of IR.

``evaluate_int`` asks clang (``clang_Cursor_Evaluate``) for the value of a constant
expression. ``fold`` simplifies an IR expression whose operands are all constants, with
C's integer rules (wrap-around of the operation's type, truncating division).
"""

from __future__ import annotations

import ctypes
from typing import Any

import clang.cindex as ci

from cudalint.ir import (
    BIT_INTRINSICS,
    Binary,
    Cast,
    Const,
    Expr,
    IntType,
    Select,
    Unary,
    bit_intrinsic,
)

_EVAL_INT = 1  # CXEval_Int

_lib_ready = False


def _lib() -> Any:
    """libclang with the few entry points the bindings do not wrap, registered once."""
    global _lib_ready
    lib = ci.conf.lib
    if not _lib_ready:
        lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
        lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
        lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getKind.restype = ctypes.c_int
        lib.clang_EvalResult_isUnsignedInt.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_isUnsignedInt.restype = ctypes.c_uint
        lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
        lib.clang_EvalResult_getAsUnsigned.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsUnsigned.restype = ctypes.c_ulonglong
        lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_dispose.restype = None
        lib.clang_getCursorUnaryOperatorKind.argtypes = [ci.Cursor]
        lib.clang_getCursorUnaryOperatorKind.restype = ctypes.c_int
        lib.clang_Location_isFromMainFile.argtypes = [ci.SourceLocation]
        lib.clang_Location_isFromMainFile.restype = ctypes.c_int
        _lib_ready = True
    return lib


def evaluate_int(cursor: ci.Cursor) -> int | None:
    """The integer value of a constant expression (or constant variable), else None."""
    lib = _lib()
    res = lib.clang_Cursor_Evaluate(cursor)
    if not res:
        return None
    try:
        if lib.clang_EvalResult_getKind(res) != _EVAL_INT:
            return None
        if lib.clang_EvalResult_isUnsignedInt(res):
            return int(lib.clang_EvalResult_getAsUnsigned(res))
        return int(lib.clang_EvalResult_getAsLongLong(res))
    finally:
        lib.clang_EvalResult_dispose(res)


# CXUnaryOperatorKind
UO_POST_INC = 1
UO_POST_DEC = 2
UO_PRE_INC = 3
UO_PRE_DEC = 4
UO_ADDR_OF = 5
UO_DEREF = 6
UO_PLUS = 7
UO_MINUS = 8
UO_NOT = 9
UO_LNOT = 10


def is_from_project(cursor: ci.Cursor) -> bool:
    """Whether ``cursor`` is in the user's own code: the main file or a header that is not
    a system header (``-isystem``/``-idirafter`` directories, ``#pragma clang
    system_header`` as in cudalint's shim and bundled headers, the standard library)."""
    lib = _lib()
    loc = lib.clang_getCursorLocation(cursor)
    if lib.clang_Location_isFromMainFile(loc):
        return True
    if lib.clang_Location_isInSystemHeader(loc):
        return False
    f = loc.file
    if f is None:  # predefined and builtin declarations
        return False
    # The shim loaded from a precompiled header is not marked as a system header.
    from cudalint.frontend import shim

    return not str(f.name).startswith(shim.SHIM_DIR.rstrip("/") + "/")


def unary_operator_kind(cursor: ci.Cursor) -> int:
    return int(_lib().clang_getCursorUnaryOperatorKind(cursor))


# --- folding IR with C semantics -------------------------------------------------------


def wrap(value: int, t: IntType) -> int:
    """``value`` converted to the C integer type ``t`` (two's complement wrap-around)."""
    mask = (1 << t.bits) - 1
    v = value & mask
    if t.signed and v >> (t.bits - 1):
        v -= 1 << t.bits
    return v


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def binary_value(op: str, a: int, b: int, t: IntType) -> int | None:
    """``a op b`` evaluated in type ``t`` (operands converted to ``t`` first), or None."""
    if op in ("&&", "||"):
        return int(bool(a) and bool(b)) if op == "&&" else int(bool(a) or bool(b))
    if op in ("<<", ">>"):
        x = wrap(a, t)
        if b < 0 or b >= t.bits:
            return None
        return wrap(x << b, t) if op == "<<" else x >> b
    x, y = wrap(a, t), wrap(b, t)
    if op == "+":
        return wrap(x + y, t)
    if op == "-":
        return wrap(x - y, t)
    if op == "*":
        return wrap(x * y, t)
    if op in ("/", "%"):
        if y == 0:
            return None
        q = _c_div(x, y)
        return wrap(q, t) if op == "/" else wrap(x - q * y, t)
    if op == "&":
        return wrap(x & y, t)
    if op == "|":
        return wrap(x | y, t)
    if op == "^":
        return wrap(x ^ y, t)
    if op == "min":
        return min(x, y)
    if op == "max":
        return max(x, y)
    comparisons = {
        "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": x == y, "!=": x != y,
    }
    if op in comparisons:
        return int(comparisons[op])
    return None


def fold(e: Expr) -> Expr:
    """``e`` with its top operation computed when every operand is a constant."""
    if isinstance(e, Binary) and isinstance(e.lhs, Const) and isinstance(e.rhs, Const):
        v = binary_value(e.op, e.lhs.value, e.rhs.value, e.type)
        if v is not None:
            return Const(v, e.type)
    elif isinstance(e, Unary) and isinstance(e.operand, Const):
        x = wrap(e.operand.value, e.type)
        if e.op == "-":
            return Const(wrap(-x, e.type), e.type)
        if e.op == "~":
            return Const(wrap(~x, e.type), e.type)
        if e.op == "!":
            return Const(int(x == 0), e.type)
        if e.op in BIT_INTRINSICS:
            return Const(wrap(bit_intrinsic(e.op, e.operand.value, e.operand.type.bits),
                              e.type), e.type)
        return Const(x, e.type)
    elif isinstance(e, Cast) and isinstance(e.operand, Const):
        return Const(wrap(e.operand.value, e.type), e.type)
    elif isinstance(e, Select) and isinstance(e.cond, Const):
        chosen = e.then if e.cond.value else e.other
        if isinstance(chosen, Const):
            return Const(wrap(chosen.value, e.type), e.type)
        if chosen.type == e.type:
            return chosen
    return e
