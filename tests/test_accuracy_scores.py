"""The hardware accuracy benchmark (bench/accuracy/): its scorer, runner parsing and suite.

- `test_stored_results_score`: re-scores the stored H100 results with the current
  cudalint, so a model regression fails CI without a GPU (skipped until a results
  file with measurements is committed).
- The rest needs no GPU: the scorer's matching logic on synthetic data, the
  runner's parsers on ncu-style CSV samples, the suite's markers, and (when nvcc
  and nvdisasm are installed) the runner end to end on fake profiler output.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "accuracy"
RESULTS = BENCH / "results" / "sm90_h100.json"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_accuracy_{name}", BENCH / f"{name}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


score = _load("score")
runner = _load("run_gpu")


# ----------------------------------------------------------------- stored results


def _has_measurements(path: Path) -> bool:
    if not path.exists():
        return False
    data = json.loads(path.read_text())
    return any(a.get("measured") for a in data.get("accesses", []))


@pytest.mark.skipif(not _has_measurements(RESULTS), reason="no stored GPU results yet")
def test_stored_results_score() -> None:
    results, rows, summ = score.score_file(RESULTS)
    assert not summ["cudalint_errors"], summ["cudalint_errors"]
    # the score stored with the results (score.py --write) is the floor
    floor = (results.get("score") or {}).get("exact", 0)
    buf = io.StringIO()
    score.print_report(results, rows, summ, out=buf)
    assert summ["exact"] >= floor, (
        f"model regression: {summ['exact']} < {floor} exact\n{buf.getvalue()}"
    )
    # core accesses that were exact when the score was stored must stay exact
    was_exact = {a["id"] for a in results["accesses"] if a.get("outcome") == "exact"}
    lost = [r for r in rows if r.id in was_exact and r.outcome != "exact"]
    assert not lost, "no longer exact: " + ", ".join(
        f"{r.id} ({r.outcome} {r.predicted})" for r in lost
    )


# ------------------------------------------------------------ scorer on synthetic


def _access(
    id_: str, line: int, kind: str, w: int | None, i: int | None, **kw: object
) -> dict[str, object]:
    raw_w = kw.pop("raw_w", w)
    raw_i = kw.pop("raw_i", i)
    return {
        "id": id_,
        "file": "bench/accuracy/x.cu",
        "line": line,
        "kind": kind,
        "width": kw.pop("width", 4),
        "later": kw.pop("later", False),
        "instantiation": kw.pop("instantiation", None),
        "warps_expected": kw.pop("warps", None),
        "status": kw.pop("status", "ok"),
        "measured": None
        if w is None
        else {
            "source": "kernel-totals",
            "executions": 132,
            "wavefronts": w,
            "ideal_wavefronts": i,
            "wavefronts_raw": raw_w,
            "ideal_raw": raw_i,
        },
    }


def _record(line: int, kind: str, w: int | None, i: int | None, **kw: object) -> dict[str, object]:
    return {
        "file": kw.pop("file", "bench/accuracy/x.cu"),
        "line": line,
        "kind": kind,
        "width": kw.pop("width", 4),
        "wavefronts": w,
        "ideal_wavefronts": i,
        "status": kw.pop("status", "proved" if w is not None else "unknown"),
        "reason": kw.pop("reason", None),
        "instantiation": kw.pop("instantiation", None),
    }


def test_scorer_matching_logic() -> None:
    results = {
        "arch": "sm_90",
        "known_limitations": {"b_mismatch": "issue-worthy reason"},
        "accesses": [
            _access("a_exact", 10, "load", 32, 1),
            _access("b_mismatch", 11, "load", 2, 1),
            _access("c_ideal", 12, "load", 2, 2, width=8),
            _access("d_missing", 13, "store", 1, 1),
            _access("e_unknown", 14, "store", 4, 1),
            _access("f_kind", 15, "atomic", 2, 1),  # only a load record on that line
            _access(
                "g_warps",
                16,
                "load",
                2,
                2,
                width=8,
                raw_w=1.75,
                raw_i=1.75,
                warps=[[2, 2], [2, 2], [2, 2], [1, 1]],
            ),
            _access("h_warps_bad", 17, "load", 2, 1, raw_w=2.0, raw_i=1.0, warps=[[2, 1], [1, 1]]),
            _access("i_tmpl2", 18, "load", 2, 1, instantiation="S=2", later=True),
            _access("j_tmpl32", 18, "load", 32, 1, instantiation="S=32", later=True),
            _access("k_flagged", 19, "load", 2, 2, status="sass-width-mismatch"),
            _access("l_nodata", 20, "load", None, None, status="no-data"),
            _access("m_abs_path", 21, "load", 1, 1),
            _access("n_two_on_line", 22, "load", 2, 2, width=8, later=True),
        ],
    }
    records = [
        _record(10, "load", 32, 1),
        _record(11, "load", 1, 1),
        _record(12, "load", 2, 1, width=8),
        _record(14, "store", None, None, reason="index depends on a load from memory"),
        _record(15, "load", 2, 1),
        _record(16, "load", 2, 2, width=8),
        _record(17, "load", 2, 1),
        _record(18, "load", 2, 1, instantiation="S=2"),
        _record(18, "load", 32, 1, instantiation="S=32"),
        _record(19, "load", 2, 2),
        _record(20, "load", 1, 1),
        _record(21, "load", 1, 1, file=str(ROOT / "bench/accuracy/x.cu")),
        _record(22, "load", 1, 1, width=4),
        _record(22, "load", 2, 2, width=8),
        _record(22, "store", 7, 1, width=8),
    ]
    rows = {r.id: r for r in score.score(results, records)}
    assert rows["a_exact"].outcome == "exact"
    assert rows["b_mismatch"].outcome == "mismatch"
    assert rows["b_mismatch"].measured == (2, 1) and rows["b_mismatch"].predicted == (1, 1)
    assert rows["b_mismatch"].limitation == "issue-worthy reason"
    assert rows["c_ideal"].outcome == "ideal-differs"
    assert rows["d_missing"].outcome == "missing"
    assert rows["e_unknown"].outcome == "unknown"
    assert rows["e_unknown"].reason == "index depends on a load from memory"
    assert rows["f_kind"].outcome == "missing"
    # per-warp list: average 1.75 matches, worst warp 2/2 is the target
    assert rows["g_warps"].outcome == "exact" and rows["g_warps"].measured == (2, 2)
    assert rows["h_warps_bad"].outcome == "bench-mismatch"
    assert rows["i_tmpl2"].outcome == "exact" and rows["j_tmpl32"].outcome == "exact"
    assert rows["k_flagged"].outcome == "not-measured"
    assert rows["l_nodata"].outcome == "not-measured"
    assert rows["m_abs_path"].outcome == "exact"
    assert rows["n_two_on_line"].outcome == "exact"  # the 8-byte record is chosen

    summ = score.summary(list(rows.values()))
    assert summ["total"] == 11  # 14 minus two not measured and one bench mismatch
    assert summ["exact"] == 6
    assert (summ["later_exact"], summ["later_total"]) == (3, 3)
    assert (summ["core_exact"], summ["core_total"]) == (3, 8)


def test_scorer_cli_min_exact(tmp_path: Path) -> None:
    results = {
        "arch": "sm_90",
        "accesses": [_access("a", 10, "load", 32, 1), _access("b", 11, "load", 2, 1)],
    }
    rpath = tmp_path / "r.json"
    rpath.write_text(json.dumps(results))
    cpath = tmp_path / "cl.json"
    cpath.write_text(
        json.dumps(
            {"version": 1, "accesses": [_record(10, "load", 32, 1), _record(11, "load", 1, 1)]}
        )
    )
    assert score.main(["--results", str(rpath), "--records", str(cpath), "--min-exact", "1"]) == 0
    assert score.main(["--results", str(rpath), "--records", str(cpath), "--min-exact", "2"]) == 1
    assert score.main(["--results", str(tmp_path / "none.json")]) == 2
    assert score.main(["--results", str(rpath), "--records", str(cpath), "--write"]) == 0
    stored = json.loads(rpath.read_text())
    assert stored["score"]["exact"] == 1 and stored["score"]["total"] == 2
    assert stored["accesses"][1]["outcome"] == "mismatch"
    assert stored["accesses"][1]["predicted"]["wavefronts"] == 1


# --------------------------------------------------------------- runner parsers

SOURCE_HEADER = [
    "Line No",
    "Source",
    "Address",
    "Source",
    "Warp Stall Sampling (All Samples)",
    "Warp Stall Sampling (Not-issued Samples)",
    "# Samples",
    "Instructions Executed",
    "Thread Instructions Executed",
    "Predicated-On Thread Instructions Executed",
    "Avg. Threads Executed",
    "Avg. Predicated-On Threads Executed",
    "Divergent Branches",
    "Address Space",
    "Access Operation",
    "Access Size",
    "L1 Tag Requests Global",
    "L1 Conflicts Shared N-Way",
    "L1 Wavefronts Shared Excessive",
    "L1 Wavefronts Shared",
    "L1 Wavefronts Shared Ideal",
    "L2 Theoretical Sectors Global Excessive",
    "L2 Theoretical Sectors Global",
    "L2 Theoretical Sectors Global Ideal",
]
BASE = 0x7F5A2E000000


def _src_row(line: int | None, cuda: str, addr: int | None, sass: str, **m: object) -> list[str]:
    vals = {h: "" for h in SOURCE_HEADER[4:]}
    vals.update({k: str(v) for k, v in m.items()})
    return [
        str(line) if line is not None else "",
        cuda,
        "-" if addr is None else f"0x{addr:x}",
        sass,
    ] + [vals[h] for h in SOURCE_HEADER[4:]]


def fake_source_csv(
    kernels: list[tuple[str, str, list[tuple[int, int, str, dict[str, object]]]]],
) -> str:
    """ncu --page source --print-source cuda,sass --csv style text.

    kernels: (function name, file path, [(line, offset, sass, metrics)]) with the
    SASS in address order; CUDA-line rows carry the line's sums.
    """
    buf = io.StringIO()
    buf.write("==PROF== Connected to process 1234 (/tmp/x)\n")
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for fn, path, instrs in kernels:
        w.writerow(["Kernel Name", fn])
        w.writerow(["File Path", path])
        w.writerow(SOURCE_HEADER)
        by_line: dict[int, list[tuple[int, str, dict[str, object]]]] = {}
        for line, off, sass, met in instrs:
            by_line.setdefault(line, []).append((off, sass, met))
        for line in sorted(by_line):
            tot: dict[str, float] = {}
            for _, _, met in by_line[line]:
                for k, v in met.items():
                    if isinstance(v, (int, float)):
                        tot[k] = tot.get(k, 0) + v
            w.writerow(_src_row(line, f"source of line {line}", None, "", **tot))
            for off, sass, met in by_line[line]:
                w.writerow(_src_row(None, "", BASE + off, sass, **met))
    return buf.getvalue()


def _shared(execs: int, wf: int, ideal: int, size: int = 32, op: str = "Load") -> dict[str, object]:
    return {
        "Instructions Executed": execs,
        "Thread Instructions Executed": execs * 32,
        "Predicated-On Thread Instructions Executed": execs * 32,
        "Address Space": "Shared",
        "Access Operation": op,
        "Access Size": size,
        "L1 Wavefronts Shared": wf,
        "L1 Wavefronts Shared Ideal": ideal,
        "L1 Wavefronts Shared Excessive": wf - ideal,
        "L1 Conflicts Shared N-Way": round(wf / ideal, 2) if ideal else 0,
    }


def test_parse_source_csv_layout_and_columns() -> None:
    text = fake_source_csv(
        [
            (
                "k_a(float *)",
                "/w/bench/accuracy/x.cu",
                [
                    (5, 0x00, "LDC R1, c[0x0][0x28]", {"Instructions Executed": 132}),
                    (7, 0x10, "STS [R3], R0", _shared(132, 132, 132, op="Store")),
                    (9, 0x20, "LDS R5, [R0]", _shared(132, 4224, 132)),
                    (9, 0x30, "STG.E desc[UR4][R2.64], R5", {"Instructions Executed": 132}),
                ],
            ),
            (
                "void tmpl<2>(float *)",
                "/w/bench/accuracy/x.cu",
                [
                    (9, 0x00, "LDS.64 R2, [R4]", _shared(132, 264, 264, size=64)),
                ],
            ),
        ]
    )
    rep = runner.parse_source_csv(text)
    assert rep.functions == ["k_a(float *)", "void tmpl<2>(float *)"]
    cols = runner.source_columns(rep.headers[0])
    assert cols["executions"] == "Instructions Executed"
    assert cols["wavefronts"] == "L1 Wavefronts Shared"
    assert cols["ideal"] == "L1 Wavefronts Shared Ideal"
    assert cols["excessive"] == "L1 Wavefronts Shared Excessive"
    assert cols["nway"] == "L1 Conflicts Shared N-Way"
    assert cols["predicated_on_thread_executions"] == "Predicated-On Thread Instructions Executed"
    assert cols["sass"] == "SASS Source"
    line9 = [r for r in rep.sass_rows if r.block == 0 and r.line == 9]
    assert [r.cells["SASS Source"] for r in line9] == ["LDS R5, [R0]", "STG.E desc[UR4][R2.64], R5"]
    assert line9[0].file == "/w/bench/accuracy/x.cu"
    assert runner.parse_number(line9[0].cells["L1 Wavefronts Shared"]) == 4224

    # address mapping through the compiler's line table (offsets from the lowest address)
    instrs = [
        runner.Instr(0x00, "LDC R1, c[0x0][0x28]", "x.cu", 5),
        runner.Instr(0x10, "STS [R3], R0", "x.cu", 7),
        runner.Instr(0x20, "LDS R5, [R0]", "x.cu", 9),
        runner.Instr(0x30, "STG.E desc[UR4][R2.64], R5", "x.cu", 9),
    ]
    pairs = runner.rows_by_address(rep, 0, cols, instrs)
    assert pairs is not None and [p[0].offset for p in pairs] == [0, 0x10, 0x20, 0x30]
    wrong = [runner.Instr(i.offset, "NOP", i.file, i.line) for i in instrs]
    assert runner.rows_by_address(rep, 0, cols, wrong) is None


def test_parse_source_csv_rows_with_line_and_address() -> None:
    # a variant where every SASS row repeats its CUDA line number
    w = io.StringIO()
    cw = csv.writer(w, quoting=csv.QUOTE_ALL, lineterminator="\n")
    cw.writerow(["Function Name", "_Z3k_bPf"])
    cw.writerow(["File Path", "x.cu"])
    cw.writerow(
        ["Line No", "Source", "Address", "Source", "Instructions Executed", "L1 Wavefronts Shared"]
    )
    cw.writerow(["12", "  out[t] = s[t];", "-", "", "264", "132"])
    cw.writerow(["12", "", "0x0040", "@!P0 LDS.U8 R5, [R0+UR4]", "132", "1,32"])
    rep = runner.parse_source_csv(w.getvalue())
    (row,) = rep.sass_rows
    assert row.line == 12 and rep.functions[row.block] == "_Z3k_bPf"
    assert runner.shared_kind_width(row.cells["SASS Source"]) == ("load", 1)
    assert runner.parse_number(row.cells["L1 Wavefronts Shared"]) == 132


def fake_metrics_csv(launches: list[tuple[str, str, dict[str, float]]]) -> str:
    buf = io.StringIO()
    buf.write(
        "==PROF== Connected to process 1234 (/tmp/x)\n==PROF== Disconnected from process 1234\n"
    )
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(
        [
            "ID",
            "Process ID",
            "Process Name",
            "Host Name",
            "Kernel Name",
            "Context",
            "Stream",
            "Block Size",
            "Grid Size",
            "Device",
            "CC",
            "Section Name",
            "Metric Name",
            "Metric Unit",
            "Metric Value",
        ]
    )
    for i, (name, block, mets) in enumerate(launches):
        for m, v in mets.items():
            w.writerow(
                [
                    str(i),
                    "1234",
                    "x",
                    "127.0.0.1",
                    name,
                    "1",
                    "7",
                    block,
                    "(132, 1, 1)",
                    "0",
                    "9.0",
                    "Command line profiler metrics",
                    m,
                    "inst" if "inst" in m else "",
                    f"{v:,.0f}",
                ]
            )
    return buf.getvalue()


def test_parse_metrics_csv() -> None:
    text = fake_metrics_csv(
        [
            (
                "init_input(unsigned int *, unsigned int)",
                "(256, 1, 1)",
                {"smsp__sass_inst_executed_op_shared_ld.sum": 0},
            ),
            (
                "ld_w4_s32(float *)",
                "(32, 1, 1)",
                {
                    "smsp__sass_inst_executed_op_shared_ld.sum": 132,
                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": 4224,
                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": 4092,
                },
            ),
        ]
    )
    launches = runner.parse_metrics_csv(text)
    assert [la["kernel"] for la in launches] == [
        "init_input(unsigned int *, unsigned int)",
        "ld_w4_s32(float *)",
    ]
    assert launches[1]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 4224
    tot = runner.hw_totals(launches[1], ("ld",))
    assert tot["ld"] == {"instructions": 132, "wavefronts": 4224, "bank_conflicts": 4092}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("LDS R5, [R0]", ("load", 4)),
        ("@!P0 LDS.U8 R5, [R0+UR4]", ("load", 1)),
        ("LDS.S16 R5, [R0]", ("load", 2)),
        ("LDS.64 R2, [R3]", ("load", 8)),
        ("LDS.128 R4, [R0+UR4]", ("load", 16)),
        ("STS.U16 [R0], R13", ("store", 2)),
        ("STS.128 [R0], R4", ("store", 16)),
        ("ATOMS.POPC.INC.32 RZ, [UR4]", ("atomic", 4)),
        ("ATOMS.ADD R5, [R0], R5", ("atomic", 4)),
        ("ATOMS.CAST.SPIN.64 P0, [R2], R4, R6", ("atomic", 8)),
        ("LDG.E R5, desc[UR4][R2.64]", None),
        ("LDSM.16.M88.4 R4, [R0]", None),
    ],
)
def test_shared_kind_width(text: str, expected: tuple[str, int] | None) -> None:
    assert runner.shared_kind_width(text) == expected


def test_name_matching() -> None:
    m = runner.name_matches
    assert m("_Z11tmpl_strideILi2EEvPf", "tmpl_stride", "2")
    assert not m("_Z11tmpl_strideILi32EEvPf", "tmpl_stride", "2")
    assert m("void tmpl_stride<32>(float *)", "tmpl_stride", "32")
    assert not m("void tmpl_stride<32>(float *)", "tmpl_stride", None)
    assert m("ld_w4_s3(float *)", "ld_w4_s3", None) and not m(
        "ld_w4_s33(float *)", "ld_w4_s3", None
    )
    assert m("_Z8ld_w4_s3Pf", "ld_w4_s3", None) and not m("_Z9ld_w4_s33Pf", "ld_w4_s3", None)


def test_nvdisasm_inlined_lines() -> None:
    text = """
        .section	.text._Z5at_s2PjPKj,"ax",@progbits
	//## File "/w/bench/accuracy/patterns.cu", line 324
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/usr/local/cuda/include/device_atomic_functions.hpp", line 112 inlined at "/w/bench/accuracy/patterns.cu", line 326
        /*00e0*/                   ATOMS.ADD R7, [R0], R3 ;
