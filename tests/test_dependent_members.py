"""Members of dependent class types per instantiation (issue 13, item 4).

The fixtures (``fixtures/frontend_dependent_class_members*.cu``,
``fixtures/frontend_helper_switch.cu``) check the numbers both ways; here: each fixture
fails with its feature switched off (so it tests that feature), the scope splitting of
qualified names, and inputs that must give unknown records, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cudalint.frontend import execute
from tests.test_fixtures import FIXTURES, FLAGS, compare, parse_fixture, run_json

MEMBERS = FIXTURES / "frontend_dependent_class_members.cu"
UNKNOWN = FIXTURES / "frontend_dependent_class_members_unknown.cu"
SWITCH = FIXTURES / "frontend_helper_switch.cu"


def _problems(path: Path) -> list[str]:
    fixture = parse_fixture(path)
    code, output, _ = run_json([*FLAGS, *fixture.args, str(path)], path.name)
    return compare(fixture, output, code)


def _members_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(execute.Executor, "static_member_call", lambda self, c, n: None)
    monkeypatch.setattr(execute.Executor, "dependent_member", lambda self, c, t: None)
    monkeypatch.setattr(execute.Executor, "own_member", lambda self, ref: None)
    monkeypatch.setattr(execute.Executor, "class_arguments", lambda self, c, t, env: env)


@pytest.mark.parametrize("path", [MEMBERS, UNKNOWN, SWITCH], ids=lambda p: p.name)
def test_fixture_holds(path: Path) -> None:
    assert _problems(path) == []


def test_members_fixture_needs_member_resolution(monkeypatch: pytest.MonkeyPatch) -> None:
    _members_off(monkeypatch)
    problems = _problems(MEMBERS)
    # every resolved line fails: the stores through TA::ne, TA::M, T::get_i, F::ld, P::ld
    for line in (
        "s[threadIdx.x * TA::ne]",
        "s[threadIdx.x * TA::M]",
        "T::get_i(0)",
        "s[threadIdx.x * F::ld]",
        "s[threadIdx.x * P::ld]",
        "s[threadIdx.x * X::ne]",
    ):
        number = next(
            i
            for i, text in enumerate(MEMBERS.read_text().splitlines(), 1)
            if line in text and not text.lstrip().startswith("//")
        )
        assert any(f":{number}: expected access" in p for p in problems), line


def test_unknown_fixture_needs_the_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switched off, the same records are unknown, but for reasons that name clang's
    view (``unresolved name``), not why the member is not known."""
    _members_off(monkeypatch)
    problems = _problems(UNKNOWN)
    assert any("unresolved name 'K::w'" in p for p in problems)
    assert any("unresolved name 'step<T>::n'" in p for p in problems)


def test_switch_fixture_needs_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(execute.Executor, "_returned_switch", lambda self, st: False)
    problems = _problems(SWITCH)
    assert any("call to 'rows_for'" in p for p in problems)


def test_most_specialized_needs_partial_ordering(monkeypatch: pytest.MonkeyPatch) -> None:
    """pad<32, 32, 1> matches two partial specializations: with no ordering it stays
    unknown (never the first one found)."""
    monkeypatch.setattr(execute.Executor, "_deduces", lambda self, g, s: False)
    problems = _problems(MEMBERS)
    assert any("partial ordering of the specializations of 'pad'" in p for p in problems)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("T::I", ("T", "I")),
        ("ns::tile<16, 8, T>", ("ns", "tile<16, 8, T>")),
        ("typename sizes<D, n>::TB", ("typename sizes<D, n>", "TB")),
        ("tile<I_, J_, T, ns::ROW>::ne", ("tile<I_, J_, T, ns::ROW>", "ne")),
        ("::tile<1>", ("", "tile<1>")),
        ("tile<1>", None),
        ("f(a::b)", None),
    ],
)
def test_split_scope(text: str, want: tuple[str, str] | None) -> None:
    assert execute._split_scope(text) == want


def test_broken_and_recursive_members_stay_unknown(tmp_path: Path) -> None:
    src = tmp_path / "rec.cu"
    src.write_text(
        "template <int N> struct rec { static constexpr int v = rec<N + 1>::v; };\n"
        "template <int N> struct self { static constexpr int v = self<N>::v + 1; };\n"
        "template <int M_, int N_> struct fr { static constexpr int M = M_; };\n"
        "template <int N>\n"
        "__global__ void k(float *out) {\n"
        "    __shared__ float s[32 * 32];\n"
        "    s[threadIdx.x * rec<N>::v] = 1.0f;\n"
        "    s[threadIdx.x * self<N>::v] = 1.0f;\n"
        "    s[threadIdx.x * fr<16>::M] = 1.0f;\n"
        "    s[threadIdx.x * nothere<N>::M] = 1.0f;\n"
        "    out[0] = s[0];\n"
        "}\n"
        "template __global__ void k<1>(float *);\n"
    )
    _, output, err = run_json(["--format", "json", "--show-all", str(src)], "rec.cu")
    assert "Traceback" not in err
    by_line = {a["line"]: a for a in output["accesses"]}
    assert by_line[7]["status"] == "unknown"
    assert "'rec<N>::v' (rec<1>::v)" in by_line[7]["reason"]
    assert by_line[8]["status"] == "unknown"
    assert by_line[11]["status"] == "proved"
