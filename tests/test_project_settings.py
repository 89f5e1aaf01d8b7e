"""One settings resolution for every surface (issue 16, items 1 and 2).

- ``extend``: the extending file's keys win, relative paths stay with the file that
  names them, rule selectors layer, a cycle is exit 2;
- the compilation database: ``-p`` over ``compile-commands`` over the one found in the
  project or its ``build*/`` (as clangd looks), ``false`` and ``--isolated`` for none;
- ``.gitignore``/``.ignore`` in directory walks (``--no-respect-gitignore``,
  ``respect-gitignore``), a named file analysed all the same;
- ``exclude`` for files named on the command line, through a nested configuration, and
  for ``--stdin-filename``;
- the configuration's JSON schema matches the loader's keys and the documented examples;
- ``-v``: configuration files, databases, skipped paths and the clang command line;
- and the must-show: the project in tests/data/project gives identical diagnostics on
  the command line, stdin, the pre-commit hook's command and the language server.

Most tests replace the frontend and model with ``factories.FakePipeline``; the last one
runs everything for real.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from factories import FakePipeline, install_fake_pipeline, write_sources

from cudalint.cli import main
from cudalint.config import KEYS, ConfigError, load_config

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SCHEMA = ROOT / "docs" / "cudalint-config.schema.json"


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakePipeline:
    # the fake pipeline lives in this process: analyse here, not in a forked child
    monkeypatch.setenv("CUDALINT_IN_PROCESS", "1")
    pipeline = install_fake_pipeline(monkeypatch)
    monkeypatch.chdir(tmp_path)
    return pipeline


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test works in its own directory (``write`` takes relative paths)."""
    monkeypatch.chdir(tmp_path)


def write(path: str, text: str) -> Path:
    p = Path(path)
    assert not p.is_absolute()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def sources(directory: str, *names: str) -> None:
    Path(directory).mkdir(parents=True, exist_ok=True)
    write_sources(Path(directory), names)


def db(directory: str, *entries: tuple[str, str]) -> None:
    """A compile_commands.json in ``directory``: (file, flags) entries, absolute paths."""
    where = Path(directory).resolve()
    where.mkdir(parents=True, exist_ok=True)
    (where / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(where),
                    "file": str(Path(f).resolve()),
                    "command": f"nvcc {flags} -c {Path(f).resolve()}",
                }
                for f, flags in entries
            ]
        ),
        encoding="utf-8",
    )


def options_of(fake: FakePipeline) -> dict[str, Any]:
    return dict(zip(fake.parsed, fake.options, strict=True))


# --- extend --------------------------------------------------------------------------------


def test_extend_keys_win_and_paths_stay_with_their_file(tmp_path: Path) -> None:
    write(
        "pyproject.toml",
        '[tool.cudalint]\narch = "sm_80"\nstd = "c++14"\n'
        'include-dirs = ["inc"]\nexclude = ["vendor"]\nselect = ["CL001"]\n'
        '[tool.cudalint.per-file-ignores]\n"legacy/*" = ["CL001"]\n',
    )
    write(
        "sub/cudalint.toml",
        'extend = "../pyproject.toml"\nstd = "c++20"\n'
        'include-dirs = ["own"]\nextend-select = ["CL003"]\n',
    )
    config = load_config(str(tmp_path / "sub" / "cudalint.toml"))
    assert config.arch == "sm_80"  # inherited
    assert config.std == "c++20"  # the extending file's key wins
    assert config.include_dirs == (str(tmp_path / "sub" / "own"),)  # replaced, its own base
    # inherited globs keep the extended file's directory as their base
    assert config.exclude == ("vendor",) and config.exclude_base == str(tmp_path)
    assert config.per_file_ignores_base == str(tmp_path)
    assert config.root == str(tmp_path / "sub")
    assert config.extends == ("pyproject.toml",)  # as found from the working directory
    # rule selectors layer: the base's select, then this file's extend-select
    assert config.base_rule_layers == ((("CL001",), (), ()),)
    assert config.select is None and config.extend_select == ("CL003",)


