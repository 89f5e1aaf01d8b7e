"""Issue 15, goal 2: the host-flow speed-ups of ggml's flash-attention files give the same
IR as the plain computations they replace.

- ``HostLaunches.contexts`` stops at ``MAX_CONTEXTS`` kept contexts instead of working
  out (flows, callee contexts) the ones the cap drops (``host.SKIP_PAST_CAP``);
- ``Executor.lane_events``, ``body_asms`` and ``body_casts_const`` keep what
  ``lane_source``, ``asm_writers`` and ``cast_free`` scan of a body, shared by a file's
  host executors, instead of walking the body's whole subtree per executor;
- ``Executor._subtree`` is iterative (the same pre-order);
- ``HostLaunches._write_nodes`` keeps the writing nodes of a function's body for
  ``_HostExecutor._member_written`` (``dim3 b; b.x = 64;``) instead of walking it again.

Each test compares the fast result with the plain one (switched back by monkeypatching)
and checks that the fast path is taken, so that it fails if the speed-up is switched off.
"""

from __future__ import annotations

import pathlib
from collections import Counter
from typing import Any

import pytest

from cudalint.frontend import execute, host, parse_file
from cudalint.frontend.cursors import N
from cudalint.frontend.tree import Node
from cudalint.ir import TranslationUnit
from cudalint.options import Options

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "fixtures"

# ``mid`` has 8 x 10 = 80 contexts, of which MAX_CONTEXTS (64) are kept; each calls
# ``inner`` at two sites with different values, 128 candidate contexts for ``inner`` of
# which the first 64 are kept: the flows of the other 64 need not run.
CAPPED = """
__global__ void k(float *out) { __shared__ float s[4096]; s[threadIdx.x] = out[0]; }
void inner(float *out, int n) {
    int b = n % 32 + 1;
    k<<<1, 32 * b>>>(out);
}
void mid(float *out, int t, int u) {
    int v = t * 10 + u;
    inner(out, v);
    inner(out, v + 100);
}
int main() {
    float *out = 0;
    mid(out, 1, 0); mid(out, 1, 1); mid(out, 1, 2); mid(out, 1, 3); mid(out, 1, 4);
    mid(out, 1, 5); mid(out, 1, 6); mid(out, 1, 7); mid(out, 1, 8); mid(out, 1, 9);
    mid(out, 2, 0); mid(out, 2, 1); mid(out, 2, 2); mid(out, 2, 3); mid(out, 2, 4);
    mid(out, 2, 5); mid(out, 2, 6); mid(out, 2, 7); mid(out, 2, 8); mid(out, 2, 9);
    mid(out, 3, 0); mid(out, 3, 1); mid(out, 3, 2); mid(out, 3, 3); mid(out, 3, 4);
    mid(out, 3, 5); mid(out, 3, 6); mid(out, 3, 7); mid(out, 3, 8); mid(out, 3, 9);
    mid(out, 4, 0); mid(out, 4, 1); mid(out, 4, 2); mid(out, 4, 3); mid(out, 4, 4);
    mid(out, 4, 5); mid(out, 4, 6); mid(out, 4, 7); mid(out, 4, 8); mid(out, 4, 9);
    mid(out, 5, 0); mid(out, 5, 1); mid(out, 5, 2); mid(out, 5, 3); mid(out, 5, 4);
    mid(out, 5, 5); mid(out, 5, 6); mid(out, 5, 7); mid(out, 5, 8); mid(out, 5, 9);
    mid(out, 6, 0); mid(out, 6, 1); mid(out, 6, 2); mid(out, 6, 3); mid(out, 6, 4);
    mid(out, 6, 5); mid(out, 6, 6); mid(out, 6, 7); mid(out, 6, 8); mid(out, 6, 9);
    mid(out, 7, 0); mid(out, 7, 1); mid(out, 7, 2); mid(out, 7, 3); mid(out, 7, 4);
    mid(out, 7, 5); mid(out, 7, 6); mid(out, 7, 7); mid(out, 7, 8); mid(out, 7, 9);
    mid(out, 8, 0); mid(out, 8, 1); mid(out, 8, 2); mid(out, 8, 3); mid(out, 8, 4);
    mid(out, 8, 5); mid(out, 8, 6); mid(out, 8, 7); mid(out, 8, 8); mid(out, 8, 9);
    return 0;
}
"""