"""  # noqa: E501 (nvdisasm's line as it is)
    funcs = runner.parse_nvdisasm(text)
    (ins0, ins1) = funcs["_Z5at_s2PjPKj"]
    assert ins0.line == 324
    assert ins1.line == 326 and ins1.file.endswith("patterns.cu") and ins1.opcode == "ATOMS.ADD"


# ------------------------------------------------------------------ the suite


def _all_markers() -> list[object]:
    markers = []
    for path in sorted(BENCH.glob("*.cu")):
        markers += runner.parse_markers(path, runner.rel_path(path))
    return markers


def test_suite_markers() -> None:
    markers = _all_markers()
    ids = [m.id for m in markers]
    assert len(ids) == len(set(ids)), "duplicate measure ids"
    assert len(ids) >= 60
    kinds = {(m.kind, m.width) for m in markers}
    for width in (1, 2, 4, 8, 16):
        assert ("load", width) in kinds and ("store", width) in kinds
    assert any(m.kind == "atomic" for m in markers)
    assert sum(m.later for m in markers) >= 5
    # every measured kernel is launched in its file's main() with a known block size
    for path in sorted(BENCH.glob("*.cu")):
        launches = runner.parse_launches(path.read_text())
        launched = {(la.kernel, la.targs): la for la in launches}
        for m in runner.parse_markers(path, runner.rel_path(path)):
            la = launched.get((m.kernel, m.targs))
            assert la is not None, f"{m.id}: kernel {m.kernel} is not launched"
            assert la.threads, f"{m.id}: block size {la.block!r} not understood"
            if m.warps:
                assert len(m.warps) == -(-la.threads // 32), (
                    f"{m.id}: warps= needs one entry per warp"
                )


def test_strides_file_is_generated() -> None:
    gen = _load("gen_strides")
    assert (BENCH / "strides_1d.cu").read_text() == gen.render(), (
        "strides_1d.cu differs from gen_strides.py's output: "
        "run python3 bench/accuracy/gen_strides.py"
    )


# ------------------------------------------------- runner end to end, no GPU


def _tool(name: str) -> str | None:
    return shutil.which(name)


@pytest.mark.skipif(not (_tool("nvcc") and _tool("nvdisasm")), reason="needs nvcc and nvdisasm")
def test_runner_end_to_end_on_fake_profiles(tmp_path: Path) -> None:
    """Build a small suite file, feed the runner fake ncu output, check what it recovers."""
    src = tmp_path / "mini.cu"
    src.write_text(
        """constexpr int GRID = 4;
