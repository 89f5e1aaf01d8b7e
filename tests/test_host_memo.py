"""What host-launch evaluation shares between sites and contexts (``HostLaunches.flow``'s
cache, ``_Flow._prefix``'s traces) and that sharing never merges what differs."""

from __future__ import annotations

import pathlib
from collections import Counter
from typing import Any

import pytest

from cudalint.frontend import host, parse_file
from cudalint.frontend.cursors import N
from cudalint.ir import TranslationUnit
from cudalint.options import Options

KERNELS = """
__global__ void k1(float *out, int t) { __shared__ float s[1024]; s[threadIdx.x] = t; }
__global__ void k2(float *out) { __shared__ float s[1024]; s[threadIdx.x] = 1.0f; }
__global__ void k3(float *out) { __shared__ float s[1024]; s[threadIdx.x] = 2.0f; }
"""


def parse(tmp_path: pathlib.Path, src: str) -> TranslationUnit:
    path = tmp_path / "t.cu"
    path.write_text(src)
    return parse_file(str(path), Options())


def shapes(tu: TranslationUnit, kernel: str) -> set[tuple[int, int, int] | None]:
    return {launch.block for launch in tu.launches if launch.kernel == kernel}


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often ``_Flow.run`` ran per function, and how often a declaration statement of
    each function was run (``decl:NAME``)."""
    seen: Counter[str] = Counter()
    run, exec_ = host._Flow.run, host._Flow.exec

    def counted_run(self: Any, site: Any) -> Any:
        seen[self.fn.name] += 1
        return run(self, site)

    def counted_exec(self: Any, n: Any, states: Any) -> Any:
        if n.kind == N.DECL_STMT:
            seen[f"decl:{self.fn.name}"] += 1
        return exec_(self, n, states)

    monkeypatch.setattr(host._Flow, "run", counted_run)
    monkeypatch.setattr(host._Flow, "exec", counted_exec)
    return seen


def test_a_value_only_the_site_reads_runs_the_statements_once(
    tmp_path: pathlib.Path, runs: Counter[str]
) -> None:
    # eight contexts (t = 1..8) that differ only in what the launch itself reads: the
    # statements before it leave the same states in each, and the site is still
    # evaluated in each context
    src = (
        KERNELS
        + """
void launch(float *out, int bs, int t) {
    int b = bs;
    k2<<<b / 64, 32 * t>>>(out);
}
int main() {
    float *out = 0;
    for (int t = 1; t <= 8; t++) launch(out, 64, t);
}
"""
    )
    tu = parse(tmp_path, src)
    assert shapes(tu, "k2") == {(32 * t, 1, 1) for t in range(1, 9)}
    assert runs["launch"] == 1


def test_values_read_before_the_site_keep_contexts_apart(
    tmp_path: pathlib.Path, runs: Counter[str]
) -> None:
    src = (
        KERNELS
        + """
void launch(float *out, int bs, int t) {
    int b = bs;
    k2<<<1, b>>>(out);
    int c = b * 2;
    k3<<<1, c>>>(out);
    if (t > 1) {
        k1<<<1, 32 * t>>>(out, 0);
    }
}
int main() {
    float *out = 0;
    for (int i = 1; i <= 3; i++) launch(out, 32 * i, i);
}
"""
    )
    tu = parse(tmp_path, src)
    assert shapes(tu, "k2") == {(32, 1, 1), (64, 1, 1), (96, 1, 1)}
    assert shapes(tu, "k3") == {(64, 1, 1), (128, 1, 1), (192, 1, 1)}
    assert shapes(tu, "k1") == {(64, 1, 1), (96, 1, 1)}  # t = 1 never reaches it
    # three contexts, three sites: each context's ``int b`` and ``int c`` run once, the
    # later sites resuming from the earlier ones' statements
    assert runs["launch"] == 9
    assert runs["decl:launch"] == 6


def test_sites_in_a_later_loop_share_the_statements_before_it(
    tmp_path: pathlib.Path, runs: Counter[str]
) -> None:
    # ``launch(out, ...)`` is one site per value of ``s``; the declarations before the loop
    # (which cannot name ``s``) run once, those in the loop once per value
    src = (
        KERNELS
        + """
void launch(float *out, int bs) {
    k2<<<1, bs>>>(out);
}
int main() {
    float *out = 0;
    int base = 32;
    int scale = 2;
    for (int s = 1; s <= 4; s++) {
        int bs = base * s;
        launch(out, bs * scale / 2);
    }
}
"""
    )
    tu = parse(tmp_path, src)
    assert shapes(tu, "k2") == {(32 * s, 1, 1) for s in range(1, 5)}
    assert runs["main"] == 4
    # ``float *out``, ``int base``, ``int scale`` once; ``int s = 1`` (the loop's
    # initialization, run on the way in) and ``int bs`` once per value of s
    assert runs["decl:main"] == 3 + 4 * 2
