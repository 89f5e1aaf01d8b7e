"""Renderers: golden snapshots of text and JSON, the JSON Schema, carets and colour.

Regenerate the golden files with ``CUDALINT_UPDATE_GOLDEN=1 pytest tests/test_output.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from factories import install_fake_pipeline, run_cli, write_sources

from cudalint.diagnostics import Diagnostic
from cudalint.output.text import excerpt

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
SCHEMA = json.loads((ROOT / "docs" / "cudalint-output.schema.json").read_text(encoding="utf-8"))
UPDATE = os.environ.get("CUDALINT_UPDATE_GOLDEN") == "1"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    install_fake_pipeline(monkeypatch)
    write_sources(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


run = run_cli


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with CUDALINT_UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8")


# --- a small JSON Schema checker (jsonschema is used too when installed) -------------------


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    node: Any = SCHEMA
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return _resolve(node)


_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "null": type(None),
    "integer": int,
    "number": (int, float),
    "boolean": bool,
}


def validate(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Errors of ``value`` against the subset of JSON Schema the repo's schema uses."""
    schema = _resolve(schema)
    errors: list[str] = []
    known = {
        "$schema",
        "$id",
        "$defs",
        "title",
        "description",
        "type",
        "const",
        "enum",
        "pattern",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
    }
    unknown = set(schema) - known
    assert not unknown, f"schema keyword(s) the test checker does not know: {unknown}"
    if "anyOf" in schema:
        if all(validate(value, s, where) for s in schema["anyOf"]):
            errors.append(f"{where}: matches none of anyOf")
        return errors
    if "type" in schema:
        types = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        ok = any(
            isinstance(value, _TYPES[t]) and not (isinstance(value, bool) and t != "boolean")
            for t in types
        )
        if not ok:
            return [f"{where}: {value!r} is not of type {types}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{where}: {value!r} != {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} not in {schema['enum']}")
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        errors.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{where}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{where}: {value} > {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1 << 30):
            errors.append(f"{where}: wrong number of items ({len(value)})")
        if "items" in schema:
            for i, item in enumerate(value):
                errors += validate(item, schema["items"], f"{where}[{i}]")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{where}: missing {key!r}")
        for key, item in value.items():
            if key in props:
                errors += validate(item, props[key], f"{where}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{where}: unexpected key {key!r}")
    return errors


def assert_valid(document: Any) -> None:
    assert validate(document, SCHEMA) == []
    jsonschema.validate(document, SCHEMA)


#: The JSON ``summary`` of a run that analyzed nothing.
SUMMARY = {
    "files": 0,
    "failed_files": 0,
    "accesses": 0,
    "proved": 0,
    "worst_case": 0,
    "unknown": 0,
    "untraced": 0,
    "conflicts": 0,
    "max_unknown_percent": 50.0,
    "too_many_unknown": False,
}


def test_schema_checker_catches_mistakes() -> None:
    good = {"version": 1, "diagnostics": [], "accesses": [], "errors": [], "summary": SUMMARY}
    assert validate(good, SCHEMA) == []
    assert validate({**good, "version": 2}, SCHEMA)
    assert validate({**good, "extra": 1}, SCHEMA)
    assert validate({"version": 1, "diagnostics": []}, SCHEMA)
    assert validate({**good, "errors": [{"file": "a.cu"}]}, SCHEMA)
    assert validate({**good, "summary": {**SUMMARY, "unknown": -1}}, SCHEMA)
    assert validate({**good, "summary": {**SUMMARY, "too_many_unknown": 1}}, SCHEMA)


# --- golden snapshots ----------------------------------------------------------------------


def test_text_golden(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "transpose.cu", "strided.cu", "clean.cu", "--select", "ALL", "--color", "never"
    )
    assert code == 1
    assert err == ""
    check_golden("text_all.txt", out)


def test_text_golden_defaults(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "transpose.cu", "clean.cu")
    assert code == 1
    assert "\033[" not in out  # not a terminal: no colour
    check_golden("text_transpose.txt", out)


def test_json_golden_default(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "--format", "json", "transpose.cu", "strided.cu", "clean.cu", "missing.cu"
    )
    assert code == 2
    assert err == ""
    document = json.loads(out)
    assert_valid(document)
    check_golden("json_default.json", out)
    # Only the accesses behind diagnostics.
    assert [(a["file"], a["line"], a["kind"], a["bank_mode"]) for a in document["accesses"]] == [
        ("strided.cu", 6, "load", 4),
        ("strided.cu", 6, "load", 8),
        ("transpose.cu", 10, "load", 4),
    ]
    assert document["errors"] == [
        {"file": "missing.cu", "message": "cannot read file: No such file or directory"}
    ]


def test_json_golden_show_all(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "--format",
        "json",
        "--show-all",
        "--select",
        "ALL",
        "transpose.cu",
        "strided.cu",
        "clean.cu",
    )
    assert code == 1
    document = json.loads(out)
    assert_valid(document)
    check_golden("json_show_all.json", out)
    assert len(document["accesses"]) == 7  # every record, unknown and clean ones included
    assert {a["status"] for a in document["accesses"]} == {"proved", "worst-case", "unknown"}


