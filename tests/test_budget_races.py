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
