"""nvcuda::wmma fragment loads/stores on shared memory: every H100 measurement
(tests/data/hw/sm90_wmma.jsonl, from bench/accuracy/wmma.cu) against the lowering model
(cudalint.frontend.wmma) and the bank rule, and the frontend's records."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from cudalint.frontend.wmma import (
    ACC_SHAPES,
    ELEMENT_BYTES,
    SHAPES,
    Fragment,
    Lowering,
    lane_address,
    lane_offset,
    lower,
    tile,
)
from cudalint.ir import UINT, Const, Sym
from cudalint.model.arch import parse_arch
from cudalint.model.banks import warp_cost
from cudalint.model.evaluate import evaluate

ROOT = Path(__file__).resolve().parent.parent
ROWS = [json.loads(x) for x in (ROOT / "tests/data/hw/sm90_wmma.jsonl").read_text().splitlines()]
#: Element types as gen_wmma.py spells them (the memory type of tf32 is float).
ELEMENT = {
    "half": "half",
    "__nv_bfloat16": "bf16",
    "tf32": "tf32",
    "float": "float",
    "int": "int",
    "signed char": "s8",
    "unsigned char": "u8",
    "double": "double",
}
SM90 = parse_arch("sm_90")


def fragment(row: dict[str, Any]) -> Fragment:
    m, n, k = row["shape"]
    return Fragment(row["use"], m, n, k, ELEMENT[row["type"]], row["layout"])


def lowered(row: dict[str, Any]) -> Lowering:
    low = lower(fragment(row), row["op"] == "store")
    assert isinstance(low, Lowering), low
    return low


def test_data_covers_every_shape_type_layout_and_op() -> None:
    assert len(ROWS) == 163
    seen = {(r["use"], tuple(r["shape"]), ELEMENT[r["type"]], r["layout"], r["op"]) for r in ROWS}
    for elem, shapes in SHAPES.items():
        # u8 is measured at m16n16k16 only: the same IMMA fragments and instructions as s8
        for shape in shapes if elem != "u8" else shapes[:1]:
            for use in ("a", "b"):
                for lay in ("row", "col"):
                    assert (use, shape, elem, lay, "load") in seen
    for elem, shapes in ACC_SHAPES.items():
        for shape in shapes:
            assert ("acc", shape, elem, "row", "store") in seen or elem == "half"
            assert any(s[:3] == ("acc", shape, elem) for s in seen)
    # conflicted and clean cases of each kind of instruction
    ratio = {r["case"]: r["wavefronts"] / r["ideal_wavefronts"] for r in ROWS}
    assert min(ratio.values()) == 1.0 and max(ratio.values()) == 4.0


@pytest.mark.parametrize("row", ROWS, ids=[r["case"] for r in ROWS])
def test_lowering_reproduces_measurement(row: dict[str, Any]) -> None:
    low = lowered(row)
    _lines, line_bytes = tile(fragment(row))
    assert row["ldm"] * ELEMENT_BYTES[fragment(row).element] >= line_bytes
    # the instruction form and count nvdisasm shows on the call's line
    assert len(row["sass"]) == low.instructions
    ops = {s.split(".")[0] for s in row["sass"]}
    if low.matrices:
        assert ops == {"LDSM"} and all(
            s.endswith(f".{low.matrices}") or low.matrices == 1 for s in row["sass"]
        )
    else:
        assert ops <= {"LDS", "STS", "LD", "ST"}
    # the bank rule on the lanes' addresses, times the instructions: the measured totals
    addrs = [lane_address(low, lane, row["ldm"]) for lane in range(32)]
    cost = warp_cost(addrs, low.width, row["op"], SM90, matrix=low.matrices > 0)
    assert (cost.wavefronts * low.instructions, cost.ideal * low.instructions) == (
        row["wavefronts"],
        row["ideal_wavefronts"],
    )


@pytest.mark.parametrize("row", ROWS[::7], ids=[r["case"] for r in ROWS[::7]])
def test_lane_offset_expression_equals_lane_address(row: dict[str, Any]) -> None:
    low = lowered(row)
    lane = Sym("lane", UINT, lane_dependent=True)
    ldm = Sym("ldm", UINT)
    e = lane_offset(low, lane, ldm)
    for lane_id in range(32):
        a = lane_address(low, lane_id, row["ldm"])
        if a is not None:
            assert evaluate(e, {"lane": lane_id, "ldm": row["ldm"]}) == a
    assert lane_offset(low, lane, Const(row["ldm"])) is not None


def test_refused_fragments_say_why() -> None:
    assert "store_matrix_sync" in str(lower(Fragment("a", 16, 16, 16, "half", "row"), True))
    assert "not a shape" in str(lower(Fragment("a", 16, 16, 8, "half", "row"), False))
    assert "not a shape" in str(lower(Fragment("acc", 8, 8, 4, "float", "row"), False))


def _records(args: list[str]) -> list[dict[str, Any]]:
    from cudalint.cli import main

    out = io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(io.StringIO()),
        contextlib.suppress(SystemExit),
    ):
        main(args)
    accesses: list[dict[str, Any]] = json.loads(out.getvalue())["accesses"]
    return accesses


def test_older_archs_leave_wmma_unknown() -> None:
    fixture = str(ROOT / "fixtures" / "wmma_fragments.cu")
    text = (ROOT / "fixtures" / "wmma_fragments.cu").read_text().splitlines()
    wmma_lines = {
        i + 1 for i, ln in enumerate(text) if "_matrix_sync(" in ln and "// access:" in ln
    }
    for arch, modelled in (("sm_70", False), ("sm_75", False), ("sm_80", True), ("sm_90", True)):
        recs = [
            r
            for r in _records(
                ["--format", "json", "--show-all", "--max-unknown", "100", "--arch", arch, fixture]
            )
            if r["line"] in wmma_lines
        ]
        assert len(recs) == len(wmma_lines)
        proved = [r for r in recs if r["status"] == "proved"]
        if modelled:
            assert len(proved) == len(wmma_lines) - 2  # the runtime layout and the b1 one
        else:
            assert not proved
            assert sum("sm_80 and newer" in (r["reason"] or "") for r in recs) == len(recs) - 2
