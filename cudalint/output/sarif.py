"""``--format sarif``: SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

One run: the tool with every rule's metadata (id, name, short and full description,
help text, default level and whether it is on by default), one result per diagnostic
with its region, its fix as ``artifactChanges``, and the access it is about in
``properties``. Files that could not be analyzed are tool execution notifications.

Columns: SARIF counts them in UTF-16 code units by default (``columnKind``); cudalint's
own columns count UTF-8 bytes, so they are converted with the file's text.

For code scanning: ``%SRCROOT%`` is the repository root (the nearest directory holding
``.git`` above the analyzed files, else the working directory), and every file under it
is written relative to it, whatever the working directory; a file outside it is an
absolute ``file:`` URI. Each result has ``partialFingerprints["cudalintFingerprint/v1"]``:
a hash of the rule, the file relative to the root, the function, the shared array and the
access's source text with blanks collapsed (the line's text for a finding without an
access) and the occurrence count of that key in the file, never the line number, so edits
above a finding keep its alert. Each rule's ``helpUri`` is its anchor in ``docs/rules.md``
(under ``$CUDALINT_DOCS_URL`` if set, else the package's ``Documentation`` project URL,
else the local copy of the docs). ``automationDetails.id`` is ``cudalint/``
(``$CUDALINT_SARIF_CATEGORY`` overrides it, e.g. ``cudalint/cuda-kernels/``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import urllib.parse
from collections import Counter
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from cudalint import __version__
from cudalint.api import FileReport, diagnostic_sort_key
from cudalint.diagnostics import Diagnostic, Fix
from cudalint.output import RenderOptions
from cudalint.output.records import access_fields, bank_modes_record
from cudalint.output.statistics import totals, unknown_message
from cudalint.rules import RULES, Rule, explain

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
INFORMATION_URI = "https://pypi.org/project/cudalint/"

_LEVEL = {"error": "error", "warning": "warning", "info": "note"}

FINGERPRINT_KEY = "cudalintFingerprint/v1"
#: ``automationDetails.id``: the category GitHub keeps this tool's alerts under.
DEFAULT_CATEGORY = "cudalint/"
CATEGORY_ENV = "CUDALINT_SARIF_CATEGORY"
DOCS_ENV = "CUDALINT_DOCS_URL"
_LOCAL_RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _rules_doc_url() -> str | None:
    """The absolute URL of ``docs/rules.md`` (SARIF wants absolute ``helpUri`` values)."""
    base = os.environ.get(DOCS_ENV, "").strip()
    if not base:
        try:
            urls = metadata.metadata("cudalint").get_all("Project-URL") or []
        except metadata.PackageNotFoundError:
            urls = []
        for entry in urls:
            label, _, url = entry.partition(",")
            if label.strip().lower() == "documentation" and url.strip():
                base = url.strip()
                break
    if base:
        base = base.rstrip("/")
        return base if base.endswith(".md") else base + "/rules.md"
    if _LOCAL_RULES_DOC.is_file():
        return _LOCAL_RULES_DOC.as_uri()
    return None


def _anchor(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, blanks to ``-``."""
    slug = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return slug.replace(" ", "-")


def help_uri(rule: Rule, docs: str | None) -> str | None:
    if docs is None:
        return None
    return f"{docs}#{_anchor(f'{rule.code} {rule.name}')}"


def find_root(paths: Sequence[str]) -> str:
    """The repository root of ``paths``: the nearest ``.git`` above them, else the cwd."""
    cwd = os.getcwd()
    roots: set[str | None] = set()
    for path in paths:
        if not path or path == "-":
            continue
        directory = os.path.dirname(os.path.abspath(path))
        found: str | None = None
        while True:
            if os.path.exists(os.path.join(directory, ".git")):
                found = directory
                break
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
        roots.add(found)
    if len(roots) == 1:
        (root,) = roots
        if root is not None:
            return root
    return cwd


def _section(doc: str, title: str) -> str:
    marker = f"## {title}\n"
    if marker not in doc:
        return ""
    text = doc.split(marker, 1)[1]
    return text.split("\n## ", 1)[0].strip()


