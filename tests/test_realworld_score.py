"""Per-line accuracy on real repositories, from committed H100 measurements.

bench/accuracy/realworld/results/sm90_h100.jsonl holds what the H100 measured per
CUDA line of 48 programs from six public repositories; results/ir/ the IR
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
