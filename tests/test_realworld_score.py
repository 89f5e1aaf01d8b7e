"""Per-line accuracy on real repositories, from committed H100 measurements.

bench/accuracy/realworld/results/sm90_h100.jsonl holds what the H100 measured per
CUDA line of 69 programs from eight public repositories; results/ir/ the IR
cudalint's frontend extracts from those repositories (snapshot.py: derived facts,
not their code, which CI cannot fetch). This test replays the model and rules on
that IR and scores every measured line (score.py): a line found, or proved clean,
in results/expected.json must not get worse, and no line may be a false alarm or
a missed conflict that the expectation does not already record.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent.parent / "bench" / "accuracy" / "realworld"
sys.path.insert(0, str(HERE))
import score  # noqa: E402


@pytest.fixture(scope="module")
def scored() -> dict[str, Any]:
    man = json.loads((HERE / "programs.json").read_text())
    measured = score.measured_lines(score.load_rows(HERE / "results" / "sm90_h100.jsonl"))
    accesses = {
        repo: score.replay_ir(HERE / "results" / "ir", repo)["accesses"] for repo in man["repos"]
    }
    return score.score(measured, accesses)


@pytest.mark.slow
def test_no_line_scores_worse_than_committed(scored: dict[str, Any]) -> None:
    expected = json.loads((HERE / "results" / "expected.json").read_text())
    bad = score.regressions(scored, expected)
    assert not bad, "\n".join(bad)


@pytest.mark.slow
def test_suite_size_and_headline(scored: dict[str, Any]) -> None:
    s = scored["summary"]
    kernels = {(ln["repo"], ln["kernel"]) for ln in scored["lines"]}
    repos = {ln["repo"] for ln in scored["lines"]}
    assert len(kernels) >= 40 and len(repos) >= 5
    assert s["missed"] == 0, "a conflicted line that cudalint calls clean"
    expected = json.loads((HERE / "results" / "expected.json").read_text())["summary"]
    assert s["false_alarms"] <= expected["false_alarms"]
    assert s["found"] >= expected["found"]


def test_regressions_are_detected() -> None:
    """The comparison itself: a found line that turns unknown, a lost exact cost."""
    line = {
        "repo": "r",
        "file": "f.cu",
        "line": 3,
        "kernel": "k",
        "measured": "conflicted",
        "ratio": 2.0,
        "measured_exact": (2, 1),
        "predicted": "unknown",
        "predicted_exact": None,
        "outcome": "unknown",
        "exact_ok": None,
    }
    exp = {"lines": {"r|f.cu|3|k": {"outcome": "found", "exact_ok": True}}}
    bad = score.regressions({"lines": [line]}, exp)
    assert len(bad) == 1 and "found -> unknown" in bad[0]
    line.update(outcome="found", exact_ok=False)
    bad = score.regressions({"lines": [line]}, exp)
    assert len(bad) == 1 and "exact" in bad[0]
    line.update(exact_ok=True)
    assert score.regressions({"lines": [line]}, exp) == []


def test_kernel_names_are_normalised() -> None:
    base = score.kernel_base
    assert base("void sgemm2DBlocktiling<128, 128, 8, 8, 8>(int, float *)") == "sgemm2DBlocktiling"
    assert base("softmax_forward_kernel4(float *, const float *, int)") == "softmax_forward_kernel4"
    assert score.kernel_base("void ns::reduce6<int, (unsigned int)256, true>(int *)") == "reduce6"


def test_records_of_the_measured_instantiation() -> None:
    targs = score.template_args("void reduce6<int, (unsigned int)256, true>(int *, int *)")
    assert targs == ["int", "256", "true"]
    assert score.instantiation_matches("T=int, blockSize=256, nIsPow2=true", targs)
    assert not score.instantiation_matches("T=double, blockSize=256, nIsPow2=true", targs)
    assert not score.instantiation_matches("T=int", targs)
    assert score.template_args("softmax_forward_kernel4(float *, int)") is None


def _measured(ratio: float, ops: list[str]) -> dict[str, Any]:
    return {
        "ratio": ratio,
        "wavefronts": ratio,
        "ideal": 1,
        "exact": None,
        "targs": None,
        "block": [32, 1, 1],
        "kernel": "k(float *)",
        "program": "p",
        "args": [],
        "ops": ops,
    }


def _record(line: int, end_line: int, kind: str, wavefronts: int, **extra: Any) -> dict[str, Any]:
    return {
        "file": "f.cu",
        "line": line,
        "end_line": end_line,
        "kernel": "k",
        "kind": kind,
        "wavefronts": wavefronts,
        "ideal_wavefronts": 1,
        "status": "proved",
        **extra,
    }


def test_store_charged_to_the_last_line_of_its_statement() -> None:
    """`reinterpret_cast<float4 *>(&Bs[...])[0] = ...;` over four lines: the subscript on
    lines 33-34, the STS.128 on line 36 (SGEMM_CUDA); counted from where the access ends."""
    store = _record(33, 34, "store", 1)
    assert score.statement_records([store], 36, ["STS.128"]) == [store]
    assert score.statement_records([store], 37, ["STS.128"]) == []
    assert score.statement_records([store], 36, ["LDS.128"]) == []  # not a load
    one_line = _record(33, 33, "store", 1)
    assert score.statement_records([one_line], 36, ["STS"]) == []


def test_call_line_clean_is_not_a_false_alarm() -> None:
    """A helper's records through a call (`called_at`) describe all of its instructions;
    ncu leaves only some on the call's line: clean there does not refute a conflict,
    conflicted there is found."""
    call = [{"file": "f.cu", "line": 9, "column": 5}]
    helper = _record(3, 3, "load", 2, called_at=call)
    measured = {
        ("r", "f.cu", 9, "k"): _measured(1.0, ["LDS"]),
        ("r", "f.cu", 3, "k"): _measured(2.0, ["LDS"]),
    }
    res = {(ln["line"]): ln["outcome"] for ln in score.score(measured, {"r": [helper]})["lines"]}
    assert res == {9: "not-scored", 3: "found"}
    measured[("r", "f.cu", 9, "k")] = _measured(2.0, ["LDS"])
    res = {(ln["line"]): ln["outcome"] for ln in score.score(measured, {"r": [helper]})["lines"]}
    assert res == {9: "found", 3: "found"}
    clean = _record(3, 3, "load", 1, called_at=call)
    measured[("r", "f.cu", 9, "k")] = _measured(1.0, ["LDS"])
    res = {(ln["line"]): ln["outcome"] for ln in score.score(measured, {"r": [clean]})["lines"]}
    assert res == {9: "correct", 3: "missed"}


def test_each_call_of_a_helper_is_scored_on_its_own() -> None:
    """ncu sums every inlined call of a helper on the helper's line; measure.py splits
    the rows by the calls they were inlined through (`site`) and each is scored against
    cudalint's records made through that call: a clean call and a conflicted one of one
    store helper (YHs's `sts128`) are both right, where the line's sum was a false alarm."""
    rows = [
        {
            "repo": "r",
            "file": "f.cu",
            "line": 3,
            "kernel": "k(float *)",
            "program": "p",
            "args": [],
            "launch": 0,
            "block": [256, 1, 1],
            "op": "STS.128",
            "site": site,
            "instructions": n,
            "wavefronts": n * wf,
            "ideal": n * 4,
        }
        for site, n, wf in (("f.cu:20", 512, 4), ("f.cu:30 < f.cu:40", 16, 8))
    ]
    measured = score.measured_lines(rows)
    assert sorted(k[4] for k in measured) == ["f.cu:20", "f.cu:30 < f.cu:40"]
    clean = _record(3, 3, "store", 4, called_at=[{"file": "f.cu", "line": 20, "column": 1}])
    clean["ideal_wavefronts"] = 4
    two_way = _record(
        3,
        3,
        "store",
        8,
        called_at=[
            {"file": "f.cu", "line": 30, "column": 1},
            {"file": "f.cu", "line": 40, "column": 1},
        ],
    )
    two_way["ideal_wavefronts"] = 4
    res = score.score(measured, {"r": [clean, two_way]})["lines"]
    assert {ln["site"]: ln["outcome"] for ln in res} == {
        "f.cu:20": "correct",
        "f.cu:30 < f.cu:40": "found",
    }
    assert all(ln["exact_ok"] for ln in res)
    # no record through a measured call: missing, not the other call's conflict
    res = score.score(measured, {"r": [two_way]})["lines"]
    assert {ln["site"]: ln["outcome"] for ln in res} == {
        "f.cu:20": "missing",
        "f.cu:30 < f.cu:40": "found",
    }
    # a helper analysed as its own unit (no call) describes every call
    own = _record(3, 3, "store", 4)
    own["ideal_wavefronts"] = 4
    res = score.score(measured, {"r": [own]})["lines"]
    assert {ln["site"]: ln["outcome"] for ln in res} == {
        "f.cu:20": "correct",
        "f.cu:30 < f.cu:40": "missed",
    }
    keys = {score.line_key(ln) for ln in res}
    assert keys == {"r|f.cu|3|k|f.cu:20", "r|f.cu|3|k|f.cu:30 < f.cu:40"}