# Fixtures whose code calls functions with ``asm``, lane reads, ``const_cast`` and
# calls: what the cached body scans answer. (``launch_bounded_sets.cu`` and
# ``review_s9_launch_sets.cu`` reached them only from host code, which no longer asks
# ``lane_source`` about a body: ``host._HostExecutor.lane_source``.)
BODY_FIXTURES = (
    "frontend_ptx_cvta_helper.cu",
    "review_lane_soundness.cu",
    "loop_lanes_apart.cu",
    "frontend_ptx_buffer_switch.cu",
    "frontend_dependent_templates.cu",
)


def _parse(path: pathlib.Path, src: str | None = None) -> TranslationUnit:
    if src is not None:
        path.write_text(src)
    return parse_file(str(path), Options())


def _flow_counter(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    seen: Counter[str] = Counter()
    flow = host.HostLaunches.flow

    def counted(self: Any, fn: Any, site: Any, ctx: Any, extra: Any) -> Any:
        seen[fn.name] += 1
        return flow(self, fn, site, ctx, extra)

    monkeypatch.setattr(host.HostLaunches, "flow", counted)
    return seen


def test_contexts_past_the_cap_are_not_worked_out(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flows = _flow_counter(monkeypatch)
    fast = _parse(tmp_path / "t.cu", CAPPED)
    fast_flows = flows["mid"]
    flows.clear()
    monkeypatch.setattr(host, "SKIP_PAST_CAP", False)
    plain = _parse(tmp_path / "t.cu")
    assert fast == plain
    # the same 32 block sizes either way (n % 32 + 1 over the kept contexts)
    assert {lc.block for lc in fast.launches if lc.kernel == "k"} == {
        lc.block for lc in plain.launches if lc.kernel == "k"
    }
    assert len(fast.launches) >= 32
    # every one of mid's 64 contexts at both sites without the skip; the skip stops
    # once inner has 64 (the first site of each of mid's 64 contexts)
    assert flows["mid"] == 2 * host.MAX_CONTEXTS
    assert fast_flows < flows["mid"]


def _plain_lane_events(self: execute.Executor, body: Node) -> list[Node]:
    return self._subtree(body)


def _plain_asms(self: execute.Executor, body: Node) -> list[Node]:
    return [n for n in self._subtree(body) if n.kind == N.ASM]


def _plain_casts(self: execute.Executor, body: Node) -> bool:
    return any(n.kind == execute.K.CXX_CONST_CAST_EXPR.value for n in self._subtree(body))


@pytest.mark.parametrize("name", BODY_FIXTURES)
def test_cached_body_scans_give_the_same_unit(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: Counter[str] = Counter()

    def counting(method: str) -> Any:
        real = getattr(execute.Executor, method)

        def counted(self: execute.Executor, body: Node) -> Any:
            calls[method] += 1
            return real(self, body)

        return counted

    for method in ("lane_events", "body_asms", "body_casts_const"):
        monkeypatch.setattr(execute.Executor, method, counting(method))
    fast = _parse(FIXTURES / name)
    monkeypatch.setattr(execute.Executor, "lane_events", _plain_lane_events)
    monkeypatch.setattr(execute.Executor, "body_asms", _plain_asms)
    monkeypatch.setattr(execute.Executor, "body_casts_const", _plain_casts)
    plain = _parse(FIXTURES / name)
    assert fast == plain
    assert calls["lane_events"] + calls["body_asms"], "the fixture does not test the caches"


def test_body_scans_and_subtree_match_their_references(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every function body of the fixtures: the iterative ``_subtree`` is the
    recursive pre-order, ``lane_events`` is the calls of the body up to and including its
    first ``asm`` or lane read, and the cached answers are the plain ones, asked twice
    (the second from the cache, shared by host executors)."""

    def reference(n: Node) -> list[Node]:
        out = [n]
        for ch in n.children:
            out.extend(reference(ch))
        return out

    seen: list[tuple[execute.Executor, Node]] = []
    lane_source = execute.Executor.lane_source

    def spy(self: execute.Executor, name: str, target: Any, depth: int = 0) -> bool:
        if target is not None and target.body is not None:
            seen.append((self, target.body))
        return lane_source(self, name, target, depth)

    monkeypatch.setattr(execute.Executor, "lane_source", spy)
    for name in BODY_FIXTURES:
        _parse(FIXTURES / name)
    assert seen, "no lane_source call on a body: the fixtures do not test the cache"
    direct = 0
    for ex, body in seen:
        full = reference(body)
        assert execute.Executor._subtree(body) == full
        events: list[Node] = []
        for n in full:
            if n.kind in (N.ASM, N.MS_ASM) or (
                n.kind == N.DECL_REF and n.spelling in ("threadIdx", "laneid")
            ):
                events.append(n)
                direct += 1
                break
            if n.kind == N.CALL:
                events.append(n)
        if isinstance(ex, host._HostExecutor):  # one store for the file's host code
            assert ex.lane_event_lists is ex.host.lane_event_lists
            assert ex.body_facts is ex.host.body_facts
        for _ in range(2):
            assert ex.lane_events(body) == events
            assert ex.body_asms(body) == _plain_asms(ex, body)
            assert ex.body_casts_const(body) == _plain_casts(ex, body)
    assert direct, "no body with a lane read or asm: the truncation is not tested"


WRITE_FIXTURES = ("launch_param_block_dim.cu", "launch_row_warps.cu")


@pytest.mark.parametrize("name", WRITE_FIXTURES)
def test_kept_write_nodes_give_the_same_unit(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``HostLaunches._write_nodes`` (the writing nodes of a function's body, kept per
    function for ``_member_written``) against a fresh walk of the body at every call."""
    asked: list[tuple[Any, Any, list[tuple[Node, Node]]]] = []
    kept = host.HostLaunches._write_nodes

    def spy(self: Any, fn: Any) -> list[tuple[Node, Node]]:
        got = kept(self, fn)
        asked.append((self, fn, got))
        return got

    monkeypatch.setattr(host.HostLaunches, "_write_nodes", spy)
    fast = _parse(FIXTURES / name)
    assert asked, "the fixture does not reach _member_written"
    for self_, fn, got in asked:
        plain = [
            (n, t)
            for n in host.subtree(fn.body)
            if (t := execute.Executor._write_target(n)) is not None
        ]
        assert got == plain
        assert kept(self_, fn) is got  # kept, not walked again

    def fresh(self: Any, fn: Any) -> list[tuple[Node, Node]]:
        return [
            (n, t)
            for n in host.subtree(fn.body)
            if (t := execute.Executor._write_target(n)) is not None
        ]

    monkeypatch.setattr(host.HostLaunches, "_write_nodes", fresh)
    assert _parse(FIXTURES / name) == fast


def test_symbols_of_shared_subexpressions(monkeypatch: pytest.MonkeyPatch) -> None:
    """``host._symbols`` visits a shared subexpression once: the same names as a plain
    walk of the tree, on a DAG whose tree has 2^20 leaves."""
    from dataclasses import fields, is_dataclass

    from cudalint.ir import Binary, Const, Induction, Select, Sym

    def plain(e: object, out: set[str]) -> None:
        if isinstance(e, Sym):
            out.add(e.name)
        if is_dataclass(e) and not isinstance(e, type):
            for f in fields(e):
                v = getattr(e, f.name)
                for x in v if isinstance(v, tuple) else (v,):
                    if is_dataclass(x) or isinstance(x, tuple):
                        plain(x, out)

    loop = Sym("i", induction=Induction(Const(0), "+", Const(1), "<", Sym("n")))
    e: object = Binary("+", Sym("a"), loop)
    for k in range(20):
        e = Binary("*", e, e) if k % 2 else Select(Sym(f"c{k}"), e, e)
    small = Binary("-", Select(Sym("c"), Sym("x"), Const(3)), loop)
    ref: set[str] = set()
    plain(small, ref)
    got: set[str] = set()
    host._symbols(small, got)
    assert got == ref == {"c", "x", "i", "n"}
    visits = 0
    real = host._symbols

    def counted(x: object, out: set[str], seen: set[int] | None = None) -> None:
        nonlocal visits
        visits += 1
        real(x, out, seen)

    monkeypatch.setattr(host, "_symbols", counted)  # the recursion goes through it too
    got = set()
    host._symbols(e, got)
    assert got == {"a", "i", "n"} | {f"c{k}" for k in range(0, 20, 2)}
    assert visits < 500  # a plain walk: over 2^20
