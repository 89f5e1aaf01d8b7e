"""The budget's interruptions never escape as a traceback: one that lands while the
file's thread is already handling the budget's own, or as the thread ends (ggml's
fattn files on a machine at load 10: a BudgetExceeded escaped ``check_file``)."""

from __future__ import annotations

import threading

import pytest

from cudalint import checker
from cudalint.budget import BudgetExceeded, _quiet_thread_end
from cudalint.options import Options


def test_an_interruption_escaping_the_pipeline_is_a_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def late(*_args: object, **_kwargs: object) -> checker.FileReport:
        raise BudgetExceeded("interrupted in the handler")

    monkeypatch.setattr(checker, "_check_file", late)
    report = checker.check_file("k.cu", Options(timeout=3), contents=b"__global__ void k() {}\n")
    assert report.error is not None and "analysis stopped after 3 s" in report.error


def test_an_interruption_as_the_thread_ends_is_not_printed() -> None:
    seen: list[type[BaseException] | None] = []
    hook = _quiet_thread_end(lambda args: seen.append(args.exc_type))

    def ended_with(exc: BaseException) -> threading.ExceptHookArgs:
        return threading.ExceptHookArgs((type(exc), exc, None, None))

    hook(ended_with(BudgetExceeded("late")))
    assert seen == []
    hook(ended_with(ValueError("a real bug")))
    assert seen == [ValueError]


def test_the_backstop_counts_cpu_time_not_a_loaded_machines_wall_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file that has used little CPU is not stopped because the machine is busy (its
    thread waits for a core): the same file gives the same result at any load."""
    import time

    import cudalint.budget as budget

    monkeypatch.setattr(budget, "HARD_FACTOR", 1.0)
    monkeypatch.setattr(budget, "HARD_GRACE", 0.1)

    def slow_without_cpu(_b: budget.Budget) -> str:
        time.sleep(0.6)  # well past the 0.2 s backstop in wall-clock time
        return "done"

    got = budget.run_bounded(slow_without_cpu, 0.1, on_hard_timeout=lambda: "stopped")
    assert got == "done"


def test_a_thread_waiting_forever_is_still_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    import cudalint.budget as budget

    monkeypatch.setattr(budget, "HARD_FACTOR", 1.0)
    monkeypatch.setattr(budget, "HARD_GRACE", 0.05)
    monkeypatch.setattr(budget, "HARD_WALL_FACTOR", 2.0)
    start = time.monotonic()

    def waits(_b: budget.Budget) -> str:
        time.sleep(30)
        return "done"

    # asleep in C, the interruption cannot land: the thread is abandoned
    assert budget.run_bounded(waits, 0.05, on_hard_timeout=lambda: "stopped") == "stopped"
    assert time.monotonic() - start < 5
