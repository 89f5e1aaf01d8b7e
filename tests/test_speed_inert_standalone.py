"""Issue 15, goal 2: a device function no kernel calls is not run on its own where it is
shared-inert (``walker.SKIP_INERT_STANDALONE``, ``inert.shared_inert``), as a call of it
is skipped (ggml's ``mmq-config-*.cuh`` tables), with the same IR as running it.

Each test compares the fast result with the plain one (switched off by monkeypatching)
and checks that the fast path is taken.
"""

from __future__ import annotations

import pathlib
from collections import Counter
from typing import Any

import pytest

from cudalint.frontend import execute, parse_file, walker
from cudalint.ir import TranslationUnit
from cudalint.options import Options

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "fixtures"


def _parse(path: pathlib.Path, src: str | None = None) -> TranslationUnit:
    if src is not None:
        path.write_text(src)
    return parse_file(str(path), Options())


# ``table`` and ``twice`` are inert (scalars, conditions, returns, inert calls); ``touch``
# is not (its own shared array), ``wrap`` takes a pointer: both run on their own. No
# kernel calls them.
STANDALONE = """
__device__ int table(int t, int j) {
    if (t == 1 && j == 16) return 3;
    if (t == 2 && j == 32) return 5;
    return 7;
}
__device__ int twice(int t) { return 2 * table(t, 16); }
__device__ void touch(float *p) {
    __shared__ float s[64];
    s[threadIdx.x * 2] = p[0];
}
__device__ void wrap(float *p) { p[threadIdx.x] = 1.0f; }
__global__ void k(float *p) {
    __shared__ float s[1024];
    s[threadIdx.x * 3] = p[0];
}
"""

STANDALONE_FIXTURES = (
    "frontend_device_helper.cu",
    "frontend_library_helpers.cu",
    "helpers_returning_values.cu",
    "frontend_ptx_cvta_helper.cu",
)


def test_inert_device_functions_are_not_run_on_their_own(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: Counter[str] = Counter()
    run = execute.Executor.run

    def counted(self: Any) -> Any:
        ran[self.fn.name] += 1
        return run(self)

    monkeypatch.setattr(execute.Executor, "run", counted)
    fast = _parse(tmp_path / "t.cu", STANDALONE)
    assert "table" not in ran and "twice" not in ran
    assert ran["touch"] == 1 and ran["wrap"] == 1 and ran["k"] >= 1
    ran.clear()
    monkeypatch.setattr(walker, "SKIP_INERT_STANDALONE", False)
    plain = _parse(tmp_path / "t.cu")
    assert ran["table"] == 1 and ran["twice"] == 1
    assert fast == plain
    assert any(a.kernel == "touch" for a in fast.accesses)


@pytest.mark.parametrize("name", STANDALONE_FIXTURES)
def test_fixtures_give_the_same_ir_without_inert_runs(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _parse(FIXTURES / name)
    monkeypatch.setattr(walker, "SKIP_INERT_STANDALONE", False)
    assert fast == _parse(FIXTURES / name)
