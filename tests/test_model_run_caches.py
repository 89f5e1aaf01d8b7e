"""The proof's caches belong to the analysis run (cudalint.model.caches.RunCaches).

- the model keeps no mutable cache at module level beyond the few process-wide caches of
  pure functions that say why they stay (a new one fails here);
- two runs share nothing, and give the results one run gives;
- each cache keeps its limit;
- a file's analysis and its fixes' re-checks are one run.
"""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest
from factories import float_store

import cudalint.model as model_pkg
from cudalint.checker import check_file
from cudalint.ir import INT, THREAD_IDX, Access, Binary, Const, SharedArray, Sym
from cudalint.model import caches, proof, stride_loops
from cudalint.model.arch import parse_arch
from cudalint.model.caches import RunCaches
from cudalint.model.results import AccessResult
from cudalint.model.shapes import Shape
from cudalint.model.warps import known_shape_warps
from cudalint.options import Options

#: Module-level names the model may change at run time: process-wide caches of pure
#: functions (compiled code by its source text, sympy's interned names) and the
#: language server's installed analysis cache. Each says why at its definition.
_ALLOWED = {
    ("algebra", "_FUNCS"),
    ("algebra", "_OPAQUE_IDS"),
    ("evaluate", "_WARP_CODE"),
    ("proof", "_PLAIN_CODE"),
    ("analyze", "_analysis_cache"),
}
_MUTATORS = {
    "append",
    "clear",
    "extend",
    "insert",
    "pop",
    "popitem",
    "remove",
    "setdefault",
    "update",
    "add",
    "discard",
    "move_to_end",
}


def _mutated_globals(tree: ast.Module) -> set[str]:
    top = {
        t.id
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Name)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found.update(node.names)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for t in targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
                    found.add(t.value.id)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
            and isinstance(node.func.value, ast.Name)
        ):
            found.add(node.func.value.id)
    return found & top


