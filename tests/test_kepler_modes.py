"""Kepler with both bank modes: a finding is reported once, with both modes' costs.

Runs the real pipeline on ``fixtures/kepler_sm35.cu`` (``--arch sm_35``, both bank modes:
the model returns a result per mode for every access). The fixture's header derives
each access's cost in both modes by hand; here the six conflicting loads (lines 45 to
52) must give six diagnostics in every format, not one per mode, and JSON, SARIF and
the text agree on both modes' numbers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_output_formats import validate_json, validate_sarif

from cudalint.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = "fixtures/kepler_sm35.cu"

#: line -> (4-byte mode wavefronts, 8-byte mode wavefronts), ideal 1 (fixture header).
COSTS = {45: (2, 1), 46: (2, 2), 47: (32, 32), 50: (1, 2), 51: (2, 2), 52: (16, 16)}


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["--isolated", "--arch", "sm_35", *args, FIXTURE])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return out


def test_one_diagnostic_per_access_with_both_modes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    document = json.loads(_run(capsys, "--format", "json"))
    validate_json(document)
    diagnostics = document["diagnostics"]
    assert [d["line"] for d in diagnostics] == sorted(COSTS)
    for d in diagnostics:
        four, eight = COSTS[d["line"]]
        modes: list[dict[str, Any]] = d["bank_modes"]
        assert [(m["bank_mode"], m["wavefronts"], m["ideal_wavefronts"]) for m in modes] == [
            (4, four, 1),
            (8, eight, 1),
        ]
        # the top-level access fields are the first mode that conflicts
        primary = 4 if four > 1 else 8
        assert d["bank_mode"] == primary
        assert d["wavefronts"] == (four if primary == 4 else eight)
        if four == eight:
            assert d["message"].endswith(f"({four} wavefronts, ideal 1) in both bank modes")
        else:
            other, cost = (8, eight) if primary == 4 else (4, four)
            assert (
                f"in {primary}-byte bank mode; {other}-byte bank mode: no conflict "
                f"({cost} wavefront, ideal 1)" in d["message"]
            )
    # every mode's record of the reported accesses is listed
    assert sorted((a["line"], a["bank_mode"]) for a in document["accesses"]) == sorted(
        (line, mode) for line in COSTS for mode in (4, 8)
    )
    assert document["summary"]["conflicts"] == len(COSTS)

    sarif = json.loads(_run(capsys, "--format", "sarif"))
    validate_sarif(sarif)
    results = sarif["runs"][0]["results"]
    assert [
        r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results
    ] == sorted(COSTS)
    assert [r["properties"]["bank_modes"] for r in results] == [
        d["bank_modes"] for d in diagnostics
    ]
    # distinct findings, distinct fingerprints (no second occurrence of one access)
    assert len({r["partialFingerprints"]["cudalintFingerprint/v1"] for r in results}) == len(COSTS)

    concise = _run(capsys, "--format", "concise").splitlines()
    assert [line for line in concise if line.startswith(FIXTURE)] == [
        f"{FIXTURE}:{d['line']}:{d['column']}: CL001 {d['message']}" for d in diagnostics
    ]
    text = _run(capsys)
    assert text.count("[CL001]") == len(COSTS)
    assert "; 6 conflicts" in text


def test_one_bank_mode_reports_that_mode_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    for mode, index in (("4", 0), ("8", 1)):
        document = json.loads(_run(capsys, "--format", "json", "--bank-mode", mode))
        validate_json(document)
        conflicting = sorted(line for line, cost in COSTS.items() if cost[index] > 1)
        assert [d["line"] for d in document["diagnostics"]] == conflicting
        for d in document["diagnostics"]:
            assert d["bank_modes"] is None and "both bank modes" not in d["message"]
            assert d["message"].endswith(" in 8-byte bank mode") == (mode == "8")
