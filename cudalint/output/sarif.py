"""``--format sarif``: SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

One run: the tool with every rule's metadata (id, name, short and full description,
help text, default level and whether it is on by default), one result per diagnostic
with its region, its fix as ``artifactChanges``, and the access it is about in
``properties``. Files that could not be analyzed are tool execution notifications.

Columns: SARIF counts them in UTF-16 code units by default (``columnKind``); cudalint's
own columns count UTF-8 bytes, so they are converted with the file's text. Paths given
relative are written relative to ``%SRCROOT%``, the working directory.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cudalint import __version__
from cudalint.api import FileReport, diagnostic_sort_key
from cudalint.diagnostics import Diagnostic, Fix
from cudalint.output import RenderOptions
from cudalint.output.records import access_fields
from cudalint.output.statistics import totals, unknown_message
from cudalint.rules import RULES, Rule, explain

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
INFORMATION_URI = "https://pypi.org/project/cudalint/"

_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _section(doc: str, title: str) -> str:
    marker = f"## {title}\n"
    if marker not in doc:
        return ""
    text = doc.split(marker, 1)[1]
    return text.split("\n## ", 1)[0].strip()


def rule_descriptor(rule: Rule) -> dict[str, Any]:
    help_text = explain(rule)
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": _section(rule.doc, "What it does") or rule.summary},
        "help": {"text": help_text, "markdown": help_text},
        "defaultConfiguration": {
            "enabled": rule.default_enabled,
            "level": _LEVEL[rule.severity],
        },
        "properties": {"tags": ["cuda", "shared-memory"]},
    }


def artifact_location(path: str) -> dict[str, Any]:
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    posix = path.replace(os.sep, "/")
    while posix.startswith("./"):
        posix = posix[2:]
    # os.fsencode: a name that is not UTF-8 (held as surrogate escapes) is quoted as the
    # bytes it is on disk, as Path.as_uri() does, not a UnicodeEncodeError that empties
    # the whole document
    return {"uri": urllib.parse.quote(os.fsencode(posix), safe="/"), "uriBaseId": SRCROOT}


class _Columns:
    """UTF-8 byte columns to UTF-16 code unit columns, with each file's text."""

    def __init__(self, reports: Sequence[FileReport]) -> None:
        self._sources: dict[str, list[bytes] | None] = {}
        for report in reports:
            if report.source is not None:
                self._sources[report.path] = report.source.split(b"\n")

    def _lines(self, file: str) -> list[bytes] | None:
        if file not in self._sources:
            try:
                with open(file, "rb") as f:
                    self._sources[file] = f.read().split(b"\n")
            except OSError:
                self._sources[file] = None
        return self._sources[file]

    def convert(self, file: str, line: int, column: int) -> int:
        lines = self._lines(file)
        if lines is None or not 1 <= line <= len(lines):
            return column
        prefix = lines[line - 1][: max(column - 1, 0)]
        text = prefix.decode("utf-8", "replace")
        return len(text.encode("utf-16-le")) // 2 + 1 + max(column - 1 - len(prefix), 0)


def _region(columns: _Columns, file: str, line: int, column: int, end_line: int,
            end_column: int) -> dict[str, int]:
    return {
        "startLine": line,
        "startColumn": columns.convert(file, line, column),
        "endLine": end_line,
        "endColumn": columns.convert(file, end_line, end_column),
    }


def _fix(columns: _Columns, fix: Fix) -> dict[str, Any]:
    by_file: dict[str, list[dict[str, Any]]] = {}
    for e in fix.edits:
        by_file.setdefault(e.file, []).append({
            "deletedRegion": _region(columns, e.file, e.line, e.column, e.end_line,
                                     e.end_column),
            "insertedContent": {"text": e.content},
        })
    return {
        "description": {"text": fix.title},
        "artifactChanges": [
            {"artifactLocation": artifact_location(file), "replacements": replacements}
            for file, replacements in by_file.items()
        ],
        "properties": {"applicability": fix.applicability},
    }


def _result(columns: _Columns, index: dict[str, int], report: FileReport,
            d: Diagnostic) -> dict[str, Any]:
    text = d.message + "".join(f"\nnote: {n}" for n in d.notes)
    result: dict[str, Any] = {
        "ruleId": d.code,
        "level": _LEVEL.get(d.severity, "warning"),
        "message": {"text": text},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": artifact_location(d.file),
                "region": _region(columns, d.file, d.line, d.column, d.end_line,
                                  d.end_column),
            }
        }],
    }
    if d.code in index:
        result["ruleIndex"] = index[d.code]
    if d.fix is not None:
        result["fixes"] = [_fix(columns, d.fix)]
    if d.result is not None and report.unit is not None:
        from cudalint.rules import FileContext

        ctx = FileContext(path=report.path, unit=report.unit, results=report.results)
        result["properties"] = access_fields(ctx, d.result)
    return result


def render(reports: Sequence[FileReport], options: RenderOptions) -> str:
    rules = list(RULES.values())
    index = {rule.code: i for i, rule in enumerate(rules)}
    columns = _Columns(reports)
    pairs = sorted(
        ((report, d) for report in reports for d in report.diagnostics),
        key=lambda pair: diagnostic_sort_key(pair[1]),
    )
    results = [_result(columns, index, report, d) for report, d in pairs]
    errors = sorted((r.path, r.error) for r in reports if r.error is not None)
    notifications: list[dict[str, Any]] = [
        {
            "level": "error",
            "message": {"text": message},
            "locations": [{"physicalLocation": {"artifactLocation": artifact_location(path)}}],
        }
        for path, message in errors
    ]
    t = totals(reports)
    if t.too_unknown(options.max_unknown):
        # A run that did not see most of the code is not a successful analysis.
        notifications.append(
            {"level": "error", "message": {"text": unknown_message(t, options.max_unknown)}}
        )
    invocation: dict[str, Any] = {"executionSuccessful": not notifications}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "cudalint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [rule_descriptor(rule) for rule in rules],
            }
        },
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": Path(os.getcwd()).as_uri() + "/"}},
        "columnKind": "utf16CodeUnits",
        "results": results,
    }
    document = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
