"""Configuration files: discovery, precedence over defaults and under flags, validation.

The frontend and model are replaced by ``factories.FakePipeline``, which records the
``Options`` each file was parsed with.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from factories import FakePipeline, install_fake_pipeline, run_cli, write_sources

from cudalint.config import Config, ConfigFinder, load_config


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakePipeline:
    pipeline = install_fake_pipeline(monkeypatch)
    monkeypatch.chdir(tmp_path)
    return pipeline


run = run_cli


def sources(directory: str, *names: str) -> None:
    Path(directory).mkdir(parents=True, exist_ok=True)
    write_sources(Path(directory), names)


def write(path: str, text: str) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


# --- discovery -----------------------------------------------------------------------------


def test_pyproject_found_by_walking_up_from_the_file(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("proj/pyproject.toml", '[tool.cudalint]\narch = "sm_80"\nstd = "c++20"\n')
    sources("proj/src/deep", "clean.cu")
    assert run(capsys, "proj/src/deep/clean.cu")[0] == 0
    assert fake.options[0].arch == "sm_80"
    assert fake.options[0].std == "c++20"


def test_pyproject_without_tool_cudalint_is_skipped(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("proj/cudalint.toml", 'arch = "sm_70"\n')
    write("proj/sub/pyproject.toml", '[project]\nname = "x"\n')
    sources("proj/sub", "clean.cu")
    run(capsys, "proj/sub/clean.cu")
    assert fake.options[0].arch == "sm_70"


def test_nearest_configuration_wins_and_dot_file_first(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("proj/cudalint.toml", 'arch = "sm_70"\n')
    write("proj/a/.cudalint.toml", 'arch = "sm_86"\n')
    write("proj/a/cudalint.toml", 'arch = "sm_75"\n')
    write("proj/a/pyproject.toml", '[tool.cudalint]\narch = "sm_60"\n')
    sources("proj/a", "clean.cu")
    sources("proj/b", "transpose.cu")
    run(capsys, "proj/a/clean.cu", "proj/b/transpose.cu")
    assert [o.arch for o in fake.options] == ["sm_86", "sm_70"]


def test_no_configuration_gives_defaults(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    sources(".", "clean.cu")
    run(capsys, "clean.cu")
    assert fake.options[0].arch == "sm_90" and fake.options[0].std == "c++17"


def test_explicit_config_replaces_discovery(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("cudalint.toml", 'arch = "sm_70"\n')
    write("other/settings.toml", 'arch = "sm_52"\n')
    sources(".", "clean.cu")
    run(capsys, "--config", "other/settings.toml", "clean.cu")
    assert fake.options[0].arch == "sm_52"
    run(capsys, "--isolated", "clean.cu")
    assert fake.options[1].arch == "sm_90"


def test_explicit_missing_config_is_exit_2(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    sources(".", "clean.cu")
    code, _, err = run(capsys, "--config", "nope.toml", "clean.cu")
    assert code == 2
    assert "nope.toml: cannot read configuration" in err
    assert fake.parsed == []


def test_verbose_names_the_configuration(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("cudalint.toml", 'arch = "sm_70"\n')
    sources(".", "clean.cu")
    _, _, err = run(capsys, "-v", "clean.cu")
    assert "cudalint: configuration: cudalint.toml" in err


# --- every key, and precedence ---------------------------------------------------------------

FULL = """\
[tool.cudalint]
select = ["CL00"]
ignore = ["CL003"]
per-file-ignores = { "legacy/*.cu" = ["CL001"] }
arch = "sm_35"
bank-mode = "8"
block-dim = [16, 16]
include-dirs = ["include", "/abs/dir"]
defines = ["TILE=32", "DEBUG"]
std = "c++14"
exclude = ["third_party"]
"""


def test_every_key_is_applied(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    write("pyproject.toml", FULL)
    sources(".", "strided.cu")
    sources("legacy", "transpose.cu")
    sources("third_party", "transpose.cu")
    code, out, _ = run(capsys, ".")
    o = fake.options[0]
    assert (o.arch, o.bank_mode, o.block_dim, o.block_dim_source, o.std) == (
        "sm_35",
        "8",
        (16, 16, 1),
        "config",
        "c++14",
    )
    assert o.include_dirs == (str(tmp_path / "include"), "/abs/dir")
    assert o.defines == ("TILE=32", "DEBUG")
    # exclude: third_party is not analyzed; per-file-ignores: legacy's CL001 is dropped.
    # (``cudalint .`` finds ``legacy/transpose.cu``, not ``./legacy/transpose.cu``)
    assert sorted(fake.parsed) == [os.path.join("legacy", "transpose.cu"), "strided.cu"]
    assert "transpose.cu:" not in out and "strided.cu:6:30: warning:" in out
    # select CL00 minus CL003: CL004 remains in strided.cu, and the 4-byte mode's
    # possible conflict rides on the 8-byte mode's proved one (one finding per access,
    # both modes: no CL002 beside a CL001).
    assert "[CL004]" in out and "[CL003]" not in out and "[CL002]" not in out
    assert "in 8-byte bank mode; 4-byte bank mode: possible 32-way" in out
    assert code == 1


def test_flags_override_the_configuration(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        "cudalint.toml",
        'arch = "sm_35"\nbank-mode = "both"\nblock-dim = [16, 16]\n'
        'std = "c++14"\ndefines = ["A=1"]\ninclude-dirs = ["cfg"]\n',
    )
    sources(".", "clean.cu")
    run(
        capsys,
        "--arch",
        "sm_37",
        "--bank-mode",
        "4",
        "--block-dim",
        "64",
        "--std",
        "c++20",
        "-D",
        "A=2",
        "-I",
        "cli",
        "clean.cu",
    )
    o = fake.options[0]
    assert (o.arch, o.bank_mode, o.block_dim, o.block_dim_source, o.std) == (
        "sm_37",
        "4",
        (64, 1, 1),
        "cli",
        "c++20",
    )
    # Lists add up: the command line's macro comes last (it wins), its directory first.
    assert o.defines == ("A=1", "A=2")
    assert o.include_dirs[0] == "cli" and o.include_dirs[1].endswith("cfg")


def test_cli_select_replaces_config_layer_and_ignore_adds(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("cudalint.toml", 'select = ["CL003"]\nignore = ["CL001"]\n')
    sources(".", "strided.cu", "transpose.cu")
    _, out, _ = run(capsys, "strided.cu", "transpose.cu")
    assert "[CL003]" in out and "[CL002]" not in out and "[CL001]" not in out
    _, out, _ = run(capsys, "--select", "CL001", "strided.cu", "transpose.cu")
    assert "[CL001]" in out and "[CL003]" not in out  # the CLI's select starts afresh
    _, out, _ = run(capsys, "--extend-select", "CL001", "strided.cu", "transpose.cu")
    assert "[CL001]" in out and "[CL003]" in out  # re-enabled over the config's ignore
    _, out, _ = run(capsys, "--ignore", "CL003", "strided.cu", "transpose.cu")
    assert "[CL" not in out


def test_cudalint_toml_and_table_defines(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write(".cudalint.toml", '[defines]\nTILE = 32\nDEBUG = true\nNAME = "x"\n')
    sources(".", "clean.cu")
    run(capsys, "clean.cu")
    assert fake.options[0].defines == ("TILE=32", "DEBUG=1", "NAME=x")


# --- invalid configuration: exit 2, naming the file, the key and the allowed values ----------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('selct = ["CL001"]', "unknown key 'tool.cudalint.selct' (allowed: select,"),
        ('arch = "sm_99"', "invalid value for 'arch': unknown arch 'sm_99'; known: sm_20"),
        ("arch = 3.5", "invalid value for 'arch': 3.5 (allowed: an architecture"),
        ('bank-mode = "16"', "invalid value for 'bank-mode': '16' (allowed: 4, 8 or \"both\")"),
        ("block-dim = [33, 33]", "invalid value for 'block-dim': [33, 33] (allowed: a list of"),
        ('block-dim = "x"', "invalid value for 'block-dim'"),
        ('select = ["E501"]', "invalid value for 'select': ['E501'] (allowed: rule codes"),
        ('ignore = "CL001"', None),  # a single string is accepted
        ('std = "fortran"', "invalid value for 'std': 'fortran' (allowed: a C++ standard"),
        ("defines = [1]", "invalid value for 'defines': [1] (allowed: a list of"),
        ('include-dirs = "inc"', None),
        ("exclude = [1]", "invalid value for 'exclude': [1] (allowed: a list of glob"),
        ('per-file-ignores = ["x"]', "invalid value for 'per-file-ignores'"),
        ('per-file-ignores = { "*.cu" = ["X1"] }', "invalid value for 'per-file-ignores.*.cu'"),
        ('arch = "sm_90"\nbank-mode = 8', "'bank-mode': '8' needs a Kepler 'arch'"),
        (
            'warn-unused-ignores = "yes"',
            "invalid value for 'warn-unused-ignores': 'yes' (allowed: true or false)",
        ),
        ("arch = [", "pyproject.toml: invalid TOML:"),
        ("cudalint = 1", None),  # [tool] cudalint not a table: see below
    ],
)
def test_invalid_values_exit_2(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], text: str, expected: str | None
) -> None:
    if text == "cudalint = 1":
        write("pyproject.toml", "[tool]\ncudalint = 1\n")
        expected = "pyproject.toml: [tool.cudalint] must be a table"
    else:
        write("pyproject.toml", f"[tool.cudalint]\n{text}\n")
    sources(".", "clean.cu")
    code, out, err = run(capsys, "clean.cu")
    if expected is None:
        assert code == 0, err
        return
    assert code == 2
    assert out == ""
    assert err.startswith("cudalint: error: pyproject.toml: ")
    assert expected in err
    assert fake.parsed == []


def test_unknown_key_in_cudalint_toml_lists_allowed_keys(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("cudalint.toml", "colour = true\n")
    sources(".", "clean.cu")
    code, _, err = run(capsys, "clean.cu")
    assert code == 2
    assert err.strip() == (
        "cudalint: error: cudalint.toml: unknown key 'colour' (allowed: select, extend-select, "
        "ignore, per-file-ignores, arch, bank-mode, block-dim, include-dirs, defines, std, "
        "exclude, warn-unused-ignores, cuda-path, timeout, extend, compile-commands, "
        "respect-gitignore)"
    )


def test_config_bank_mode_with_cli_arch_elsewhere_is_exit_2(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    write("cudalint.toml", 'bank-mode = "both"\n')
    sources(".", "clean.cu")
    code, _, err = run(capsys, "--arch", "sm_90", "clean.cu")
    assert code == 2
    assert "'bank-mode' in cudalint.toml both needs a Kepler arch" in err
    assert run(capsys, "--arch", "sm_35", "clean.cu")[0] == 0


# --- the library API -------------------------------------------------------------------------


def test_finder_caches_and_stops_at_the_root(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "cudalint.toml").write_text('arch = "sm_80"\n', encoding="utf-8")
    finder = ConfigFinder()
    first = finder.for_path(str(tmp_path / "a" / "b" / "k.cu"))
    assert first.arch == "sm_80" and first.root == str(tmp_path)
    assert finder.for_path(str(tmp_path / "a" / "x.cu")) is first
    assert ConfigFinder(isolated=True).for_path(str(tmp_path / "a" / "k.cu")) == Config(
        root=Config().root
    )


def test_load_config_resolves_relative_paths(tmp_path: Path) -> None:
    path = tmp_path / "cudalint.toml"
    path.write_text('include-dirs = ["inc", "../up"]\ncuda-path = "cuda"\n', encoding="utf-8")
    config = load_config(str(path))
    assert config.include_dirs == (str(tmp_path / "inc"), str(tmp_path.parent / "up"))
    assert config.cuda_path == str(tmp_path / "cuda")


# --- the documented examples are valid -------------------------------------------------------


@pytest.mark.parametrize("doc", ["README.md", "docs/configuration.md"])
def test_documented_toml_examples_are_valid(doc: str, tmp_path: Path) -> None:
    import re

    text = (Path(__file__).resolve().parent.parent / doc).read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    assert blocks
    for i, block in enumerate(blocks):
        if "[language-server." in block:
            continue  # an editor's configuration (Helix), not cudalint's
        # deep enough that an example's extend = "../../pyproject.toml" stays in tmp_path
        path = tmp_path / f"{i}" / "a" / "b" / "pyproject.toml"
        path.parent.mkdir(parents=True)
        path.write_text(block, encoding="utf-8")
        extend = re.search(r'^extend = "(.*)"', block, flags=re.M)
        if extend:  # the file it extends: the project's (empty here)
            (path.parent / extend[1]).write_text("[tool.cudalint]\n", encoding="utf-8")
        config = load_config(str(path))
        assert config.path is not None and (config.select or config.arch or config.ignore)
