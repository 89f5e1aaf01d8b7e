"""The VS Code extension in editors/vscode builds: ``npm ci && npm run compile``.

It runs in a copy of the extension's sources (package.json, package-lock.json,
tsconfig.json, src/), so that node_modules and out/ never land in the checkout. Skipped
where npm is missing; it needs the npm registry (``npm ci`` installs the locked
packages).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parent.parent / "editors" / "vscode"


def test_extension_manifest_starts_cudalint_lsp() -> None:
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    assert manifest["main"] == "./out/extension.js"
    assert "vscode-languageclient" in manifest["dependencies"]
    assert manifest["scripts"]["compile"].startswith("tsc")
    source = (EXTENSION / "src" / "extension.ts").read_text(encoding="utf-8")
    assert '"lsp"' in source and "vscode-languageclient/node" in source
    lock = json.loads((EXTENSION / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"][""]["dependencies"] == manifest["dependencies"]


def test_extension_builds(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    work = tmp_path / "vscode"
    work.mkdir()
    for name in ("package.json", "package-lock.json", "tsconfig.json"):
        shutil.copy(EXTENSION / name, work / name)
    shutil.copytree(EXTENSION / "src", work / "src")
    for step in (["ci", "--no-audit", "--no-fund"], ["run", "compile"]):
        proc = subprocess.run([npm, *step], cwd=work, capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == 0, f"npm {' '.join(step)}:\n{proc.stdout}\n{proc.stderr}"
    compiled = (work / "out" / "extension.js").read_text(encoding="utf-8")
    assert "exports.activate" in compiled and "require(\"vscode-languageclient/node\")" in compiled
