"""C constant expressions written in text (macro bodies, -D values, launch bounds, the
block-dim annotation) are evaluated as C, not as Python: each case below is one where the
two languages disagree, with the value C gives (checked against the C standard's rules on
an LP64 target, as nvcc's host and device compilers use)."""

from __future__ import annotations

import pathlib
import random
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cudalint.frontend import parse_file
from cudalint.frontend.cexpr import evaluate, evaluate_typed
from cudalint.ir import INT, LONG, UINT, IntType
from cudalint.options import Options

ULONG = IntType(64, False)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # division and remainder truncate toward zero (Python floors)
        ("-7 / 2", -3),
        ("-7 % 2", -1),
        ("7 % -2", 1),
        ("-7 / -2", 3),
        # unsigned arithmetic wraps modulo 2**32 (int) or 2**64 (long)
        ("1u - 2", 4294967295),
        ("0u - 1", 4294967295),
        ("0ul - 1", 18446744073709551615),
        ("-1 / 2u", 2147483647),  # -1 converts to unsigned first
        ("(1u << 31) << 1", 0),
        # signed int overflow: two's complement, as nvcc does
        ("2147483647 + 1", -2147483648),
        ("2147483648", 2147483648),  # a decimal literal that does not fit int is long
        ("2147483647L + 1", 2147483648),
        # hex and octal literals (Python rejects 010)
        ("0x10", 16),
        ("010", 8),
        ("0", 0),
        ("0b101", 5),
        ("0xFFFFFFFF + 1", 0),  # 0xFFFFFFFF is unsigned int
        # comparisons under the usual arithmetic conversions
        ("-1 < 1u", 0),
        ("-1 < 1", 1),
        ("-1L < 1u", 1),  # unsigned int converts to long
        # ?:, logical operators (short-circuit), !, ~
        ("1 ? 32 : 64", 32),
        ("0 ? 32 : 64", 64),
        ("1 ? -1 : 0u", 4294967295),  # the arms' common type is unsigned
        ("0 && 1 / 0", 0),
        ("1 || 1 / 0", 1),
        ("!5", 0),
        ("~0u", 4294967295),
        ("~0", -1),
        # casts
        ("(unsigned)-1", 4294967295),
        ("(unsigned char)300", 44),
        ("(char)200", -56),
        ("(int)4294967295u", -1),
        ("(uint32_t)-1", 4294967295),
        ("(long long)1 << 40", 1 << 40),
        ("(bool)7", 1),
        # shifts
        ("1 << 4", 16),
        ("-16 >> 2", -4),
        ("0x80000000u >> 31", 1),
        # sizeof of built-in types, char literals, booleans, comments
        ("sizeof(float) * 8", 32),
        ("sizeof(long long)", 8),
        ("'A'", 65),
        ("true + true", 2),
        ("256 // threads", 256),
        ("32 /* lanes */ * 8", 256),
        ("(((4)))", 4),
    ],
)
def test_c_semantics(text: str, value: int) -> None:
    assert evaluate(text) == value


@pytest.mark.parametrize(
    ("text", "ctype"),
    [
        ("1", INT),
        ("1u", UINT),
        ("1l", LONG),
        ("1ul", ULONG),
        ("1LL", LONG),
        ("1ULL", ULONG),
        ("0xFFFFFFFF", UINT),
        ("4294967295", LONG),
        ("0xFFFFFFFFFFFFFFFF", ULONG),
        ("1u + 1L", LONG),
        ("1ul + 1", ULONG),
        ("1 < 2u", INT),
        ("1 ? 2 : 1u / 0", UINT),  # the arm not taken still gives its type
        ("(short)1 + (short)1", INT),
    ],
)
def test_c_types(text: str, ctype: IntType) -> None:
    r = evaluate_typed(text)
    assert r is not None and r[1] == ctype


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1 +",
        "1 / 0",
        "1 % 0",
        "1 << 32",
        "1 << -1",
        "1.5f",
        "2.0 * 3",
        '"s"',
        "x",
        "N = 3",
        "f(2)",
        "1); int y = (2",
        "sizeof(x)",
        "(float)3",
        "1, 2",
        "(" * 500 + "1" + ")" * 500,
        "08",  # not an octal digit
        "'1:'",  # a multi-character constant
    ],
)
def test_no_value(text: str) -> None:
    assert evaluate(text) is None


@settings(max_examples=300)
@given(st.text(alphabet="0123456789xXuUlL+-*/%<>=!&|^~?:()' abN_", max_size=40))
def test_any_text_gives_an_int_or_none(text: str) -> None:
    assert evaluate(text, {"N": 3}) is None or isinstance(evaluate(text, {"N": 3}), int)


