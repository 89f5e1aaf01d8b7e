"""Launches across files: a kernel launched in one file of a folder and defined in another.

A program is often split as nvcc links it: ``main.cu`` declares
``extern "C" __global__ void k(float*);`` and launches ``k<<<g, dim3(16, 16)>>>``, and
``k.cu`` defines ``k``. Each file is its own translation unit, so ``k.cu`` alone knows no
launch of ``k`` and its accesses would be analysed with an assumed shape. The frontend keeps
the launches of kernels that a file only declares (``Launch`` records whose kernel the unit
does not define); after every file of a run is analysed, ``link_launches`` gives them to
the file that defines the kernel and analyses that unit again (model and rules only, no
parse).

Which definition a declaration links to is nvcc's linker's business and not visible here,
so cudalint links only what is unambiguous: the declaring and the defining file are in the
same folder (one program per folder, as in NVIDIA's samples and most projects), and the
folder's files define a kernel of that name in exactly one place (a header that several of
them include is one place). Two definitions in one folder (two variants of one kernel built
into different programs) leave both with their own launches only. Template kernels are
not linked (the frontend records no launch of a declared template: the defining file
labels its own instantiations), and a launch's constant arguments are not bound to the
kernel's parameters in the other file: only its block shape travels.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from cudalint.ir import Launch, TranslationUnit

if TYPE_CHECKING:
    from cudalint.checker import FileReport, FileTask


class _Report(Protocol):
    path: str
    unit: TranslationUnit | None
    error: str | None


def _folder(path: str) -> str:
    return os.path.normcase(os.path.dirname(os.path.abspath(path)))


def external_launches(unit: TranslationUnit) -> list[Launch]:
    """The launches in ``unit`` of kernels it does not define."""
    defined = {k.name for k in unit.kernels}
    return [la for la in unit.launches if la.kernel not in defined]


def link_launches(
    reports: Sequence[_Report],
    reanalyze: Callable[[int, TranslationUnit], None],
) -> list[int]:
    """Give each kernel the launches other files of its folder make of it (see the module
    docstring): for every report whose unit defines such a kernel, ``reanalyze(i, unit)``
    is called with the unit plus those launches. Returns the indices re-analysed."""
    units: list[tuple[int, str, TranslationUnit]] = []
    for i, r in enumerate(reports):
        if r.unit is not None and r.error is None and r.unit.parsed:
            units.append((i, _folder(r.path), r.unit))
    wanted: dict[tuple[str, str], list[Launch]] = {}
    for _, folder, unit in units:
        for la in external_launches(unit):
            wanted.setdefault((folder, la.kernel), []).append(la)
    if not wanted:
        return []
    # where each wanted kernel is defined: one place (a header included by several
    # files of the folder is one place), or the link is ambiguous
    places: dict[tuple[str, str], set[tuple[str, int]]] = {}
    for _, folder, unit in units:
        for k in unit.kernels:
            if (folder, k.name) in wanted:
                places.setdefault((folder, k.name), set()).add(
                    (os.path.normcase(os.path.abspath(k.span.file)), k.span.line))
    done: list[int] = []
    for i, folder, unit in units:
        extra: list[Launch] = []
        for name in sorted({k.name for k in unit.kernels}):
            if len(places.get((folder, name), ())) != 1:
                continue  # not wanted here, or defined in several places: ambiguous
            for la in wanted[(folder, name)]:
                if la not in unit.launches and la not in extra:
                    extra.append(la)
        if extra:
            reanalyze(i, replace(unit, launches=(*unit.launches, *extra)))
            done.append(i)
    return done


def link_reports(tasks: Sequence[FileTask], reports: list[FileReport]) -> list[int]:
    """``link_launches`` on a run's reports (parallel to ``tasks``), in place: a report
    whose unit gains launches is replaced by ``check_unit`` of that unit with the task's
    options and rules (it keeps its ``covered_by``; a re-analysis that fails keeps the
    first report). Runs after the per-file result cache, which holds each file's own
    analysis, and before the reports are merged."""
    from cudalint.checker import check_unit

    def reanalyze(i: int, unit: TranslationUnit) -> None:
        t, old = tasks[i], reports[i]
        new = check_unit(t.path, unit, t.options, selection=t.selection, source=old.source)
        if new.error is None:
            new.covered_by = old.covered_by
            reports[i] = new

    return link_launches(reports, reanalyze)
