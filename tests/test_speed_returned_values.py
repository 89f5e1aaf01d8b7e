"""Issue 15, goal 2: each run of a kernel or device function keeps the value of a helper
called with constant arguments (``walker.KEEP_RETURNED``: ``Executor._returned_kept``,
keyed by ``Executor._returned_key``; ``get_config(DKQ, DV, ncols).nbatch_fa`` dozens of
times in a ggml ``fattn-mma`` instance), with the same IR as evaluating it each time.

Each test compares the fast result with the plain one (switched off by monkeypatching)
and checks that the fast path is taken, and that a key missing what the value depends on
gives another IR (so that a stale value cannot pass).
"""

from __future__ import annotations

import pathlib
from types import SimpleNamespace
from typing import Any

import clang.cindex as ci
import pytest
from factories import count_calls

from cudalint.frontend import execute, parse_file, tree, walker
from cudalint.frontend.cursors import Env
from cudalint.ir import INT, Const, TranslationUnit
from cudalint.options import Options

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "fixtures"

# ``pick(N)`` at one call site under three template arguments, two of them inlined twice
# (one run evaluates the call again with the same constant); ``pick(n)`` with ``n`` a
# run-time value is not kept. The strides 3, 5 and 7 give three different costs.
HELPERS = """
__device__ int pick(int n) {
    if (n == 1) return 3;
    if (n == 2) return 5;
    return 7;
}
template <int N>
__device__ void put(float *s) {
#pragma unroll
    for (int i = 0; i < 4; i++) {
        s[threadIdx.x * pick(N) + i] = 0.0f;
    }
}
__global__ void k(int n) {
    __shared__ float s[4096];
    put<1>(s);
    put<2>(s);
    put<1>(s);
    put<4>(s);
    put<2>(s);
    s[threadIdx.x * pick(n)] = 1.0f;
}
"""

MEMO_FIXTURES = (
    "helpers_returning_values.cu",
    "frontend_helper_switch.cu",
    "frontend_template_swizzle_helpers.cu",
    "frontend_dependent_class_members.cu",
    "review_s10_values.cu",
    "frontend_sizeof_deduced_args.cu",
    "frontend_library_helpers.cu",
    "template_type_sizes_traits.cu",
)


def _parse(path: pathlib.Path, src: str | None = None) -> TranslationUnit:
    if src is not None:
        path.write_text(src)
    return parse_file(str(path), Options())


def _offsets(unit: TranslationUnit) -> list[str]:
    return sorted(repr(a.offset) for a in unit.accesses)


def test_helper_values_are_kept_per_constant_arguments(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = count_calls(monkeypatch, execute.Executor, "_returned")
    fast = _parse(tmp_path / "t.cu", HELPERS)
    fast_runs = runs["_returned"]
    runs.clear()
    monkeypatch.setattr(walker, "KEEP_RETURNED", False)
    plain = _parse(tmp_path / "t.cu")
    assert fast == plain
    assert fast_runs < runs["_returned"]  # the kept values were used
    # each of the three strides is there: the key tells the arguments apart
    text = " ".join(_offsets(fast))
    for stride in (3, 5, 7):
        assert f"value={stride}," in text


def test_a_key_without_the_arguments_gives_another_ir(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test above can fail: a key that leaves out the parameters' values hands the
    first instantiation's stride to the others."""
    good = _parse(tmp_path / "t.cu", HELPERS)
    key = execute.Executor._returned_key

    def stale(self: Any, c: Any, target: Any, env: Any, bound: Any, ptr_args: Any) -> Any:
        got = key(self, c, target, env, bound, ptr_args)
        return None if got is None else (got[0], got[1])

    monkeypatch.setattr(execute.Executor, "_returned_key", stale)
    assert _offsets(_parse(tmp_path / "t.cu")) != _offsets(good)


@pytest.mark.parametrize("name", MEMO_FIXTURES)
def test_fixtures_give_the_same_ir_with_kept_values(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _parse(FIXTURES / name)
    monkeypatch.setattr(walker, "KEEP_RETURNED", False)
    assert fast == _parse(FIXTURES / name)


def test_a_value_that_read_the_frames_is_kept_by_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that asked ``declaring_env`` (the outer frames' template arguments) is kept
    under a key with the frames: another frame asks again."""
    ex = execute.Executor(SimpleNamespace(notes=[]), None, Env())
    ex.returned_values = {}
    node = tree.Node(ci.conf.lib.clang_getNullCursor(), 0)
    values = iter((Const(1, INT), Const(2, INT)))

    def returned(self: Any, *args: Any) -> Any:
        self.frames_read += 1
        return next(values)

    monkeypatch.setattr(execute.Executor, "_returned", returned)
    monkeypatch.setattr(execute.Executor, "_frames_key", lambda self: (len(self.frame_envs),))
    key = ("call",)
    first = ex._returned_kept(key, node, None, None, {}, None)  # type: ignore[arg-type]
    assert ex._returned_kept(key, node, None, None, {}, None) == first  # type: ignore[arg-type]
    ex.frame_envs.append((None, Env()))  # type: ignore[arg-type]
    assert ex._returned_kept(key, node, None, None, {}, None) != first  # type: ignore[arg-type]
