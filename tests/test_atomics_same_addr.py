"""Same-address 32-bit shared atomics: cudalint's cost against every row measured on an H100.

tests/data/hw/sm90_atomics_same_addr.jsonl holds 72 rows (9 forms x 8 lane patterns of
bench/accuracy/atomics_same_addr.cu, written from the runner's results by
``gen_atomics_same_addr.py --rows``; the results are
bench/accuracy/results/sm90_atomics_same_addr.json). Two checks per row:

- ``test_analysis``: cudalint on the suite file, as a user runs it, gives the measured
  wavefronts and ideal on the row's line (the frontend's atomic form, the warp-uniform
  aggregation and the bank rule together);
- ``test_bank_rule``: ``warp_cost`` on the row's lane addresses, in the form cudalint
  gives the access, gives the measured cost (rows nvcc aggregates to one lane excepted).

Any modelled cost that disagrees with a measured row fails here. What the rows say
(docs/bank-model.md, "32-bit atomics"): integer ADD/MIN/MAX/EXCH serve one lane per pass
(k lanes of the busiest bank: k, ideal 1); ``atomicAdd(p, 1u)`` unused is combined
(distinct words per bank); integer add/min/max on an address that is uniform in the
source is aggregated (1/1), atomicExch is not (32/1); ATOMS.CAS costs 2 per lane, ideal 2
(Nsight Compute's per-instruction ideal; the kernel totals' "wavefronts - conflicts" is
k + 1 and is not an ideal); float atomicAdd's LDS + ATOMS.CAST.SPIN loop completes one
lane per bank per trip, 2 wavefronts a trip: 2k, ideal 2.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cudalint.api import check_file
from cudalint.model.arch import parse_arch
from cudalint.model.banks import warp_cost
from cudalint.model.proof import atomic_form
from cudalint.model.results import AccessResult
from cudalint.options import Options

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "hw" / "sm90_atomics_same_addr.jsonl"
SUITE = ROOT / "bench" / "accuracy" / "atomics_same_addr.cu"
RESULTS = ROOT / "bench" / "accuracy" / "results" / "sm90_atomics_same_addr.json"
SM90 = parse_arch("sm_90")

ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in DATA.read_text().splitlines() if line.strip()
]


def _line_of(kernel: str) -> int:
    marker = f"// measure: {kernel} atomic.4"
    lines = SUITE.read_text().splitlines()
    found = [i for i, text in enumerate(lines, 1) if marker in text]
    assert len(found) == 1, f"{kernel}: {len(found)} marker lines"
    return found[0]


@cache
def _results() -> dict[int, list[AccessResult]]:
    report = check_file(str(SUITE), Options(arch="sm_90"))
    assert report.ok, report.error
    by_line: dict[int, list[AccessResult]] = {}
    for r in report.results:
        if r.access.kind == "atomic":
            by_line.setdefault(r.access.span.line, []).append(r)
    return by_line


def _result(row: dict[str, Any]) -> AccessResult:
    got = _results().get(_line_of(row["id"]), [])
    assert len(got) == 1, f"{row['id']}: {len(got)} atomic records on its line"
    return got[0]


def test_rows_are_complete() -> None:
    """A truncated data file, or one that lost a form or a pattern, fails here."""
    assert len(ROWS) == 72
    assert len({r["id"] for r in ROWS}) == 72
    forms = {(r["op"], r["value_type"], r["operand"], r["result_used"]) for r in ROWS}
    assert len(forms) == 9
    for r in ROWS:
        assert len(r["element_index"]) == 32 and r["active_mask"] == 0xFFFFFFFF, r["id"]
        assert isinstance(r["wavefronts"], int) and isinstance(r["ideal_wavefronts"], int)
        assert r["trips"] >= 1, r["id"]


def test_rows_match_the_stored_results() -> None:
    """The rows are the stored runner results, not numbers typed by hand."""
    results = json.loads(RESULTS.read_text())
    by_id = {a["id"]: a for a in results["accesses"]}
    for r in ROWS:
        a = by_id[r["id"]]
        warps = a["launch"]["warps"]
        atom = a["kernel_totals"]["atom"]
        assert r["wavefronts"] * warps == atom["wavefronts"], r["id"]
        assert r["trips"] * warps == atom["instructions"], r["id"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_analysis(row: dict[str, Any]) -> None:
    r = _result(row)
    assert r.status == "proved", (row["id"], r.status, r.reason)
    assert (r.wavefronts, r.ideal_wavefronts) == (row["wavefronts"], row["ideal_wavefronts"]), (
        f"{row['id']}: cudalint {r.wavefronts}/{r.ideal_wavefronts}, measured "
        f"{row['wavefronts']}/{row['ideal_wavefronts']} ({row['sass']})"
    )


_AGGREGATED = ("atomicAdd", "atomicMin", "atomicMax")


@pytest.mark.parametrize(
    "row",
    [
        r
        for r in ROWS
        if not (r["uniform_address"] and r["op"] in _AGGREGATED and r["value_type"] != "float")
    ],
    ids=lambda r: r["id"],
)
def test_bank_rule(row: dict[str, Any]) -> None:
    form = atomic_form(_result(row).access)
    addresses: list[int | None] = [4 * e for e in row["element_index"]]
    cost = warp_cost(addresses, 4, "atomic", SM90, atomic_form=form)
    assert (cost.wavefronts, cost.ideal) == (row["wavefronts"], row["ideal_wavefronts"]), (
        f"{row['id']} ({form}): {cost.wavefronts}/{cost.ideal}, measured "
        f"{row['wavefronts']}/{row['ideal_wavefronts']}"
    )


def test_forms() -> None:
    """The SASS each row measured is the instruction form cudalint assumes."""
    expected = {
        "ATOMS.POPC.INC.32": "combined",
        "ATOMS.ADD": "per-lane",
        "ATOMS.MIN": "per-lane",
        "ATOMS.MAX": "per-lane",
        "ATOMS.EXCH": "per-lane",
        "ATOMS.CAS": "cas",
        "ATOMS.CAST.SPIN": "cas-loop",
    }
    for row in ROWS:
        atom = [s for s in row["sass"] if s.startswith("ATOMS")]
        assert len(atom) == 1, row["id"]
        assert atomic_form(_result(row).access) == expected[atom[0]], row["id"]


def test_stored_results_score_exact() -> None:
    """The runner's results for the suite file, scored as bench/accuracy/score.py does:
    every scored access exact (the float loop's rows are not scored there: their line
    holds an LDS beside the atomic)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(
        "bench_accuracy_score_sam", ROOT / "bench" / "accuracy" / "score.py"
    )
    assert spec and spec.loader
    score = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = score
    spec.loader.exec_module(score)
    _, rows, summ = score.score_file(RESULTS)
    assert not summ["cudalint_errors"], summ["cudalint_errors"]
    assert summ["total"] == 64 and summ["exact"] == 64, [
        (r.id, r.outcome, r.measured, r.predicted)
        for r in rows
        if r.outcome != "exact" and r.outcome != "not-measured"
    ]