def test_names_and_their_types() -> None:
    assert evaluate("TILE * 2 + 1", {"TILE": 16}) == 33
    # A name's C type, where known, takes part in the conversions.
    assert evaluate("N - 2", {"N": 1}, {"N": UINT}) == 4294967295
    assert evaluate("N - 2", {"N": 1}) == -1
    assert evaluate("MISSING + 1", {"TILE": 16}) is None


def _parse(tmp_path: pathlib.Path, src: str, **opts: object) -> dict[str, tuple[object, ...]]:
    path = tmp_path / "k.cu"
    path.write_text(src)
    tu = parse_file(str(path), Options(**opts))  # type: ignore[arg-type]
    return {k.name: (k.max_threads, k.annotated_block) for k in tu.kernels}


def test_macros_defines_and_annotations_end_to_end(tmp_path: pathlib.Path) -> None:
    src = """\
#define WARPS 010
#define BAD (1u - 2)
#define THREADS (WARPS * 32)
__global__ void __launch_bounds__(THREADS) a() {}
__global__ void __launch_bounds__(BAD / 2) b() {}
__global__ void __launch_bounds__(FROM_FLAG % 100) c() {}
// cudalint: block-dim(WARPS * 4, -7 / -2)
__global__ void d() {}
// cudalint: block-dim(1 ? 64 : 32, 2, 0x2)
__global__ void e() {}
// cudalint: block-dim(UNKNOWN)
__global__ void f() {}
"""
    got = _parse(tmp_path, src, defines=("FROM_FLAG=-7",))
    assert got["a"] == (256, None)  # 010 is octal: 8 warps
    assert got["b"] == (2147483647, None)  # BAD is unsigned: 4294967295 / 2
    assert got["c"] == (-7, None)  # -7 % 100 truncates toward zero
    assert got["d"] == (None, (32, 3, 1))
    assert got["e"] == (None, (64, 2, 2))
    assert got["f"] == (None, None)


_LITERALS = [
    "0",
    "1",
    "7",
    "-7",
    "31",
    "32",
    "100",
    "0x10",
    "010",
    "0xFFFFFFFF",
    "2147483647",
    "2147483648",
    "1u",
    "2u",
    "0u",
    "1l",
    "1ul",
    "5L",
    "0x80000000",
    "4294967295u",
    "1ll",
    "3ULL",
]
_BINARY = [
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
]
_CASTS = [
    "(int)",
    "(unsigned)",
    "(char)",
    "(unsigned char)",
    "(short)",
    "(long)",
    "(unsigned long)",
    "(long long)",
]


def _random_expression(rng: random.Random, depth: int) -> str:
    r = rng.random()
    if depth == 0 or r < 0.25:
        return rng.choice(_LITERALS)
    if r < 0.35:
        return f"{rng.choice(['-', '~', '!', '+'])}({_random_expression(rng, depth - 1)})"
    if r < 0.45:
        return f"{rng.choice(_CASTS)}({_random_expression(rng, depth - 1)})"
    parts = [_random_expression(rng, depth - 1) for _ in range(3)]
    if r < 0.52:
        return f"({parts[0]} ? {parts[1]} : {parts[2]})"
    return f"({parts[0]} {rng.choice(_BINARY)} {parts[1]})"


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler to compare with")
def test_the_c_compiler_agrees(tmp_path: pathlib.Path) -> None:
    """Random expressions with a value here have the same value and signedness when a C
    compiler evaluates them (``-fwrapv``: signed overflow wraps, as on the GPU)."""
    rng = random.Random(7)
    cases: list[tuple[str, int, IntType]] = []
    while len(cases) < 400:
        text = _random_expression(rng, 4)
        r = evaluate_typed(text)
        if r is not None:
            cases.append((text, *r))
    lines = ["#include <stdio.h>", "int main(void) {"]
    lines += [
        f'printf("%d %llu\\n", (int)(((__typeof__({t}))-1) < 0), (unsigned long long)({t}));'
        for t, _, _ in cases
    ]
    lines.append("return 0; }")
    (tmp_path / "e.c").write_text("\n".join(lines))
    subprocess.run(
        ["cc", "-w", "-fwrapv", "-o", str(tmp_path / "e"), str(tmp_path / "e.c")], check=True
    )
    out = subprocess.run([str(tmp_path / "e")], capture_output=True, text=True, check=True)
    got = [tuple(map(int, line.split())) for line in out.stdout.splitlines()]
    want = [(int(t.signed), v % (1 << 64)) for _, v, t in cases]
    wrong = [(c[0], w, g) for c, w, g in zip(cases, want, got, strict=True) if w != g]
    assert wrong == []