def test_json_fields_of_a_conflict(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--format", "json", "transpose.cu")
    (d,) = json.loads(out)["diagnostics"]
    assert d["code"] == "CL001" and d["name"] == "shared-bank-conflict"
    assert d["severity"] == "warning"
    assert d["message"] == "32-way bank conflict on load of 'tile' (32 wavefronts, ideal 1)"
    assert (d["file"], d["line"], d["column"], d["end_line"], d["end_column"]) == (
        "transpose.cu",
        10,
        25,
        10,
        55,
    )
    assert d["fix"] is None
    assert (d["kernel"], d["array"], d["kind"], d["width"], d["arch"], d["bank_mode"]) == (
        "transpose",
        "tile",
        "load",
        4,
        "sm_90",
        4,
    )
    assert (d["wavefronts"], d["ideal_wavefronts"], d["ways"], d["status"], d["reason"]) == (
        32,
        1,
        32,
        "proved",
        None,
    )
    assert isinstance(d["ways"], int)
    assert d["block_dim"] == [32, 8, 1] and d["block_dim_source"] == "launch"
    assert d["conflict"]["bank"] == 0
    assert d["conflict"]["words"] == [32 * i for i in range(32)]
    assert d["conflict"]["lanes"] == [[i] for i in range(32)]


def test_json_columns_are_utf8_bytes(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--format", "json", "strided.cu", "--ignore", "CL004")
    d = json.loads(out)["diagnostics"][0]
    line = (workdir / "strided.cu").read_bytes().split(b"\n")[d["line"] - 1]
    assert line[d["column"] - 1 : d["end_column"] - 1] == b"s[threadIdx.x * stride]"
    # One tab and a two-byte 'é' before it: bytes, not characters or cells.
    assert d["column"] == 30


def test_json_is_deterministic(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--format", "json", "--show-all", "--select", "ALL"]
    _, first, _ = run(capsys, *args, "transpose.cu", "strided.cu", "clean.cu")
    _, second, _ = run(capsys, *args, "clean.cu", "strided.cu", "transpose.cu")
    assert first == second
    document = json.loads(first)
    keys = [(d["file"], d["line"], d["column"], d["code"]) for d in document["diagnostics"]]
    assert keys == sorted(keys)


def test_json_diagnostic_without_access_has_null_access_fields(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "--format", "json", "--select", "CL004", "strided.cu")
    (d,) = json.loads(out)["diagnostics"]
    assert d["code"] == "CL004" and d["severity"] == "info"
    assert d["kernel"] is None and d["conflict"] is None and d["status"] is None
    assert json.loads(out)["accesses"] == []


# --- excerpts and carets -------------------------------------------------------------------


def diag(line: int, column: int, end_line: int, end_column: int) -> Diagnostic:
    return Diagnostic(
        "CL001", "shared-bank-conflict", "warning", "m", "f.cu", line, column, end_line, end_column
    )


def test_caret_under_a_plain_span() -> None:
    src = b"int a;\n    v = s[i];\n"
    assert excerpt(src, diag(2, 9, 2, 13)) == ("    v = s[i];", "        ^~~~")


def test_caret_with_tabs_and_utf8() -> None:
    src = "\t/* é */ x = s[i];\n".encode()
    start = src.index(b"s[i]") + 1
    line, caret = excerpt(src, diag(1, start, 1, start + 4))  # type: ignore[misc]
    assert line == "        /* é */ x = s[i];"
    assert caret == " " * line.index("s[i]") + "^~~~"


def test_caret_with_wide_characters() -> None:
    src = "/* 表 */ s[i];\n".encode()
    start = src.index(b"s[i]") + 1
    _, caret = excerpt(src, diag(1, start, 1, start + 4))  # type: ignore[misc]
    assert caret == " " * 9 + "^~~~"  # '表' takes two cells


def test_caret_for_a_multi_line_span_runs_to_the_end_of_the_first_line() -> None:
    src = b"x = s[i +\n      j];\n"
    assert excerpt(src, diag(1, 5, 2, 9)) == ("x = s[i +", "    ^~~~~")


def test_caret_for_an_empty_span_and_lines_out_of_range() -> None:
    src = b"abc\r\n"
    assert excerpt(src, diag(1, 4, 1, 4)) == ("abc", "   ^")
    assert excerpt(src, diag(9, 1, 9, 2)) is None
    assert excerpt(src, diag(1, 40, 1, 44)) == ("abc", "   ^")


# --- colour and summary --------------------------------------------------------------------


def test_color_always_and_never(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, coloured, _ = run(capsys, "--color", "always", "transpose.cu")
    _, plain, _ = run(capsys, "--color", "never", "transpose.cu")
    assert "\033[1;35mwarning:\033[0m" in coloured
    assert "\033[" not in plain
    assert re.sub(r"\033\[[0-9;]*m", "", coloured) == plain


def test_color_auto_needs_a_tty_and_no_no_color(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cudalint.cli import use_color

    class Tty:
        def isatty(self) -> bool:
            return True

    tty: Any = Tty()
    assert use_color("auto", tty)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color("auto", tty)
    assert use_color("always", tty)
    monkeypatch.setenv("NO_COLOR", "")
    assert use_color("auto", tty)
    assert not use_color("never", tty)


def test_quiet_drops_the_summary(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "-q", "transpose.cu", "clean.cu")
    assert "files," not in out
    assert out.startswith("transpose.cu:10:25: warning:")
    _, out, _ = run(capsys, "-q", "clean.cu")
    assert out == ""


def test_summary_counts(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "clean.cu")
    assert out == "1 file, 2 accesses: 2 proved, 0 worst-case, 0 unknown; 0 conflicts\n"
    _, out, _ = run(capsys, "clean.cu", "transpose.cu", "missing.cu")
    assert out.endswith(
        "3 files, 4 accesses: 4 proved, 0 worst-case, 0 unknown; 1 conflict; "
        "1 file could not be analyzed\n"
    )
