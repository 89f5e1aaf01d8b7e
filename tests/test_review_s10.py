"""Review (session 10) of dependent class members, switch cases, goto labels, range-for
lists, launch shape sets and a kernel template's ``__launch_bounds__``: the
``fixtures/review_s10_*.cu`` fixtures hold the numbers both ways
(``tests/test_fixtures.py``); here each fails with its mend switched off, so each tests
that mend."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cudalint.frontend import execute, host, launch_sets
from cudalint.frontend.cursors import Env, Function
from cudalint.frontend.tree import Node
from cudalint.ir import IntType
from tests.test_fixtures import FIXTURES, FLAGS, compare, parse_fixture, run_json

MEMBERS = FIXTURES / "review_s10_dependent_members.cu"
CONTROL = FIXTURES / "review_s10_switch_range.cu"
LAUNCH = FIXTURES / "review_s10_launch_loops.cu"


def _problems(path: Path) -> list[str]:
    fixture = parse_fixture(path)
    code, output, _ = run_json([*FLAGS, *fixture.args, str(path)], path.name)
    return compare(fixture, output, code)


def _no_explicit_members(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(execute.Executor, "explicit_member", lambda self, cls, name, n: None)
    real = execute.Executor._project_names

    def names(self: execute.Executor) -> execute._ProjectNames:
        got = real(self)
        got.methods.clear()  # method_target's explicit members too
        return got

    mp.setattr(execute.Executor, "_project_names", names)


def _range_index_off(mp: pytest.MonkeyPatch) -> None:
    real = execute.Executor.range_over_constants

    def run(self: execute.Executor, n: Node) -> None:
        real(self, n)  # no iteration counter handed back: no cut at a break

    mp.setattr(execute.Executor, "range_over_constants", run)


def _narrow_families_off(mp: pytest.MonkeyPatch) -> None:
    real = launch_sets._narrow

    def narrow(v: launch_sets.Vals, t: IntType | None) -> launch_sets.Vals:
        if t is not None and v.values is None and not v.is_any:
            return v  # families kept whole, as before
        return real(v, t)

    mp.setattr(launch_sets, "_narrow", narrow)


def _template_cap_off(mp: pytest.MonkeyPatch) -> None:
    real = host.HostLaunches._cap

    def cap(self: host.HostLaunches, kernel: Function, env: Env | None = None) -> int:
        return real(self, kernel)  # the kernel's bound, as written, only

    mp.setattr(host.HostLaunches, "_cap", cap)


_OFF: dict[str, tuple[Path, Callable[[pytest.MonkeyPatch], None]]] = {
    "explicit member specializations": (MEMBERS, _no_explicit_members),
    "cv-qualified arguments": (
        MEMBERS,
        lambda mp: mp.setattr(execute.Executor, "_cv_of", lambda self, t, d=0: ""),
    ),
    "shadowed constexpr locals": (
        MEMBERS,
        lambda mp: mp.setattr(execute.Executor, "_local_constants", lambda self, t: {}),
    ),
    "case entry values": (
        CONTROL,
        lambda mp: mp.setattr(execute.Executor, "case_entry", lambda self, dead: None),
    ),
    "goto label values": (
        CONTROL,
        lambda mp: mp.setattr(execute.Executor, "label_entry", lambda self, n, dead: None),
    ),
    "range-for break": (CONTROL, _range_index_off),
    "launch in its doubling loop": (
        LAUNCH,
        lambda mp: mp.setattr(launch_sets, "_tested_at_use", lambda *a: False),
    ),
    "narrow block-size types": (LAUNCH, _narrow_families_off),
    "a template's __launch_bounds__": (LAUNCH, _template_cap_off),
}


@pytest.mark.parametrize("path", [MEMBERS, CONTROL, LAUNCH], ids=lambda p: p.name)
def test_fixture_holds(path: Path) -> None:
    assert _problems(path) == []


@pytest.mark.parametrize("mend", sorted(_OFF))
def test_fixture_fails_without_the_mend(monkeypatch: pytest.MonkeyPatch, mend: str) -> None:
    path, switch_off = _OFF[mend]
    switch_off(monkeypatch)
    assert _problems(path) != []
