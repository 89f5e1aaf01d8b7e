"""libclang crashes the process (SIGSEGV) when asked for the size of a placeholder type
such as ``<overloaded function type>``; a mutated real file led the walker there
(bench/faults.py, seed 17: a call whose argument names an overloaded function). The
frontend asks through ``cursors.type_size``, which never passes such a type on."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import clang.cindex as ci

from cudalint.frontend.cursors import type_size

SOURCE = b"""
float g(float);
double g(double);
template <class T> void check(T v) {}
void h() { check(g); }
"""


def _overloaded_type() -> ci.Type:
    tu = ci.Index.create().parse("t.cpp", args=["-std=c++17"], unsaved_files=[("t.cpp", SOURCE)])
    for c in tu.cursor.walk_preorder():
        if c.type.kind == ci.TypeKind.OVERLOAD:
            return c.type
    raise AssertionError("no cursor of <overloaded function type> in the test source")


def test_type_size_of_an_overloaded_function_type_is_negative() -> None:
    t = _overloaded_type()
    assert type_size(t) < 0
    assert type_size(_overloaded_type().get_canonical()) < 0


def test_libclang_itself_crashes_on_it() -> None:
    """Why the guard exists: the same question asked of libclang directly kills the
    process (if a libclang release fixes this, the guard can go)."""
    code = textwrap.dedent(f"""
        import clang.cindex as ci
        tu = ci.Index.create().parse("t.cpp", args=["-std=c++17"],
                                     unsaved_files=[("t.cpp", {SOURCE!r})])
        for c in tu.cursor.walk_preorder():
            if c.type.kind == ci.TypeKind.OVERLOAD:
                print(c.type.get_size())
                break
    """)
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=120, check=False
    )
    assert proc.returncode != 0
