"""The IR as JSON, and a cudalint run replayed from it (no source, no clang).

The real-world accuracy suite commits, per measured third-party file, what the frontend
extracts from it (frozen :mod:`cudalint.ir` objects: derived facts, not code) and scores
the model and rules on it in CI. This module writes and reads that IR, losslessly, and
runs everything after the frontend on it with the pipeline's own code
(:func:`cudalint.api.check_unit`), so that the JSON it yields is the JSON of
``cudalint --format json`` on the same files and flags.

Entry points
------------

- :func:`dump_run` ``(argv, cwd=None) -> str``: run cudalint as its command line would
  with ``argv`` (flags and paths, ``-I``, ``-D``, ``--arch``, ``--select``, configuration
  files, ``-p``; paths relative to ``cwd``) and return the run's IR document.
- :func:`check_ir` ``(text) -> dict``: the document ``cudalint --format json`` prints for
  that run, computed from the IR alone (``render_ir``: the same as text,
  ``reports_from_ir``: the reports).
- :func:`dumps_tu` / :func:`loads_tu`: one :class:`~cudalint.ir.TranslationUnit`.
- ``python -m cudalint.irjson dump [cudalint args...] PATH... > run.json`` and
  ``python -m cudalint.irjson check run.json``: the same, for scripts.

Format (version 2)
------------------

UTF-8 JSON, keys sorted, one IR node per line where the nesting allows it (reviewable
diffs), the same bytes for the same input. A node (a frozen dataclass of
:mod:`cudalint.ir`, or ``Options``, ``RuleSelection``, :class:`FileEntry`,
:class:`Run`) is an object ``{"_t": "ClassName", field: value, ...}`` that leaves out the
fields equal to their defaults. Tuples are arrays; ``None``, booleans, integers, strings
and finite floats are themselves; an enumeration member (``OpaqueKind``) is its value
(``"load"``); a non-finite float is ``{"_t": "float", "v": "inf"}``;
a frozenset is ``{"_t": "frozenset", "v": [items, sorted]}``; a dict is ``{"_t": "dict",
"v": [[key, value], ...]}`` sorted by key. Reading checks every value against the field's
declared type, so that a malformed document is a :class:`IRFormatError` (a
``ValueError``) that says where, never a failure deep inside the model.

A run document is ``{"format": "cudalint-ir", "version": 2, "schema": HASH, "run":
Run}``: per analysed file a :class:`FileEntry` (its path as given, options, rule
selection, enabled codes, unit or error, and the file that covers it when it is a header
analysed only as part of another file), the flags that shape the output, and the
suppression comments of the files involved, reduced to the directives themselves (code
before a comment becomes ``x``, other comment text spaces: columns are kept). A unit
document is ``{"format": "cudalint-ir-unit", "version": 2, "schema": HASH, "unit":
TranslationUnit}``. ``schema`` fingerprints the node classes (names, fields, types,
defaults): :func:`schema_fingerprint` of the reading cudalint differs when ``ir.py``
changed since the document was written (the IR should then be extracted again).

What the replay cannot give: fixes that edit the source (their ``fix`` is null unless
the file's bytes are passed as ``sources``); everything else (every access record,
diagnostic, note, error and the summary) is the command line's. Spans are kept as the
frontend wrote them: run ``dump_run`` from the repository root with relative paths, and
the IR holds no path of the machine it was made on (``TranslationUnit.includes``, which
the frontend makes absolute and nothing after it reads, are recorded relative to that
directory when they lie under it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import os
import sys
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from cudalint import ir
from cudalint.api import FileReport, check_unit, merge_reports, run_tasks
from cudalint.budget import run_bounded
from cudalint.ir import TranslationUnit
from cudalint.options import Options
from cudalint.output.statistics import DEFAULT_MAX_UNKNOWN
from cudalint.rules import DEFAULT_SELECTION, RuleSelection

__all__ = [
    "FORMAT",
    "UNIT_FORMAT",
    "VERSION",
    "FileEntry",
    "IRFormatError",
    "Run",
    "check_ir",
    "document_schema",
    "dump_run",
    "dumps_run",
    "dumps_tu",
    "loads_run",
    "loads_tu",
    "main",
    "render_ir",
    "reports_from_ir",
    "run_from_reports",
    "schema_fingerprint",
    "suppression_lines",
]

FORMAT = "cudalint-ir"
UNIT_FORMAT = "cudalint-ir-unit"
#: Bumped on any change of the encoding itself (not of the IR's classes: see ``schema``).
#: 2: enumeration members (``Opaque.kind``) are written as their values.
VERSION = 2


class IRFormatError(ValueError):
    """A document that is not IR this cudalint can read (malformed, another version)."""


# --- the run document's own nodes ------------------------------------------------------


@dataclass(frozen=True)
class FileEntry:
    """One file of a run, as ``run_tasks`` left it before the model ran."""

    #: The path as the command line named it (or as found under a directory).
    path: str
    options: Options = field(default_factory=Options)
    selection: RuleSelection = DEFAULT_SELECTION
    #: The codes enabled for the file (suppressions: ``CL100`` reports unused ones).
    codes: frozenset[str] = frozenset()
    #: The frontend's unit; None when the file could not be analysed (``error`` says why).
    unit: TranslationUnit | None = None
    error: str | None = None
    #: A header found in a directory and analysed only as part of this file.
    covered_by: str | None = None


@dataclass(frozen=True)
class Run:
    """A whole command-line run, up to the frontend."""

    files: tuple[FileEntry, ...] = ()
    #: The arguments it was made with (paths relative to the directory it ran in).
    argv: tuple[str, ...] = ()
    show_all: bool = False
    exit_zero: bool = False
    max_unknown: float = DEFAULT_MAX_UNKNOWN
    #: File (as diagnostics name it) -> (line, the line reduced to its suppression
    #: directives): what ``cudalint: ignore`` comments there are, without the code.
    suppressions: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)


_NODE_CLASSES: tuple[type, ...] = (
    ir.Span, ir.IntType, ir.Const, ir.Sym, ir.Induction, ir.Unary, ir.Binary, ir.Select,
    ir.Cast, ir.Opaque, ir.SharedArray, ir.Access, ir.Launch, ir.Kernel, ir.Note,
    ir.TranslationUnit, Options, RuleSelection, FileEntry, Run,
)
_BY_NAME: dict[str, type] = {cls.__name__: cls for cls in _NODE_CLASSES}
#: The enumerations a node's field may hold, each written as its members' values.
_ENUMS: tuple[type[Enum], ...] = (ir.OpaqueKind,)
#: Nodes written one field per line (their lists one item per line).
_BROKEN = frozenset({"TranslationUnit", "FileEntry", "Run"})


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def schema_fingerprint() -> str:
    """A hash of the node classes: names, fields, declared types and defaults."""
    parts = [f"{e.__name__}:{','.join(str(m.value) for m in e)}" for e in _ENUMS]
    for cls in _NODE_CLASSES:
        hints = _hints(cls)
        for f in _fields(cls):
            default = _encode_default(f)
            parts.append(f"{cls.__name__}.{f.name}:{hints[f.name]!r}={default}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _encode_default(f: dataclasses.Field[Any]) -> str:
    if f.default is not dataclasses.MISSING:
        value: object = f.default
    elif f.default_factory is not dataclasses.MISSING:
        value = f.default_factory()
    else:
        return "required"
    return json.dumps(_encode(value, "default"), sort_keys=True)


# --- encoding -----------------------------------------------------------------------------


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _is_default(f: dataclasses.Field[Any], value: object) -> bool:
    if f.default is not dataclasses.MISSING:
        default: object = f.default
    elif f.default_factory is not dataclasses.MISSING:
        default = f.default_factory()
    else:
        return False
    return type(value) is type(default) and value == default


def _encode(value: object, where: str) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, Enum):
        if type(value) not in _ENUMS:
            raise IRFormatError(f"{where}: cannot write a {type(value).__name__}")
        return value.value
    if isinstance(value, int):
        if type(value) is not int:  # an IntEnum or the like: not IR
            raise IRFormatError(f"{where}: cannot write a {type(value).__name__}")
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"_t": "float", "v": repr(value)}
    if isinstance(value, tuple):
        return [_encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, frozenset):
        return {"_t": "frozenset",
                "v": sorted((_encode(v, f"{where}{{}}") for v in value), key=_canonical)}
    if isinstance(value, dict):
        pairs = [[_encode(k, f"{where} key"), _encode(v, f"{where}[{k!r}]")]
                 for k, v in value.items()]
        return {"_t": "dict", "v": sorted(pairs, key=lambda kv: _canonical(kv[0]))}
    cls = type(value)
    if _BY_NAME.get(cls.__name__) is cls:
        out: dict[str, Any] = {"_t": cls.__name__}
        for f in _fields(cls):
            v = getattr(value, f.name)
            if not _is_default(f, v):
                out[f.name] = _encode(v, f"{where}.{f.name}")
        return out
    raise IRFormatError(f"{where}: cannot write a {cls.__name__}")


def _layout(value: Any, indent: int, broken: bool, out: list[str]) -> None:
    """Write ``value`` as JSON: the nodes of ``_BROKEN`` (and the document) one field per
    line, their lists one item per line, everything else on one line."""
    pad = " " * indent
    if broken and isinstance(value, dict) and value:
        out.append("{\n")
        keys = sorted(value)
        for n, key in enumerate(keys):
            child = value[key]
            out.append(f"{pad} {json.dumps(key)}:")
            _layout(child, indent + 1,
                    isinstance(child, (list, dict)) and _is_broken(child), out)
            out.append(",\n" if n + 1 < len(keys) else "\n")
        out.append(pad + "}")
    elif broken and isinstance(value, list) and value:
        out.append("[\n")
        for n, item in enumerate(value):
            out.append(pad + " ")
            _layout(item, indent + 1, _is_broken(item), out)
            out.append(",\n" if n + 1 < len(value) else "\n")
        out.append(pad + "]")
    else:
        out.append(_canonical(value))


def _is_broken(value: Any) -> bool:
    if isinstance(value, dict):
        return value.get("_t") in _BROKEN or "_t" not in value
    if isinstance(value, list):
        return any(isinstance(v, dict) for v in value)
    return False


def _write(document: dict[str, Any]) -> str:
    out: list[str] = []
    _layout(document, 0, True, out)
    return "".join(out) + "\n"


def _deep(fn: Callable[[], Any]) -> Any:
    """``fn()`` on a thread with a large stack and recursion limit (IR trees are as deep
    as the source's expressions)."""

    def hard_timeout() -> Any:  # pragma: no cover - no time limit is given
        raise IRFormatError("timed out")

    return run_bounded(lambda _budget: fn(), None, on_hard_timeout=hard_timeout)


def dumps_tu(unit: TranslationUnit) -> str:
    """``unit`` as a unit document (see the module's docstring)."""
    if not isinstance(unit, TranslationUnit):
        raise IRFormatError(f"not a TranslationUnit: {type(unit).__name__}")
    document = {"format": UNIT_FORMAT, "version": VERSION, "schema": schema_fingerprint()}
    text: str = _deep(lambda: _write({**document, "unit": _encode(unit, "unit")}))
    return text


def dumps_run(run: Run) -> str:
    """``run`` as a run document (see the module's docstring)."""
    if not isinstance(run, Run):
        raise IRFormatError(f"not a Run: {type(run).__name__}")
    document = {"format": FORMAT, "version": VERSION, "schema": schema_fingerprint()}
    text: str = _deep(lambda: _write({**document, "run": _encode(run, "run")}))
    return text


# --- decoding -----------------------------------------------------------------------------


def _what(value: Any) -> str:
    if isinstance(value, dict):
        tag = value.get("_t")
        return f"a {tag!r} node" if isinstance(tag, str) else "an object"
    if isinstance(value, list):
        return "an array"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return f"the string {value[:40]!r}"
    return f"the number {value!r}"


def _type_name(hint: Any) -> str:
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "").replace("cudalint.ir.", "")


