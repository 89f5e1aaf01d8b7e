"""The README's install and pre-commit commands, run verbatim from a clean clone
(issue 16, must show).

The clone is ``git clone`` of this repository with the working tree's changes laid over
it and committed there (the files ``git ls-files --cached --others --exclude-standard``
lists: what a commit of this tree would hold; nothing ignored, so no ``.venv``,
``build/`` or ``*.egg-info``), so that a tree with uncommitted work is tested as it
will be committed, and a clean tree is tested as it is. Then, in that clone, with
nothing of this environment's Python on PATH:

- Quick start, both lines as written; the second's ``python -m pytest -q`` only
  collects (``PYTEST_ADDOPTS=--collect-only``: the whole suite would run inside this
  test). The first prints the README's opening session, ending in its status 1.
- Install: ``pip install .`` and ``pip install '.[lsp]'`` in the environment the Quick
  start made; ``cudalint lsp`` then starts (pygls installed).
- The VS Code extension: ``cd editors/vscode && npm ci && npx @vscode/vsce package``
  makes the ``.vsix`` that ``code --install-extension`` names.
- pre-commit: ``git -C /path/to/cudalint rev-parse HEAD``, both
  ``.pre-commit-config.yaml`` blocks with ``pre-commit run cudalint --all-files``, and
  ``pre-commit try-repo /path/to/cudalint cudalint --all-files``, with the clone's path
  for the placeholder ``/path/to/cudalint`` and the printed commit for the ``rev``
  placeholder, the only changes.

pip installs from PyPI (libclang-ng, sympy, pygls, the test extra), pre-commit builds
the hook's environment and npm installs the extension's packages: network, minutes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from factories import TRANSPOSE_CLEAN, TRANSPOSE_CONFLICT, code_blocks, git

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PLACEHOLDER_PATH = "/path/to/cudalint"
PLACEHOLDER_REV = "0" * 40
TIMEOUT = 1800

CONFLICT, CLEAN = TRANSPOSE_CONFLICT, TRANSPOSE_CLEAN


def _section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _env(tmp: Path) -> dict[str, str]:
    """This environment without its Python: no virtualenv, no cudalint on PATH."""
    here = os.path.dirname(sys.executable)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PRE_COMMIT", "CUDALINT", "PYTEST"))
    }
    env["PATH"] = os.pathsep.join(
        p
        for p in os.environ.get("PATH", "").split(os.pathsep)
        if p and os.path.realpath(p) != os.path.realpath(here)
    )
    env.update(
        NO_COLOR="1",
        PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return env


def _sh(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def _clone(tmp: Path) -> Path:
    """``git clone`` of this repository, with this tree's uncommitted changes committed."""
    clone = tmp / "cudalint"
    git(tmp, "clone", "-q", "--no-hardlinks", str(ROOT), str(clone))
    listed = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    keep = {name for name in listed.split("\0") if name}
    for name in sorted(keep):
        source = ROOT / name
        target = clone / name
        if source.is_symlink() or not source.is_file():
            continue  # deleted in the tree (or a submodule): git add -A records it
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    for name in git(clone, "ls-files", "-z").split("\0"):
        if name and name in keep and not (ROOT / name).exists():
            (clone / name).unlink()
    git(clone, "add", "-A")
    if git(clone, "status", "--porcelain").strip():
        git(clone, "commit", "-q", "-m", "the working tree, as tested")
    return clone