def rule_descriptor(rule: Rule, docs: str | None = None) -> dict[str, Any]:
    help_text = explain(rule)
    descriptor: dict[str, Any] = {
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
    uri = help_uri(rule, docs)
    if uri is not None:
        descriptor["helpUri"] = uri
    return descriptor


def _relative(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` with ``/``, or None when it is not under it."""
    try:
        rel = os.path.relpath(os.path.abspath(path), root)
    except ValueError:  # another drive
        return None
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


def _directory_uri(directory: str) -> str:
    uri = Path(directory).as_uri()
    return uri if uri.endswith("/") else uri + "/"


def artifact_location(path: str, root: str | None = None) -> dict[str, Any]:
    posix = _relative(path, os.getcwd() if root is None else root)
    if posix is None:
        return {"uri": Path(os.path.abspath(path)).as_uri()}
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

    def line_text(self, file: str, line: int) -> str:
        lines = self._lines(file)
        if lines is None or not 1 <= line <= len(lines):
            return ""
        return lines[line - 1].decode("utf-8", "replace")


def _fingerprint_key(columns: _Columns, root: str, report: FileReport,
                     d: Diagnostic) -> tuple[str, ...]:
    """What identifies a finding across edits: never its line number or its message."""
    rel = _relative(d.file, root) or os.path.abspath(d.file).replace(os.sep, "/")
    line = " ".join(columns.line_text(d.file, d.line).split())
    if d.result is None:
        return (d.code, rel, "", "", line)
    access = d.result.access
    array = access.array
    if report.unit is not None:
        from cudalint.rules import FileContext

        ctx = FileContext(path=report.path, unit=report.unit, results=report.results)
        array = ctx.array_name(access)
    return (d.code, rel, access.kernel, array, " ".join(access.text.split()) or line)


def _fingerprint(key: tuple[str, ...], occurrence: int) -> str:
    data = "\0".join((*key, str(occurrence))).encode("utf-8", "surrogateescape")
    return hashlib.sha256(data).hexdigest()[:32]


def _region(columns: _Columns, file: str, line: int, column: int, end_line: int,
            end_column: int) -> dict[str, int]:
    return {
        "startLine": line,
        "startColumn": columns.convert(file, line, column),
        "endLine": end_line,
        "endColumn": columns.convert(file, end_line, end_column),
    }


def _fix(columns: _Columns, fix: Fix, root: str) -> dict[str, Any]:
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
            {"artifactLocation": artifact_location(file, root), "replacements": replacements}
            for file, replacements in by_file.items()
        ],
        "properties": {"applicability": fix.applicability},
    }


def _result(columns: _Columns, index: dict[str, int], root: str, report: FileReport,
            d: Diagnostic, fingerprint: str) -> dict[str, Any]:
    text = d.message + "".join(f"\nnote: {n}" for n in d.notes)
    if d.fix is not None and not d.fix.edits:
        # SARIF's fix needs at least one change: a suggestion without edits is text.
        text += f"\nhelp: {d.fix.title}"
    result: dict[str, Any] = {
        "ruleId": d.code,
        "level": _LEVEL.get(d.severity, "warning"),
        "message": {"text": text},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": artifact_location(d.file, root),
                "region": _region(columns, d.file, d.line, d.column, d.end_line,
                                  d.end_column),
            }
        }],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
    }
    if d.code in index:
        result["ruleIndex"] = index[d.code]
    if d.fix is not None and d.fix.edits:
        result["fixes"] = [_fix(columns, d.fix, root)]
    if d.result is not None and report.unit is not None:
        from cudalint.rules import FileContext

        ctx = FileContext(path=report.path, unit=report.unit, results=report.results)
        result["properties"] = access_fields(ctx, d.result)
        modes = bank_modes_record(d)
        if modes is not None:
            result["properties"]["bank_modes"] = modes
    return result


def render(reports: Sequence[FileReport], options: RenderOptions) -> str:
    rules = list(RULES.values())
    docs = _rules_doc_url()
    index = {rule.code: i for i, rule in enumerate(rules)}
    columns = _Columns(reports)
    pairs = sorted(
        ((report, d) for report in reports for d in report.diagnostics),
        key=lambda pair: diagnostic_sort_key(pair[1]),
    )
    root = find_root([r.path for r in reports])
    # the n-th finding of one key in a file (two identical accesses in a kernel) keeps n
    seen: Counter[tuple[str, ...]] = Counter()
    results = []
    for report, d in pairs:
        key = _fingerprint_key(columns, root, report, d)
        seen[key] += 1
        results.append(_result(columns, index, root, report, d, _fingerprint(key, seen[key])))
    errors = sorted((r.path, r.error) for r in reports if r.error is not None)
    notifications: list[dict[str, Any]] = [
        {
            "level": "error",
            "message": {"text": message},
            "locations": [{"physicalLocation": {
                "artifactLocation": artifact_location(path, root)}}],
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
                "rules": [rule_descriptor(rule, docs) for rule in rules],
            }
        },
        "automationDetails": {
            "id": os.environ.get(CATEGORY_ENV, "").strip() or DEFAULT_CATEGORY
        },
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": _directory_uri(root)}},
        "columnKind": "utf16CodeUnits",
        "results": results,
    }
    document = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
