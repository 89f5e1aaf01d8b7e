"""The bank model against every pattern measured on an H100 (sm_90).

The data are copies of /work/shared/hw/*.jsonl in tests/data/hw/ (see docs/bank-model.md
for how they were measured). Each row is one case: the simulator must give the
measured ``wavefronts`` and ``ideal_wavefronts``. One row is a known exception for the
ideal only; it is a strict expected failure, so fixing the rule for it (or losing the
row) makes the suite fail until the marker is removed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cudalint.ir import AccessKind
from cudalint.model.arch import parse_arch
from cudalint.model.banks import warp_cost

DATA = Path(__file__).parent / "data" / "hw"
FILES = {"sm90_loads.jsonl": 575, "sm90_stores.jsonl": 575, "sm90_atomics.jsonl": 51}
TOTAL_ROWS = 1201
SM90 = parse_arch("sm_90")

KINDS: dict[str, AccessKind] = {"load": "load", "store": "store", "atomicAdd": "atomic"}

#: (file, tag, op, width, active_mask) of the one row whose ideal the rule does not give.
KNOWN_IDEAL_EXCEPTION = ("sm90_loads.jsonl", "rand_mask", "load", 8, 1664493957)
KNOWN_IDEAL_REASON = (
    "known exception (hw/README.md): masked 8-byte load, active_mask 1664493957; every quad "
    "touches <= 2 distinct 8-byte addresses, so the rule serves the warp in one phase "
    "(ideal 1), but the H100 reports ideal 2; both give 3 wavefronts"
)


class IdealMismatch(AssertionError):
    """The simulator's ideal_wavefronts differs from the measured one."""


@dataclass(frozen=True)
class Row:
    file: str
    line: int
    raw: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}:{self.raw['tag']}"

    @property
    def key(self) -> tuple[str, str, str, int, int]:
        r = self.raw
        return (self.file, r["tag"], r["op"], r["width"], r["active_mask"])

    def addresses(self) -> list[int | None]:
        width: int = self.raw["width"]
        mask: int = self.raw["active_mask"]
        index: list[int] = self.raw["element_index"]
        return [e * width if mask >> lane & 1 else None for lane, e in enumerate(index)]


def _load_rows() -> list[Row]:
    rows = []
    for name in FILES:
        with open(DATA / name, encoding="utf-8") as f:
            for line_no, line in enumerate(f, 1):
                if line.strip():
                    rows.append(Row(name, line_no, json.loads(line)))
    return rows


ROWS = _load_rows()


def _param(row: Row) -> Any:
    marks = []
    if row.key == KNOWN_IDEAL_EXCEPTION:
        # raises=IdealMismatch: a wrong wavefronts count on this row is a real failure.
        marks.append(
            pytest.mark.xfail(strict=True, raises=IdealMismatch, reason=KNOWN_IDEAL_REASON)
        )
    return pytest.param(row, id=row.id, marks=marks)


def test_row_count() -> None:
    """A truncated or partly lost data file fails here, not silently."""
    counts = {name: sum(1 for r in ROWS if r.file == name) for name in FILES}
    assert counts == FILES
    assert len(ROWS) == TOTAL_ROWS


def test_rows_are_well_formed() -> None:
    for row in ROWS:
        r = row.raw
        assert r["op"] in KINDS, row.id
        assert r["width"] in (1, 2, 4, 8, 16), row.id
        assert len(r["element_index"]) == 32, row.id
        assert 0 <= r["active_mask"] < 2**32, row.id
        assert isinstance(r["wavefronts"], int), row.id
        assert isinstance(r["ideal_wavefronts"], int), row.id


def test_known_exception_is_exactly_one_row() -> None:
    assert sum(1 for r in ROWS if r.key == KNOWN_IDEAL_EXCEPTION) == 1


@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_measured(row: Row) -> None:
    r = row.raw
    cost = warp_cost(row.addresses(), r["width"], KINDS[r["op"]], SM90)
    assert cost.wavefronts == r["wavefronts"], (
        f"{row.id}: wavefronts {cost.wavefronts}, measured {r['wavefronts']}"
    )
    if cost.ideal != r["ideal_wavefronts"]:
        raise IdealMismatch(
            f"{row.id}: ideal_wavefronts {cost.ideal}, measured {r['ideal_wavefronts']}"
        )
