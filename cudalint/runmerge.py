"""What one run's reports settle together: code in a header is analysed from every
file that includes it (and from the header on its own), so the per-file reports of a
run repeat it. :func:`merge_reports` keeps one result per access (``dedupe_reports``)
and decides which of a header's suppression comments were used by any file of the run.

The per-file pipeline (:mod:`cudalint.checker`) gives each report what it shows on its
own; this is the only step that looks at several reports at once.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence

from cudalint.checker import FileReport, report_unused
from cudalint.diagnostics import Diagnostic
from cudalint.discovery import path_key as _abs
from cudalint.model.results import AccessResult
from cudalint.rules.partial_parse import RULE as _PARTIAL_PARSE_RULE
from cudalint.suppressions import UNUSED_CODE

__all__ = ["dedupe_reports", "merge_reports"]


def merge_reports(reports: Sequence[FileReport]) -> None:
    """One run's reports as the command line shows them, in place: one result per
    access across the reports (``dedupe_reports``), then ``CL100`` for each file's
    suppression comments that no diagnostic of the run (in any report, suppressed or
    not) used. The result does not depend on the order the files were analysed in."""
    for report in reports:
        report.diagnostics = [d for d in report.diagnostics
                              if not (d.code == UNUSED_CODE and d.result is None)]
    dedupe_reports(reports)
    # Diagnostics in a file that other files reported (a header they include): a
    # suppression in the header that they hit is not unused.
    elsewhere: dict[str, list[Diagnostic]] = {}
    if any(UNUSED_CODE in r.codes for r in reports):
        for other in reports:
            for d in (*other.diagnostics, *other.suppressed_diagnostics):
                if d.file != other.path:
                    elsewhere.setdefault(os.path.abspath(d.file), []).append(d)
    for report in reports:
        if report.unit is None:
            continue
        report.suppressed = len(report.suppressed_diagnostics)
        report_unused(report, [dataclasses.replace(d, file=report.path)
                               for d in elsewhere.get(os.path.abspath(report.path), ())])


_Context = tuple[str, str, int] | None


def _result_context(report: FileReport, r: AccessResult) -> _Context:
    """The kernel an access was analysed in (name and where it is defined), or None when
    it was analysed in a ``__device__`` function on its own (no kernel of its file
    calls it, so its parameters and block shape are unknown)."""
    assert report.unit is not None
    for k in report.unit.kernels:
        if k.name == r.access.kernel:
            return (k.name, _abs(k.span.file), k.span.line)
    return None


def _calls(r: AccessResult) -> tuple[tuple[str, int, int], ...]:
    return tuple((_abs(s.file), s.line, s.column) for s in r.access.call_sites)


def _rank(r: AccessResult) -> tuple[float, int, int]:
    # As the model combines shapes: the more ways, the more wavefronts, the less proved.
    status = {"proved": 0, "worst-case": 1, "unknown": 2}.get(r.status, 2)
    return (r.ways or 0.0, r.wavefronts or 0, status)


def dedupe_reports(reports: Sequence[FileReport]) -> None:
    """Keep one result per access and context across the reports of one run, in place.

    A header's code is analysed from every file that includes it and from the header on
    its own. An access is the same when its file, span, kind, architecture and bank mode
    are; among those, results in a kernel beat the device function analysed on its own,
    results of a known instantiation beat the uninstantiated template, and a known block
    shape (launch, annotation, option) beats the assumed one, and a record that no lane
    executes gives way to an executed one (as within one file); of equal ones (same kernel,
    instantiation, shape and calls: a helper's line called twice in a kernel is two
    accesses, ``Access.call_sites``) the worse is kept, the first in task order on a tie, so
    that ``-j`` does not change the output. Diagnostics about dropped results go with
    them; diagnostics without a result (clang's errors in a header) are kept once.
    """
    entries: list[tuple[int, AccessResult, _Context]] = []
    for i, report in enumerate(reports):
        if report.unit is None:
            continue
        for r in report.results:
            entries.append((i, r, _result_context(report, r)))
    # A header not analysed on its own (``covered_report``) takes part as the report its
    # analysis would have been, one with results wherever its code has accesses: the
    # output is the same as when it is analysed on its own.
    in_files = {_abs(r.access.span.file) for _, r, _ in entries}
    covered = {i for i, report in enumerate(reports)
               if report.covered_by is not None and _abs(report.path) in in_files}
    if len({i for i, _, _ in entries} | covered) > 1:
        _drop_duplicate_results(reports, entries)
        _drop_traced_elsewhere(reports)
    seen: set[tuple[str, int, int, str, str]] = set()

    def first_time(d: Diagnostic) -> bool:
        if d.result is None and d.file:
            key = (_abs(d.file), d.line, d.column, d.code, d.message)
            if key in seen:
                return False
            seen.add(key)
        return True

    for report in reports:
        # whether a comment suppresses a diagnostic depends only on its file, line and
        # code: of equal ones, all are suppressed or none
        report.diagnostics = [d for d in report.diagnostics if first_time(d)]
        report.suppressed_diagnostics = [
            d for d in report.suppressed_diagnostics if first_time(d)
        ]


def _drop_traced_elsewhere(reports: Sequence[FileReport]) -> None:
    """A statement one report could not trace (inline PTX in a header helper analysed on
    its own, whose shared address is its caller's pointer) that another report analysed
    through a call has its records there: the "not analyzed" note and its CL004 go, and
    the summary no longer counts it as an unknown access. A note from a call in the
    report's own unit stays: that call's pointer is not the other report's."""
    traced = {(_abs(r.access.span.file), r.access.span.line)
              for report in reports for r in report.results}
    for report in reports:
        unit = report.unit
        if unit is None:
            continue
        gone = {(_abs(n.span.file), n.span.line, n.span.column) for n in unit.notes
                if n.unanalyzed and n.standalone and n.span is not None
                and (_abs(n.span.file), n.span.line) in traced}
        if not gone:
            continue
        report.unit = dataclasses.replace(unit, notes=tuple(
            n for n in unit.notes if not (n.unanalyzed and n.span is not None and (
                _abs(n.span.file), n.span.line, n.span.column) in gone)))

        def kept(d: Diagnostic) -> bool:
            return d.result is not None or d.code != _PARTIAL_PARSE_RULE.code or (
                _abs(d.file), d.line, d.column) not in gone  # noqa: B023

        report.diagnostics = [d for d in report.diagnostics if kept(d)]
        report.suppressed_diagnostics = [d for d in report.suppressed_diagnostics if kept(d)]


def _drop_duplicate_results(
    reports: Sequence[FileReport], entries: list[tuple[int, AccessResult, _Context]]
) -> None:
    def where(r: AccessResult) -> tuple[str, int, int, int, int, str, str, int]:
        s = r.access.span
        return (_abs(s.file), s.line, s.column, s.end_line, s.end_column, r.access.kind,
                r.arch, r.bank_mode)

    groups: dict[tuple[str, int, int, int, int, str, str, int],
                 list[tuple[int, AccessResult, _Context]]] = {}
    for e in entries:
        groups.setdefault(where(e[1]), []).append(e)
    dropped: set[int] = set()
    for group in groups.values():
        if len(group) < 2:
            continue
        if any(c is not None for _, _, c in group):
            dropped.update(id(r) for _, r, c in group if c is None)
            group = [e for e in group if e[2] is not None]
        if any(r.executed for _, r, _ in group):
            # as within one file (model.analyze._drop_unexecuted): code of a template that
            # no lane of one file's instantiations runs (ggml's ``if (np > 1 && ...)`` in a
            # file instantiating only np == 1) costs nothing there; it stays "no lane
            # executes" only where no file's launch or instantiation runs it
            dropped.update(id(r) for _, r, _ in group if not r.executed)
            group = [e for e in group if e[1].executed]
        by_kernel: dict[_Context, list[tuple[int, AccessResult, _Context]]] = {}
        for e in group:
            by_kernel.setdefault(e[2], []).append(e)
        for same_kernel in by_kernel.values():
            # The uninstantiated analysis of another file gives way to instantiations;
            # within one file a symbolic record beside instantiated ones is deliberate
            # (a launch that leaves a bound parameter unknown) and stays.
            instantiated_in = {i for i, r, _ in same_kernel if r.access.instantiation}
            for i, r, _ in same_kernel:
                if r.access.instantiation is None and instantiated_in - {i}:
                    dropped.add(id(r))
            by_inst: dict[str | None, list[AccessResult]] = {}
            for _, r, _ in same_kernel:
                if id(r) not in dropped:
                    by_inst.setdefault(r.access.instantiation, []).append(r)
            for same_inst in by_inst.values():
                if any(r.block_dim_source != "assumed" for r in same_inst):
                    for r in same_inst:
                        if r.block_dim_source == "assumed":
                            dropped.add(id(r))
                # A helper's line called twice in the kernel is two accesses, told
                # apart by their calls (Access.call_sites): each call keeps its result.
                best: dict[tuple[object, ...], AccessResult] = {}
                for r in same_inst:
                    if id(r) in dropped:
                        continue
                    key = (r.block_dim, _calls(r))
                    other = best.get(key)
                    if other is None:
                        best[key] = r
                    elif _rank(r) > _rank(other):
                        dropped.add(id(other))
                        best[key] = r
                    else:
                        dropped.add(id(r))
    if not dropped:
        return
    for i in sorted({i for i, _, _ in entries}):
        report = reports[i]
        report.results = [r for r in report.results if id(r) not in dropped]
        report.diagnostics = [
            d for d in report.diagnostics if d.result is None or id(d.result) not in dropped
        ]
        report.suppressed_diagnostics = [
            d for d in report.suppressed_diagnostics
            if d.result is None or id(d.result) not in dropped
        ]
