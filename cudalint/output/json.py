"""``--format json``: one deterministic object; see docs/json-output.md for the schema."""

from __future__ import annotations

import json
from collections.abc import Sequence

from cudalint.api import FileReport
from cudalint.output import RenderOptions
from cudalint.output.records import collect
from cudalint.output.statistics import totals

#: Bumped on any incompatible change of the object's shape.
VERSION = 1


def render(reports: Sequence[FileReport], options: RenderOptions) -> str:
    diagnostics, accesses, errors = collect(tuple(reports), options.show_all)
    document = {
        "version": VERSION,
        "diagnostics": diagnostics,
        "accesses": accesses,
        "errors": errors,
        "summary": summary(reports, options.max_unknown),
    }
    return dumps(document) + "\n"


def summary(reports: Sequence[FileReport], max_unknown: float) -> dict[str, object]:
    """The counts of the text summary line, and whether too many accesses are unknown."""
    t = totals(reports)
    out: dict[str, object] = dict(t.as_json())
    out["max_unknown_percent"] = max_unknown
    out["too_many_unknown"] = t.too_unknown(max_unknown)
    return out


def _is_flat(value: object) -> bool:
    """A list that reads best on one line: numbers, or lists of numbers (``lanes``)."""

    def number(v: object) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    if not isinstance(value, list):
        return False
    return all(number(v) or (isinstance(v, list) and all(number(w) for w in v)) for v in value)


def dumps(value: object, indent: int = 0) -> str:
    """Like ``json.dumps(indent=2)``, with short lists of numbers kept on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if _is_flat(value):
            return json.dumps(value, ensure_ascii=False)
        items = [pad + dumps(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)
