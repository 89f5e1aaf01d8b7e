"""The parse cache (``--cache-dir``, cudalint.frontend.cache): a hit is the unit a parse
would give, and anything the unit depends on makes it a miss."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cudalint.cli import main
from cudalint.frontend import cache, parse
from cudalint.irjson import dumps_tu
from cudalint.options import Options

KERNEL = """\
#include "tile.h"
__global__ void k(float *out) {
    __shared__ float s[32][TILE];
    s[threadIdx.x][threadIdx.y] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.y][threadIdx.x];
}
int main() { k<<<1, dim3(32, 32)>>>(0); }
"""


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the frontend really parsed and walked (a cache hit does neither)."""
    seen: list[str] = []
    real = parse.walk_translation_unit

    def counting(tu, path, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(path)
        return real(tu, path, *args, **kwargs)

    monkeypatch.setattr(parse, "walk_translation_unit", counting)
    return seen


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    src = tmp_path / "src"
    (src / "inc").mkdir(parents=True)
    (src / "inc" / "tile.h").write_text("#define TILE 32\n")
    (src / "k.cu").write_text(KERNEL)
    monkeypatch.chdir(src)
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    return src


def _unit(path: str = "k.cu", **kw: object) -> str:
    options = Options(include_dirs=("inc",), timeout=None, **kw)  # type: ignore[arg-type]
    return dumps_tu(parse.parse_file(path, options))


def _widths(unit: str) -> str:
    """The array's declared dimensions, as the IR records them."""
    doc = json.loads(unit)
    return json.dumps(doc["unit"]["arrays"][0]["dims"])


def test_hit_is_the_same_unit_without_a_parse(project: Path, walks: list[str]) -> None:
    first = _unit()
    second = _unit()
    assert walks == ["k.cu"]
    assert second == first
    root = project.parent / "cache"
    assert (root / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (root / "CACHEDIR.TAG").read_bytes().startswith(b"Signature: 8a477f597d28d172")
    assert len(list((root / "ir").iterdir())) == 1


def test_changed_header_is_a_miss(project: Path, walks: list[str]) -> None:
    before = _unit()
    (project / "inc" / "tile.h").write_text("#define TILE 33\n")
    after = _unit()
    assert walks == ["k.cu", "k.cu"]
    assert _widths(before) == "[32, 32]" and _widths(after) == "[32, 33]"
    assert _unit() == after and len(walks) == 2


def test_changed_file_or_flags_are_misses(project: Path, walks: list[str]) -> None:
    _unit()
    _unit(defines=("X=1",))
    _unit(arch="sm_80")
    (project / "k.cu").write_text(KERNEL.replace("1.0f", "2.0f"))
    _unit()
    assert len(walks) == 4


def test_a_new_header_that_shadows_is_a_miss(project: Path, walks: list[str]) -> None:
    """``#include "tile.h"`` finds inc/tile.h until a tile.h appears beside k.cu (the
    includer's directory is searched first)."""
    _unit()
    (project / "tile.h").write_text("#define TILE 40\n")
    assert _widths(_unit()) == "[32, 40]"
    assert len(walks) == 2


def test_a_missing_header_that_appears_is_a_miss(project: Path, walks: list[str]) -> None:
    (project / "k.cu").write_text('#include "gen/extra.h"\n' + KERNEL)
    (project / "inc" / "gen").mkdir()
    missing = json.loads(_unit())["unit"]["notes"]
    assert any("file not found" in n["message"] for n in missing)
    _unit()
    assert len(walks) == 1  # cached, missing include and all
    (project / "inc" / "gen" / "extra.h").write_text("#define EXTRA 1\n")
    found = json.loads(_unit())["unit"].get("notes", [])
    assert not any("file not found" in n["message"] for n in found)
    assert len(walks) == 2


def test_what_is_never_cached(project: Path, walks: list[str], tmp_path: Path) -> None:
    options = Options(include_dirs=("inc",), timeout=None)
    overlay = {str(project / "inc" / "tile.h"): b"#define TILE 16\n"}
    for _ in range(2):
        parse.parse_file("k.cu", options, headers=overlay)
        _unit(extra_args=("-isystem", str(tmp_path)))
    assert len(walks) == 4
    assert not (tmp_path / "cache" / "ir").exists()
    assert not cache.cacheable(Options(cuda_path=str(tmp_path)))
    assert cache.cacheable(Options(extra_args=("-DX=1", "-Wall", "-std=c++20")))
    assert not cache.cacheable(Options(extra_args=("-include", "x.h")))


def test_a_broken_cache_is_no_cache(
    project: Path, walks: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _unit()
    entry = next((tmp_path / "cache" / "ir").iterdir())
    entry.write_text("{not json")
    assert _unit() == expected  # parsed again, entry rewritten
    assert _unit() == expected and len(walks) == 2
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache directory should be")
    monkeypatch.setenv(cache.ENV, str(blocked))
    assert _unit() == expected and len(walks) == 3


def test_cli_cache_dir_and_no_cache(
    project: Path,
    walks: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(cache.ENV)
    monkeypatch.setenv("CUDALINT_IN_PROCESS", "1")  # so that the parses are seen here
    args = ["--format", "json", "--show-all", "--isolated", "--timeout", "0", "-I", "inc", "k.cu"]
    outputs = []
    for extra in (
        ["--cache-dir", ".cudalint_cache"],
        ["--cache-dir", ".cudalint_cache"],
        ["--cache-dir", ".cudalint_cache", "--no-cache"],
    ):
        main([*extra, *args])
        outputs.append(capsys.readouterr().out)
        assert cache.ENV not in os.environ  # put back as it was
    assert outputs[0] == outputs[1] == outputs[2]
    assert json.loads(outputs[0])["summary"]["accesses"] == 2
    assert (project / ".cudalint_cache" / ".gitignore").exists()
    assert len(list((project / ".cudalint_cache" / "ir").iterdir())) == 1
    assert walks == ["k.cu", "k.cu"]  # the first run and the --no-cache one


def test_an_entry_is_the_unit_itself_and_names_ir_classes_only(
    project: Path, walks: list[str], tmp_path: Path
) -> None:
    options = Options(include_dirs=("inc",), timeout=None)
    parsed = parse.parse_file("k.cu", options)
    assert parse.parse_file("k.cu", options) == parsed and len(walks) == 1
    entry = next((tmp_path / "cache" / "ir").iterdir())
    doc = json.loads(entry.read_text())
    assert doc["unit"]["c"] == "TranslationUnit"
    for name in ("field", "Options", "dataclass"):  # not a class of cudalint.ir's own
        doc["unit"]["c"] = name
        entry.write_text(json.dumps(doc))
        assert parse.parse_file("k.cu", options) == parsed
    assert len(walks) == 4