def test_extend_layers_rules_and_globs_on_the_command_line(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("pyproject.toml", '[tool.cudalint]\nselect = ["CL001"]\nexclude = ["vendor"]\n')
    write(
        "sub/pyproject.toml",
        '[tool.cudalint]\nextend = "../pyproject.toml"\nextend-select = ["CL004"]\n',
    )
    sources("sub", "strided.cu")
    sources("sub/vendor", "transpose.cu")
    code, out, _ = run(capsys, "sub")
    # the base's select (CL001) plus the extending file's CL004; not CL002
    assert "[CL001]" in out and "[CL004]" in out and "[CL002]" not in out
    # the base's 'vendor' exclude holds below the extending file too
    assert fake.parsed == [os.path.join("sub", "strided.cu")]
    assert code == 1


@pytest.mark.parametrize(
    "files,message",
    [
        (
            {"a.toml": 'extend = "b.toml"\n', "b.toml": 'extend = "a.toml"\n'},
            "'extend' makes a cycle: a.toml -> b.toml -> a.toml",
        ),
        ({"a.toml": 'extend = "a.toml"\n'}, "'extend' makes a cycle: a.toml -> a.toml"),
        ({"a.toml": 'extend = "gone.toml"\n'}, "invalid value for 'extend': 'gone.toml'"),
        ({"a.toml": "extend = 3\n"}, "invalid value for 'extend': 3"),
        ({"a.toml": 'extend = "b.toml"\n', "b.toml": "colour = 1\n"}, "unknown key 'colour'"),
    ],
)
def test_bad_extend_is_a_usage_error(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], files: dict[str, str], message: str
) -> None:
    for name, text in files.items():
        write(name, text)
    sources(".", "clean.cu")
    code, out, err = run(capsys, "--config", "a.toml", "clean.cu")
    assert code == 2 and out == ""
    assert message in err and err.startswith("cudalint: error: ")
    assert fake.parsed == []


def test_extend_cycle_through_a_found_pyproject(tmp_path: Path) -> None:
    write("pyproject.toml", '[tool.cudalint]\nextend = "sub/pyproject.toml"\n')
    write("sub/pyproject.toml", '[tool.cudalint]\nextend = "../pyproject.toml"\n')
    with pytest.raises(ConfigError, match="cycle"):
        load_config(str(tmp_path / "pyproject.toml"))


# --- the compilation database ----------------------------------------------------------------


