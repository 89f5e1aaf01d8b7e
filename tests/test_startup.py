"""What a run imports (issue 15 goal 4, issue 16 item 4): the command line's entry point
loads no heavy dependency before it needs one, and a run loads only what its files and
its format need. Each check runs in a fresh interpreter (``sys.modules`` of this one
holds whatever other tests imported)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "transpose.cu"

#: Never needed to start: the language server's libraries, the algebra (sympy is used
#: only by cudalint.model.algebra.to_sympy, not on the analysis path), and the parts
#: of cudalint that only some runs need.
NEVER_AT_START = ("sympy", "pygls", "lsprotocol", "cudalint.lsp", "cudalint.model.algebra")
#: Loaded only when a file is analysed (not for --help, --version or a cache hit).
ANALYSIS = (
    "clang",
    "clang.cindex",
    "pycparser",
    "cudalint.frontend.parse",
    "cudalint.frontend.walker",
    "cudalint.model.proof",
    "cudalint.model.analyze",
    "cudalint.fixes",
)
#: Loaded only by the runs that use them: worker pools (-j, the language server),
#: .gitignore matching (directories), the renderers not asked for.
ON_DEMAND = (
    "multiprocessing",
    "concurrent.futures",
    "pathspec",
    "cudalint.output.sarif",
    "cudalint.output.json",
    "cudalint.output.github",
)

PROBE = """
import contextlib, io, json, sys
argv = json.loads(sys.argv[1])
code = None
if argv is not None:
    from cudalint.cli import main
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(argv)
else:
    import cudalint.cli
    out = io.StringIO()
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _probe(argv: list[str] | None, cwd: Path = ROOT) -> tuple[int | None, str, set[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CUDALINT_")}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout.strip().splitlines()[-1])
    return doc["code"], doc["out"], set(doc["modules"])


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return [n for n in names if n in modules]


def test_importing_the_entry_point_loads_no_heavy_dependency() -> None:
    _, _, modules = _probe(None)
    assert _loaded(modules, NEVER_AT_START + ANALYSIS + ON_DEMAND) == []


@pytest.mark.parametrize(
    "argv", [["--version"], ["--help"], ["--list-rules"], ["--explain", "CL001"]]
)
def test_commands_without_files_load_no_analysis(argv: list[str]) -> None:
    _, _, modules = _probe(argv)
    assert _loaded(modules, NEVER_AT_START + ANALYSIS + ON_DEMAND) == []


def test_one_file_run_loads_only_what_it_needs() -> None:
    """The pre-commit hook's run on one file: libclang and the model, not the server's
    libraries, sympy, worker pools, .gitignore matching or other renderers."""
    code, out, modules = _probe(["--no-cache", "--format=concise", str(EXAMPLE)])
    assert code == 1 and "CL001" in out
    assert _loaded(modules, NEVER_AT_START + ON_DEMAND) == []
    assert "clang.cindex" in modules  # the probe itself works


def test_result_cache_hit_loads_no_analysis(tmp_path: Path) -> None:
    """A file whose result is cached is printed without libclang, the walker or the
    prover (cudalint.result_cache)."""
    shutil.copy(EXAMPLE, tmp_path / "t.cu")
    argv = [f"--cache-dir={tmp_path / 'cache'}", "--format=concise", "t.cu"]
    first = _probe(argv, cwd=tmp_path)
    second = _probe(argv, cwd=tmp_path)
    assert first[:2] == second[:2] and first[0] == 1
    assert "clang.cindex" in first[2]
    assert _loaded(second[2], NEVER_AT_START + ANALYSIS + ON_DEMAND) == []


def test_sympy_is_imported_only_by_the_algebra() -> None:
    """No module of the package imports sympy at its top level but
    cudalint.model.algebra (the hook's environment need not load it)."""
    import ast

    offenders = []
    for path in sorted((ROOT / "cudalint").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # top level only: imports inside functions are lazy
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n.split(".")[0] == "sympy" for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders in ([], ["cudalint/model/algebra.py"])
