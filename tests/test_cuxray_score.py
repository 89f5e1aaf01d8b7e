"""bench/accuracy/realworld/cuxray_score.py: scoring the SASS-based peer (cuxray) per line.

The matching logic runs everywhere; the end-to-end test needs nvcc and a cuxray venv
(``../cuxray-venv`` beside the repository, or ``$CUXRAY``) and is skipped without them.
Expected verdicts come from the bank rule by hand, not from cuxray's output.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "accuracy" / "realworld" / "cuxray_score.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_cuxray_score", SCRIPT)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


cs = _load()


def test_device_flags_keep_compile_drop_link() -> None:
    flags, sources = cs.device_flags(
        (
            "-O3",
            "-I",
            "src",
            "src/runner.cu",
            "-lcublas",
            "-L/opt/lib",
            "-o",
            "sgemm",
            "-arch=sm_86",
            "-gencode",
            "arch=compute_80,code=sm_80",
            "-Xcompiler",
            "-fopenmp",
            "--use_fast_math",
            "-DN=4",
            "main.o",
            "-lineinfo",
            "-std=c++17",
        )
    )
    assert flags == [
        "-O3",
        "-I",
        "src",
        "-Xcompiler",
        "-fopenmp",
        "--use_fast_math",
        "-DN=4",
        "-std=c++17",
    ]
    assert sources == ["src/runner.cu"]


def test_program_key_from_programs_json() -> None:
    catalog = {
        "repos": {"o/r": {"commit": "abc"}},
        "programs_by_id": {
            "r/p": {
                "id": "r/p",
                "dir": "sub",
                "flags": ["-I", "inc"],
                "sources": ["a.cu", "main.cpp", "b.cu"],
                "libs": ["-lcublas"],
            }
        },
    }
    key = cs.program_key({"repo": "o/r", "program": "r/p"}, catalog)
    assert (key.commit, key.dir, key.sources, key.flags) == (
        "abc",
        "sub",
        ("a.cu", "b.cu"),
        ("-O3", "-I", "inc"),
    )
    own = cs.program_key(
        {
            "repo": "o/r",
            "commit": "c",
            "program": "x.cu",
            "build": ["-I", "Common", "y.cu", "-lcublas"],
        },
        catalog,
    )
    assert (own.dir, own.sources, own.flags) == (".", ("x.cu", "y.cu"), ("-I", "Common"))


def test_kernel_names_match_across_ncu_and_cxxfilt_spellings() -> None:
    kernels = [
        {"name": "_Z1kILi128ELi8EEviPKf", "demangled": "void k<128, 8>(int, float const*)"},
        {"name": "_Z1kILi64ELi8EEviPKf", "demangled": "void k<64, 8>(int, float const*)"},
        {"name": "_Z1gPf", "demangled": "g(float*)"},
        {"name": "_Z1gPi", "demangled": "g(int*)"},
    ]
    k, why = cs.match_kernel("void k<128, 8>(int, const float *)", None, kernels)
    assert why is None and k["name"] == "_Z1kILi128ELi8EEviPKf"
    k, why = cs.match_kernel("g(int *)", None, kernels)
    assert k["name"] == "_Z1gPi"
    k, why = cs.match_kernel("g", None, kernels)
    assert k is None and "ambiguous" in why
    k, why = cs.match_kernel("whatever", "_Z1gPf", kernels)
    assert k["name"] == "_Z1gPf"
    k, why = cs.match_kernel("void h<1>(int)", None, kernels)
    assert k is None and "not in cuxray" in why


def test_opcode_normalisation() -> None:
    assert cs.norm_op("LDS.32") == cs.norm_op("LDS") == "LDS"
    assert cs.norm_op("LDS.128") == "LDS.128"
    assert cs.norm_op("ATOMS.POPC.INC.32") == "ATOMS.POPC.INC"
    assert cs.norm_op("LDSM.16.M88.4") == "LDSM.16.M88.4"


def _acc(
    op: str, verdict: str, wf: int | None = None, ideal: int | None = None, **kw: Any
) -> dict[str, Any]:
    a: dict[str, Any] = {"opcode": op, "file": "f.cu", "line": 3, "verdict": verdict}
    if verdict != "unknown":
        a.update({"ways": wf // ideal if wf and ideal else 1, "wavefronts": wf, "ideal": ideal})
    a.update(kw)
    return a


def test_line_verdicts() -> None:
    lr = cs.line_result
    assert lr([], {"ATOMS.POPC.INC.32"}, "api")["verdict"] == "missing"
    r = lr([_acc("LDS", "clean", 1, 1), _acc("LDS", "clean", 1, 1)], {"LDS"}, "api")
    assert (r["verdict"], r["wavefronts"], r["ideal"]) == ("clean", 1, 1)
    # conflicted wins over unknown; no per-warp number while one access is unknown
    r = lr([_acc("STS", "conflict", 2, 1), _acc("STS", "unknown", reason="x")], {"STS"}, "api")
    assert (r["verdict"], r["wavefronts"], r["reasons"]) == ("conflicted", None, ["x"])
    r = lr([_acc("LDS", "clean", 1, 1), _acc("LDS", "unknown")], {"LDS"}, "api")
    assert r["verdict"] == "unknown"
    # two ops that disagree: no line number, but each op has its own
    r = lr(
        [_acc("LDS", "clean", 1, 1), _acc("LDS.128", "conflict", 8, 4)], {"LDS", "LDS.128"}, "api"
    )
    assert (r["verdict"], r["wavefronts"]) == ("conflicted", None)
    assert {o["op"]: (o["wavefronts"], o["ideal"]) for o in r["ops"]} == {
        "LDS": (1, 1),
        "LDS.128": (8, 4),
    }
    # a generic LD counts only where the measured op is generic
    gen = _acc("LD.E", "unknown", space="generic")
    assert lr([gen], {"LDS"}, "api")["verdict"] == "missing"
    assert lr([gen], {"LD.E"}, "api")["verdict"] == "unknown"


def test_bad_rows_are_reported_not_raised(tmp_path: Path) -> None:
    good = {
        "repo": "o/r",
        "program": "p.cu",
        "kernel": "k",
        "block": [64],
        "file": "p.cu",
        "line": 3,
        "op": "LDS",
    }
    f = tmp_path / "rows.jsonl"
    f.write_text(
        "\n".join(
            [
                json.dumps(good),
                "nope",
                "[1]",
                json.dumps({"repo": "o/r"}),
                json.dumps({**good, "block": [0, 1, 1]}),
                json.dumps({**good, "build": "-O3"}),
            ]
        )
        + "\n"
    )
    rows, problems = cs.read_rows(str(f))
    assert len(rows) == 1 and rows[0]["block"] == (64, 1, 1)
    assert len(problems) == 5


KERNEL = """\
__global__ void demo(float *out, int *count) {
  __shared__ float s[2 * 64];
  __shared__ int hits;
  int t = threadIdx.x;
  if (t == 0) hits = 0;
  s[2 * t] = t;  // STRIDE2
  __syncthreads();
  out[t] = s[t];  // UNIT
  atomicAdd(&hits, 1);  // ATOMIC
  __syncthreads();
  if (t == 0) *count = hits;
}
"""


def _tools() -> tuple[str, Any]:
    nvcc = shutil.which("nvcc")
    if not nvcc:
        pytest.skip("nvcc not installed")
    try:
        cx = cs.find_cuxray(None)
    except SystemExit:
        pytest.skip("cuxray not installed (../cuxray-venv)")
    return nvcc, cx


@pytest.mark.parametrize("mode", ["api", "cli"])
def test_end_to_end_on_a_small_repo(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cuxray leaves a cuxray_* folder in $TMPDIR: give it the test's own (issue 17: the
    # suite leaves $TMPDIR as it found it)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    nvcc, _cx = _tools()
    repo = tmp_path / "repos" / "me+demo"
    repo.mkdir(parents=True)
    (repo / "demo.cu").write_text(KERNEL)
    line = {
        m: n
        for n, text in enumerate(KERNEL.splitlines(), 1)
        for m in ("STRIDE2", "UNIT", "ATOMIC")
        if f"// {m}" in text
    }
    base = {
        "repo": "me/demo",
        "commit": "0",
        "program": "demo.cu",
        "build": ["-O3"],
        "kernel": "demo(float *, int *)",
        "block": [64, 1, 1],
        "grid": [1, 1, 1],
        "file": "demo.cu",
        "instructions": 2,
        "wavefronts": 2,
        "ideal": 2,
    }
    rows = [
        {**base, "line": line["STRIDE2"], "op": "STS"},
        {**base, "line": line["UNIT"], "op": "LDS"},
        {**base, "line": line["ATOMIC"], "op": "ATOMS.POPC.INC.32"},
        {**base, "program": "absent.cu", "line": 1, "op": "LDS"},
    ]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    rc = cs.main(
        [
            str(tmp_path / "rows.jsonl"),
            "--repos",
            str(tmp_path / "repos"),
            "-o",
            str(out),
            "--work",
            str(tmp_path / "work"),
            "--mode",
            mode,
            "--nvcc",
            nvcc,
            "--summary",
            str(tmp_path / "summary.json"),
            "-q",
        ]
    )
    assert rc == 0
    got = {(r["program"], r["line"]): r for r in map(json.loads, out.read_text().splitlines())}
    assert len(got) == 4
    # s[2*t]: lanes t and t+16 hit one bank at two words -> 2 wavefronts per warp, ideal 1
    stride2 = got[("demo.cu", line["STRIDE2"])]
    assert stride2["verdict"] == "conflicted" and stride2["ways"] == 2
    unit = got[("demo.cu", line["UNIT"])]
    assert unit["verdict"] == "clean" and unit["ways"] == 1
    if mode == "api":
        assert (stride2["wavefronts"], stride2["ideal"]) == (2, 1)
        assert (unit["wavefronts"], unit["ideal"]) == (1, 1)
    else:
        assert stride2["wavefronts"] is None  # the CLI gives no per-warp numbers
    # cuxray does not model shared atomics
    assert got[("demo.cu", line["ATOMIC"])]["verdict"] == "missing"
    absent = got[("absent.cu", 1)]
    assert absent["verdict"] == "error" and "no such file" in absent["error"]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [p["error"] is None for p in summary["programs"]] == [True, False]
