"""nvcc's merging of shared accesses, checked against real SASS (issue 4).

Compiles the vectorization fixtures with ``nvcc -O3 -arch=sm_90`` and compares, per
kernel, the shared instructions in the SASS (``cuobjdump -sass``: LDS/STS and their
widths) with the instructions the model predicts: one per merged group at the merged
width, one per other access. Skipped where nvcc or cuobjdump is missing (cudalint
itself never needs them; PyPI's nvidia-cuda-cuobjdump provides cuobjdump).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from cudalint.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = [ROOT / "fixtures" / f"vectorize_{n}.cu" for n in ("merged", "not_merged")]
WIDTH = {"": 4, ".64": 8, ".128": 16, ".U8": 1, ".S8": 1, ".U16": 2, ".S16": 2}

pytestmark = pytest.mark.skipif(
    shutil.which("nvcc") is None or shutil.which("cuobjdump") is None,
    reason="needs nvcc and cuobjdump",
)


def sass_instructions(cu: Path, tmp: Path) -> dict[str, Counter[tuple[str, int]]]:
    cubin = tmp / (cu.stem + ".cubin")
    subprocess.run(
        ["nvcc", "-O3", "-arch=sm_90", "-cubin", "-o", str(cubin), str(cu)],
        check=True,
        capture_output=True,
    )
    sass = subprocess.run(
        ["cuobjdump", "-sass", str(cubin)], check=True, capture_output=True, text=True
    ).stdout
    out: dict[str, Counter[tuple[str, int]]] = {}
    current = None
    for line in sass.splitlines():
        m = re.search(r"Function : _Z\d+(\w+?)P", line)
        if m:
            current = m.group(1)
            out[current] = Counter()
            continue
        m = re.search(r"\b(LDS|STS)((?:\.U8|\.S8|\.U16|\.S16|\.64|\.128)?)\b", line)
        if m and current is not None:
            kind = "load" if m.group(1) == "LDS" else "store"
            out[current][(kind, WIDTH[m.group(2)])] += 1
    return out


def predicted(cu: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Counter[tuple[str, int]]]:
    main(["--format", "json", "--show-all", "--exit-zero", str(cu)])
    records = json.loads(capsys.readouterr().out)["accesses"]
    out: dict[str, dict[tuple[str, int], float]] = {}
    for r in records:
        counts = out.setdefault(r["kernel"], {})
        if r["merged_width"]:
            # one instruction per group: each member contributes its share
            key = (r["kind"], r["merged_width"])
            counts[key] = counts.get(key, 0.0) + r["width"] / r["merged_width"]
        else:
            key = (r["kind"], r["width"])
            counts[key] = counts.get(key, 0.0) + 1
    return {k: Counter({key: round(v) for key, v in c.items()}) for k, c in out.items()}


@pytest.mark.parametrize("cu", FIXTURES, ids=lambda p: p.name)
def test_model_merges_exactly_what_nvcc_merges(
    cu: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sass = sass_instructions(cu, tmp_path)
    model = predicted(cu, capsys)
    assert model, "no accesses analyzed"
    for kernel, counts in model.items():
        assert sass.get(kernel) == counts, (kernel, sass.get(kernel), counts)
