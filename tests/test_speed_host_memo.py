"""Issue 15, goal 2: two more host-flow speed-ups of ggml's flash-attention files give the
same IR as the plain computations they replace.

- ``HostLaunches.contexts`` works out a callee's context once per caller context, site
  and flowed values (``host.DEDUPE_CALLEE_CONTEXTS``): ``flow`` may give the same values
  on two paths (a variable whose address escaped on one, assigned an unknown value on
  the other), whose callee contexts are the same;
- ``_Flow.value`` keeps what an initializer, a condition or an assigned value evaluates
  to by what it can read (``host.MEMO_INITIALIZERS``, ``HostLaunches._init_key``): the
  same declaration in another context whose template arguments and parameter values it
  does not read is evaluated once.

And four caches of the executor (``cudalint.frontend.execute``), which ggml's
``flash_attn_ext_f16`` asks at every loop, write and member read:

- ``Executor.has``: ``_has(node, kinds)`` by node and kinds;
- ``Executor.differs``: ``may_differ(guard)`` by guard (kept alive with it);
- ``Executor._template_params`` and ``Executor._static_member``: a declaration's template
  parameters and its static data members by name, kept for the unit.

Each test compares the fast result with the plain one (switched back by monkeypatching)
and checks that the fast path is taken, so that it fails if the speed-up is switched off;
the launch shapes are worked out by hand, so that a key that leaves out what a value
reads fails too.
"""

from __future__ import annotations

import pathlib
from typing import Any

import pytest
from factories import count_calls

from cudalint.frontend import execute, host, parse_file, walker
from cudalint.frontend.cursors import Env, K, N
from cudalint.frontend.tree import Node
from cudalint.ir import INT, Opaque, OpaqueKind, Sym, TranslationUnit, may_differ
from cudalint.options import Options

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "fixtures"

# ``mid`` runs once, with ``u`` and ``m`` unknown: three paths reach ``inner(out, x)``,
# two of which leave ``x`` unknown (its address escapes on one, ``m`` is assigned on
# the other): the same values, one callee context.
TWO_PATHS = """
__global__ void k(float *out) { __shared__ float s[1024]; s[threadIdx.x] = out[0]; }
void g(int *p);
void inner(float *out, int n) {
    k<<<1, n>>>(out);
}
void mid(float *out, int u, int m) {
    int x = 64;
    if (u > 1) {
        g(&x);
    } else if (u > 0) {
        x = m;
    }
    inner(out, x);
}
int main(int argc, char **argv) {
    float *out = 0;
    mid(out, argc, argc);
    return 0;
}
"""

# Four contexts of ``wrap``: ``b`` reads only ``sh`` (the same in three of them), ``c``
# only ``D``, ``f`` the value the ``if`` leaves in ``e``. Launched with a + b + c + f:
#   D=1 nw=2 sh=64:  64 + 16 + 2 + 1 = 83     D=1 nw=3 sh=64:  96 + 16 + 2 + 2 = 116
#   D=2 nw=2 sh=64:  64 + 16 + 4 + 1 = 85     D=2 nw=2 sh=128: 64 + 32 + 4 + 1 = 101
CONTEXTS = """
__global__ void k(float *out) { __shared__ float s[1024]; s[threadIdx.x] = out[0]; }
template <int D>
void wrap(float *out, int nw, int sh) {
    const int a = nw * 32;
    const int b = sh / 4;
    const int c = D * 2;
    int e = 0;
    if (nw > 2) {
        e = D;
    }
    const int f = e + 1;
    k<<<1, a + b + c + f>>>(out);
}
int main() {
    float *out = 0;
    wrap<1>(out, 2, 64);
    wrap<1>(out, 3, 64);
    wrap<2>(out, 2, 64);
    wrap<2>(out, 2, 128);
    return 0;
}
"""

