"""Issue 15, goal 2: ``Cursor.is_null`` without a libclang call (``tree._is_null``, which
the frontend installs in the bindings: every guarded cursor method asks it), the same
answer as ``clang_equalCursors(cursor, null)`` on every cursor of a unit.

Each test compares the fast result with the plain one (switched off by monkeypatching)
and checks that the fast path is taken.
"""

from __future__ import annotations

import ctypes
import pathlib
from collections import Counter

import clang.cindex as ci
import pytest

from cudalint.frontend import tree


def _cursors(tmp_path: pathlib.Path) -> list[ci.Cursor]:
    """Every cursor of a small C++ unit with the ones libclang derives from them (the
    referenced declaration, definition, parents, canonical, template), the null cursor
    among them, and the cursors at a few locations (in a comment, past the end)."""
    src = tmp_path / "u.cpp"
    src.write_text(
        "#define TWICE(x) ((x) * 2)\n"
        "template <typename T> struct box { T v; T get() const { return v; } };\n"
        "int undeclared_use() { return missing_fn(1); }\n"
        "/* a comment */\n"
        "int f(int n) { box<int> b{n}; auto l = [&](int k) { n += k; };\n"
        "  l(TWICE(n)); return b.get(); }\n"
    )
    tu = ci.Index.create().parse(
        str(src),
        args=["-x", "c++", "-std=c++17"],
        options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD,
    )
    lib = ci.conf.lib
    out: list[ci.Cursor] = [lib.clang_getNullCursor()]
    for c in tu.cursor.walk_preorder():
        out.append(c)
        for derive in (
            lib.clang_getCursorReferenced,
            lib.clang_getCursorDefinition,
            lib.clang_getCursorSemanticParent,
            lib.clang_getCursorLexicalParent,
            lib.clang_getCanonicalCursor,
            lib.clang_getSpecializedCursorTemplate,
        ):
            out.append(derive(c))
    f = tu.get_file(str(src))
    for line, col in ((4, 4), (1, 1), (99, 1), (6, 30)):
        out.append(lib.clang_getCursor(tu, lib.clang_getLocation(tu, f, line, col)))
    # kind 70 with a data pointer set is not the null cursor; xdata is not compared
    for field, value in (("data", 1), ("data", 2), ("xdata", 5)):
        c = ci.Cursor()
        c._kind_id = 70
        if field == "data":
            c.data[value] = ctypes.c_void_p(0x1000).value
        else:
            c.xdata = value
        out.append(c)
    return out


def test_is_null_is_libclangs_test(tmp_path: pathlib.Path) -> None:
    assert ci.Cursor.is_null is tree._is_null  # installed with the frontend
    lib = ci.conf.lib
    seen: Counter[bool] = Counter()
    for c in _cursors(tmp_path):
        plain = bool(lib.clang_equalCursors(c, ci.conf.null_cursor))
        assert c.is_null() == plain
        seen[plain] += 1
    assert seen[True] > 1 and seen[False] > 50
    # the guarded methods still refuse a null cursor
    with pytest.raises(Exception, match="null-cursor"):
        _ = lib.clang_getNullCursor().kind