__global__ void ld_s32(float *out) {
    __shared__ float s[1024];
    for (unsigned i = threadIdx.x; i < 1024; i += 32)
        s[i] = (float)i;
    __syncthreads();
    out[threadIdx.x] = s[32 * threadIdx.x];  // measure: mini_ld_s32 load.4
}
__global__ void st_s2(float *out, const float *in) {
    __shared__ float s[64];
    s[2 * threadIdx.x] = in[threadIdx.x];  // measure: mini_st_s2 store.4
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[blockIdx.x % 64];
}
int main() {
    float *o = 0;
    cudaMalloc((void **)&o, 4096);
    ld_s32<<<GRID, 32>>>(o);
    st_s2<<<GRID, 32>>>(o, o);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
"""
    )
    out = tmp_path / "out"
    # First pass: build and read the SASS, to learn the offsets for the fake CSV.
    assert runner.main(["--no-profile", "--out", str(out), str(src)]) == 0
    funcs = runner.parse_nvdisasm((out / "raw" / "mini.nvdisasm.txt").read_text())
    fake = tmp_path / "fake"
    fake.mkdir()
    kernels = []
    want = {"_Z6ld_s32Pf": (4 * 32, 4), "_Z5st_s2PfPKf": (4 * 2, 4)}  # totals over 4 warps
    for fn, (wf, execs) in want.items():
        rows = []
        for ins in funcs[fn]:
            kw = runner.shared_kind_width(ins.text)
            met: dict[str, object] = {"Instructions Executed": execs}
            if kw and ins.line in (7, 11):
                met = _shared(execs, wf, execs, op="Load" if kw[0] == "load" else "Store")
            elif kw:
                met = _shared(execs, execs, execs)
            rows.append((ins.line or 0, ins.offset, ins.text, met))
        demangled = {
            "_Z6ld_s32Pf": "ld_s32(float *)",
            "_Z5st_s2PfPKf": "st_s2(float *, const float *)",
        }[fn]
        kernels.append((demangled, str(src), rows))
    (fake / "mini.source.csv").write_text(fake_source_csv(kernels))
    (fake / "mini.metrics.csv").write_text(
        fake_metrics_csv(
            [
                (
                    "ld_s32(float *)",
                    "(32, 1, 1)",
                    {
                        "smsp__sass_inst_executed_op_shared_ld.sum": 4,
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": 128,
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": 124,
                        "smsp__sass_inst_executed_op_shared_st.sum": 128,
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": 128,
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": 0,
                    },
                ),
                (
                    "st_s2(float *, const float *)",
                    "(32, 1, 1)",
                    {
                        "smsp__sass_inst_executed_op_shared_st.sum": 4,
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": 8,
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": 4,
                        "smsp__sass_inst_executed_op_shared_ld.sum": 4,
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": 4,
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": 0,
                    },
                ),
            ]
        )
    )
    assert runner.main(["--reparse", str(fake), "--out", str(out), str(src)]) == 0
    data = json.loads((out / "sm90_h100.json").read_text())
    acc = {a["id"]: a for a in data["accesses"]}
    ld, st = acc["mini_ld_s32"], acc["mini_st_s2"]
    assert ld["sass_check"] == "ok" and st["sass_check"] == "ok"
    assert ld["measured"]["source"] == "kernel-totals"
    assert (ld["measured"]["wavefronts"], ld["measured"]["ideal_wavefronts"]) == (32, 1)
    assert (st["measured"]["wavefronts"], st["measured"]["ideal_wavefronts"]) == (2, 1)
    assert ld["source_counters"]["wavefronts_raw"] == 32 and ld["source_counters"]["ideal_raw"] == 1
    assert ld["source_counters_attribution"] == "address"
    assert st["source_counters"]["wavefronts_raw"] == 2
    assert not ld.get("counters_disagree") and not st.get("counters_disagree")
    assert ld["status"] == "ok" and st["status"] == "ok"


def test_parse_sass_only_view() -> None:
    # `--print-source sass`: no CUDA lines; the runner maps rows by address instead
    w = io.StringIO()
    cw = csv.writer(w, quoting=csv.QUOTE_ALL, lineterminator="\n")
    cw.writerow(["Kernel Name", "k_c(float *)"])
    cw.writerow(["Address", "Source", "Instructions Executed", "L1 Wavefronts Shared"])
    cw.writerow([f"0x{BASE:x}", "LDC R1, c[0x0][0x28]", "132", "0"])
    cw.writerow([f"0x{BASE + 0x10:x}", "LDS R5, [R0]", "132", "4224"])
    rep = runner.parse_source_csv(w.getvalue())
    cols = runner.source_columns(rep.headers[0])
    assert cols["sass"] == "SASS Source" and all(r.line is None for r in rep.sass_rows)
    instrs = [
        runner.Instr(0, "LDC R1, c[0x0][0x28]", "x.cu", 3),
        runner.Instr(0x10, "LDS R5, [R0]", "x.cu", 9),
    ]
    pairs = runner.rows_by_address(rep, 0, cols, instrs)
    assert pairs is not None and pairs[1][0].line == 9
    assert runner.parse_number(pairs[1][1]["L1 Wavefronts Shared"]) == 4224
