"""The library returns what the command line shows: one per-file pipeline
(read → parse → analyse → rules → suppressions → report, ``cudalint.checker``) behind
``cudalint.api.check_paths``/``check_file``, the CLI, the language server and ``--fix``.

The kernel's numbers, by hand from the bank rule (4-byte words, 32 banks, bank =
word mod 32), for ``float t[32][32]`` and the 32 lanes ``threadIdx.x = 0..31`` of the
launch's one warp:

- ``t[threadIdx.x][0]``: word 32*i, bank 0 for every lane, 32 distinct words → 32
  wavefronts, ideal 1: a 32-way conflict (CL001), on lines 5 and 7;
- ``t[0][threadIdx.x]``: word i, bank i → 1 wavefront: no conflict, so the comment on
  line 8 suppresses nothing (CL100 when selected).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from factories import run_cli

from cudalint.api import check_file, check_paths
from cudalint.options import Options
from cudalint.rules import RuleSelection

KERNEL = """\
__global__ void k(float *out)
{
    __shared__ float t[32][32];
    t[threadIdx.x][0] = out[threadIdx.x];
    out[threadIdx.x] = t[threadIdx.x][0];
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.x][0];  // cudalint: ignore[CL001]
    out[threadIdx.x] = t[0][threadIdx.x];  // cudalint: ignore[CL001]
}

void launch(float *out) { k<<<1, 32>>>(out); }
"""

CONFIG = """\
[tool.cudalint]
extend-select = ["CL100"]

[tool.cudalint.per-file-ignores]
"legacy/*.cu" = ["CL001"]
"""


def _project(root: Path) -> None:
    (root / "pyproject.toml").write_text(CONFIG)
    (root / "src").mkdir()
    (root / "src" / "k.cu").write_text(KERNEL)
    (root / "legacy").mkdir()
    (root / "legacy" / "old.cu").write_text(KERNEL)


def _cli_findings(capsys: pytest.CaptureFixture[str]) -> list[tuple[str, int, str]]:
    code, out, err = run_cli(capsys, "--format", "concise", "-q", "src", "legacy")
    assert code == 1, err
    found = []
    for line in out.splitlines():
        where, rest = line.split(": ", 1)
        path, lineno, _ = where.rsplit(":", 2)
        found.append((path, int(lineno), rest.split(" ", 1)[0]))
    return sorted(found)


def test_check_paths_honours_suppressions_and_per_file_ignores_as_the_cli_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _project(tmp_path)
    expected = [
        ("legacy/old.cu", 7, "CL100"),  # CL001 is off there: the comment is unused
        ("legacy/old.cu", 8, "CL100"),
        ("src/k.cu", 4, "CL001"),  # the store t[threadIdx.x][0]: 32-way as well
        ("src/k.cu", 5, "CL001"),
        ("src/k.cu", 8, "CL100"),  # t[0][threadIdx.x] has no conflict to suppress
    ]
    assert _cli_findings(capsys) == expected
    reports = check_paths(
        ["src", "legacy"],
        Options(),
        selection=RuleSelection.build(extend_select=["CL100"]),
        per_file_ignores=[("legacy/*.cu", ["CL001"])],
    )
    assert sorted((d.file, d.line, d.code) for r in reports for d in r.diagnostics) == expected
    # what the comment on line 7 dropped is kept aside, not lost
    k = next(r for r in reports if r.path == "src/k.cu")
    assert [(d.line, d.code) for d in k.suppressed_diagnostics] == [(7, "CL001")]
    assert k.suppressed == 1


def test_check_file_applies_the_suppression_comments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("k.cu").write_text(KERNEL)
    report = check_file("k.cu", Options())
    assert [(d.line, d.code) for d in report.diagnostics] == [(4, "CL001"), (5, "CL001")]
    report = check_file("k.cu", Options(), selection=RuleSelection.build(select=["CL100"]))
    # CL001 is not enabled: both comments suppress nothing, and say why
    assert [(d.line, d.code, d.message) for d in report.diagnostics] == [
        (7, "CL100", "unused suppression of CL001 (not enabled)"),
        (8, "CL100", "unused suppression of CL001 (not enabled)"),
    ]
