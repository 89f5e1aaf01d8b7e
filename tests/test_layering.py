"""The package's layers, checked from its source: no module imports a later layer, and each
third-party library is imported by its one layer only (docs/architecture.md, "Layers").

Every ``import``/``from ... import`` counts, at module level or inside a function, and so
do imports under ``if TYPE_CHECKING:``: a type that names a later layer ties the two
layers together as much as a call does."""

from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "cudalint"

#: The layers, first to last. A module belongs to the layer of the longest prefix that
#: names it (``cudalint`` itself names only the package's ``__init__``: a new top-level
#: module must be placed here); it may import its own layer and earlier ones, never a
#: later one.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    # Plain data and helpers every stage shares: no clang, no sympy.
    (
        "base",
        (
            "cudalint",
            "cudalint.ir",
            "cudalint.budget",
            "cudalint.fsutil",
            "cudalint.options",
            "cudalint.model.arch",
            "cudalint.fingerprint",
        ),
    ),
    ("frontend", ("cudalint.frontend",)),
    ("model", ("cudalint.model",)),
    ("fixes", ("cudalint.diagnostics", "cudalint.edits", "cudalint.fixes")),
    ("rules", ("cudalint.rules", "cudalint.suppressions")),
    (
        "pipeline",
        (
            "cudalint.api",
            "cudalint.checker",
            "cudalint.manager",
            "cudalint.runmerge",
            "cudalint.linking",
            "cudalint.result_cache",
            "cudalint.config",
            "cudalint.compdb",
            "cudalint.settings",
            "cudalint.baseline",
            "cudalint.discovery",
        ),
    ),
    ("output", ("cudalint.output",)),
    # What a user runs: each may import anything before it.
    (
        "commands",
        (
            "cudalint.cli",
            "cudalint.frontdoor",
            "cudalint.__main__",
            "cudalint.lsp",
            "cudalint.fixes.apply",
            "cudalint.irjson",
        ),
    ),
]

#: Layers that must not import each other although one comes before the other: the
#: model sees the source only through the IR.
SEPARATE = {
    ("model", "frontend"),
    ("fixes", "frontend"),
    ("rules", "frontend"),
    ("output", "frontend"),
}

#: Third-party libraries and the only layers (or modules) that may import them.
THIRD_PARTY: dict[str, tuple[str, ...]] = {
    "clang": ("cudalint.frontend",),
    "pycparser": ("cudalint.frontend",),
    "sympy": ("cudalint.model",),
    "pygls": ("cudalint.lsp",),
    "tomllib": ("cudalint.config",),
    "tomli": ("cudalint.config",),
    "pathspec": ("cudalint.discovery",),
}


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _prefix_of(name: str, prefixes: tuple[str, ...]) -> int:
    """The length of the longest of ``prefixes`` that names ``name`` (-1: none)."""
    best = -1
    for p in prefixes:
        inside = name == p or (p != "cudalint" and name.startswith(p + "."))
        if inside and len(p) > best:
            best = len(p)
    return best


def layer_of(name: str) -> int:
    best, index = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        n = _prefix_of(name, prefixes)
        if n > best:
            best, index = n, i
    return index


def imports(path: pathlib.Path, here: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of each import in ``path``, the module ``here``;
    ``from cudalint import x`` counts as importing ``cudalint.x`` where that is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for a in node.names:
                sub = f"{base}.{a.name}"
                is_module = any(
                    (PACKAGE.parent / sub.replace(".", "/")).with_suffix(s).exists()
                    for s in (".py", "")
                )
                found.append((node.lineno, sub if is_module else base))
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer() -> None:
    assert MODULES, PACKAGE
    assert [module_name(p) for p in MODULES if layer_of(module_name(p)) < 0] == []


def _violations(path: pathlib.Path, here: str) -> list[str]:
    mine = layer_of(here)
    out: list[str] = []
    for line, target in imports(path, here):
        where = f"{path.name}:{line}: {here} imports {target}"
        top = target.split(".")[0]
        if top == "cudalint":
            theirs = layer_of(target)
            if theirs > mine:
                out.append(f"{where} ({LAYERS[mine][0]} before {LAYERS[theirs][0]})")
            elif (LAYERS[mine][0], LAYERS[theirs][0]) in SEPARATE:
                out.append(f"{where} ({LAYERS[mine][0]} must not import {LAYERS[theirs][0]})")
        elif top in THIRD_PARTY and _prefix_of(here, THIRD_PARTY[top]) < 0:
            out.append(f"{where} (only {', '.join(THIRD_PARTY[top])} may)")
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_import_from_a_later_layer(path: pathlib.Path) -> None:
    assert _violations(path, module_name(path)) == []


#: Inside the frontend the walker drives the executor and the host-launch evaluator; what
#: they need of it is the ``Program`` protocol (cudalint/frontend/program.py). Only these
#: modules may import the walker: the package (which only names ``parse``), ``parse``,
#: which runs it, and the walker itself. A type-only import counts, as above.
ABOVE_THE_WALKER = ("cudalint.frontend", "cudalint.frontend.parse", "cudalint.frontend.walker")
WALKER = "cudalint.frontend.walker"


def _walker_imports(path: pathlib.Path, here: str) -> list[str]:
    if layer_of(here) != layer_of(WALKER) or here in ABOVE_THE_WALKER:
        return []
    return [
        f"{path.name}:{line}: {here} imports {target} (use cudalint.frontend.program)"
        for line, target in imports(path, here)
        if target == WALKER or target.startswith(WALKER + ".")
    ]


@pytest.mark.parametrize(
    "path",
    [p for p in MODULES if module_name(p).startswith("cudalint.frontend.")],
    ids=lambda p: module_name(p),
)
def test_no_frontend_module_below_the_walker_imports_it(path: pathlib.Path) -> None:
    assert _walker_imports(path, module_name(path)) == []


def test_the_walker_check_sees_an_import(tmp_path: pathlib.Path) -> None:
    """An executor that names the walker, even only for typing, is reported; the parser,
    which runs the walker, is not."""
    fake = tmp_path / "probe.py"
    fake.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from cudalint.frontend.walker import Walker\n"
        "from cudalint.frontend import walker\n"
    )
    got = _walker_imports(fake, "cudalint.frontend.execute")
    assert len(got) == 2, got
    assert "use cudalint.frontend.program" in got[0]
    assert _walker_imports(fake, "cudalint.frontend.parse") == []
    # and the real modules it guards are the ones the check runs on
    names = {module_name(p) for p in MODULES}
    assert {"cudalint.frontend.execute", "cudalint.frontend.host"} <= names


def test_the_check_sees_a_violation(tmp_path: pathlib.Path) -> None:
    """The checker itself: a model module that imports the API, clang or the frontend,
    relatively or not, is reported."""
    fake = tmp_path / "probe.py"
    fake.write_text(
        "import clang.cindex\n"
        "from cudalint import api\n"
        "from ..frontend import parse\n"
        "def f():\n    from cudalint.rules import base\n"
    )
    got = _violations(fake, "cudalint.model.probe")
    assert len(got) == 4, got
    assert "only cudalint.frontend may" in got[0]
    assert "model before pipeline" in got[1]
    assert "model must not import frontend" in got[2]
    assert "model before rules" in got[3]
