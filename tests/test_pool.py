"""The workers of a run (``cudalint.manager``): the precompiled shim is built once per
run, in the main process, and every file's translation unit is gone before the next
file starts (issue 15, goal 3: ``-j 2`` speed-up and peak memory)."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import pytest

from cudalint import api
from cudalint.options import Options

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux process model")

KERNEL = """\
__global__ void NAME(float *out) {
    __shared__ float tile[32][32];
    tile[threadIdx.x][0] = out[threadIdx.x];
}
"""

NAMES = ("a", "b", "c", "d", "e", "f")


def _files(tmp_path: Path) -> list[Path]:
    out = []
    for name in NAMES:
        path = tmp_path / f"{name}.cu"
        path.write_text(KERNEL.replace("NAME", name))
        out.append(path)
    return out


def _lines(path: Path) -> list[str]:
    return path.read_text().split() if path.exists() else []


def test_a_pool_builds_the_precompiled_shim_once_in_the_main_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-j 2 over six files: the shim of their options is built once, by the main
    process, before the workers start; no worker builds one, and each worker has it
    before its first file."""
    import cudalint.manager as manager
    from cudalint.frontend import parse

    builds, seen = tmp_path / "builds", tmp_path / "seen"
    real_room = parse._room_for_pch

    def room(directory: str) -> bool:  # called once per shim written, just before
        with open(builds, "a") as f:
            f.write(f"{os.getpid()}\n")
        return real_room(directory)

    # a define of its own: a set of flags no earlier test has a shim for
    define = f"CUDALINT_TEST_POOL_SHIM={os.getpid()}"
    options = Options(defines=(define,))
    real_task = manager._run_task

    def spy(task: api.FileTask) -> api.FileReport:
        have = [v for k, v in parse.precompiled_shims().items() if f"-D{define}" in k]
        with open(seen, "a") as f:
            f.write(f"{os.getpid()}:{int(len(have) == 1 and bool(have[0]))}\n")
        return real_task(task)

    monkeypatch.setattr(parse, "_room_for_pch", room)
    monkeypatch.setattr(manager, "_run_task", spy)  # the workers are forked with it
    if not manager._can_fork_pool():
        pytest.skip("the pool's workers are not forked here (Python < 3.11)")
    tasks = [api.FileTask(str(p), options) for p in _files(tmp_path / "")]
    reports = api.run_tasks(tasks, jobs=2)
    assert [r.error for r in reports] == [None] * len(NAMES)
    assert all(len(r.diagnostics) == 1 for r in reports)  # 32-way conflict each
    assert _lines(builds) == [str(os.getpid())]
    workers = {line.split(":")[0] for line in _lines(seen)}
    assert str(os.getpid()) not in workers and len(_lines(seen)) == len(NAMES)
    assert all(line.endswith(":1") for line in _lines(seen))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_files_translation_unit_is_gone_before_the_next_file_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """The walker's objects that reach a libclang unit form reference cycles, so the unit
    (and libclang's memory behind it) would live until the next full collection; the
    worker collects after each file (``budget.release_memory``). Checked in the worker
    (the forked child of -j 1, a pool worker of -j 2) at the start of every file, with
    the growth it waits for set to 0 (every file)."""
    import clang.cindex as ci

    import cudalint.manager as manager
    from cudalint import budget

    monkeypatch.setattr(budget, "RELEASE_GROWTH", 0)  # the workers are forked with it

    live = tmp_path / "live"
    real_task = manager._run_task

    def spy(task: api.FileTask) -> api.FileReport:
        gc.disable()  # no automatic collection may hide what is left
        try:
            n = sum(1 for o in gc.get_objects() if isinstance(o, ci.TranslationUnit))
            with open(live, "a") as f:
                f.write(f"{os.getpid()}:{n}\n")
            return real_task(task)
        finally:
            gc.enable()

    monkeypatch.setattr(manager, "_run_task", spy)
    if jobs == 2 and not manager._can_fork_pool():
        pytest.skip("the pool's workers are not forked here (Python < 3.11)")
    tasks = [api.FileTask(str(p), Options()) for p in _files(tmp_path)]
    reports = api.run_tasks(tasks, jobs=jobs)
    assert [r.error for r in reports] == [None] * len(NAMES)
    rows = _lines(live)
    assert len(rows) == len(NAMES)
    # every worker ran more than one file here, so a unit left behind would be seen
    assert len({r.split(":")[0] for r in rows}) < len(NAMES)
    assert [r.split(":")[1] for r in rows] == ["0"] * len(NAMES)


def test_release_memory_collects_once_the_process_has_grown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full collection costs more the longer a worker lives, so it is made once the
    process has grown by RELEASE_GROWTH since the last one (or when forced)."""
    from cudalint import budget

    monkeypatch.setattr(budget, "_released_at", -1)
    monkeypatch.setattr(budget, "RELEASE_GROWTH", 8 << 20)
    try:
        assert budget.release_memory() is True  # the first call
        assert budget.release_memory() is False  # no growth since
        assert budget.release_memory(force=True) is True
        grown = [bytearray(1 << 20) for _ in range(24)]  # 24 MiB, touched
        assert budget.release_memory() is True
        assert budget.release_memory() is False
        del grown
    finally:
        gc.unfreeze()  # what it froze in this test process


def test_siblings_building_shims_for_new_flags_write_distinct_files(tmp_path: Path) -> None:
    """Two children forked from one parent inherit the same shims and may each build one
    for flags the parent has not seen (a compilation database's per-file ``-D``). Their
    files must not collide: a shared name let the second overwrite the first, whose
    parse then loaded a shim built for other flags ("Error parsing translation unit",
    seen under load on LeetCUDA). Both siblings are simulated in one process by putting
    back the inherited cache between the two builds."""
    from cudalint.frontend import parse

    path = tmp_path / "k.cu"
    path.write_text(KERNEL.replace("NAME", "k"))
    inherited = dict(parse._pch_cache)
    tag = os.getpid()
    first = Options(defines=(f"CUDALINT_SIBLING_A={tag}",))
    second = Options(defines=(f"CUDALINT_SIBLING_B={tag}",))
    args_a = parse._with_precompiled_shim(parse.clang_args(first))
    built_a = dict(parse._pch_cache)
    parse._pch_cache.clear()
    parse._pch_cache.update(inherited)  # the sibling's view: forked before the first build
    args_b = parse._with_precompiled_shim(parse.clang_args(second))
    parse.adopt_precompiled_shims(built_a)  # the parent hears from both
    pch_a = args_a[args_a.index("-include-pch") + 1]
    pch_b = args_b[args_b.index("-include-pch") + 1]
    assert pch_a != pch_b
    for options in (first, second):
        unit = parse.parse_file(str(path), options)
        assert [n.message for n in unit.notes if n.severity == "error"] == []
        assert len(unit.accesses) == 1