def test_database_found_in_build_and_precedence(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sources("src", "clean.cu")
    Path(".git").mkdir()  # the top of the project: the search stops here
    db("build", ("src/clean.cu", "-DFOUND -arch=sm_80"))
    db("build-debug", ("src/clean.cu", "-DDEBUG_BUILD"))
    db("other", ("src/clean.cu", "-DOTHER"))
    # found: build/ before build-debug/
    code, _, err = run(capsys, "-v", "src/clean.cu")
    assert code == 0
    o = fake.options[-1]
    assert (o.defines, o.arch) == (("FOUND",), "sm_80")
    assert "compilation database: build/compile_commands.json (1 files), found from src" in err
    assert "also found build-debug/compile_commands.json" in err
    # the configuration's key beats the found one (relative to the configuration)
    write("pyproject.toml", '[tool.cudalint]\ncompile-commands = "other"\n')
    run(capsys, "src/clean.cu")
    assert fake.options[-1].defines == ("OTHER",)
    # -p beats both
    run(capsys, "-p", "build-debug", "src/clean.cu")
    assert fake.options[-1].defines == ("DEBUG_BUILD",)
    # false: none at all
    write("pyproject.toml", "[tool.cudalint]\ncompile-commands = false\n")
    run(capsys, "src/clean.cu")
    assert fake.options[-1].defines == ()
    # --isolated: no configuration, and no database found either
    Path("pyproject.toml").unlink()
    run(capsys, "--isolated", "src/clean.cu")
    assert fake.options[-1].defines == ()
    run(capsys, "src/clean.cu")
    assert fake.options[-1].defines == ("FOUND",)


def test_database_in_the_sources_directory_wins_over_one_above(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    sources("a/b", "clean.cu")
    Path(".git").mkdir()
    db(".", ("a/b/clean.cu", "-DTOP"))
    db("a", ("a/b/clean.cu", "-DNEAR"))
    run(capsys, "a/b/clean.cu")
    assert fake.options[-1].defines == ("NEAR",)


def test_search_stops_at_the_repository_top(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    db("build", ("repo/clean.cu", "-DOUTSIDE"))
    sources("repo", "clean.cu")
    Path("repo/.git").mkdir()
    run(capsys, "repo/clean.cu")
    assert fake.options[-1].defines == ()


def test_broken_found_or_configured_database_is_exit_2(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    sources(".", "clean.cu")
    Path(".git").mkdir()
    write("build/compile_commands.json", "[")
    code, _, err = run(capsys, "clean.cu")
    assert code == 2
    assert "build/compile_commands.json: invalid JSON" in err
    assert "compile-commands = false uses none" in err
    write("cudalint.toml", 'compile-commands = "missing.json"\n')
    code, _, err = run(capsys, "clean.cu")
    assert code == 2 and "'compile-commands' in cudalint.toml" in err
    write("cudalint.toml", "compile-commands = true\n")
    code, _, err = run(capsys, "clean.cu")
    assert code == 2 and "invalid value for 'compile-commands': True" in err


# --- ignore files, excludes ------------------------------------------------------------------


def test_gitignore_in_walks_only(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    Path(".git").mkdir()
    write(".gitignore", "build/_deps/\n*.gen.cu\n!keep.gen.cu\n")
    write("src/.gitignore", "scratch/\n")
    sources("src", "clean.cu")
    sources("build/_deps/dep", "transpose.cu")
    sources("src/scratch", "strided.cu")
    write("src/a.gen.cu", "")
    write("src/keep.gen.cu", "")
    _, _, err = run(capsys, "-v", ".")
    assert sorted(fake.parsed) == ["src/clean.cu", "src/keep.gen.cu"]
    assert "build/_deps: skipped (ignored by .gitignore)" in err
    assert "src/scratch: skipped (ignored by src/.gitignore)" in err
    # a file or directory named is analysed all the same
    fake.parsed.clear()
    run(capsys, "build/_deps/dep/transpose.cu", "src/scratch")
    assert fake.parsed == ["build/_deps/dep/transpose.cu", "src/scratch/strided.cu"]
    # opting out: the flag, or the configuration
    fake.parsed.clear()
    run(capsys, "--no-respect-gitignore", ".")
    assert len(fake.parsed) == 5
    write("cudalint.toml", "respect-gitignore = false\n")
    fake.parsed.clear()
    run(capsys, ".")
    assert len(fake.parsed) == 5
    fake.parsed.clear()
    run(capsys, "--respect-gitignore", ".")
    assert len(fake.parsed) == 2


def test_gitignore_needs_a_repository_but_dot_ignore_does_not(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write(".gitignore", "skipped/\n")
    write(".ignore", "alsoskipped/\n")
    sources("skipped", "clean.cu")
    sources("alsoskipped", "strided.cu")
    run(capsys, ".")
    assert fake.parsed == ["skipped/clean.cu"]  # no .git: .gitignore is not read


def test_exclude_of_a_directory_holds_for_files_named_below_it(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    # the project excludes third_party; third_party has a configuration of its own
    # (a vendored project's pyproject.toml): a directory walk skips third_party, so
    # pre-commit naming third_party/lib/x.cu must skip it as well
    write("pyproject.toml", '[tool.cudalint]\nexclude = ["third_party"]\n')
    write("third_party/lib/pyproject.toml", '[tool.cudalint]\narch = "sm_70"\n')
    sources("third_party/lib", "transpose.cu")
    sources(".", "clean.cu")
    run(capsys, ".")
    assert fake.parsed == ["clean.cu"]
    fake.parsed.clear()
    code, _, _ = run(capsys, "clean.cu", "third_party/lib/transpose.cu")
    assert fake.parsed == ["clean.cu"] and code == 0


def test_excluded_stdin_filename_reports_nothing(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from factories import TRANSPOSE

    write("pyproject.toml", '[tool.cudalint]\nexclude = ["vendor"]\n')

    class Stdin:
        buffer = io.BytesIO(TRANSPOSE.encode())

    monkeypatch.setattr(sys, "stdin", Stdin())
    code, out, err = run(
        capsys, "-v", "--format", "json", "--stdin-filename", "vendor/transpose.cu", "-"
    )
    assert code == 0 and json.loads(out)["diagnostics"] == []
    assert "vendor/transpose.cu: skipped ('exclude' in pyproject.toml)" in err
    assert fake.parsed == []
    Stdin.buffer = io.BytesIO(TRANSPOSE.encode())
    code, out, _ = run(capsys, "--format", "json", "--stdin-filename", "src/transpose.cu", "-")
    assert code == 1 and fake.parsed == ["src/transpose.cu"]


# --- the language server's resolution -------------------------------------------------------


def test_language_server_resolves_as_the_command_line(fake: FakePipeline, tmp_path: Path) -> None:
    pytest.importorskip("pygls")
    from cudalint.lsp.server import LspSettings, analyze_text

    Path(".git").mkdir()
    write("pyproject.toml", '[tool.cudalint]\nexclude = ["vendor"]\n')
    sources("src", "transpose.cu")
    sources("src/vendor", "transpose.cu")
    db("build", ("src/transpose.cu", "-DFOUND -arch=sm_80"))
    db("other", ("src/transpose.cu", "-DOTHER"))
    source = (tmp_path / "src" / "transpose.cu").read_text(encoding="utf-8")
    # an excluded document: not analysed, nothing shown
    vendored = analyze_text(str(tmp_path / "src" / "vendor" / "transpose.cu"), source)
    assert vendored.excluded and vendored.diagnostics == [] and vendored.error is None
    assert fake.parsed == []
    # the found database, as `cudalint src/transpose.cu`
    analysis = analyze_text(str(tmp_path / "src" / "transpose.cu"), source)
    assert not analysis.excluded and analysis.diagnostics
    assert (fake.options[-1].defines, fake.options[-1].arch) == (("FOUND",), "sm_80")
    # `cudalint lsp --compile-commands other/compile_commands.json`, as -p on the CLI
    analyze_text(
        str(tmp_path / "src" / "transpose.cu"),
        source,
        settings=LspSettings(compile_commands=str(tmp_path / "other" / "compile_commands.json")),
    )
    assert fake.options[-1].defines == ("OTHER",)
    # `cudalint lsp --isolated`: no configuration (vendor analysed), no database found
    analyze_text(
        str(tmp_path / "src" / "vendor" / "transpose.cu"),
        source,
        settings=LspSettings(isolated=True),
    )
    assert fake.parsed[-1].endswith("vendor/transpose.cu") and fake.options[-1].defines == ()
    # a broken database is the document's error, not a crash
    write("build/compile_commands.json", "[")
    broken = analyze_text(str(tmp_path / "src" / "transpose.cu"), source)
    assert broken.error is not None and "invalid JSON" in broken.error


# --- -v ----------------------------------------------------------------------------------------


def test_verbose_prints_the_resolved_settings_and_clang_arguments(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".git").mkdir()
    write("pyproject.toml", '[tool.cudalint]\nexclude = ["vendor"]\n')
    write("src/cudalint.toml", 'extend = "../pyproject.toml"\ndefines = ["CFG=1"]\n')
    sources("src", "clean.cu", "strided.cu")
    sources("src/vendor", "transpose.cu")
    db("build", ("src/clean.cu", "-DFROM_DB -arch=sm_75 -Iinc"))
    code, _, err = run(capsys, "-v", "src")
    assert code == 1  # strided.cu's conflicts
    lines = err.splitlines()
    assert (
        "cudalint: src/vendor: skipped ('exclude' in pyproject.toml, extended by src/cudalint.toml)"
    ) in lines
    assert "cudalint: configuration: src/cudalint.toml (extends pyproject.toml)" in lines
    assert (
        "cudalint: compilation database: build/compile_commands.json (1 files), found from src"
    ) in lines
    assert "cudalint: src/clean.cu: compile command from build/compile_commands.json" in lines
    assert (
        "cudalint: src/strided.cu: not in build/compile_commands.json; using the default options"
    ) in lines
    clang = next(line for line in lines if line.startswith("cudalint: src/clean.cu: clang "))
    # the exact arguments: the database's arch, include directory and macro after the
    # configuration's macro
    assert "--cuda-gpu-arch=sm_75" in clang
    assert f"-I{Path('inc').resolve().parent / 'build' / 'inc'}" in clang
    assert clang.index("-DCFG=1") < clang.index("-DFROM_DB")
    assert any(line.startswith("cudalint: src/clean.cu: arch sm_75,") for line in lines)


# --- the configuration's JSON schema ---------------------------------------------------------


def _schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return data


def test_schema_names_exactly_the_keys_the_loader_accepts() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = _schema()
    jsonschema.Draft7Validator.check_schema(schema)
    assert set(schema["properties"]) == set(KEYS)
    assert schema["additionalProperties"] is False


def _documented_tables() -> list[tuple[str, dict[str, Any]]]:
    tables = []
    for doc in [
        "README.md",
        *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")),
    ]:
        text = (ROOT / doc).read_text(encoding="utf-8")
        for block in re.findall(r"```toml\n(.*?)```", text, flags=re.S):
            if "[language-server." in block:
                continue  # an editor's configuration (Helix), not cudalint's
            data = tomllib.loads(block)
            table = data.get("tool", {}).get("cudalint", data)
            tables.append((doc, table))
    return tables


def test_documented_examples_validate_against_the_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(_schema())
    tables = _documented_tables()
    assert len(tables) >= 3
    seen: set[str] = set()
    for doc, table in tables:
        errors = [e.message for e in validator.iter_errors(table)]
        assert errors == [], (doc, table)
        seen.update(table)
    # the documentation shows every key
    assert seen >= set(KEYS), set(KEYS) - seen


@pytest.mark.parametrize(
    "table",
    [
        {"colour": True},
        {"bank-mode": 16},
        {"compile-commands": True},
        {"std": "c17"},
        {"block-dim": [0]},
        {"select": ["CL 1"]},
        {"respect-gitignore": "yes"},
    ],
)
def test_schema_and_loader_reject_the_same_bad_values(
    table: dict[str, Any], tmp_path: Path
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    assert list(jsonschema.Draft7Validator(_schema()).iter_errors(table))
    path = tmp_path / "cudalint.toml"
    key, value = next(iter(table.items()))
    path.write_text(f"{key} = {json.dumps(value)}\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        load_config(str(path))


def test_every_rule_matches_the_schemas_selector() -> None:
    from cudalint.rules import RULES

    pattern = re.compile(_schema()["definitions"]["selector"]["pattern"])
    for rule in RULES.values():
        assert pattern.match(rule.code) and pattern.match(rule.name)
    assert pattern.match("ALL") and pattern.match("CL00")


# --- the must-show: one project, four surfaces, the same diagnostics ------------------------


def make_project(tmp_path: Path) -> Path:
    """tests/data/project as a git repository, with build/ (a compile_commands.json of
    absolute paths, and a gitignored FetchContent dependency) added."""
    project = tmp_path / "project"
    shutil.copytree(DATA / "project", project)
    build = project / "build"
    shutil.copytree(DATA / "project_build", build)
    template = build / "compile_commands.in.json"
    text = template.read_text(encoding="utf-8")
    (build / "compile_commands.json").write_text(
        text.replace("@BUILD@", str(build)).replace("@ROOT@", str(project)), encoding="utf-8"
    )
    template.unlink()
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(
            ["git", "-c", "init.defaultBranch=main", "-C", str(project), *args],
            check=True,
            capture_output=True,
        )
    return project


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PRE_COMMIT")}
    env["PYTHONPATH"] = str(ROOT)
    return env


def _cli(
    project: Path, *argv: str, stdin: bytes | None = None, env: dict[str, str] | None = None
) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "cudalint", "--format", "json", *argv],
        cwd=project,
        input=stdin,
        capture_output=True,
        env=env or _env(),
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr.decode()
    data: dict[str, Any] = json.loads(proc.stdout)
    assert data["errors"] == []
    return data


Finding = tuple[str, int, int, int, int, str, str, str]


def _from_json(data: dict[str, Any]) -> set[Finding]:
    """Each diagnostic as the language server shows it: its range, code, severity and
    text (message, notes, the fix's title)."""
    out = set()
    for d in data["diagnostics"]:
        text = "\n".join(
            [d["message"], *d["notes"], *([f"help: {d['fix']['title']}"] if d.get("fix") else [])]
        )
        out.add(
            (
                os.path.normpath(d["file"]),
                d["line"],
                d["column"],
                d["end_line"],
                d["end_column"],
                d["code"],
                d["severity"],
                text,
            )
        )
    return out


def _hook_command() -> list[str]:
    """The entry and args of the pre-commit hook, as .pre-commit-hooks.yaml has them."""
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "cudalint")
    assert hook["entry"].split()[0] == "cudalint"
    assert hook.get("require_serial") is True
    return [*hook["entry"].split()[1:], *hook.get("args", [])]


def test_every_surface_gives_the_same_diagnostics(tmp_path: Path) -> None:
    pytest.importorskip("pygls")
    if shutil.which("git") is None:
        pytest.skip("git is needed to make the project a repository")
    from test_lsp import Client

    project = make_project(tmp_path)
    tracked = subprocess.run(
        ["git", "-C", str(project), "ls-files"], check=True, capture_output=True, text=True
    ).stdout.split()
    # what pre-commit passes (types_or: [cuda]): the tracked .cu/.cuh files
    cuda = sorted(f for f in tracked if f.endswith((".cu", ".cuh")))
    assert cuda == [
        "src/strided/strided.cu",
        "src/strided/vendor/vendored.cu",
        "src/transpose.cu",
    ]  # build/_deps is gitignored, vendor is tracked

    # 1. the command line on the project's directory
    cli = _from_json(_cli(project, "."))
    # expected, from the bank rule (tests/data/project/README.md): the 32-way transposed
    # read with the database's TILE=32 and include directory, and the 2-way store with
    # the nested configuration's STRIDE=2 (extending the root); nothing from vendor/
    # (excluded) nor build/_deps (gitignored), and no CL004 (tile.h is found)
    assert sorted((f[0], f[1], f[5], f[7].split(" (")[0]) for f in cli) == [
        ("src/strided/strided.cu", 6, "CL001", "2-way bank conflict on store of 'buf'"),
        ("src/transpose.cu", 8, "CL001", "32-way bank conflict on load of 'tile'"),
    ]
    assert all("arch sm_80" in f[7] for f in cli)  # the database's -gencode/-arch

    # 2. the pre-commit hook's command, with the files as pre-commit passes them
    env = {**_env(), "PRE_COMMIT": "1"}
    hook = _from_json(_cli(project, *_hook_command(), *cuda, env=env))
    assert hook == cli

    # 3. stdin, each file with --stdin-filename (as an editor plugin pipes a buffer)
    piped: set[Finding] = set()
    for name in cuda:
        piped |= _from_json(
            _cli(project, "--stdin-filename", name, "-", stdin=(project / name).read_bytes())
        )
    assert piped == cli

    # 4. the language server, each document opened as an editor opens it
    client = Client(project)
    seen: set[Finding] = set()
    try:
        client.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": project.as_uri(), "capabilities": {}},
        )
        client.notify("initialized", {})
        for name in cuda:
            uri = (project / name).as_uri()
            client.notify(
                "textDocument/didOpen",
                {
                    "textDocument": {
                        "uri": uri,
                        "languageId": "cuda-cpp",
                        "version": 1,
                        "text": (project / name).read_text(encoding="utf-8"),
                    }
                },
            )
            for d in client.diagnostics(uri, 1):
                start, end = d["range"]["start"], d["range"]["end"]
                severity = {1: "error", 2: "warning", 3: "info"}[d["severity"]]
                # the server names files by absolute path (a launch site in a note)
                text = d["message"].replace(f"{project}{os.sep}", "")
                seen.add(
                    (
                        os.path.normpath(name),
                        start["line"] + 1,
                        start["character"] + 1,
                        end["line"] + 1,
                        end["character"] + 1,
                        d["code"],
                        severity,
                        text,
                    )
                )
        client.request("shutdown", None)
        client.notify("exit", None)
        assert client.proc.wait(timeout=60) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()
    assert seen == cli, (sorted(seen), sorted(cli))


def test_editor_initialization_options_set_the_servers_settings(
    fake: FakePipeline, tmp_path: Path
) -> None:
    """``initializationOptions`` (``config``, ``isolated``, ``compileCommands``,
    ``exclude``) set what ``cudalint lsp``'s flags set, and win over them; a value of
    the wrong type is named, not applied."""
    pytest.importorskip("pygls")
    from cudalint.lsp.server import LspSettings, analyze_text

    Path(".git").mkdir()
    sources("src", "transpose.cu")
    sources("src/vendor", "transpose.cu")
    db("build", ("src/transpose.cu", "-DFOUND"))
    db("other", ("src/transpose.cu", "-DOTHER"))
    source = (tmp_path / "src" / "transpose.cu").read_text(encoding="utf-8")
    flags = LspSettings(compile_commands=str(tmp_path / "build" / "compile_commands.json"))
    settings, problems = flags.with_options(
        {
            "compileCommands": str(tmp_path / "other" / "compile_commands.json"),
            "exclude": ["src/vendor"],
            "isolated": False,
            "debounceMs": 100,
        }
    )
    assert problems == []
    analyze_text(str(tmp_path / "src" / "transpose.cu"), source, settings=settings)
    assert fake.options[-1].defines == ("OTHER",)
    vendored = analyze_text(
        str(tmp_path / "src" / "vendor" / "transpose.cu"), source, settings=settings
    )
    assert vendored.excluded and vendored.diagnostics == []
    same, problems = flags.with_options(
        {"isolated": "yes", "exclude": "src/vendor", "compileCommands": 3}
    )
    assert same == flags
    assert problems == [
        "initializationOptions.compileCommands: expected a path, got 3",
        "initializationOptions.isolated: expected a boolean, got 'yes'",
        "initializationOptions.exclude: expected a list of globs, got 'src/vendor'",
    ]
    assert flags.with_options(None) == (flags, [])
