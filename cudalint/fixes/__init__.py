"""Fixes: derived from the IR, proved by the model, handed to the rules as data.

- :mod:`~cudalint.fixes.layout`: padding, a new row stride for 1-D arrays used as 2-D,
  XOR swizzle; each re-checked on every access (:mod:`~cudalint.fixes.recheck`).
- :mod:`~cudalint.fixes.kepler`: Kepler's 8-byte bank mode.
- :mod:`~cudalint.fixes.packing`: two 4-byte loads that one ``float2`` load could serve.
- :mod:`~cudalint.fixes.apply`: ``--fix`` / ``--unsafe-fixes`` / ``--diff``.

Layering: fixes read the IR and call the model; the model never imports fixes; the rules
call :func:`planner_for` to attach a fix to a diagnostic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cudalint.diagnostics import Fix
from cudalint.fixes.kepler import eight_byte_mode_fix
from cudalint.fixes.layout import ArrayPlan, LayoutPlanner
from cudalint.fixes.recheck import Rechecker
from cudalint.ir import TranslationUnit
from cudalint.model.results import AccessResult
from cudalint.options import Options

if TYPE_CHECKING:
    from cudalint.model.caches import RunCaches

__all__ = ["FixPlanner", "options_from_results", "planner_for"]


def options_from_results(results: Sequence[AccessResult]) -> Options:
    """The analysis options, as far as the results show them (when none were passed)."""
    if not results:
        return Options()
    arch = results[0].arch
    modes = sorted({r.bank_mode for r in results})
    bank_mode = "both" if modes == [4, 8] else ("8" if modes == [8] else None)
    cli = next((r.block_dim for r in results if r.block_dim_source == "cli"), None)
    return Options(arch=arch, bank_mode=bank_mode, block_dim=cli)  # type: ignore[arg-type]


@dataclass
class FixPlanner:
    """Fixes for the diagnostics of one file (derived once per array, on demand)."""

    path: str
    unit: TranslationUnit
    results: Sequence[AccessResult]
    options: Options
    source: bytes | None
    #: The file's analysis run (its proofs are reused); None: one of the planner's own.
    run: RunCaches | None = None

    def __post_init__(self) -> None:
        self._layout: LayoutPlanner | None = None
        self._rechecker = Rechecker(self.unit, self.options, self.run)
        if self.source is not None:
            self._layout = LayoutPlanner(
                self.path, self.unit, self.options, self.source, self._rechecker,
            )
        #: Planners for arrays declared in project headers, by the header's path.
        self._header_layouts: dict[str, LayoutPlanner | None] = {}

    def _layout_for(self, file: str) -> LayoutPlanner | None:
        """The planner of the file an array is declared in: the main file's, or one over
        a header's own bytes, whose edits go to the header."""
        if self._layout is None or not file or file == self.path or file == self.unit.file:
            return self._layout
        if file not in self._header_layouts:
            try:
                with open(file, "rb") as f:
                    header = f.read()
            except OSError:
                self._header_layouts[file] = None
            else:
                self._header_layouts[file] = LayoutPlanner(
                    file, self.unit, self.options, header, self._rechecker)
        return self._header_layouts[file] or self._layout

    def array_plan(self, key: str) -> ArrayPlan | None:
        if self._layout is None:
            return None
        try:
            array = self.unit.array(key)
        except KeyError:
            return None
        layout = self._layout_for(array.span.file)
        assert layout is not None
        return layout.plan(key)

    def fix_for(self, result: AccessResult) -> Fix | None:
        """The proved fix for the access behind a conflict diagnostic, or None."""
        if not result.has_conflict:
            return None
        kepler = eight_byte_mode_fix(result, self.results)
        if kepler is not None:
            return kepler
        plan = self.array_plan(result.access.array)
        if plan is None or plan.fix is None or plan.candidate is None:
            return None
        if not plan.candidate.improves(result):
            return None
        # the re-check's result for this access: the bank map "after" the fix
        return replace(plan.fix, checked=plan.candidate.after(result))


def planner_for(shared: dict[str, object], path: str, unit: TranslationUnit,
                results: Sequence[AccessResult], options: Options | None,
                source: bytes | None, run: RunCaches | None = None) -> FixPlanner:
    """One planner per file: the rules of one file share it through ``shared``
    (``rules.FileContext.shared``), which lives as long as the file's context; no
    planner outlives its file."""
    planner = shared.get("fix_planner")
    if isinstance(planner, FixPlanner):
        return planner
    planner = FixPlanner(path, unit, results,
                         options if options is not None else options_from_results(results),
                         source, run)
    shared["fix_planner"] = planner
    return planner