def test_the_model_keeps_no_cache_of_its_own_at_module_level() -> None:
    mutated: set[tuple[str, str]] = set()
    for path in sorted(Path(model_pkg.__file__).parent.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "threading.local" not in text, path.name
        mutated |= {(path.stem, name) for name in _mutated_globals(ast.parse(text))}
    assert mutated == _ALLOWED


def test_the_fix_planner_keeps_no_file_at_module_level() -> None:
    """The fix planner is the file context's (``rules.FileContext.shared``): no module of
    cudalint.fixes keeps a planner, or anything else, from one file to the next."""
    import cudalint.fixes as fixes_pkg

    for path in sorted(Path(fixes_pkg.__file__).parent.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "threading.local" not in text, path.name
        assert _mutated_globals(ast.parse(text)) == set(), path.name


def _sampled_access(offset_k: int = 1) -> tuple[Access, SharedArray]:
    tx = Sym(THREAD_IDX[0], INT, lane_dependent=True)
    k = Sym("k@L3:i", INT)  # a loop's iteration count: the sampled path
    offset = Binary(
        "*",
        Binary(
            "%",
            Binary("*", tx, Binary("+", k, Const(offset_k, INT), INT), INT),
            Const(64, INT),
            INT,
        ),
        Const(4, INT),
        INT,
    )
    return float_store(offset)


def test_runs_share_nothing_and_prove_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    access, array = _sampled_access()
    shape = Shape((64, 1, 1), "launch")
    arch = parse_arch("sm_90")
    proved = 0
    real = proof._prove

    def counting(*args):  # type: ignore[no-untyped-def]
        nonlocal proved
        proved += 1
        return real(*args)

    monkeypatch.setattr(proof, "_prove", counting)
    a, b = RunCaches(), RunCaches()
    first = proof.prove(access, array, shape, arch, 4, 0, a)
    assert proved == 1 and len(a.proofs) == 1 and a.sampled and a.lane_ranges
    assert proof.prove(access, array, shape, arch, 4, 0, a) == first
    assert proved == 1  # remembered in the run
    assert proof.prove(access, array, shape, arch, 4, 0, b) == first
    assert proved == 2  # another run proves it again
    assert not (set(map(id, a.sampled)) & set(map(id, b.sampled)))
    assert proof.prove(access, array, shape, arch, 4, 0) == first  # a run of its own
    assert proved == 3 and len(a.proofs) == len(b.proofs) == 1


def test_runs_on_threads_give_the_results_of_one_run() -> None:
    shape = Shape((64, 1, 1), "launch")
    arch = parse_arch("sm_90")
    jobs = [(_sampled_access(k), base) for k in (1, 2, 3) for base in (0, 32, None)]
    alone = [proof.prove(acc, arr, shape, arch, 4, base) for (acc, arr), base in jobs]
    got: dict[int, list[AccessResult]] = {}

    def work(i: int) -> None:
        run = RunCaches()
        got[i] = [
            proof.prove(acc, arr, shape, arch, 4, base, run) for (acc, arr), base in reversed(jobs)
        ][::-1]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {i: alone for i in range(3)}


def test_each_cache_keeps_its_limit() -> None:
    run = RunCaches()
    # lane ranges: the last few lists of warps
    for n in range(1, run.LANE_RANGES_KEPT + 5):
        warps = known_shape_warps((32 * n, 1, 1))
        assert proof._lane_ranges(run, warps)["threadIdx.x"] == (0, 32 * n - 1)
    assert len(run.lane_ranges) == run.LANE_RANGES_KEPT == 8
    assert proof._lane_ranges(run, list(warps)) is run.lane_ranges[-1][1]  # remembered
    # loop exits: the last _EXITS_KEPT answers
    k = Sym("k@L3:i", INT)
    tx = Sym(THREAD_IDX[0], INT, lane_dependent=True)
    for n in range(stride_loops._EXITS_KEPT + 5):
        conj = Binary(
            "<", Binary("+", tx, Binary("*", k, Const(64, INT), INT), INT), Const(100 + n, INT), INT
        )
        stride_loops._exits(run, conj, k.name, known_shape_warps((64, 1, 1)))
    assert len(run.exits) == stride_loops._EXITS_KEPT == 16
    # sampled offsets: the last _SAMPLED_KEPT; proofs: cleared past MAX_PROOFS
    run.MAX_PROOFS = 2
    shape = Shape((64, 1, 1), "launch")
    for off in range(1, 6):
        access, array = _sampled_access(off)
        proof.prove(access, array, shape, parse_arch("sm_90"), 4, 0, run)
        assert len(run.proofs) <= 2
        assert len(run.sampled) <= proof._SAMPLED_KEPT == 3
    assert len(run.sampled) == 3
    assert RunCaches.MAX_PROOFS == 8192  # the class's limit is untouched


def test_reusing_sets_the_memo_for_its_block_only() -> None:
    run = RunCaches()
    memo = proof.CaseMemo()
    with run.reusing(memo):
        assert run.memo is memo
        inner = proof.CaseMemo()
        with run.reusing(inner):
            assert run.memo is inner
        assert run.memo is memo
    assert run.memo is None


_TRANSPOSE = """\
__global__ void transpose(float *out, const float *in) {
    __shared__ float tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 32 + x];
    __syncthreads();
    out[y * 32 + x] = tile[x][y];
}
int main() { transpose<<<1, dim3(32, 8)>>>(0, 0); }
"""


def test_a_file_and_its_fix_rechecks_are_one_run(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[RunCaches] = []
    real_init = RunCaches.__init__

    def init(self: RunCaches, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(self)

    monkeypatch.setattr(caches.RunCaches, "__init__", init)
    path = tmp_path / "t.cu"
    path.write_text(_TRANSPOSE, encoding="utf-8")
    report = check_file(str(path), Options())
    assert report.error is None
    fixed = [d for d in report.diagnostics if d.fix is not None]
    assert fixed, [d.message for d in report.diagnostics]  # the padding fix was re-checked
    assert len(made) == 1
    assert len(made[0].proofs) > len(report.results)  # the candidates' proofs, too
