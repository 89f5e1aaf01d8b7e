"""Issue 15, goal 2: a walk's kernel and device-function executors share the host
evaluation's per-body stores (``walker.SHARE_BODY_FACTS``: ``Executor.body_facts``,
``lane_event_lists``), so that ``lambda_written`` walks a helper's body once a file, not
once per run that inlines it (595 whole-body walks in a ggml ``mmq`` instance), with the
same IR as each executor's own store.

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

# A lambda writing a local of a helper that two kernels inline: ``lambda_written``'s
# answer for the helper's body, shared by the runs.
LAMBDAS = """
__device__ void fill(float *s) {
    int stride = 1;
    auto widen = [&]() { stride = 33; };
    if (threadIdx.x > 64) widen();
    s[threadIdx.x * stride] = 0.0f;
}
__global__ void a() { __shared__ float s[8192]; fill(s); }
__global__ void b() { __shared__ float t[8192]; fill(t); t[threadIdx.x] = 1.0f; }
"""

BODY_FIXTURES = (
    "frontend_lambda_bodies.cu",
    "frontend_lambda_calls.cu",
    "review_lane_soundness.cu",
    "frontend_ptx_cvta_helper.cu",
    "loop_lanes_apart.cu",
)


def _parse(path: pathlib.Path, src: str | None = None) -> TranslationUnit:
    if src is not None:
        path.write_text(src)
    return parse_file(str(path), Options())


def test_shared_body_facts_give_the_same_ir(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    walks: Counter[str] = Counter()
    subtree = execute.Executor._subtree

    def counted(n: Any) -> Any:
        walks["subtree"] += 1
        return subtree(n)

    monkeypatch.setattr(execute.Executor, "_subtree", staticmethod(counted))
    fast = _parse(tmp_path / "t.cu", LAMBDAS)
    fast_walks = walks["subtree"]
    walks.clear()
    monkeypatch.setattr(walker, "SHARE_BODY_FACTS", False)
    plain = _parse(tmp_path / "t.cu")
    assert fast == plain
    assert fast_walks < walks["subtree"]
    # the lambda's write reaches both kernels' access through ``fill``: not stride 1
    fills = [a for a in fast.accesses if a.kernel in ("a", "b") and "stride" in a.text]
    assert len(fills) == 2 and all("lambda" in repr(a.offset) for a in fills)


@pytest.mark.parametrize("name", BODY_FIXTURES)
def test_fixtures_give_the_same_ir_with_shared_body_facts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _parse(FIXTURES / name)
    monkeypatch.setattr(walker, "SHARE_BODY_FACTS", False)
    assert fast == _parse(FIXTURES / name)
