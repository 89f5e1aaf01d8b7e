"""``--format json``: one deterministic object; see docs/json-output.md for the schema."""

from __future__ import annotations

import json
from collections.abc import Sequence

from cudalint.api import FileReport
from cudalint.output import RenderOptions
from cudalint.output.records import collect

#: Bumped on any incompatible change of the object's shape.
VERSION = 1


def render(reports: Sequence[FileReport], options: RenderOptions) -> str:
    diagnostics, accesses, errors = collect(tuple(reports), options.show_all)
    document = {
        "version": VERSION,
        "diagnostics": diagnostics,
        "accesses": accesses,
        "errors": errors,
    }
    return dumps(document) + "\n"


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
