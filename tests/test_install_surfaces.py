"""Installation surfaces (issue 16, items 3 and 4): every install command cudalint shows
works from the repository (cudalint is not on PyPI), the LICENSE that pyproject names,
the changelog, the composite GitHub Action (its run step executed here with this
environment's cudalint), the pre-commit snippets, ``--format concise`` as the README
shows it, and a start that does not import sympy. Fast: no network, no pip.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from factories import code_blocks

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _git_tags() -> set[str] | None:
    try:
        proc = subprocess.run(
            ["git", "tag", "--list"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except OSError:
        return None
    return set(proc.stdout.split()) if proc.returncode == 0 else None


# --- install commands --------------------------------------------------------------------


SURFACES = [
    "README.md",
    "CHANGELOG.md",
    "action.yml",
    "editors/vscode/package.json",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")),
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "cudalint").rglob("*.py")),
]


@pytest.mark.parametrize("name", SURFACES)
def test_no_surface_installs_cudalint_from_pypi(name: str) -> None:
    """``pip install cudalint`` / ``'cudalint[lsp]'`` would fetch from PyPI, where there
    is no cudalint: every command names a path (``.``) or a git URL instead."""
    text = (ROOT / name).read_text(encoding="utf-8")
    bad = re.findall(r"pip install\s+['\"]?cudalint\b(?!\S*\s*@\s*git\+)[^\n]*", text)
    assert not bad, f"{name}: {bad}"


def test_readme_install_block_uses_the_clone_and_existing_extras() -> None:
    section = README.split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    (block,) = code_blocks(section, "sh")
    extras = PYPROJECT["project"]["optional-dependencies"]
    specs = []
    for line in block.splitlines():
        words = shlex.split(line)
        assert words[:2] == ["pip", "install"], line
        specs += words[2:]
    assert specs == [".", ".[lsp]"]
    assert "lsp" in extras and any(d.startswith("pygls") for d in extras["lsp"])


def test_lsp_extension_setting_says_how_to_install() -> None:
    package = json.loads((ROOT / "editors/vscode/package.json").read_text(encoding="utf-8"))
    text = package["contributes"]["configuration"]["properties"]["cudalint.path"]["description"]
    assert "pip install '.[lsp]'" in text and "clone" in text


# --- LICENSE and CHANGELOG ---------------------------------------------------------------


def test_license_is_the_one_pyproject_names() -> None:
    assert PYPROJECT["project"]["license"] == {"text": "Apache-2.0"}
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License\n                           Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert len(text.splitlines()) == 202  # the whole standard text, appendix included


def test_changelog_follows_keep_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    assert "https://keepachangelog.com/en/1.1.0/" in text
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings and headings[0] == "[Unreleased]"
    for heading in headings[1:]:
        assert re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", heading), heading
    sections = set(re.findall(r"^### (.+)$", text, re.M))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    tags = _git_tags()
    if tags is not None:  # a released version is a tag
        for version in re.findall(r"^## \[(\d+\.\d+\.\d+)\]", text, re.M):
            assert f"v{version}" in tags, version


# --- pre-commit ----------------------------------------------------------------------------


def test_hook_runs_serially() -> None:
    yaml = pytest.importorskip("yaml")
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["require_serial"] is True


def test_readme_pre_commit_snippets_name_the_hook_and_no_missing_tag() -> None:
    yaml = pytest.importorskip("yaml")
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    configs = [yaml.safe_load(b) for b in code_blocks(README, "yaml") if b.startswith("repos:")]
    assert len(configs) == 2
    tags = _git_tags()
    for config in configs:
        (repo,) = config["repos"]
        assert [h["id"] for h in repo["hooks"]] == [hook["id"]]
        if repo["repo"] != "local":
            rev = repo["rev"]
            assert isinstance(rev, str)  # pre-commit wants a string: quote a commit of digits
            # a commit (placeholder of 40 hex digits), or a tag that exists
            assert re.fullmatch(r"[0-9a-f]{40}", rev) or (tags is not None and rev in tags)
            for arg in repo["hooks"][0].get("args", []):
                assert arg.split("=")[0] in _help(), arg


def _help() -> str:
    from cudalint.cli import build_parser

    return build_parser().format_help()


# --- the GitHub Action -------------------------------------------------------------------


@pytest.fixture(scope="module")
def action() -> dict:  # type: ignore[type-arg]
    yaml = pytest.importorskip("yaml")
    document = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def test_action_is_composite_and_installs_from_its_checkout(action: dict) -> None:  # type: ignore[type-arg]
    assert action["runs"]["using"] == "composite"
    assert {"paths", "args", "sarif-file", "upload-sarif"} <= set(action["inputs"])
    steps = action["runs"]["steps"]
    install = next(s for s in steps if s.get("name", "").startswith("Install"))
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert "pip install" in install["run"] and '"$ACTION_PATH"' in install["run"]
    upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ steps.run.outputs.sarif-file }}"
    assert upload["if"].startswith("always()")
    for step in steps:  # inputs reach scripts through env, never pasted into bash
        assert "${{" not in step.get("run", ""), step.get("name")


def _step(action: dict, name: str) -> str:  # type: ignore[type-arg]
    return next(s["run"] for s in action["runs"]["steps"] if s.get("name") == name)


def test_action_run_step_writes_sarif_and_the_status(action: dict, tmp_path: Path) -> None:  # type: ignore[type-arg]
    """The run step's script, executed with this environment's cudalint standing in for
    the one the install step puts in ``$RUNNER_TEMP/cudalint-venv``."""
    venv_bin = tmp_path / "runner" / "cudalint-venv" / "bin"
    venv_bin.mkdir(parents=True)
    exe = Path(sys.executable).parent / "cudalint"
    if not exe.exists():
        pytest.skip("no cudalint executable beside this Python")
    (venv_bin / "cudalint").symlink_to(exe)
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    (work / "src" / "t.cu").write_bytes((ROOT / "examples" / "transpose.cu").read_bytes())
    output = tmp_path / "github_output"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("CUDALINT")},
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "GITHUB_OUTPUT": str(output),
        "INPUT_PATHS": "src",
        "INPUT_ARGS": "--isolated --arch=sm_90",
        "INPUT_SARIF_FILE": "out.sarif",
        "INPUT_ANNOTATIONS": "true",
    }
    proc = subprocess.run(
        ["bash", "-c", _step(action, "Run cudalint")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert output.read_text().splitlines() == ["sarif-file=out.sarif", "exit-code=1"]
    sarif = json.loads((work / "out.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["CL001"]
    assert "::warning file=src/t.cu,line=32" in proc.stdout  # annotations: "true"

    fail = _step(action, "Fail on findings")
    for status, fail_on, code in (
        ("1", "true", 1),
        ("1", "false", 0),
        ("2", "false", 2),
        ("0", "true", 0),
    ):
        proc = subprocess.run(
            ["bash", "-c", fail],
            env={**env, "STATUS": status, "FAIL_ON_FINDINGS": fail_on},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert proc.returncode == code, (status, fail_on, proc.stdout)


# --- --format concise and a quick start ----------------------------------------------------


def test_readme_concise_session_is_what_cudalint_prints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cudalint.cli import main

    sessions = re.findall(
        r"```console\n\$ (cudalint --format concise [^\n]*)\n(.*?)```", README, re.S
    )
    assert sessions, "README shows no --format concise session"
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    for command, expected in sessions:
        code = main(shlex.split(command)[1:])
        out, _ = capsys.readouterr()
        assert code == 1 and out == expected


def test_start_does_not_import_sympy() -> None:
    """pre-commit starts cudalint for each commit: the command line and every output
    format load without sympy (≈175 ms to import), which the model imports only when an
    index has a uniform symbol to solve for."""
    code = (
        "import sys, cudalint.cli, cudalint.output.concise, cudalint.output.sarif, "
        "cudalint.output.json, cudalint.baseline\n"
        "sys.exit('sympy' in sys.modules)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