@pytest.mark.network
@pytest.mark.slow
def test_readme_commands_from_a_clean_clone(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    clone = _clone(tmp_path)
    assert not (clone / ".venv").exists() and not list(clone.glob("*.egg-info"))
    env = _env(tmp_path)

    # --- Quick start ----------------------------------------------------------------
    quick = code_blocks(_section("Quick start"), "sh")[0].splitlines()
    assert len(quick) == 2 and quick[0].startswith("python3 -m venv .venv"), quick
    first = _sh(quick[0], clone, env)
    session = re.search(r"```console\n\$ cudalint examples/transpose.cu\n(.*?)```", README, re.S)
    assert session is not None
    assert first.returncode == 1, first.stdout + first.stderr
    assert first.stdout.endswith(session.group(1)), first.stdout[-3000:]
    second = _sh(quick[1], clone, {**env, "PYTEST_ADDOPTS": "--collect-only"})
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr
    assert re.search(r"^\d+ tests collected", second.stdout, re.M), second.stdout[-2000:]
    activate = ". .venv/bin/activate && "

    # --- Install ----------------------------------------------------------------------
    (install,) = code_blocks(_section("Install"), "sh")
    for line in install.splitlines():
        proc = _sh(activate + line, clone, env)
        assert proc.returncode == 0, f"{line}:\n{proc.stdout[-3000:]}\n{proc.stderr}"
    proc = _sh(activate + "command -v cudalint && cudalint lsp --help", clone, env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(str(clone / ".venv" / "bin" / "cudalint"))
    assert "usage: cudalint lsp" in proc.stdout

    # --- pre-commit -------------------------------------------------------------------
    text = _section("pre-commit")
    commands = re.findall(r"`((?:git -C|pre-commit) [^`]+)`", text)
    rev_parse = next(c for c in commands if c.startswith("git -C"))
    run = next(c for c in commands if c.startswith("pre-commit run"))
    try_repo = next(c for c in commands if c.startswith("pre-commit try-repo"))
    assert run == "pre-commit run cudalint --all-files"
    configs = [b for b in code_blocks(text, "yaml") if b.startswith("repos:")]
    remote = next(b for b in configs if "repo: local" not in b)
    local = next(b for b in configs if "repo: local" in b)
    assert PLACEHOLDER_PATH in remote and f'"{PLACEHOLDER_REV}"' in remote

    def fill(s: str, rev: str = PLACEHOLDER_REV) -> str:
        return s.replace(PLACEHOLDER_PATH, str(clone)).replace(PLACEHOLDER_REV, rev)

    proc = _sh(fill(rev_parse), tmp_path, env)
    assert proc.returncode == 0, proc.stderr
    rev = proc.stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{40}", rev) and rev == git(clone, "rev-parse", "HEAD").strip()

    project = tmp_path / "project"
    (project / "kernels").mkdir(parents=True)
    (project / "kernels" / "conflict.cu").write_text(CONFLICT, encoding="utf-8")
    (project / "kernels" / "clean.cuh").write_text(CLEAN, encoding="utf-8")
    git(project, "init", "-q")
    # pre-commit from the clone's environment (the test extra installed it)
    pre_commit = activate.replace(".venv", str(clone / ".venv"))

    def pre_commit_run(config: str) -> str:
        (project / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
        git(project, "add", "-A")
        proc = _sh(pre_commit + run, project, env)
        log = proc.stdout + proc.stderr
        assert proc.returncode == 1, log
        assert log.count(" accesses: ") == 1, log  # require_serial: one summary
        return log

    log = pre_commit_run(fill(remote, rev))
    assert "kernels/conflict.cu:6:43: CL001 [*] 32-way bank conflict on load of 'tile'" in log
    log = pre_commit_run(local)  # language: system, the clone's cudalint on PATH
    assert "kernels/conflict.cu:6:43: warning: 32-way bank conflict on load of 'tile'" in log

    git(project, "commit", "-q", "-m", "kernels")
    proc = _sh(pre_commit + fill(try_repo), project, env)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 1, log
    assert "kernels/conflict.cu:6:43: warning: 32-way bank conflict" in log
    assert "Failed" in log and "clean.cuh:" not in log

    # --- the VS Code extension: packaged (VS Code itself, to install it, is not here) -------
    (package, install_vsix) = code_blocks(_section("In an editor (language server)"), "sh")[
        0
    ].splitlines()
    assert install_vsix.startswith("code --install-extension ")
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    proc = _sh(package, clone, env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    assert (clone / "editors" / "vscode" / install_vsix.split()[-1]).is_file()
