"""Fix derivation and application, piece by piece (synthetic IR where the frontend is
not needed; the goldens in test_fixes_golden.py go through the whole pipeline)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from cudalint.api import FileReport, check_file
from cudalint.diagnostics import Diagnostic, Edit, Fix
from cudalint.fixes import FixPlanner
from cudalint.fixes.apply import apply_fixes, fix_report
from cudalint.fixes.layout import LayoutPlanner, extent_text
from cudalint.fixes.recheck import Rechecker, rebuild_offset, same_values
from cudalint.fixes.source import array_uses, tokenize
from cudalint.fsutil import WriteError, write_file
from cudalint.ir import (
    LONG,
    THREAD_IDX,
    Access,
    Binary,
    Const,
    Kernel,
    Launch,
    SharedArray,
    Span,
    Sym,
    TranslationUnit,
)
from cudalint.model.analyze import analyze
from cudalint.model.arch import KNOWN_ARCHS, SHARED_MEMORY, parse_arch, shared_memory
from cudalint.options import Options
from cudalint.output import RenderOptions, render

ROOT = Path(__file__).resolve().parent.parent
FIXES = ROOT / "fixtures" / "fixes"
TX = Sym(THREAD_IDX[0], lane_dependent=True)
TY = Sym(THREAD_IDX[1], lane_dependent=True)


# --- the per-arch shared-memory table --------------------------------------------------------


def test_every_known_arch_has_shared_memory_limits() -> None:
    assert set(SHARED_MEMORY) == set(KNOWN_ARCHS)


@pytest.mark.parametrize(
    ("arch", "per_sm_kib", "per_block_kib"),
    [
        ("sm_90", 228, 227),
        ("sm_80", 164, 163),
        ("sm_86", 100, 99),
        ("sm_89", 100, 99),
        ("sm_70", 96, 96),
        ("sm_75", 64, 64),
        ("sm_60", 64, 48),
        ("sm_50", 64, 48),
        ("sm_35", 48, 48),
        ("sm_37", 112, 48),
        ("sm_20", 48, 48),
    ],
)
def test_shared_memory_table(arch: str, per_sm_kib: int, per_block_kib: int) -> None:
    limits = shared_memory(parse_arch(arch))
    assert (limits.per_sm, limits.per_block) == (per_sm_kib * 1024, per_block_kib * 1024)


def test_blocks_per_sm_by_shared_memory() -> None:
    h100 = shared_memory(parse_arch("sm_90"))
    # 1 KiB reserved per block, 128-byte granularity: 228 KiB / (32 KiB + 1 KiB) = 6.
    assert h100.blocks_per_sm(32 * 1024, 256) == 6
    assert h100.blocks_per_sm(0, 1024) == 2  # threads limit
    assert h100.blocks_per_sm(228 * 1024, 32) == 0  # more than a block may have


# --- synthetic units ------------------------------------------------------------------------


def _span(line: int, col: int = 5, end: int = 30) -> Span:
    return Span("k.cu", line, col, line, end)


def _tile_unit(
    extra: tuple[Access, ...] = (),
    block: tuple[int, int, int] = (32, 32, 1),
    dims: tuple[int, int] = (32, 32),
) -> TranslationUnit:
    tile = SharedArray("k::tile", "tile", "float", 4, dims, _span(2), kernel="k")

    def access(kind: str, i: object, j: object, line: int, col: int) -> Access:
        idx = (i, j)
        return Access(
            array=tile.key,
            kernel="k",
            kind=kind,
            width=4,  # type: ignore[arg-type]
            offset=rebuild_offset(idx, dims, 4, 0),  # type: ignore[arg-type]
            span=_span(line, col, col + 30),
            indices=idx,  # type: ignore[arg-type]
        )

    # The spans of SOURCE's two subscripts.
    store = access("store", TY, TX, 3, 5)
    load = access("load", TX, TY, 4, 14)
    return TranslationUnit(
        file="k.cu",
        kernels=(Kernel("k", _span(1)),),
        arrays=(tile,),
        accesses=(store, load, *extra),
        launches=(Launch("k", block, _span(9)),),
    )


SOURCE = b"""__global__ void k(float *out) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = 1.0f;
    out[0] = tile[threadIdx.x][threadIdx.y];
    out[1] = 0;
}
void h(float *o) { k<<<1, dim3(32, 32)>>>(o); }
"""


def _planner(unit: TranslationUnit, source: bytes = SOURCE) -> LayoutPlanner:
    unit = replace(
        unit,
        arrays=tuple(
            replace(
                a,
                span=Span("k.cu", 2, 5, 2, 34),
                dim_spans=(Span("k.cu", 2, 27, 2, 29), Span("k.cu", 2, 31, 2, 33)),
                dim_texts=("32", "32"),
            )
            for a in unit.arrays
        ),
    )
    options = Options()
    return LayoutPlanner("k.cu", unit, options, source, Rechecker(unit, options))


def test_transpose_pad_of_one_is_proved_on_both_accesses() -> None:
    planner = _planner(_tile_unit())
    plan = planner.plan("k::tile")
    assert plan.candidate is not None and plan.candidate.amount == 1
    assert plan.fix is not None and plan.fix.applicability == "safe"
    assert plan.fix.title.startswith("pad the last dimension: tile[32][33] (+128 bytes")
    (verdict,) = plan.candidate.verdicts
    assert [(c.before.wavefronts, c.after.wavefronts) for c in verdict.changes] == [(1, 1), (32, 1)]


def test_pad_of_one_breaking_a_float4_read_is_rejected_by_the_model() -> None:
    # tile[ty][4 * tx] read as float4 (width 16) by the first 8 lanes of each row: a pad
    # of 1 puts odd rows at 4 mod 16 bytes, which the model proves misaligned (worse).
    vec = Access(
        array="k::tile",
        kernel="k",
        kind="load",
        width=16,
        offset=rebuild_offset((TY, Binary("*", Const(4), TX)), (32, 32), 4, 0),
        span=_span(5),
        indices=(TY, Binary("*", Const(4), TX)),
        guard=Binary("<", TX, Const(8)),
    )
    planner = _planner(_tile_unit(extra=(vec,)))
    arrays = planner.group("k::tile")
    candidates = planner.pad_candidates(arrays, step=1)
    first = candidates[0]
    assert first.amount == 1 and not first.no_worse
    (worse,) = [c for v in first.verdicts for c in v.worse]
    assert worse.access.width == 16 and worse.after.status == "unknown"
    plan = planner.plan("k::tile")
    assert plan.candidate is not None
    assert plan.candidate.no_worse
    assert plan.candidate.kind == "swizzle" or plan.candidate.amount % 4 == 0


def test_store_side_made_worse_by_the_usual_pad_is_not_offered() -> None:
    path = str(FIXES / "store_side.cu")
    report = check_file(path, Options())
    assert report.unit is not None and report.source is not None
    planner = LayoutPlanner(
        path, report.unit, Options(), report.source, Rechecker(report.unit, Options())
    )
    key = report.unit.arrays[0].key
    pads = planner.pad_candidates(planner.group(key), step=1)
    one = pads[0]
    assert one.amount == 1 and not one.no_worse
    (worse,) = [c for v in one.verdicts for c in v.worse]
    assert worse.access.kind == "store"
    assert (worse.before.wavefronts, worse.after.wavefronts) == (1, 2)
    plan = planner.plan(key)
    assert plan.candidate is not None and plan.candidate.kind == "swizzle"
    assert plan.candidate.clean and plan.candidate.no_worse


def test_mixed_row_strides_give_no_fix_and_say_why() -> None:
    report = check_file(str(FIXES / "stride_1d_mixed.cu"), Options())
    assert report.unit is not None and report.source is not None
    planner = FixPlanner(report.path, report.unit, report.results, Options(), report.source)
    plan = planner.array_plan(report.unit.arrays[0].key)
    assert plan is not None and plan.fix is None
    assert plan.failure is not None and "do not share one row stride" in plan.failure
    assert all(d.fix is None for d in report.diagnostics)


def test_raw_pointer_use_makes_the_fix_display_only() -> None:
    report = check_file(str(FIXES / "raw_pointer.cu"), Options())
    (d,) = [d for d in report.diagnostics if d.code == "CL001"]
    assert d.fix is not None and d.fix.applicability == "display-only"
    assert "through a pointer at line 8" in d.fix.title


def test_a_fix_proved_with_a_launch_bound_parameter_is_display_only(tmp_path: Path) -> None:
    report = check_file(str(FIXES / "launch_param.cu"), Options())
    (d,) = [d for d in report.diagnostics if d.code == "CL001"]
    assert d.result is not None and d.result.access.launch_params == ("W",)
    assert d.fix is not None and d.fix.applicability == "display-only"
    assert d.fix.edits  # shown in full, only never applied
    assert (
        "not applied: the proof assumes W=32, which the launch at line 16 passes to "
        "kernel 'transpose_param'; other callers"
    ) in d.fix.title
    # The same kernel with W a template argument: part of the kernel's code, the fix holds
    # for every instantiation the file makes and stays applicable.
    text = (FIXES / "launch_param.cu").read_text(encoding="utf-8")
    text = text.replace(
        "__global__ void transpose_param(float *out, const float *in, int W)",
        "template <int W>\n__global__ void transpose_param(float *out, const float *in)",
    )
    text = text.replace(
        "transpose_param<<<1, dim3(32, 32)>>>(out, in, W)",
        "transpose_param<W><<<1, dim3(32, 32)>>>(out, in)",
    )
    path = tmp_path / "templ.cu"
    path.write_text(text, encoding="utf-8")
    report = check_file(str(path), Options())
    (d,) = [d for d in report.diagnostics if d.code == "CL001"]
    assert d.result is not None and d.result.access.launch_params == ()
    assert d.fix is not None and d.fix.applicability == "safe", d.fix.title


def test_rebuilt_offsets_must_match_the_analyzed_ones() -> None:
    a = rebuild_offset((TX, TY), (32, 32), 4, 0)
    assert same_values(a, Binary("*", Binary("+", Binary("*", TX, Const(32)), TY), Const(4)))
    assert not same_values(a, rebuild_offset((TY, TX), (32, 32), 4, 0))


def test_no_fix_without_source() -> None:
    unit = _tile_unit()
    results = analyze(unit, Options())
    planner = FixPlanner("k.cu", unit, results, Options(), None)
    assert all(planner.fix_for(r) is None for r in results)


def test_the_48_kib_static_limit_is_never_passed() -> None:
    # 96 x 128 floats = 48 KiB: any pad would pass the static limit.
    unit = _tile_unit(dims=(96, 128))
    planner = _planner(unit)
    assert planner.pad_candidates(planner.group("k::tile"), step=1) == []


@pytest.mark.parametrize(
    ("text", "pad", "expected"),
    [
        ("32", 1, "33"),
        ("TILE", 1, "TILE + 1"),
        ("TILE + 1", 1, "TILE + 2"),
        ("N << 1", 1, "(N << 1) + 1"),
        (" 0x20 ", 4, "36"),
        ("2 * T", 2, "2 * T + 2"),
    ],
)
def test_extent_keeps_the_users_spelling(text: str, pad: int, expected: str) -> None:
    assert extent_text(text, pad) == expected


def test_array_uses_are_classified() -> None:
    src = b"""__global__ void k(float *o) {
    __shared__ float tile[4][4];
    tile[0][threadIdx.x] = 1;   // tile in a comment is not a use
    float *p = &tile[0][0];
    o[0] = sizeof(tile) + p[1] + ((float4 *)tile)[0].x;
}
"""
    arr = SharedArray("k::tile", "tile", "float", 4, (4, 4), Span("k.cu", 2, 5, 2, 32), kernel="k")
    acc = Access("k::tile", "k", "store", 4, Const(0, LONG), Span("k.cu", 3, 5, 3, 25))
    kinds = [(u.kind, u.line, u.vector_type) for u in array_uses(src, arr, [acc])]
    assert kinds == [
        ("declaration", 2, ""),
        ("access", 3, ""),
        ("pointer", 4, ""),
        ("sizeof", 5, ""),
        ("pointer", 5, "float4"),
    ]
    assert [t.text for t in tokenize(b'a /* b */ "c" d')] == ["a", "d"]


# --- Kepler's 8-byte mode ---------------------------------------------------------------------


def test_kepler_eight_byte_mode_only_on_kepler() -> None:
    path = str(FIXES / "kepler_eight_byte.cu")
    kepler = check_file(path, Options(arch="sm_35"))
    fixes = [d.fix for d in kepler.diagnostics if d.fix is not None]
    assert fixes and all("does nothing on GPUs after Kepler" in f.title for f in fixes)
    assert all(
        d.result is None or d.result.bank_mode == 4 for d in kepler.diagnostics if d.fix is not None
    )
    later = check_file(path, Options(arch="sm_90"))
    assert not [d for d in later.diagnostics if d.fix is not None]


# --- applying ---------------------------------------------------------------------------------


def _fix(*edits: tuple[int, int, int, str]) -> Fix:
    return Fix("t", "safe", tuple(Edit("f.cu", ln, a, ln, b, text) for ln, a, b, text in edits))


def test_shared_declaration_edit_is_applied_once_and_overlaps_wait() -> None:
    src = b"float t[32][32];\nx = 1;\n"
    decl = (1, 13, 15, "33")
    out, n = apply_fixes(src, [_fix(decl), _fix(decl), _fix((1, 12, 16, "[40]"))])
    assert out == b"float t[32][33];\nx = 1;\n"
    assert n == 2  # the second is the same edit, shared; the third overlaps


def test_crlf_line_endings_are_kept() -> None:
    src = b"a\r\nfloat t[32][32];\r\n"
    out, _ = apply_fixes(src, [_fix((2, 13, 15, "33"))])
    assert out == b"a\r\nfloat t[32][33];\r\n"


def test_write_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_bytes(b"new")
    with pytest.raises(WriteError, match="changed since"):
        write_file(str(path), b"fixed", expected=b"old")
    assert path.read_bytes() == b"new"
    os.chmod(path, 0o600)
    write_file(str(path), b"fixed", expected=b"new")
    assert path.read_bytes() == b"fixed" and os.stat(path).st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cu"]


def test_a_fix_that_breaks_the_parse_is_not_applied(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_bytes((FIXES / "pad_transpose.cu").read_bytes())
    report = check_file(str(path), Options())
    (d,) = [d for d in report.diagnostics if d.fix is not None]
    assert d.fix is not None
    bad = replace(d.fix, edits=tuple(replace(e, content="TILE +") for e in d.fix.edits))
    broken = FileReport(
        report.path, report.unit, report.results, [replace(d, fix=bad)], None, report.source
    )
    result = fix_report(broken, Options(), unsafe=False)
    assert result.error is not None and not result.changed
    assert path.read_bytes() == (FIXES / "pad_transpose.cu").read_bytes()


def test_text_and_json_show_the_fix(tmp_path: Path) -> None:
    report = check_file(str(FIXES / "pad_transpose.cu"), Options())
    text = render("text", [report], RenderOptions())
    assert "  help: pad the last dimension: tile[TILE][TILE + 1] (+128 bytes per block)\n" in text
    import json

    (diag,) = json.loads(render("json", [report], RenderOptions()))["diagnostics"]
    assert diag["fix"]["applicability"] == "safe"
    assert diag["fix"]["edits"] == [
        {
            "file": report.path,
            "line": 7,
            "column": 33,
            "end_line": 7,
            "end_column": 37,
            "content": "TILE + 1",
        }
    ]


def test_diagnostics_without_fixes_render_no_help() -> None:
    d = Diagnostic("CL001", "shared-bank-conflict", "warning", "m", "f.cu", 1, 1, 1, 2)
    from cudalint.output.text import render_diagnostic

    assert not [line for line in render_diagnostic(d, None, False) if "help:" in line]


def test_cost_names_a_drop_in_blocks_per_sm() -> None:
    # 64 x 32 floats = 8 KiB (+1 KiB reserved): 25 blocks of 32 threads fit in 228 KiB;
    # padded to 64 x 33 they take 9472 bytes each: 24.
    unit = _tile_unit(block=(32, 1, 1), dims=(64, 32))
    planner = _planner(unit)
    plan = planner.plan("k::tile")
    assert plan.fix is not None
    assert (
        "(+256 bytes per block; blocks per SM by shared memory drop from 25 to 24 on "
        "sm_90" in plan.fix.title
    )
    # The same pad on a 32 x 32 tile costs no block.
    small = _planner(_tile_unit(block=(32, 1, 1))).plan("k::tile")
    assert small.fix is not None and "blocks per SM" not in small.fix.title


PACKING = b"""__global__ void filt(float *out) {
    __shared__ volatile float s[64];
    __shared__ float a[32], b[32];
    const unsigned t = threadIdx.x;
    s[t] = out[t]; s[t + 32] = out[t + 32]; a[t] = 1.0f; b[t] = 2.0f;
    __syncthreads();
    float lo = s[2 * t], hi = s[2 * t + 1];
    float x = a[t], y = b[t];
    out[t] = lo + hi + x + y;
}
void launch(float *o) { filt<<<1, 32>>>(o); }
"""


def test_float2_packing_only_when_it_saves_wavefronts(tmp_path: Path) -> None:
    from cudalint.rules import RuleSelection

    path = tmp_path / "pk.cu"
    path.write_bytes(PACKING)
    select = RuleSelection.build(["CL005"])
    h100 = check_file(str(path), Options(), selection=select)
    # s[2t] + s[2t + 1] (volatile: nvcc keeps two LDS): 2 + 2 wavefronts -> one float2
    # load, 2. a[t] + b[t]: 1 + 1,
    # and a float2 load of 256 bytes needs 2: no gain, not reported.
    assert [(d.line, d.message) for d in h100.diagnostics] == [
        (
            7,
            "two 4-byte loads of 's' (s[2 * t] and s[2 * t + 1]) could be one float2 "
            "load (4 wavefronts -> 2 per warp)",
        )
    ]
    assert all(
        d.fix is not None and d.fix.applicability == "display-only" for d in h100.diagnostics
    )
    # Kepler in 8-byte mode: a float2 load is one wavefront, so both pairs gain.
    kepler = check_file(str(path), Options(arch="sm_35"), selection=select)
    assert [d.line for d in kepler.diagnostics] == [7, 8]


def test_float2_packing_not_offered_where_nvcc_merges_or_misaligns(tmp_path: Path) -> None:
    """No CL005 where nvcc already issues the pair as one LDS.64 (a static array: the
    model costs the merged load, 2 wavefronts, not 2 + 2), nor where a float2 load would
    be misaligned (``shared + C``: C odd or unknown)."""
    from cudalint.rules import RuleSelection

    path = tmp_path / "pk.cu"
    path.write_bytes(b"""__global__ void merged(float *out) {
    __shared__ float s[64];
    const unsigned t = threadIdx.x;
    s[t] = out[t]; s[t + 32] = out[t + 32];
    __syncthreads();
    out[t] = s[2 * t] + s[2 * t + 1];
}
__global__ void carved(float *out, int c) {
    extern __shared__ float dyn[];
    float *s = dyn + c;
    const unsigned t = threadIdx.x;
    out[t] = s[2 * t] + s[2 * t + 1];
}
__global__ void odd(float *out) {
    extern __shared__ float dyn[];
    float *s = dyn + 1;
    const unsigned t = threadIdx.x;
    out[t] = s[2 * t] + s[2 * t + 1];
}
void launch(float *o, int c) {
    merged<<<1, 32>>>(o);
    carved<<<1, 32, 1024>>>(o, c);
    odd<<<1, 32, 1024>>>(o);
}
""")
    report = check_file(str(path), Options(), selection=RuleSelection.build(["CL005"]))
    assert report.error is None and report.diagnostics == []
