"""Every measured ldmatrix/stmatrix row (sm_90, tests/data/hw/sm90_ldmatrix.jsonl)
against the bank model's matrix form, and the raw cp.async data's shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cudalint.model.arch import parse_arch
from cudalint.model.banks import warp_cost

DATA = Path(__file__).parent / "data" / "hw"
ROWS = [json.loads(line) for line in (DATA / "sm90_ldmatrix.jsonl").read_text().splitlines()]


def test_matrix_data_covers_every_form() -> None:
    forms = {(r["op"], r["matrices"]) for r in ROWS}
    for op in ("ldmatrix", "ldmatrix.trans", "stmatrix"):
        for n in (1, 2, 4):
            assert (op, n) in forms
    assert len(ROWS) == 425


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['op']}.x{r['matrices']}:{r['tag']}" for r in ROWS])
def test_matrix_rule_reproduces_measurement(row: dict[str, Any]) -> None:
    n = row["matrices"]
    addrs = [a if lane < 8 * n else None for lane, a in enumerate(row["row_address"])]
    kind = "store" if row["op"] == "stmatrix" else "load"
    cost = warp_cost(addrs, 16, kind, parse_arch("sm_90"), matrix=True)
    assert (cost.wavefronts, cost.ideal) == (row["wavefronts"], row["ideal_wavefronts"])


def test_matrix_rule_differs_from_lds128() -> None:
    # lanes in pairs share a row: an LDS.128 merges the quads (2 half-warp phases),
    # LDSM.x4 does not (4 phases, one per matrix): measured 4 ("pairs").
    row = next(
        r for r in ROWS if r["tag"] == "pairs" and r["op"] == "ldmatrix" and r["matrices"] == 4
    )
    assert row["wavefronts"] == 4
    addrs = list(row["row_address"])
    assert warp_cost(addrs, 16, "load", parse_arch("sm_90")).wavefronts == 2
    assert warp_cost(addrs, 16, "load", parse_arch("sm_90"), matrix=True).wavefronts == 4


def test_cp_async_data_shape() -> None:
    rows = [json.loads(x) for x in (DATA / "sm90_cp_async.jsonl").read_text().splitlines()]
    assert {r["op"] for r in rows} == {"cp.async.ca", "cp.async.cg"}
    # the shared side of LDGSTS.BYPASS (.cg) is not counted by ncu on sm_90
    assert all(r["wavefronts"] is None for r in rows if r["op"] == "cp.async.cg")
    # .ca: lanes writing the same word are NOT merged (32 lanes on one address: 32)
    same = [r for r in rows if r["op"] == "cp.async.ca" and r["tag"] == "sts:stride0"]
    assert same and all(r["wavefronts"] == 32 for r in same)
