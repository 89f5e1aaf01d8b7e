"""Host calls run for their value (``HostLaunches.call_value``), issue 15 goal 1.

A call nested deeper than ``MAX_CALL_DEPTH``, or of a function already running, has no
value; so the value a call gives depends on the stack it runs in. The memo keeps each
value with the stacks it holds for (``host.CallValue``): a helper first asked for at the
depth limit (no value) still has its value when asked at the top, and the other way
round. The language server's walker keeps the values across versions of a document
(``WalkReuse.calls``) by what the function may read (``walker._CallKeeper``): the
context, its declaration, the bodies of the main file's host functions it may call for a
value and the macros they name, and the arguments. Each version's IR must equal a walk
from scratch, and a value kept must be one the new version gives.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from cudalint.frontend import parse as frontend_parse
from cudalint.frontend.cursors import Function
from cudalint.frontend.execute import Executor
from cudalint.ir import TranslationUnit
from cudalint.options import Options

KERNEL = """\
__global__ void stride2(float *out) {
    __shared__ float s[512];
    s[threadIdx.x * 2] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
"""

#: d0 -> d1 -> d2 -> d3 -> d4: five calls nested, one more than ``MAX_CALL_DEPTH``. Each
#: body assigns its local again, so the executor's ``return EXPR;`` inlining does not
#: answer: ``call_value`` runs them.
CHAIN = """\
int d4(int n) {
    int x = 0;
    x = 64;
    return x;
}

int d3(int n) {
    int x = 0;
    x = d4(n);
    return x;
}

int d2(int n) {
    int x = 0;
    x = d3(n);
    return x;
}

int d1(int n) {
    int x = 0;
    x = d2(n);
    return x;
}

int d0(int n) {
    int x = 0;
    x = d1(n);
    return x;
}
"""

#: ``both`` calls ``other``, which calls ``both`` back: ``other`` asked for inside
#: ``both`` finds ``both`` running (no value); asked for at the top, it runs ``both``,
#: which returns 16 whatever ``other`` gives.
MUTUAL = """\
int other(int n);

int both(int n) {
    int x = 0;
    x = other(n);
    return 16;
}

int other(int n) {
    int x = 0;
    x = both(n);
    return x;
}
"""


def _unit(path: Path, text: str) -> TranslationUnit:
    path.write_text(text)
    doc = frontend_parse.ParsedDocument(str(path))
    try:
        return doc.parse(Options(), text.encode())
    finally:
        doc.close()


def _blocks(unit: TranslationUnit) -> list[object]:
    return [launch.block for launch in unit.launches]


def test_a_value_cut_at_the_depth_limit_is_not_reused_at_the_top(tmp_path: Path) -> None:
    # d0(1) asks for d3 at depth 3, where its call of d4 is refused: no value there. At
    # the top d3 calls d4 (64): the block is 64 (the memo once answered None here).
    main = """
int main() {
    float *out = 0;
    int deep = d0(1);
    int block = d3(1);
    stride2<<<1, block>>>(out);
    return deep;
}
"""
    assert _blocks(_unit(tmp_path / "a.cu", KERNEL + CHAIN + main)) == [(64, 1, 1)]


def test_a_value_found_at_the_top_is_not_reused_at_the_depth_limit(tmp_path: Path) -> None:
    # the other order: d3 has a value at the top, but d0 reaches it at depth 3, where
    # its call of d4 is refused, so d0 has none, as when nothing asked for d3 before
    alone = """
int main() {
    float *out = 0;
    stride2<<<1, d0(1)>>>(out);
    return 0;
}
"""
    after = """
int main() {
    float *out = 0;
    int top = d3(1);
    stride2<<<1, d0(1)>>>(out);
    return top;
}
"""
    assert _blocks(_unit(tmp_path / "b.cu", KERNEL + CHAIN + alone)) == [None]
    assert _blocks(_unit(tmp_path / "c.cu", KERNEL + CHAIN + after)) == [None]


def test_a_value_refused_by_recursion_is_not_reused_at_the_top(tmp_path: Path) -> None:
    # both(1) runs other(1), which finds both running: other has no value there. At
    # the top other runs both (16): the block is 4 * 16.
    main = """
int main() {
    float *out = 0;
    int first = both(1);
    int block = other(1) * 4;
    stride2<<<1, block>>>(out);
    return first;
}
"""
    assert _blocks(_unit(tmp_path / "d.cu", KERNEL + MUTUAL + main)) == [(64, 1, 1)]


HELPERS = """\
#define WIDE 128

int pick(int n) {
    int b = 32;
    if (n > 1000) b = WIDE;
    else b = 64;
    return b;
}

int twice(int n) {
    int v = 0;
    v = pick(n) * 2;
    return v;
}

int main() {
    float *out = 0;
    int n = 10;
    int block = twice(n);
    stride2<<<1, block>>>(out);
    return 0;
}
"""

#: (what, old text, new text, whether the launch changes, whether a value is kept):
#: in order, each applied to the text the previous left.
STEPS: list[tuple[str, str, str, bool, bool]] = [
    (
        "statement added to main",
        "    int n = 10;\n",
        "    int n = 10;\n    int y = 1;\n",
        False,
        True,
    ),
    ("argument changed", "int n = 10;", "int n = 2000;", True, False),
    ("macro the helper reads changed", "#define WIDE 128", "#define WIDE 256", True, False),
    (
        "statement added to main again",
        "    int y = 1;\n",
        "    int y = 1;\n    int z = 2;\n",
        False,
        True,
    ),
    ("body of the inner helper changed", "else b = 64;", "else b = 16;", False, False),
    ("argument changed back", "int n = 2000;", "int n = 10;", True, False),
    ("statement removed from main", "    int z = 2;\n", "", False, True),
    (
        "the chain asked for at the depth limit only",
        "    int block = twice(n);\n",
        "    int block = twice(n);\n    int deep = d0(n);\n",
        False,
        False,
    ),
    (
        "the chain's end asked for at the top",
        "    stride2<<<1, block>>>(out);\n",
        "    int top = d3(n);\n    stride2<<<1, top>>>(out);\n",
        True,
        False,
    ),
]


def _versions(document: str) -> Iterator[tuple[str, bytes, bool, bool]]:
    text = document
    yield "open", text.encode(), True, False
    for what, old, new, changes, kept in STEPS:
        assert text.count(old) == 1, what
        text = text.replace(old, new)
        yield what, text.encode(), changes, kept


def test_call_values_are_kept_across_versions_only_where_their_inputs_are(tmp_path: Path) -> None:
    path = tmp_path / "helpers.cu"
    document = KERNEL + CHAIN + HELPERS
    path.write_text(document)
    options = Options()
    doc = frontend_parse.ParsedDocument(str(path))
    previous: TranslationUnit | None = None
    try:
        for what, data, changes, kept in _versions(document):
            done, reused = doc.walks.calls_done, doc.walks.calls_reused
            unit = doc.parse(options, data)
            fresh_doc = frontend_parse.ParsedDocument(str(path))
            try:
                fresh = fresh_doc.parse(options, data)
            finally:
                fresh_doc.close()
            assert unit == fresh, what
            if previous is not None:
                assert (_blocks(fresh) != _blocks(previous)) == changes, what
            if kept:
                # main's flow asks for twice(n) again: answered from the last version,
                # neither twice nor pick run
                assert doc.walks.calls_reused > reused, what
                assert doc.walks.calls_done == done, what
            elif what != "open":
                assert doc.walks.calls_done > done, what
            previous = fresh
        assert previous is not None
        assert _blocks(previous) == [(64, 1, 1)]  # d3 at the top: 64
    finally:
        doc.close()


INLINED = """\
int fixed(int n) {
    int x = 0;
    x = n * 2;
    return x;
}

int shaped(int n) {
    if (n > 4) return n * 16;
    return 32;
}

int main(int argc, char **argv) {
    float *out = 0;
    int a = fixed(argc);
    int b = fixed(argc + 1);
    int c = shaped(argc);
    int d = shaped(8);
    stride2<<<1, d>>>(out);
    return a + b + c;
}
"""


def test_a_body_that_is_not_one_return_is_not_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``_HostExecutor.returned_value``: ``fixed``'s body stops the executor's ``return
    EXPR;`` inlining at its statements alone (a local assigned again), so it is tried
    once a walk; ``shaped``'s stops at a condition on its argument, which another call
    may know (``shaped(8)``: 128), so each call tries it."""
    tried: Counter[str] = Counter()
    inline = Executor.returned_value

    def counted(self: Executor, c: object, target: Function, args: object) -> object:
        tried[target.name] += 1
        return inline(self, c, target, args)  # type: ignore[arg-type]

    monkeypatch.setattr(Executor, "returned_value", counted)
    assert _blocks(_unit(tmp_path / "e.cu", KERNEL + INLINED)) == [(128, 1, 1)]
    assert tried["fixed"] == 1
    assert tried["shaped"] >= 2
