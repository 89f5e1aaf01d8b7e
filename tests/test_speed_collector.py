"""Issue 15, goal 2: a file's analysis in one process, and what it leaves behind.

- ``budget.collector_held``: the walk pauses Python's cyclic collector
  (``walker._collector_paused``) and ``checker.check_source`` keeps it paused through the
  model and the rules, then turns it back on; where the walk does not pause (the
  language server's kept documents), nothing is paused.
- ``walker._release``: a finished walk (no reuse) drops its own references, so that its
  cursor trees go by reference counting instead of a cyclic collection (1.7 s for ggml's
  ``mmq.cu``, paid by a later file or by the worker's collection after each file).
- ``host._keeps_state``'s memo is the walk's (``HostLaunches.stateful``): a module-level
  one kept the bodies of every earlier file's host functions, and through them each
  file's walker, translation unit and cursor trees, alive in the process.
"""

from __future__ import annotations

import gc
import threading
from pathlib import Path

import pytest
from clang import cindex as ci

from cudalint import budget
from cudalint.api import check_file
from cudalint.frontend import execute, parse
from cudalint.frontend.tree import Node
from cudalint.model import analyze as analyze_module
from cudalint.options import Options

# a host helper whose value is the block size: ``call_value`` runs it (and asks
# ``_keeps_state`` about it)
SOURCE = """
__global__ void k(float *out) {
    __shared__ float s[256];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * 2) %% 256];
}
int threads(int n) {
    int t = 64;
    if (n > 4)
        t = 128;
    return t;
}
void run(float *out) { k<<<1, threads(%d)>>>(out); }
"""


@pytest.fixture(autouse=True)
def _collector_on() -> object:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_held_resumes_at_the_end() -> None:
    with budget.collector_held():
        with budget.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # held: stays off past the pause
    assert gc.isenabled()


def test_pause_without_hold_and_hold_without_pause() -> None:
    with budget.collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with budget.collector_held():
        assert gc.isenabled()  # nothing paused: nothing held off
    assert gc.isenabled()


def test_collector_left_off_by_the_caller_stays_off() -> None:
    gc.disable()
    with budget.collector_held(), budget.collector_paused():
        pass
    assert not gc.isenabled()


def test_a_hold_is_per_thread() -> None:
    """Another thread's pause ends with its own rules: a hold open here does not keep
    it (an abandoned analysis thread's hold must not keep the next file's on)."""
    seen: list[bool] = []

    def other() -> None:
        with budget.collector_paused():
            pass
        seen.append(gc.isenabled())

    with budget.collector_held():
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == [True]


def _model_collector_state(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    states: list[bool] = []
    real = analyze_module.analyze

    def spy(*args: object, **kwargs: object) -> object:
        states.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analyze_module, "analyze", spy)
    return states


def test_model_runs_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "k.cu"
    src.write_text(SOURCE % 8)
    states = _model_collector_state(monkeypatch)
    report = check_file(str(src), Options(timeout=None))
    assert report.error is None and report.results
    assert states == [False]
    assert gc.isenabled()


def test_kept_documents_keep_the_collector_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "k.cu"
    src.write_text(SOURCE % 8)
    states = _model_collector_state(monkeypatch)
    parse.keep_documents(2)
    try:
        report = check_file(str(src), Options(timeout=None), src.read_bytes())
    finally:
        parse.keep_documents(None)
    assert report.error is None and report.results
    assert states == [True]
    assert gc.isenabled()


def _units() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, ci.TranslationUnit))


def test_earlier_files_units_are_freed(tmp_path: Path) -> None:
    """After several files in one process, at most the last one's translation unit is
    alive (``execute._PROJECT_NAMES`` keeps the last walk's): before, each file whose
    host helper ``call_value`` ran stayed alive through ``host._STATEFUL``."""
    before = _units()
    for i in range(4):
        src = tmp_path / f"k{i}.cu"
        src.write_text(SOURCE % (i + 3))
        report = check_file(str(src), Options(timeout=None))
        assert report.error is None
        launched = {r.access.instantiation for r in report.results}
        assert launched  # the helper's value gave a launch shape
        del report
    assert _units() <= before + 1


def _nodes() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, Node))


def test_walk_objects_go_without_a_collection(tmp_path: Path) -> None:
    """With the collector off, none of the walk's cursor-tree nodes is alive once the
    report is dropped (the last walk's project names let go too): reference counting
    freed them, no cyclic collection needed."""
    src = tmp_path / "k.cu"
    src.write_text(SOURCE % 8)
    execute._PROJECT_NAMES.clear()
    gc.collect()
    before = _nodes()
    gc.disable()
    try:
        report = check_file(str(src), Options(timeout=None))
        assert report.error is None and report.results
        del report
        execute._PROJECT_NAMES.clear()
        after = _nodes()
    finally:
        gc.enable()
    assert after <= before
