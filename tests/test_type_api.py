"""clang's Type API is asked through ``cudalint/frontend/types.py`` only.

Issue 18, item 3: the executor, the walker and the host-launch evaluator used to call
clang's Type API directly at ~50 places (``TypeKind`` comparisons, ``get_canonical``,
``get_pointee``, ``element_type`` ...). Every question the frontend asks of a clang type
now has a name in ``types.py``; these tests read the source of the modules that interpret
the AST and fail where one of them asks clang's Type API itself.

What counts, found with Python's ``ast`` (comments and strings do not):

- the names ``TypeKind`` and ``TK`` and libclang's raw type functions (``clang_Type*``,
  ``clang_getCanonicalType``, ``clang_getPointeeType``, ...);
- an attribute that only ``clang.cindex.Type`` has (``get_canonical``, ``element_type``,
  ``is_const_qualified`` ...: read from the bindings, so a method a new libclang adds
  counts too);
- an attribute that a Type shares with a Cursor (``kind``, ``spelling``,
  ``get_template_argument_type`` ...) read from a cursor's type (``x.type.kind``,
  ``c.result_type.spelling``), and ``get_template_argument_type`` wherever it is called.
"""

from __future__ import annotations

import ast
import pathlib

import clang.cindex as ci
import pytest

FRONTEND = pathlib.Path(__file__).resolve().parent.parent / "cudalint" / "frontend"

#: The modules that interpret the AST; ``types.py`` is the one place the Type API is used.
CHECKED = ("execute.py", "walker.py", "host.py", "tree.py", "inert.py", "launch_api.py")

_PUBLIC_TYPE = {m for m in dir(ci.Type) if not m.startswith("_")}
_PUBLIC_CURSOR = {m for m in dir(ci.Cursor) if not m.startswith("_")}
#: Attributes only a Type has.
TYPE_ONLY = frozenset(_PUBLIC_TYPE - _PUBLIC_CURSOR)
#: Attributes a Type shares with a Cursor: Type API where read from a cursor's type.
SHARED = frozenset(_PUBLIC_TYPE & _PUBLIC_CURSOR)
#: A cursor's attributes that are clang Types.
TYPE_ATTRIBUTES = frozenset(["type", "result_type", "underlying_typedef_type", "enum_type"])
#: Names that are the Type API themselves.
NAMES = frozenset(["TypeKind", "TK"])
#: libclang's raw functions on types (``ci.conf.lib.clang_getCanonicalType``).
RAW_PREFIXES = (
    "clang_Type",
    "clang_getCanonicalType",
    "clang_getPointeeType",
    "clang_getArrayElementType",
    "clang_getElementType",
    "clang_getResultType",
    "clang_getTypeDeclaration",
    "clang_isConstQualifiedType",
)


def type_api_uses(source: str, filename: str = "<source>") -> list[str]:
    """``line: what`` for each direct use of clang's Type API in ``source``."""
    out: list[str] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Name) and node.id in NAMES:
            out.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, ast.alias) and (node.asname or node.name).split(".")[-1] in NAMES:
            out.append(f"{node.lineno}: import {node.name}")
        elif isinstance(node, ast.Attribute):
            attr = node.attr
            receiver = node.value
            if (
                attr in NAMES
                or attr.startswith(RAW_PREFIXES)
                or attr in TYPE_ONLY
                or attr == "get_template_argument_type"
            ):
                out.append(f"{node.lineno}: .{attr}")
            elif (
                attr in SHARED
                and isinstance(receiver, ast.Attribute)
                and receiver.attr in TYPE_ATTRIBUTES
            ):
                out.append(f"{node.lineno}: .{receiver.attr}.{attr}")
    return sorted(set(out), key=lambda s: int(s.split(":")[0]))


@pytest.mark.parametrize("name", CHECKED)
def test_no_direct_type_api(name: str) -> None:
    path = FRONTEND / name
    assert type_api_uses(path.read_text(encoding="utf-8"), str(path)) == [], (
        f"{name} asks clang's Type API directly: add a named function to "
        "cudalint/frontend/types.py and call that"
    )


def test_the_bindings_give_the_lists() -> None:
    """The lists are read from the bindings: they hold what the frontend used to call."""
    for m in (
        "get_canonical",
        "get_pointee",
        "get_size",
        "element_type",
        "element_count",
        "get_array_size",
        "get_declaration",
        "get_result",
        "argument_types",
        "get_align",
        "get_offset",
        "get_fields",
        "is_const_qualified",
    ):
        assert m in TYPE_ONLY, m
    assert {"kind", "spelling", "get_num_template_arguments"} <= SHARED


@pytest.mark.parametrize(
    "line",
    [
        "k = ci.TypeKind.POINTER",
        "from cudalint.frontend.cursors import TK",
        "ok = n.ckind == TK.POINTER.value",
        "c = t.get_canonical()",
        "p = n.type.get_pointee().is_const_qualified()",
        "e = a.element_type",
        "n = int(t.element_count)",
        "s = str(ref.type.spelling)",
        "k = c.result_type.kind",
        "a = spec.get_template_argument_type(0)",
        "k = ci.conf.lib.clang_getCanonicalType(t)._kind_id",
        "v = node.type.is_volatile_qualified()",
    ],
)
def test_the_check_sees_a_use(line: str) -> None:
    assert type_api_uses(line) != [], line


@pytest.mark.parametrize(
    "line",
    [
        "k = ty.is_pointer_kind(n.ckind)",
        "s = n.spelling",  # a cursor's spelling
        "k = c.kind == N.DECL_REF",  # a cursor's kind
        "b = e.type.bits",  # the IR's integer type
        "t = ty.pointee(n.type)",
        "# t.get_canonical() in a comment",
        "s = 'element_type'",
    ],
)
def test_the_check_lets_the_rest_pass(line: str) -> None:
    assert type_api_uses(line) == [], line


def test_the_old_frontend_would_fail() -> None:
    """The check finds what the executor did before the change (a sample of its lines)."""
    before = (
        "def f(self, base, t):\n"
        "    if TK.from_id(base.ckind) in ARRAY_TYPES:\n"
        "        elem_t = base.type.get_canonical().element_type\n"
        "    canon = t.get_canonical()\n"
        "    if canon.kind == TK.CONSTANTARRAY:\n"
        "        return int(canon.element_count)\n"
    )
    got = type_api_uses(before)
    assert [g.split(":")[0] for g in got] == ["2", "3", "3", "4", "5", "6"], got
