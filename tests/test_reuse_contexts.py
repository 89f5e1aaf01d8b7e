"""The walker's reuse of host functions' contexts between versions (issue 15, goal 1).

``Walker._host_launches`` keeps each host function's contexts (the values its callers
pass, ``HostLaunches.contexts``) by a digest of what they are computed from
(``walker._Words.contexts_key``: the callers' own contexts and the bodies their flows may
read for a value). A statement added to ``main`` then computes again only the contexts of
the functions ``main`` calls; a constant changed in one launch wrapper computes none. Each
version's IR must equal a walk from scratch; the edits that change a launch must change
it (a reuse that can keep a stale launch is a wrong answer), those that do not must not
evaluate the launches again.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from cudalint.frontend import parse as frontend_parse
from cudalint.ir import TranslationUnit
from cudalint.options import Options

DISPATCH = """\
__global__ void reduce_a(float *out) {
    __shared__ float s[4096];
    s[threadIdx.x * 2] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void reduce_b(float *out) {
    __shared__ float t[8192];
    t[threadIdx.x * 4] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.x];
}

int pick(int n) {
    return n > 100 ? 64 : 32;
}

void note_it(int n) {
    (void)n;
}

void wrap_a(float *out, int block) {
    reduce_a<<<1, block>>>(out);
}

void wrap_b(float *out, int block) {
    const int rows = 2;
    reduce_b<<<1, block * rows>>>(out);
}

void dispatch(int which, float *out, int block) {
    int threads = pick(block);
    note_it(threads);
    if (which == 1) wrap_a(out, threads);
    else wrap_b(out, threads);
}

int main() {
    float *out = 0;
    int block = 256;
    dispatch(1, out, block);
    dispatch(2, out, block);
    return 0;
}
"""

#: (what, old text, new text, whether the launches change): in order, each applied to
#: the text the previous left.
STEPS: list[tuple[str, str, str, bool]] = [
    (
        "statement added to main",
        "    float *out = 0;\n",
        "    float *out = 0;\n    int unrelated = 3;\n",
        False,
    ),
    ("value main passes changed", "int block = 256;", "int block = 50;", True),
    ("constant in one wrapper", "const int rows = 2;", "const int rows = 4;", True),
    ("body of a helper whose value flows", "? 64 : 32;", "? 64 : 128;", True),
    ("body of a void helper", "    (void)n;\n", "    (void)n;\n    (void)n;\n", False),
    ("value main passes changed back", "int block = 50;", "int block = 256;", True),
]


def _versions(
    document: str, steps: list[tuple[str, str, str, bool]]
) -> Iterator[tuple[str, bytes, bool]]:
    text = document
    yield "open", text.encode(), True
    for what, old, new, changes in steps:
        assert text.count(old) == 1, what
        text = text.replace(old, new)
        yield what, text.encode(), changes


def _fresh(path: str, options: Options, data: bytes) -> TranslationUnit:
    doc = frontend_parse.ParsedDocument(path)
    try:
        return doc.parse(options, data)
    finally:
        doc.close()


def _launches(unit: TranslationUnit) -> list[tuple[str, object]]:
    return [(launch.kernel, launch.block) for launch in unit.launches]


def test_contexts_are_kept_only_where_their_inputs_are(tmp_path: Path) -> None:
    path = str(tmp_path / "dispatch.cu")
    options = Options()
    doc = frontend_parse.ParsedDocument(path)
    previous: TranslationUnit | None = None
    try:
        for what, data, changes in _versions(DISPATCH, STEPS):
            reused, done = doc.walks.contexts_reused, doc.walks.host_done
            kept = doc.parse(options, data)
            fresh = _fresh(path, options, data)
            assert kept == fresh, what
            if previous is not None:
                moved = _launches(fresh) != _launches(previous)
                assert moved == changes, f"{what}: the launches {'did not ' * changes}change"
            if what in ("statement added to main", "body of a void helper"):
                # the wrappers' contexts are kept, their launches not evaluated again
                assert doc.walks.contexts_reused - reused >= 2, what
                assert doc.walks.host_done == done, what
            if what == "constant in one wrapper":
                assert doc.walks.contexts_reused - reused >= 2, what
                assert doc.walks.host_done - done == 1, what  # wrap_b's own launch
            previous = fresh
    finally:
        doc.close()


POINTER = """\
__global__ void ka(float *out) {
    __shared__ float s[2048];
    s[threadIdx.x * 2] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void kb(float *out) {
    __shared__ float t[4096];
    t[threadIdx.x * 4] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.x];
}

void launch(void (*k)(float *), float *p, int n) {
    k<<<1, n>>>(p);
}

void helper(float *p) {
    launch(ka, p, 64);
}

