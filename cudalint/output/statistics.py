"""``--statistics``: how many diagnostics each rule reported, most first.

Text: one line per rule, ``COUNT  CODE  name``; with ``--format json``, a list of
``{"code", "name", "severity", "count"}`` objects.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from cudalint.api import FileReport


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
