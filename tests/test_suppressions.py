"""Suppression comments, unused ones (``--warn-unused-ignores``), ``--add-ignores`` and
``--baseline``.

The fake pipeline reports CL001 on line 10 of transpose.cu whatever the file holds, so
the tests edit the file on disk around that line to place the comments.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import TRANSPOSE, FakePipeline, install_fake_pipeline, run_cli, write_sources

from cudalint.suppressions import add_ignore_edits, apply_edits, find_suppressions

LOAD = "    out[y * 1024 + x] = tile[threadIdx.x][threadIdx.y];"


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakePipeline:
    pipeline = install_fake_pipeline(monkeypatch)
    write_sources(tmp_path)
    monkeypatch.chdir(tmp_path)
    return pipeline


run = run_cli


def transpose_with(line9: str | None = None, line10: str | None = None, top: str = "") -> None:
    lines = TRANSPOSE.split("\n")
    assert lines[9] == LOAD
    if line9 is not None:
        lines[8] = line9
    if line10 is not None:
        lines[9] = line10
    if top:
        lines[0] = lines[0] + "  " + top
    Path("transpose.cu").write_text("\n".join(lines), encoding="utf-8")


# --- parsing -------------------------------------------------------------------------------


def test_find_suppressions_forms() -> None:
    src = (
        b"a = s[i];  // cudalint: ignore[CL001]\n"
        b"    // cudalint: ignore[CL001, possible-bank-conflict]\n"
        b"b = s[j];\n"
        b"// cudalint: ignore-file[CL003]\n"
        b"c = s[k];  // note // cudalint: ignore\n"
        b'puts("// cudalint: ignore[CL001]");\n'
        b"/* // cudalint: ignore[CL001]\n"
        b"   still a comment */\n"
        b"d = 1; // cudalint: ignored-not-a-directive\n"
    )
    found = [(s.line, s.kind, s.selectors, s.target_line) for s in find_suppressions(src)]
    assert found == [
        (1, "ignore", ("CL001",), 1),
        (2, "ignore", ("CL001", "possible-bank-conflict"), 3),
        (4, "ignore-file", ("CL003",), 5),
        (5, "ignore", (), 5),
    ]


# --- suppressing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line9", "line10", "top"),
    [
        (None, LOAD + "  // cudalint: ignore[CL001]", ""),
        ("    // cudalint: ignore[CL001]", None, ""),
        (None, LOAD + "  // cudalint: ignore[shared-bank-conflict]", ""),
        (None, LOAD + "  // cudalint: ignore[CL00]", ""),
        (None, LOAD + "  // cudalint: ignore", ""),
        (None, None, "// cudalint: ignore-file[CL001]"),
        (None, None, "// cudalint: ignore-file"),
    ],
)
def test_suppressed(
    fake: FakePipeline,
    capsys: pytest.CaptureFixture[str],
    line9: str | None,
    line10: str | None,
    top: str,
) -> None:
    transpose_with(line9, line10, top)
    code, out, _ = run(capsys, "transpose.cu")
    assert code == 0
    assert "[CL001]" not in out
    assert out == "1 file, 2 accesses: 2 proved, 0 worst-case, 0 unknown; 0 conflicts\n"


@pytest.mark.parametrize(
    ("line9", "line10"),
    [
        (None, LOAD + "  // cudalint: ignore[CL002]"),  # another code
        ("    __syncthreads();  // cudalint: ignore[CL001]", None),  # trailing: its own line
        (None, LOAD + "  // NOLINT"),  # not ours
        (None, LOAD + '  puts("// cudalint: ignore[CL001]");'),  # in a string
    ],
)
def test_not_suppressed(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], line9: str | None, line10: str | None
) -> None:
    transpose_with(line9, line10)
    code, out, _ = run(capsys, "transpose.cu")
    assert code == 1
    assert "transpose.cu:10:25: warning:" in out


def test_json_has_no_suppressed_diagnostic(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    transpose_with(None, LOAD + "  // cudalint: ignore[CL001]")
    _, out, _ = run(capsys, "--format", "json", "transpose.cu")
    assert json.loads(out)["diagnostics"] == []


# --- unused suppressions ---------------------------------------------------------------------


def test_unused_suppressions_only_with_the_flag(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    transpose_with(
        "    __syncthreads();  // cudalint: ignore[CL001]",
        LOAD + "  // cudalint: ignore[CL001, CL002, CL003, CL999]",
    )
    code, out, _ = run(capsys, "transpose.cu")
    assert code == 0 and "CL100" not in out
    code, out, _ = run(capsys, "--warn-unused-ignores", "transpose.cu")
    assert code == 1
    lines = [line for line in out.splitlines() if "[CL100]" in line]
    assert lines == [
        "transpose.cu:9:23: warning: unused suppression of CL001 [CL100]",
        f"transpose.cu:10:{len(LOAD) + 3}: warning: unused suppression of CL002, "
        "CL003 (not enabled), CL999 (unknown rule) [CL100]",
    ]


def test_unused_bare_and_file_suppressions(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("clean.cu").write_text(
        "// cudalint: ignore-file[CL001]\n"
        + Path("clean.cu").read_text(encoding="utf-8")
        + "// cudalint: ignore\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "--extend-select", "unused-suppression", "clean.cu")
    assert code == 1
    assert "clean.cu:1:1: warning: unused suppression of CL001 [CL100]" in out
    assert "unused suppression 'cudalint: ignore': nothing to suppress [CL100]" in out


def test_used_suppression_is_not_reported(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    transpose_with(None, LOAD + "  // cudalint: ignore[CL001]")
    assert run(capsys, "--warn-unused-ignores", "transpose.cu")[0] == 0


def test_warn_unused_ignores_from_the_configuration(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("cudalint.toml").write_text("warn-unused-ignores = true\n", encoding="utf-8")
    transpose_with("    // cudalint: ignore[CL002]")
    code, out, _ = run(capsys, "transpose.cu")
    assert code == 1 and "[CL100]" in out


# --- --add-ignores ---------------------------------------------------------------------------


def test_add_ignores_then_clean(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--add-ignores", "transpose.cu", "clean.cu")
    assert code == 0
    assert out == ""
    assert err == "cudalint: added 1 suppression to 1 file\n"
    lines = Path("transpose.cu").read_text(encoding="utf-8").split("\n")
    assert lines[9] == LOAD + "  // cudalint: ignore[CL001]"
    assert Path("clean.cu").read_text(encoding="utf-8").count("cudalint") == 0
    code, out, _ = run(capsys, "--warn-unused-ignores", "transpose.cu")
    assert code == 0, out
    # Idempotent: nothing left to add.
    assert run(capsys, "--add-ignores", "transpose.cu")[2] == (
        "cudalint: added 0 suppressions to 0 files\n"
    )


def test_add_ignores_merges_into_an_existing_comment(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    transpose_with(None, LOAD + "  // cudalint: ignore[CL003]")
    run(capsys, "--add-ignores", "transpose.cu")
    lines = Path("transpose.cu").read_text(encoding="utf-8").split("\n")
    assert lines[9] == LOAD + "  // cudalint: ignore[CL001, CL003]"


def test_add_ignore_edits_keeps_crlf_and_skips_continuations() -> None:
    src = b"a = s[i];\r\n#define X s[i] \\\n  + 1\n"
    edits, skipped = add_ignore_edits(src, "k.cu", {1: {"CL002", "CL001"}, 2: {"CL001"}})
    assert skipped == [2]
    assert apply_edits(src, edits) == (
        b"a = s[i];  // cudalint: ignore[CL001, CL002]\r\n#define X s[i] \\\n  + 1\n"
    )


def test_add_ignores_refuses_stdin(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TRANSPOSE.encode())))
    code, _, err = run(capsys, "--add-ignores", "-", "--stdin-filename", "transpose.cu")
    assert code == 2 and "cannot write to stdin" in err


# --- --baseline ------------------------------------------------------------------------------


def test_baseline_records_then_reports_only_new_findings(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "--baseline", "base.json", "--update-baseline", "transpose.cu", "clean.cu"
    )
    assert code == 0
    assert err == "cudalint: recorded 1 finding in base.json\n"
    assert "[CL001]" not in out
    data = json.loads(Path("base.json").read_text(encoding="utf-8"))
    # keyed on a fingerprint (file, rule, function, array, access), not on the message
    assert data == {
        "version": 2,
        "findings": [
            {
                "file": "transpose.cu",
                "code": "CL001",
                "function": "transpose",
                "array": "transpose::tile",
                "access": "tile[threadIdx.x][threadIdx.y]",
                "count": 1,
            }
        ],
    }
    assert run(capsys, "--baseline", "base.json", "transpose.cu")[0] == 0
    # A new finding (strided.cu's CL002) fails.
    code, out, _ = run(capsys, "--baseline", "base.json", "transpose.cu", "strided.cu")
    assert code == 1
    assert "strided.cu:6:30: warning:" in out and "transpose.cu:10" not in out


def test_baseline_counts_identical_findings(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "--baseline", "base.json", "--update-baseline", "transpose.cu")
    Path("sub").mkdir()
    Path("sub/transpose.cu").write_text(TRANSPOSE, encoding="utf-8")
    code, out, _ = run(capsys, "--baseline", "base.json", "transpose.cu", "sub/transpose.cu")
    assert code == 1 and "sub/transpose.cu:10:25" in out


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"version": 3, "findings": []}',
        '{"version": true, "findings": []}',
        '{"version": 1, "findings": [{"file": 1}]}',
        '{"version": 2, "findings": [{"file": "transpose.cu", '
        '"code": "CL001", "message": "m", "line_text": "t"}]}',
    ],
)
def test_bad_baseline_is_exit_2(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    Path("base.json").write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "--baseline", "base.json", "transpose.cu")
    assert code == 2 and "cudalint: error: base.json:" in err


def test_missing_baseline_is_exit_2_unless_updating(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--baseline", "base.json", "transpose.cu")
    assert (code, out) == (2, "")
    assert err == (
        "cudalint: error: --baseline base.json does not exist; to record this "
        "run's findings in it, run 'cudalint --baseline base.json "
        "--update-baseline DIR...' once\n"
    )
    assert not Path("base.json").exists()
    code, _, err = run(capsys, "--update-baseline", "transpose.cu")
    assert code == 2 and "--update-baseline needs --baseline FILE" in err


def test_update_baseline_replaces_an_existing_one(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("base.json").write_text('{"version": 2, "findings": []}', encoding="utf-8")
    assert run(capsys, "--baseline", "base.json", "transpose.cu")[0] == 1  # applied as is
    code, _, err = run(capsys, "--baseline", "base.json", "--update-baseline", "transpose.cu")
    assert (code, err) == (0, "cudalint: recorded 1 finding in base.json\n")
    assert len(json.loads(Path("base.json").read_text(encoding="utf-8"))["findings"]) == 1
    assert run(capsys, "--baseline", "base.json", "transpose.cu")[0] == 0


def test_version_1_baselines_still_apply(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    """A baseline written before fingerprints (message and line text) keeps working."""
    v1 = {
        "version": 1,
        "findings": [
            {
                "file": "transpose.cu",
                "code": "CL001",
                "message": "32-way bank conflict on load of 'tile' (32 wavefronts, ideal 1)",
                "line_text": LOAD.strip(),
                "count": 1,
            }
        ],
    }
    Path("base.json").write_text(json.dumps(v1), encoding="utf-8")
    code, out, _ = run(capsys, "--baseline", "base.json", "transpose.cu")
    assert code == 0 and "[CL001]" not in out
    # an entry of another line's text does not match: the finding is new
    v1["findings"][0]["line_text"] = "something else;"
    Path("base.json").write_text(json.dumps(v1), encoding="utf-8")
    code, out, _ = run(capsys, "--baseline", "base.json", "transpose.cu")
    assert code == 1 and "transpose.cu:10:" in out


# --- end to end with the real pipeline ---------------------------------------------------------

REAL = """\
__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *out, const float *in) { transpose<<<1, dim3(32, 32)>>>(out, in); }
"""


def test_real_baseline_survives_moved_lines_and_catches_new_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("k.cu").write_text(REAL, encoding="utf-8")
    assert run(capsys, "--isolated", "k.cu")[0] == 1
    assert run(capsys, "--isolated", "--baseline", "b.json", "--update-baseline", "k.cu")[0] == 0
    Path("k.cu").write_text("// a new first line\n\n" + REAL, encoding="utf-8")
    code, out, _ = run(capsys, "--isolated", "--baseline", "b.json", "k.cu")
    assert code == 0, out
    Path("k.cu").write_text(
        REAL.replace(
            "    __syncthreads();\n",
            "    __syncthreads();\n    out[threadIdx.y] = tile[threadIdx.x][0];\n",
        ),
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "--isolated", "--baseline", "b.json", "k.cu")
    assert code == 1
    assert "k.cu:6:24: warning: 32-way bank conflict" in out and ":7:" not in out


def test_real_baseline_keys_on_the_access_not_on_numbers_in_the_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """tile[32][34]: the same access is now a 2-way conflict, not 32-way; the message
    changes, the fingerprint (file, rule, kernel, array, access text) does not. Another
    access on the same line text in another kernel is new."""
    monkeypatch.chdir(tmp_path)
    Path("k.cu").write_text(REAL, encoding="utf-8")
    assert run(capsys, "--isolated", "--baseline", "b.json", "--update-baseline", "k.cu")[0] == 0
    (entry,) = json.loads(Path("b.json").read_text(encoding="utf-8"))["findings"]
    assert entry == {
        "file": "k.cu",
        "code": "CL001",
        "function": "transpose",
        "array": "transpose::tile",
        "access": "tile[threadIdx.x][threadIdx.y]",
        "count": 1,
    }
    Path("k.cu").write_text(REAL.replace("tile[32][32]", "tile[32][34]"), encoding="utf-8")
    code, out, _ = run(capsys, "--isolated", "k.cu")
    assert code == 1 and "2-way bank conflict on load of 'tile'" in out
    code, out, _ = run(capsys, "--isolated", "--baseline", "b.json", "k.cu")
    assert code == 0, out
    Path("k.cu").write_text(REAL.replace("transpose", "transpose2"), encoding="utf-8")
    code, out, _ = run(capsys, "--isolated", "--baseline", "b.json", "k.cu")
    assert code == 1 and "32-way bank conflict on load of 'tile'" in out


def test_real_add_ignores_round_trip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("k.cu").write_text(REAL, encoding="utf-8")
    code, _, err = run(capsys, "--isolated", "--add-ignores", "k.cu")
    assert (code, err) == (0, "cudalint: added 1 suppression to 1 file\n")
    assert "tile[threadIdx.x][threadIdx.y];  // cudalint: ignore[CL001]\n" in Path(
        "k.cu"
    ).read_text(encoding="utf-8")
    assert run(capsys, "--isolated", "--warn-unused-ignores", "k.cu")[0] == 0
    Path("k.cu").write_text(
        Path("k.cu").read_text(encoding="utf-8").replace("tile[32][32]", "tile[32][33]"),
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "--isolated", "--warn-unused-ignores", "k.cu")
    assert code == 1 and "unused suppression of CL001 [CL100]" in out