int main() {
    float *p = 0;
    helper(p);
    return 0;
}
"""

POINTER_STEPS: list[tuple[str, str, str, bool]] = [
    ("kernel passed through a pointer", "launch(ka, p, 64)", "launch(kb, p, 64)", True),
    (
        "statement added to main",
        "    float *p = 0;\n",
        "    float *p = 0;\n    int x = 1;\n",
        False,
    ),
    ("kernel passed back", "launch(kb, p, 64)", "launch(ka, p, 64)", True),
]


def test_a_kernel_passed_through_a_pointer_is_part_of_the_contexts(tmp_path: Path) -> None:
    """The kernels a function-pointer parameter holds are inputs of the launches: a
    caller that passes another kernel with the same values must not keep the launch."""
    path = str(tmp_path / "pointer.cu")
    options = Options()
    doc = frontend_parse.ParsedDocument(path)
    previous: TranslationUnit | None = None
    try:
        for what, data, changes in _versions(POINTER, POINTER_STEPS):
            kept = doc.parse(options, data)
            fresh = _fresh(path, options, data)
            assert kept == fresh, what
            if previous is not None:
                assert (_launches(fresh) != _launches(previous)) == changes, what
            previous = fresh
    finally:
        doc.close()


UNDO = """\
template <int BLOCK>
__global__ void tiled(float *out) {
    __shared__ float tile[BLOCK][BLOCK];
    tile[threadIdx.x][threadIdx.y] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

void run(float *out, int block) {
    dim3 threads(block, block);
    if (block == 16) {
        tiled<16><<<1, threads>>>(out);
    } else if (block == 8) {
        tiled<8><<<1, threads>>>(out);
    } else {
        tiled<32><<<1, threads>>>(out);
    }
}

int main() {
    float *out = 0;
    int block = 32;
    run(out, block);
    return 0;
}
"""

#: (what, old, new, whether the launches change, whether an earlier version's results
#: serve it)
UNDO_STEPS: list[tuple[str, str, str, bool, bool]] = [
    ("block size changed", "int block = 32;", "int block = 16;", True, False),
    ("changed back (an undo)", "int block = 16;", "int block = 32;", True, True),
    ("changed again (a redo)", "int block = 32;", "int block = 16;", True, True),
    ("a value never seen", "int block = 16;", "int block = 8;", True, False),
    ("an empty line added above", "int block = 8;", "int block = 8;", False, True),
    (
        "the first value again, its results moved down a line",
        "int block = 8;",
        "int block = 32;",
        True,
        True,
    ),
    (
        "a comment added above (a new context), and the value before",
        "int block = 32;",
        "int block = 16;",
        True,
        False,
    ),
]


def test_an_undo_finds_the_earlier_versions_results_and_nothing_stale(tmp_path: Path) -> None:
    """A block size changed and changed back (the launched instantiation with it) takes
    the host evaluation, the contexts and the kernel's run of the version it returns to
    (``WalkReuse.older_hosts``, ``older_runs``, ``contexts``); a value never seen runs
    again; every version's IR equals a walk from scratch."""
    path = str(tmp_path / "undo.cu")
    options = Options()
    doc = frontend_parse.ParsedDocument(path)
    text = UNDO
    previous = doc.parse(options, text.encode())
    try:
        for what, old, new, changes, served in UNDO_STEPS:
            assert text.count(old) == 1, what
            text = text.replace(old, new)
            if what.startswith("an empty line added above"):
                text = text.replace("void run(", "\nvoid run(")  # the kept results move
            if what.startswith("a comment added above"):
                text = "// a comment\n" + text  # the context changed: nothing is kept
            done, runs = doc.walks.host_done, doc.walks.runs_done
            kept = doc.parse(options, text.encode())
            fresh = _fresh(path, options, text.encode())
            assert kept == fresh, what
            assert (_launches(fresh) != _launches(previous)) == changes, what
            if served:
                assert doc.walks.host_done == done, f"{what}: launches evaluated again"
                assert doc.walks.runs_done == runs, f"{what}: the kernel ran again"
            else:
                assert doc.walks.host_done > done, f"{what}: launches not evaluated"
            previous = fresh
    finally:
        doc.close()


SETS = """\
__global__ void rows(float *out) {
    __shared__ float s[2048];
    s[threadIdx.x * (blockDim.x / 32)] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

void launch_rows(float *out, dim3 block) {
    rows<<<1, block>>>(out);
}

void run(float *out, int ncols) {
    int nth = 32;
    while (nth < ncols && nth < 256) nth *= 2;
    const dim3 block(nth, 1, 1);
    launch_rows(out, block);
}

int main(int argc, char **argv) {
    float *out = 0;
    run(out, argc);
    return 0;
}
"""

SETS_STEPS: list[tuple[str, str, str, bool]] = [
    (
        "statement added to main",
        "    float *out = 0;\n",
        "    float *out = 0;\n    int unrelated = 3;\n",
        False,
    ),
    ("the set's bound changed", "nth < 256", "nth < 128", True),
    ("statement removed from main", "    int unrelated = 3;\n", "", False),
]


def test_a_shape_set_passed_to_a_wrapper_is_part_of_the_contexts(tmp_path: Path) -> None:
    """A ``dim3`` parameter passed a bounded set of shapes (``launch_sets``) keeps the
    set when the wrapper's contexts are kept: a kept context without it would fall back
    to the assumed shape, and one with a stale set would keep the old shapes."""
    path = str(tmp_path / "sets.cu")
    options = Options()
    doc = frontend_parse.ParsedDocument(path)
    previous: TranslationUnit | None = None
    try:
        for what, data, changes in _versions(SETS, SETS_STEPS):
            kept = doc.parse(options, data)
            fresh = _fresh(path, options, data)
            assert kept == fresh, what
            assert len(fresh.launches) > 1, "the set's shapes are launches"
            if previous is not None:
                assert (_launches(fresh) != _launches(previous)) == changes, what
            previous = fresh
    finally:
        doc.close()