# The template argument reaches ``n`` only through the type of ``buf``, which ``n``'s
# initializer names: D=1 launches 32 + 2 threads, D=2 64 + 2.
SIZEOF = """
__global__ void k(float *out) { __shared__ float s[1024]; s[threadIdx.x] = out[0]; }
template <int D>
void wrap(float *out, int nw) {
    float buf[D * 32];
    const int n = sizeof(buf) / sizeof(float);
    k<<<1, n + nw>>>(out);
}
int main() {
    float *out = 0;
    wrap<1>(out, 2);
    wrap<2>(out, 2);
    return 0;
}
"""

# Fixtures whose host code runs flows in several contexts (template wrappers, branches,
# loops, switches, escaping addresses, struct and dim3 arguments).
FLOW_FIXTURES = (
    "launch_bounded_sets.cu",
    "review_s9_launch_sets.cu",
    "frontend_dependent_templates.cu",
    "loop_lanes_apart.cu",
    "review_lane_soundness.cu",
)


def _parse(path: pathlib.Path, src: str | None = None) -> TranslationUnit:
    if src is not None:
        path.write_text(src)
    return parse_file(str(path), Options())


def test_the_same_flowed_values_give_one_callee_context(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = count_calls(monkeypatch, host.HostLaunches, "_callee_context")
    fast = _parse(tmp_path / "t.cu", TWO_PATHS)
    fast_n = seen["_callee_context"]
    seen.clear()
    monkeypatch.setattr(host, "DEDUPE_CALLEE_CONTEXTS", False)
    plain = _parse(tmp_path / "t.cu")
    assert fast == plain
    assert {lc.block for lc in fast.launches} == {(64, 1, 1), None}
    assert fast_n < seen["_callee_context"]


def test_values_are_kept_by_what_they_read(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = count_calls(monkeypatch, host._Flow, "executor")
    fast = _parse(tmp_path / "t.cu", CONTEXTS)
    fast_n = seen["executor"]
    seen.clear()
    monkeypatch.setattr(host, "MEMO_INITIALIZERS", False)
    plain = _parse(tmp_path / "t.cu")
    assert fast == plain
    blocks = sorted(lc.block for lc in fast.launches if lc.block is not None)
    assert blocks == [(83, 1, 1), (85, 1, 1), (101, 1, 1), (116, 1, 1)]
    assert fast_n < seen["executor"]


def test_a_template_argument_in_a_declared_type_is_read(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _parse(tmp_path / "t.cu", SIZEOF)
    monkeypatch.setattr(host, "MEMO_INITIALIZERS", False)
    plain = _parse(tmp_path / "t.cu")
    assert fast == plain
    assert sorted(lc.block for lc in fast.launches if lc.block is not None) == [
        (34, 1, 1),
        (66, 1, 1),
    ]


@pytest.mark.parametrize("name", FLOW_FIXTURES)
def test_fixtures_give_the_same_ir(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _parse(FIXTURES / name)
    monkeypatch.setattr(host, "DEDUPE_CALLEE_CONTEXTS", False)
    monkeypatch.setattr(host, "MEMO_INITIALIZERS", False)
    plain = _parse(FIXTURES / name)
    assert fast == plain


# Fixtures whose kernels run loops with guards, jumps, ``continue`` and the members of
# dependent classes (``T::I``, static data members of specializations).
EXECUTOR_FIXTURES = (
    "loop_lanes_apart.cu",
    "loop_latched_guard.cu",
    "loop_break_stops.cu",
    "loop_carried_unknown.cu",
    "frontend_dependent_class_members.cu",
    "frontend_dependent_class_members_unknown.cu",
    "frontend_dependent_templates.cu",
)

_KINDS = ((N.GOTO, N.LABEL), (N.CONTINUE,), execute._JUMPS)


def _plain_executor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The executor's caches switched back to the computations they keep."""
    monkeypatch.setattr(execute.Executor, "has", lambda self, n, kinds: execute._has(n, kinds))
    monkeypatch.setattr(execute.Executor, "differs", lambda self, g: may_differ(g))

    def template_params(self: Any, decl: Any) -> Any:
        return [
            ch
            for ch in self._children(decl)
            if ch.kind
            in (
                K.TEMPLATE_TYPE_PARAMETER,
                K.TEMPLATE_NON_TYPE_PARAMETER,
                K.TEMPLATE_TEMPLATE_PARAMETER,
            )
        ]

    def static_member(self: Any, decl: Any, name: str) -> Any:
        return next(
            (ch for ch in self._children(decl) if ch.kind == K.VAR_DECL and ch.spelling == name),
            None,
        )

    monkeypatch.setattr(execute.Executor, "_template_params", template_params)
    monkeypatch.setattr(execute.Executor, "_static_member", static_member)


@pytest.mark.parametrize("name", EXECUTOR_FIXTURES)
def test_executor_caches_give_the_same_ir(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = count_calls(monkeypatch, execute.Executor, "has")
    fast = _parse(FIXTURES / name)
    assert seen["has"] or "dependent" in name
    with monkeypatch.context() as m:
        _plain_executor(m)
        plain = _parse(FIXTURES / name)
    assert fast == plain


def test_has_is_kept_by_node_and_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[Any, Node]] = []
    inner = execute.Executor.has

    def recorded(self: Any, n: Node, kinds: tuple[int, ...]) -> bool:
        asked.append((self, n))
        return inner(self, n, kinds)

    monkeypatch.setattr(execute.Executor, "has", recorded)
    for name in EXECUTOR_FIXTURES[:4]:
        _parse(FIXTURES / name)
    assert asked
    some_continue = False
    for ex, top in asked:
        for n in host.subtree(top):
            for kinds in _KINDS + _KINDS:  # each asked twice: the second from the cache
                assert inner(ex, n, kinds) == execute._has(n, kinds)
            some_continue = some_continue or (
                execute._has(n, (N.CONTINUE,)) != execute._has(n, (N.GOTO, N.LABEL))
            )
    assert some_continue  # a body that answers the kinds apart
    assert any(ex.has_cache for ex, _ in asked)


def test_differs_is_kept_by_guard_while_it_lives() -> None:
    ex = execute.Executor(None, None, Env())  # type: ignore[arg-type]
    for i in range(400):
        # new guards, one alive at a time: CPython gives a freed one's id to the next
        g: Any = (
            Sym("threadIdx.x", INT, lane_dependent=True)
            if i % 2
            else Opaque(OpaqueKind.VARIABLE, "n", (), INT, "n", "")
            if i % 4 == 0
            else Sym(f"n{i}", INT)
        )
        assert ex.differs(g) == may_differ(g)
        assert ex.differs(g) == may_differ(g)
        del g
    assert ex.differ_cache


def test_static_members_and_parameters_are_the_first_of_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decls: list[tuple[Any, Any]] = []
    inner = execute.Executor._static_member

    def recorded(self: Any, decl: Any, name: str) -> Any:
        decls.append((self, decl))
        return inner(self, decl, name)

    monkeypatch.setattr(execute.Executor, "_static_member", recorded)
    # the executors are asked again after the walk: keep their walker whole
    monkeypatch.setattr(walker, "_release", lambda w: None)
    _parse(FIXTURES / "frontend_dependent_class_members.cu")
    assert decls
    for ex, decl in decls:
        children = list(ex._children(decl))
        names = {str(ch.spelling) for ch in children} | {"no_such_member"}
        for name in sorted(names):
            want = next(
                (ch for ch in children if ch.kind == K.VAR_DECL and ch.spelling == name), None
            )
            assert inner(ex, decl, name) == want
        assert ex._template_params(decl) == [
            ch
            for ch in children
            if ch.kind
            in (
                K.TEMPLATE_TYPE_PARAMETER,
                K.TEMPLATE_NON_TYPE_PARAMETER,
                K.TEMPLATE_TEMPLATE_PARAMETER,
            )
        ]