def _tagged(value: Any, tag: str, where: str) -> list[Any]:
    if not (isinstance(value, dict) and value.get("_t") == tag and set(value) == {"_t", "v"}
            and isinstance(value["v"], list)):
        raise IRFormatError(f"{where}: expected a {tag} ({{\"_t\": \"{tag}\", \"v\": [...]}}), "
                            f"got {_what(value)}")
    items: list[Any] = value["v"]
    return items


def _decode(value: Any, hint: Any, where: str) -> Any:
    origin = get_origin(hint)
    if hint is type(None):
        if value is None:
            return None
    elif origin is Union or origin is types.UnionType:
        return _decode_union(value, hint, where)
    elif origin is Literal:
        for allowed in get_args(hint):
            if value == allowed and type(value) is type(allowed):
                return value
    elif hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if (isinstance(value, dict) and value.get("_t") == "float"
                and value.get("v") in ("inf", "-inf", "nan") and len(value) == 2):
            return float(value["v"])
    elif hint is str:
        if isinstance(value, str):
            return value
    elif origin is tuple:
        return _decode_tuple(value, get_args(hint), where)
    elif origin is frozenset:
        (item,) = get_args(hint)
        return frozenset(_decode(v, item, f"{where}{{}}")
                         for v in _tagged(value, "frozenset", where))
    elif origin is dict:
        key_hint, value_hint = get_args(hint)
        out = {}
        for n, pair in enumerate(_tagged(value, "dict", where)):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise IRFormatError(f"{where}: item {n} is not a [key, value] pair")
            key = _decode(pair[0], key_hint, f"{where} key {n}")
            out[key] = _decode(pair[1], value_hint, f"{where}[{key!r}]")
        return out
    elif isinstance(hint, type) and _BY_NAME.get(hint.__name__) is hint:
        return _decode_node(value, hint, where)
    elif hint in _ENUMS:
        for member in hint:
            if value == member.value and type(value) is type(member.value):
                return member
    else:  # pragma: no cover - a field type this module does not know (a bug here)
        raise IRFormatError(f"{where}: cannot read a field of type {_type_name(hint)}")
    raise IRFormatError(f"{where}: expected {_type_name(hint)}, got {_what(value)}")


