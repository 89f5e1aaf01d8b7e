"""``--statistics``: how many diagnostics each rule reported, most first; and the run's
totals behind the summary line (:class:`Totals`).

Text: one line per rule, ``COUNT  CODE  name``; with ``--format json``, a list of
``{"code", "name", "severity", "count"}`` objects.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cudalint.api import FileReport

#: Default of ``--max-unknown``: a run in which more than this percentage of the shared
#: accesses are ``unknown`` did not see most of the code, and says so (exit status 2).
DEFAULT_MAX_UNKNOWN = 50.0


@dataclass(frozen=True)
class Totals:
    """What a run analyzed, as the summary line and JSON ``summary`` report it.

    Accesses are counted as the model returns them: one per source access, template
    instantiation and bank mode (the records of ``--format json --show-all``), plus one
    unknown access per inline-PTX statement that touches shared memory at an address
    cudalint cannot trace to an array (``untraced``: it has no record, only its CL004).
    """

    files: int
    #: Files that could not be analyzed, or not fully (out of ``--timeout``).
    failed: int
    accesses: int
    proved: int
    worst_case: int
    unknown: int
    #: Diagnostics (after selection and suppression) of an access that conflicts.
    conflicts: int
    #: Of ``accesses`` and ``unknown``: inline-PTX shared accesses without a record.
    untraced: int = 0

    @property
    def unknown_percent(self) -> float:
        return 100.0 * self.unknown / self.accesses if self.accesses else 0.0

    def too_unknown(self, max_unknown: float) -> bool:
        """Whether more than ``max_unknown`` percent of the accesses are unknown."""
        return self.unknown > 0 and self.unknown_percent > max_unknown

    def as_json(self) -> dict[str, int]:
        return {
            "files": self.files, "failed_files": self.failed, "accesses": self.accesses,
            "proved": self.proved, "worst_case": self.worst_case, "unknown": self.unknown,
            "untraced": self.untraced, "conflicts": self.conflicts,
        }


def totals(reports: Sequence[FileReport]) -> Totals:
    statuses: Counter[str] = Counter(r.status for report in reports for r in report.results)
    # each statement once (the walk may note it once per call or loop pass, and each
    # .cu of a folder run that includes a header notes the header's statements again)
    untraced = sum(n.unanalyzed for n in {
        n for report in reports if report.unit is not None for n in report.unit.notes})
    return Totals(
        files=len(reports),
        failed=sum(1 for report in reports if report.error is not None),
        accesses=sum(statuses.values()) + untraced,
        proved=statuses["proved"],
        worst_case=statuses["worst-case"],
        unknown=statuses["unknown"] + untraced,
        untraced=untraced,
        conflicts=sum(
            1 for report in reports for d in report.diagnostics
            if d.result is not None and d.result.has_conflict
        ),
    )


def percent(value: float) -> str:
    """``98%``; ``<1%`` rather than a misleading ``0%`` for a small nonzero share."""
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{value:.0f}%"


def unknown_message(t: Totals, max_unknown: float) -> str:
    """The run-level error when too many accesses are unknown (see ``--max-unknown``)."""
    return (
        f"{t.unknown} of {t.accesses} shared-memory accesses ({percent(t.unknown_percent)}) "
        f"are unknown (more than --max-unknown {max_unknown:g}%): the analysis did not see "
        "what most of this code does, so finding no conflict proves nothing; "
        "'--extend-select CL003' says why each access is unknown, "
        "'--max-unknown 100' accepts this"
    )


def counts(reports: Sequence[FileReport]) -> list[dict[str, Any]]:
    by_code: Counter[tuple[str, str, str]] = Counter(
        (d.code, d.name, d.severity) for report in reports for d in report.diagnostics
    )
    rows = sorted(by_code.items(), key=lambda item: (-item[1], item[0][0]))
    return [
        {"code": code, "name": name, "severity": severity, "count": n}
        for (code, name, severity), n in rows
    ]


def render_text(reports: Sequence[FileReport]) -> str:
    rows = counts(reports)
    if not rows:
        return ""
    width = max(len(str(r["count"])) for r in rows)
    return "".join(
        f"{r['count']:>{width}}  {r['code']}  {r['name']} ({r['severity']})\n" for r in rows
    )


def render_json(reports: Sequence[FileReport]) -> str:
    return json.dumps(counts(reports), indent=2) + "\n"
