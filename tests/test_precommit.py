"""The pre-commit hook: its definition, and ``pre-commit try-repo`` on a real git repo.

``pre-commit try-repo`` clones the hook repository at a commit: with uncommitted
changes it makes a temporary commit of the *tracked* files only (``git add -u``), so a
new module that is not yet committed would be missing. The test therefore copies the
package as it is on disk into a fresh git repository, commits it, and points
``try-repo`` there. pre-commit then installs that repository into a virtualenv with
``pip install .`` (from PyPI: libclang-ng and sympy), which takes a minute or two.

Skipped only when pre-commit itself cannot be run (it is in the ``test`` extra).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from factories import TRANSPOSE_CLEAN, TRANSPOSE_CONFLICT, git

ROOT = Path(__file__).resolve().parent.parent
HOOKS = ROOT / ".pre-commit-hooks.yaml"

CONFLICT, CLEAN = TRANSPOSE_CONFLICT, TRANSPOSE_CLEAN


def _pre_commit() -> list[str]:
    import pre_commit  # noqa: F401  (a test dependency: '.[test]')

    return [sys.executable, "-m", "pre_commit"]


def test_hook_definition() -> None:
    import yaml

    (hook,) = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert hook["id"] == "cudalint"
    assert hook["entry"] == "cudalint"
    assert hook["language"] == "python"
    assert hook["types_or"] == ["cuda"]
    assert hook["require_serial"] is True  # one run, one summary (not one per batch)
    assert hook["minimum_pre_commit_version"] == "2.9.2"


def test_identify_tags_cu_and_cuh_as_cuda() -> None:
    from identify import identify

    assert "cuda" in identify.tags_from_filename("kernel.cu")
    assert "cuda" in identify.tags_from_filename("tile.cuh")
    assert "cuda" not in identify.tags_from_filename("host.cpp")


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package as it is on disk, committed to a fresh git repository."""
    repo = tmp_path_factory.mktemp("hook-repo")
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(ROOT / name, repo / name)
    shutil.copytree(
        ROOT / "cudalint", repo / "cudalint", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "cudalint as tested")
    return repo


def _readme_remote_config() -> str:
    """README's ``.pre-commit-config.yaml`` for the hook repository (not ``repo: local``)."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"^```yaml\n(.*?)^```", readme, re.S | re.M):
        if block.startswith("repos:") and "repo: local" not in block:
            return str(block)
    raise AssertionError("README shows no .pre-commit-config.yaml for the hook repository")


@pytest.mark.network
@pytest.mark.slow
def test_readme_pre_commit_config_runs_as_written(hook_repo: Path, tmp_path: Path) -> None:
    """README's configuration, with only its two placeholders filled in (the clone's
    path and a commit of it), under ``pre-commit run``: one serial run, one summary,
    ``--format=concise`` lines."""
    pre_commit = _pre_commit()
    config = _readme_remote_config()
    assert "/path/to/cudalint" in config and '"0000000000000000000000000000000000000000"' in config
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=hook_repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    config = config.replace("/path/to/cudalint", str(hook_repo)).replace(
        "0000000000000000000000000000000000000000", head
    )
    work = tmp_path / "project"
    (work / "kernels").mkdir(parents=True)
    (work / "kernels" / "conflict.cu").write_text(CONFLICT, encoding="utf-8")
    (work / "kernels" / "clean.cuh").write_text(CLEAN, encoding="utf-8")
    (work / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    git(work, "init", "-q")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "kernels")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PRE_COMMIT", "CUDALINT"))
    }
    env.update(
        PRE_COMMIT_HOME=str(tmp_path / "cache"), PIP_DISABLE_PIP_VERSION_CHECK="1", NO_COLOR="1"
    )
    proc = subprocess.run(
        [*pre_commit, "run", "--all-files", "--verbose"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
    )
    log = proc.stdout + proc.stderr
    if "An unexpected error has occurred" in log and "pip" in log:
        pytest.fail(f"pre-commit could not install the hook's environment:\n{log}")
    assert proc.returncode == 1, log
    assert "kernels/conflict.cu:6:43: CL001 [*] 32-way bank conflict on load of 'tile'" in log
    assert log.count(" accesses: ") == 1, log  # require_serial: one run, one summary


@pytest.mark.network
@pytest.mark.slow
def test_pre_commit_try_repo(hook_repo: Path, tmp_path: Path) -> None:
    pre_commit = _pre_commit()
    work = tmp_path / "project"
    (work / "kernels").mkdir(parents=True)
    (work / "kernels" / "conflict.cu").write_text(CONFLICT, encoding="utf-8")
    (work / "kernels" / "clean.cuh").write_text(CLEAN, encoding="utf-8")
    (work / "notes.txt").write_text("tile[threadIdx.x][threadIdx.y]\n", encoding="utf-8")
    git(work, "init", "-q")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "kernels")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PRE_COMMIT", "CUDALINT"))
    }
    env.update(
        PRE_COMMIT_HOME=str(tmp_path / "cache"), PIP_DISABLE_PIP_VERSION_CHECK="1", NO_COLOR="1"
    )

    def try_repo(*files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                *pre_commit,
                "try-repo",
                str(hook_repo),
                "cudalint",
                "--color",
                "never",
                "--verbose",
                "--files",
                *files,
            ],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=1500,
            check=False,
        )

    failed = try_repo("kernels/conflict.cu")
    log = failed.stdout + failed.stderr
    if "An unexpected error has occurred" in log and "pip" in log:
        pytest.fail(f"pre-commit could not install the hook's environment:\n{log}")
    assert failed.returncode == 1, log
    assert "cudalint" in log and "Failed" in log
    assert "kernels/conflict.cu:6:43: warning: 32-way bank conflict on load of 'tile'" in log
    assert "[CL001]" in log

    passed = try_repo("kernels/clean.cuh")
    log = passed.stdout + passed.stderr
    assert passed.returncode == 0, log
    assert "Passed" in log and "warning:" not in log

    # types_or: [cuda]: a text file is not handed to the hook at all.
    skipped = try_repo("notes.txt")
    log = skipped.stdout + skipped.stderr
    assert skipped.returncode == 0, log
    assert "(no files to check)Skipped" in log