def _decode_union(value: Any, hint: Any, where: str) -> Any:
    arms = get_args(hint)
    tag = value.get("_t") if isinstance(value, dict) else None
    if isinstance(tag, str) and _BY_NAME.get(tag) in arms:
        return _decode_node(value, _BY_NAME[tag], where)
    for arm in arms:
        if isinstance(arm, type) and _BY_NAME.get(arm.__name__) is arm:
            continue  # a node is only ever read by its tag
        try:
            return _decode(value, arm, where)
        except IRFormatError:
            continue
    raise IRFormatError(f"{where}: expected {_type_name(hint)}, got {_what(value)}")


def _decode_tuple(value: Any, args: tuple[Any, ...], where: str) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise IRFormatError(f"{where}: expected an array, got {_what(value)}")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_decode(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
    if len(value) != len(args):
        raise IRFormatError(f"{where}: expected {len(args)} items, got {len(value)}")
    pairs = enumerate(zip(value, args, strict=True))
    return tuple(_decode(v, a, f"{where}[{i}]") for i, (v, a) in pairs)


def _decode_node(value: Any, cls: type, where: str) -> Any:
    name = cls.__name__
    if not isinstance(value, dict) or value.get("_t") != name:
        raise IRFormatError(f"{where}: expected a {name} node, got {_what(value)}")
    fields = {f.name: f for f in _fields(cls)}
    unknown = sorted(k for k in value if k != "_t" and k not in fields)
    if unknown:
        raise IRFormatError(f"{where}: {name} has no field {unknown[0]!r}")
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    for fname, f in fields.items():
        if fname in value:
            kwargs[fname] = _decode(value[fname], hints[fname], f"{where}.{fname}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise IRFormatError(f"{where}: {name} lacks its field {fname!r}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise IRFormatError(f"{where}: invalid {name}: {exc}") from None


def _document(text: str | bytes, fmt: str, body: str) -> dict[str, Any]:
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        document = json.loads(text)
    except UnicodeDecodeError as exc:
        raise IRFormatError(f"not UTF-8: {exc}") from None
    except json.JSONDecodeError as exc:
        raise IRFormatError(f"not JSON: {exc}") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise IRFormatError(f"not JSON: {exc}") from None
    except RecursionError:
        raise IRFormatError("nested too deeply") from None
    if not isinstance(document, dict):
        raise IRFormatError(f"expected a JSON object, got {_what(document)}")
    if document.get("format") != fmt:
        raise IRFormatError(f"not a {fmt} document (format {document.get('format')!r})")
    version = document.get("version")
    if version != VERSION or isinstance(version, bool):
        raise IRFormatError(f"{fmt} version {version!r} is not supported (this cudalint "
                            f"reads version {VERSION})")
    unknown = sorted(set(document) - {"format", "version", "schema", body})
    if unknown:
        raise IRFormatError(f"unknown key {unknown[0]!r} in a {fmt} document")
    if body not in document:
        raise IRFormatError(f"a {fmt} document without {body!r}")
    return document


def _read_body(text: str | bytes, fmt: str, body: str, cls: type) -> Any:
    def work() -> Any:
        document = _document(text, fmt, body)
        return _decode(document[body], cls, body)

    try:
        return _deep(work)
    except RecursionError:
        raise IRFormatError("nested too deeply") from None


def loads_tu(text: str | bytes) -> TranslationUnit:
    """The unit of a unit document; IRFormatError (a ValueError) when it is not one."""
    unit: TranslationUnit = _read_body(text, UNIT_FORMAT, "unit", TranslationUnit)
    return unit


def loads_run(text: str | bytes) -> Run:
    """The run of a run document; IRFormatError (a ValueError) when it is not one."""
    run: Run = _read_body(text, FORMAT, "run", Run)
    return run


def document_schema(text: str | bytes) -> str | None:
    """The ``schema`` a document was written with (compare :func:`schema_fingerprint`)."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return None
    schema = document.get("schema") if isinstance(document, dict) else None
    return schema if isinstance(schema, str) else None


# --- suppression comments, without the code -----------------------------------------------


def suppression_lines(source: bytes) -> tuple[tuple[int, str], ...]:
    """The lines of ``source`` that hold ``cudalint: ignore`` directives, each reduced to
    them: what precedes the line's comment becomes ``x`` (spaces when nothing does), the
    comment's text other than its ``//`` and the directives spaces. Read back with
    ``find_suppressions`` the reduced lines give what the source gives."""
    from cudalint.suppressions import _COMMENT, _line_comments

    out: list[tuple[int, str]] = []
    for number, start, line in _line_comments(source):
        matches = list(_COMMENT.finditer(line, start))
        if not matches:
            continue
        alone = line[:start].strip() == b""
        reduced = bytearray((b" " if alone else b"x") * start)
        if matches[0].start() != start:
            reduced += b"//"  # the comment's opening, before the text blanked out
        for m in matches:
            reduced += b" " * (m.start() - len(reduced))
            reduced += m.group(0)
        try:
            text = bytes(reduced).decode("utf-8")
        except UnicodeDecodeError:  # keep the byte columns: one "?" per odd byte
            text = bytes(b if b < 0x80 else 0x3F for b in reduced).decode("ascii")
        out.append((number, text))
    return tuple(out)


def _rebuild(lines: Sequence[tuple[int, str]]) -> bytes:
    by_line = dict(lines)
    last = max(by_line, default=0)
    return b"\n".join(by_line.get(n, "").encode("utf-8") for n in range(1, last + 1)) + b"\n"


# --- a run: to IR and back ----------------------------------------------------------------


@contextlib.contextmanager
def _working_directory(cwd: str | None) -> Iterator[None]:
    if cwd is None:
        yield
        return
    old = os.getcwd()
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(old)


#: Flags of the command line that do something other than report (refused by dump_run).
_NOT_REPLAYED = ("fix", "diff", "add_ignores", "baseline", "update_baseline", "explain",
                 "explain_access", "bank_map_svg", "list_rules", "statistics")


class UsageError(ValueError):
    """``dump_run``'s arguments are not a cudalint run it can record."""


def dump_run(argv: Sequence[str], cwd: str | None = None) -> str:
    """Analyse as ``cudalint ARGV`` in ``cwd`` would and return the run's IR document.

    Raises UsageError (a ValueError) for arguments the command line would refuse, and
    for flags that do more than report (``--fix``, ``--baseline``, ...).
    """
    return dumps_run(_record(argv, cwd)[0])


def _record(argv: Sequence[str], cwd: str | None) -> tuple[Run, list[FileReport]]:
    """The run ``argv`` makes, and the command line's own reports of it (suppressions
    applied), for comparisons."""
    from cudalint import cli
    from cudalint.config import ConfigError, ConfigFinder
    from cudalint.settings import Resolver, SettingsError

    with _working_directory(cwd):
        try:
            try:
                args = cli.build_parser().parse_args(list(argv))
            except SystemExit as exc:  # --help, --version
                raise UsageError("no run to record (--help or --version)") from exc
            for name in _NOT_REPLAYED:
                value = getattr(args, name, None)
                if value not in (None, False, []):
                    raise UsageError(f"--{name.replace('_', '-')} is not recorded in IR")
            if not args.paths:
                raise UsageError("no paths given")
            settings = cli.cli_settings(args)
            compdb = cli._load_compdb(args)
            finder = ConfigFinder(args.config, isolated=args.isolated)
            resolver = Resolver(settings, finder, compdb, None)
            tasks, codes = cli._tasks(args, resolver)
        except (cli.UsageError, ConfigError, SettingsError) as exc:
            raise UsageError(str(exc)) from None
        reports = run_tasks(tasks, args.jobs or (os.cpu_count() or 1))
        run = run_from_reports(reports, tasks, codes, tuple(argv), show_all=args.show_all,
                               exit_zero=args.exit_zero, max_unknown=args.max_unknown)
    return run, reports


def run_from_reports(
    reports: Sequence[FileReport], tasks: Sequence[Any], codes: Mapping[str, frozenset[str]],
    argv: tuple[str, ...] = (), *, show_all: bool = False, exit_zero: bool = False,
    max_unknown: float = DEFAULT_MAX_UNKNOWN,
) -> Run:
    """The Run of ``run_tasks(tasks)``'s ``reports`` (suppressed diagnostics included);
    reads the files that diagnostics may name for their suppression comments (run it in
    the directory the analysis ran in)."""
    from cudalint.checker import _read_or_none
    from cudalint.frontend.walker import display_path

    files: list[FileEntry] = []
    names: dict[str, bytes | None] = {}
    for report, task in zip(reports, tasks, strict=True):
        unit = report.unit
        files.append(FileEntry(
            path=report.path, options=task.options, selection=task.selection,
            codes=codes.get(report.path, frozenset()),
            unit=_portable(unit) if unit is not None else None,
            error=report.error if unit is None else None, covered_by=report.covered_by,
        ))
        if unit is None:
            continue
        names.setdefault(report.path, report.source)
        spans = [*(a.span for a in unit.accesses), *(a.span for a in unit.arrays),
                 *(k.span for k in unit.kernels), *(n.span for n in unit.notes if n.span)]
        others = {s.file for s in spans} | {
            d.file for d in (*report.diagnostics, *report.suppressed_diagnostics)}
        others |= {display_path(inc, report.path) for inc in unit.includes}
        for name in sorted(others - set(names)):
            if name:
                names[name] = None
    suppressions: dict[str, tuple[tuple[int, str], ...]] = {}
    for name, source in names.items():
        data = source if source is not None else _read_or_none(name)
        lines = suppression_lines(data) if data else ()
        if lines:
            suppressions[name] = lines
    return Run(files=tuple(files), argv=argv, show_all=show_all, exit_zero=exit_zero,
               max_unknown=max_unknown, suppressions=suppressions)


def _portable(unit: TranslationUnit) -> TranslationUnit:
    """``unit`` with its includes under the working directory relative to it (they are
    absolute; nothing after the frontend reads them): the same IR on every machine."""
    cwd = os.getcwd()
    includes = []
    for inc in unit.includes:
        try:
            rel = os.path.relpath(inc, cwd)
        except ValueError:  # another drive
            rel = inc
        includes.append(inc if rel == os.pardir or rel.startswith(os.pardir + os.sep)
                        else rel)
    return dataclasses.replace(unit, includes=tuple(includes))


def reports_from_ir(
    text: str | bytes | Run, sources: Mapping[str, bytes] | None = None
) -> list[FileReport]:
    """The reports the command line would render for the recorded run: model and rules
    per file (``check_unit``), one result per access across files, suppressions.

    ``sources`` (path as recorded -> bytes) gives files' bytes for fixes with edits.
    """
    from cudalint.checker import suppress

    run = text if isinstance(text, Run) else loads_run(text)
    given = dict(sources or {})
    comments = {name: _rebuild(lines) for name, lines in run.suppressions.items()}
    reports: list[FileReport] = []
    for entry in run.files:
        if entry.unit is None:
            reports.append(FileReport(path=entry.path, error=entry.error or "not analyzed"))
            continue
        if entry.covered_by is not None:
            report = FileReport(path=entry.path, unit=entry.unit, source=given.get(entry.path),
                                covered_by=entry.covered_by, codes=entry.codes)
            suppress(report, comments.get)
        else:
            report = check_unit(entry.path, entry.unit, entry.options,
                                selection=entry.selection, source=given.get(entry.path),
                                comments=comments.get)
        report.codes = entry.codes  # as recorded (``merge_reports`` reports CL100 by them)
        reports.append(report)
    merge_reports(reports)
    return reports


def render_ir(
    text: str | bytes | Run, *, show_all: bool | None = None,
    sources: Mapping[str, bytes] | None = None,
) -> tuple[str, int]:
    """``cudalint --format json``'s output for the recorded run, and its exit status.
    ``show_all`` None: as the run was recorded."""
    from cudalint.cli import exit_status
    from cudalint.output import RenderOptions
    from cudalint.output.json import render

    run = text if isinstance(text, Run) else loads_run(text)
    reports = reports_from_ir(run, sources)
    options = RenderOptions(show_all=run.show_all if show_all is None else show_all,
                            max_unknown=run.max_unknown)
    return render(reports, options), exit_status(reports, run.exit_zero, run.max_unknown)


def check_ir(
    text: str | bytes | Run, *, show_all: bool | None = True,
    sources: Mapping[str, bytes] | None = None,
) -> dict[str, Any]:
    """The JSON document (``version``, ``diagnostics``, ``accesses``, ``errors``,
    ``summary``) that ``cudalint --format json --show-all`` prints for the recorded run
    (``show_all`` None: the recorded run's flag)."""
    document: dict[str, Any] = json.loads(render_ir(text, show_all=show_all,
                                                    sources=sources)[0])
    return document


# --- python -m cudalint.irjson ------------------------------------------------------------

_USAGE = """\
usage: python -m cudalint.irjson dump [cudalint options] PATH...   > run.json
       python -m cudalint.irjson check [--show-all] RUN.json       > cudalint.json

dump:  analyse as `cudalint [options] PATH...` would (in the current directory) and
       print the run's IR (cudalint.irjson's docstring describes the format).
check: print what `cudalint --format json` prints for that run, from the IR alone;
       exit status as cudalint's.
"""


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        if words[:1] == ["dump"]:
            sys.stdout.write(dump_run(words[1:]))
            return 0
        if words[:1] == ["check"]:
            rest = words[1:]
            show_all = "--show-all" in rest
            rest = [w for w in rest if w != "--show-all"]
            if len(rest) != 1:
                sys.stderr.write(_USAGE)
                return 2
            with open(rest[0], "rb") as f:
                data = f.read()
            out, status = render_ir(data, show_all=True if show_all else None)
            sys.stdout.write(out)
            return status
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"cudalint.irjson: error: {exc}\n")
        return 2
    sys.stderr.write(_USAGE)
    return 2


if __name__ == "__main__":
    sys.exit(main())
