"""Every output format: snapshots on the fixture suite, schemas, SARIF and GitHub details.

Snapshots run the real pipeline on two small files that raise every rule
(``tests/data/formats/*.cu``: ``cudalint --isolated --select ALL --format F``) and compare
with ``tests/golden/formats/snapshot.*``, one per format. The fixture suite's findings are
checked by tests/test_fixtures.py, not here: a change to the model touches these snapshots
only where it changes one of these few accesses. When the output changes on purpose,
regenerate them with ``CUDALINT_UPDATE_GOLDEN=1 pytest tests/test_output_formats.py`` and
review the diff.

The SARIF output is validated against the official SARIF 2.1.0 JSON Schema (OASIS
errata 01, vendored in ``tests/data/sarif/``), the JSON output against
``docs/cudalint-output.schema.json``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from factories import (
    clean_unit,
    install_fake_pipeline,
    run_cli,
    strided_unit,
    transpose_unit,
    write_sources,
)

import cudalint
from cudalint.api import FileReport
from cudalint.cli import main
from cudalint.diagnostics import Edit, Fix
from cudalint.options import Options
from cudalint.output import RenderOptions, github, sarif
from cudalint.rules import RULES, FileContext, run_rules

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("CUDALINT_UPDATE_GOLDEN") == "1"
SARIF_SCHEMA = json.loads(
    (ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)
JSON_SCHEMA = json.loads(
    (ROOT / "docs" / "cudalint-output.schema.json").read_text(encoding="utf-8")
)


#: The snapshot inputs: every rule (CL001-CL005, CL100), a safe fix, notes, a summary.
SNAPSHOT_FILES = sorted(
    p.relative_to(ROOT).as_posix() for p in (ROOT / "tests" / "data" / "formats").glob("*.cu")
)


def validate_sarif(document: Any) -> None:
    cls = jsonschema.validators.validator_for(SARIF_SCHEMA)
    assert cls is jsonschema.Draft4Validator  # the schema's own "$schema"
    cls.check_schema(SARIF_SCHEMA)
    errors = sorted(cls(SARIF_SCHEMA).iter_errors(document), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def validate_json(document: Any) -> None:
    cls = jsonschema.validators.validator_for(JSON_SCHEMA)
    cls.check_schema(JSON_SCHEMA)
    errors = list(cls(JSON_SCHEMA, format_checker=cls.FORMAT_CHECKER).iter_errors(document))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with CUDALINT_UPDATE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"{name} differs; regenerate with CUDALINT_UPDATE_GOLDEN=1"


run = run_cli


# --- snapshots of a few small inputs, one per format ------------------------------------------


@pytest.fixture(scope="module")
def fixture_outputs() -> dict[str, tuple[int, str, str]]:
    """``cudalint --isolated --select ALL --format F tests/data/formats/*.cu`` for every
    format (real pipeline)."""
    import contextlib
    import io

    cwd = os.getcwd()
    os.chdir(ROOT)
    # helpUri comes from a published docs URL, else a source checkout's docs/rules.md:
    # the snapshot names one URL whatever the install (editable or not)
    docs = os.environ.get("CUDALINT_DOCS_URL")
    os.environ["CUDALINT_DOCS_URL"] = "https://example.org/cudalint/docs"
    outputs: dict[str, tuple[int, str, str]] = {}
    try:
        for fmt, extra in (
            ("text", ["--color", "never"]),
            ("json", ["--show-all"]),
            ("sarif", []),
            ("github", []),
            ("concise", []),
        ):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(
                    ["--isolated", "--select", "ALL", "--format", fmt, *extra, *SNAPSHOT_FILES]
                )
            outputs[fmt] = (code, out.getvalue(), err.getvalue())
    finally:
        os.chdir(cwd)
        if docs is None:
            del os.environ["CUDALINT_DOCS_URL"]
        else:
            os.environ["CUDALINT_DOCS_URL"] = docs
    return outputs


def _stable_sarif(text: str) -> str:
    document = json.loads(text)
    run_ = document["runs"][0]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == ROOT.as_uri() + "/"
    run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] = "file:///ROOT/"
    driver = run_["tool"]["driver"]
    assert driver["version"] == cudalint.__version__
    driver["version"] = driver["semanticVersion"] = "VERSION"
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def test_fixture_snapshot_text(fixture_outputs: dict[str, tuple[int, str, str]]) -> None:
    code, out, err = fixture_outputs["text"]
    assert (code, err) == (1, "")
    # the summary, then ruff's count of what --fix / --unsafe-fixes would fix
    *_, last_summary, fixes = out.splitlines()
    assert re.search(
        r"^\d+ files, \d+ accesses: \d+ proved, \d+ worst-case, \d+ unknown"
        r"( \(\S+%\))?; \d+ conflicts$",
        last_summary,
    )
    assert re.fullmatch(r"\[\*\] \d+ fixable with `--fix`( \(\d+ with `--unsafe-fixes`\))?", fixes)
    assert out.count(" [*]\n") == int(fixes.split()[1])  # each safe fix marked
    check_golden("formats/snapshot.txt", out)


def test_fixture_snapshot_concise(fixture_outputs: dict[str, tuple[int, str, str]]) -> None:
    """One ``path:line:col: CODE [*] message`` line per finding, the same findings in
    the same order as the text format, then the same summary lines."""
    code, out, err = fixture_outputs["concise"]
    assert (code, err) == (1, "")
    text = fixture_outputs["text"][1].splitlines()
    head = re.compile(r"^tests/data/formats/\S+:\d+:\d+: (warning|info|error): ")
    heads = [line for line in text if head.match(line)]
    findings, tail = out.split("\n\n")
    rows = findings.splitlines()
    assert len(rows) == len(heads) > 0
    for row, head in zip(rows, heads, strict=True):
        m = re.fullmatch(r"(\S+:\d+:\d+): (CL\d{3})( \[\*\])? (.+)", row)
        assert m, row
        assert head.startswith(f"{m[1]}: ") and head.endswith(f"{m[4]} [{m[2]}]{m[3] or ''}")
    assert tail.splitlines() == text[-2:]
    check_golden("formats/snapshot.concise.txt", out)


def test_fixture_snapshot_json(fixture_outputs: dict[str, tuple[int, str, str]]) -> None:
    code, out, _ = fixture_outputs["json"]
    assert code == 1
    document = json.loads(out)
    validate_json(document)
    assert document["errors"] == [] and document["diagnostics"] and document["accesses"]
    check_golden("formats/snapshot.json", out)


def test_fixture_snapshot_sarif(fixture_outputs: dict[str, tuple[int, str, str]]) -> None:
    code, out, _ = fixture_outputs["sarif"]
    assert code == 1
    document = json.loads(out)
    validate_sarif(document)
    check_golden("formats/snapshot.sarif", _stable_sarif(out))
    # One result per text diagnostic, in the same order.
    text = fixture_outputs["text"][1]
    heads = re.findall(r"^(\S+?):(\d+):(\d+): \w+: .* \[(CL\d{3})\](?: \[\*\])?$", text, flags=re.M)
    results = document["runs"][0]["results"]
    assert len(results) == len(heads)
    for result, (file, line, _col, code_) in zip(results, heads, strict=True):
        location = result["locations"][0]["physicalLocation"]
        assert (
            location["artifactLocation"]["uri"],
            location["region"]["startLine"],
            result["ruleId"],
        ) == (file, int(line), code_)


def test_fixture_snapshot_github(fixture_outputs: dict[str, tuple[int, str, str]]) -> None:
    code, out, _ = fixture_outputs["github"]
    assert code == 1
    lines = out.splitlines()
    assert lines and all(
        re.fullmatch(
            r"::(warning|notice|error) file=[^,]+,line=\d+,col=\d+,endLine=\d+,"
            r"endColumn=\d+,title=CL\d{3} [a-z-]+::.*",
            line,
        )
        for line in lines
    ), out
    assert len(lines) == fixture_outputs["text"][1].count(" [CL")
    check_golden("formats/snapshot.github.txt", out)


# --- SARIF details ---------------------------------------------------------------------------


def _report(make: Any, path: str, source: str, fix: Fix | None = None) -> FileReport:
    unit, results = make(path)
    ctx = FileContext(path=path, unit=unit, results=results)
    from cudalint.rules import RuleSelection

    diagnostics = run_rules(ctx, RuleSelection.build(select=["ALL"]))
    if fix is not None:
        diagnostics = [
            dataclasses.replace(d, fix=fix) if d.code == "CL001" else d for d in diagnostics
        ]
    return FileReport(
        path=path, unit=unit, results=results, diagnostics=diagnostics, source=source.encode()
    )


def test_sarif_rules_results_regions_and_fixes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from factories import STRIDED, TRANSPOSE

    monkeypatch.chdir(tmp_path)
    fix = Fix(
        "pad the last dimension",
        "unsafe",
        (
            Edit("transpose.cu", 5, 28, 5, 32, "TILE + 1"),
            Edit("other dir/x.cuh", 1, 1, 1, 1, "// x\n"),
        ),
    )
    reports = [
        _report(transpose_unit, "transpose.cu", TRANSPOSE, fix),
        _report(strided_unit, "strided.cu", STRIDED),
        FileReport(path="missing.cu", error="cannot read file: No such file or directory"),
    ]
    document = json.loads(sarif.render(reports, RenderOptions()))
    validate_sarif(document)
    run_ = document["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(RULES)
    cl001 = rules[0]
    assert cl001["name"] == "shared-bank-conflict"
    assert cl001["shortDescription"]["text"] == RULES["CL001"].summary
    assert cl001["fullDescription"]["text"].startswith("Reports a load, store or atomic")
    assert cl001["help"]["text"].startswith("# CL001 shared-bank-conflict")
    assert cl001["defaultConfiguration"] == {"enabled": True, "level": "warning"}
    assert rules[2]["defaultConfiguration"] == {"enabled": False, "level": "note"}

    by_rule = {
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        ): r
        for r in run_["results"]
    }
    conflict = by_rule[("CL001", "transpose.cu", 10)]
    assert conflict["level"] == "warning" and conflict["ruleIndex"] == 0
    assert conflict["message"]["text"].startswith(
        "32-way bank conflict on load of 'tile' (32 wavefronts, ideal 1)\nnote: bank 0"
    )
    assert conflict["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 10,
        "startColumn": 25,
        "endLine": 10,
        "endColumn": 55,
    }
    assert conflict["properties"]["wavefronts"] == 32
    (sarif_fix,) = conflict["fixes"]
    assert sarif_fix["description"]["text"] == "pad the last dimension"
    assert sarif_fix["artifactChanges"] == [
        {
            "artifactLocation": {"uri": "transpose.cu", "uriBaseId": "%SRCROOT%"},
            "replacements": [
                {
                    "deletedRegion": {
                        "startLine": 5,
                        "startColumn": 28,
                        "endLine": 5,
                        "endColumn": 32,
                    },
                    "insertedContent": {"text": "TILE + 1"},
                }
            ],
        },
        {
            "artifactLocation": {"uri": "other%20dir/x.cuh", "uriBaseId": "%SRCROOT%"},
            "replacements": [
                {
                    "deletedRegion": {
                        "startLine": 1,
                        "startColumn": 1,
                        "endLine": 1,
                        "endColumn": 1,
                    },
                    "insertedContent": {"text": "// x\n"},
                }
            ],
        },
    ]
    # A tab and 'é' (2 UTF-8 bytes, 1 UTF-16 unit) before the access: byte column 30.
    # sm_35, both bank modes: one result (CL001, proved in 8-byte mode) with both costs.
    assert ("CL002", "strided.cu", 6) not in by_rule
    kepler = by_rule[("CL001", "strided.cu", 6)]
    assert kepler["locations"][0]["physicalLocation"]["region"]["startColumn"] == 29
    assert by_rule[("CL003", "strided.cu", 7)]["level"] == "note"
    assert "fixes" not in kepler
    assert kepler["properties"]["bank_mode"] == 8
    assert [
        (m["bank_mode"], m["wavefronts"], m["status"]) for m in kepler["properties"]["bank_modes"]
    ] == [(4, 32, "worst-case"), (8, 3, "proved")]
    invocation = run_["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0]["message"]["text"].startswith(
        "cannot read file"
    )
    assert run_["columnKind"] == "utf16CodeUnits"


def test_sarif_absolute_paths_are_file_uris(tmp_path: Path) -> None:
    from factories import CLEAN

    path = str(tmp_path / "clean.cu")
    reports = [_report(clean_unit, path, CLEAN), FileReport(path=path + "x", error="gone")]
    document = json.loads(sarif.render(reports, RenderOptions()))
    validate_sarif(document)
    location = document["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["locations"][
        0
    ]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": Path(path + "x").as_uri()}


def test_the_sarif_validator_catches_mistakes() -> None:
    good = json.loads(sarif.render([], RenderOptions()))
    validate_sarif(good)
    bad = json.loads(json.dumps(good))
    bad["runs"][0]["results"] = [{"message": {"text": "x"}, "level": "fatal"}]
    with pytest.raises(AssertionError):
        validate_sarif(bad)
    bad = json.loads(json.dumps(good))
    bad["version"] = "2.0.0"
    with pytest.raises(AssertionError):
        validate_sarif(bad)


def test_cli_sarif_and_json_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_fake_pipeline(monkeypatch)
    write_sources(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(
        capsys,
        "--format",
        "sarif",
        "--select",
        "ALL",
        "transpose.cu",
        "strided.cu",
        "clean.cu",
        "missing.cu",
    )
    assert code == 2 and err == ""  # errors go into the SARIF, not to stderr
    validate_sarif(json.loads(out))
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
        "missing.cu",
    )
    validate_json(json.loads(out))


def test_the_json_validator_catches_mistakes() -> None:
    good = {
        "version": 1,
        "diagnostics": [],
        "accesses": [],
        "errors": [],
        "summary": {
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
        },
    }
    validate_json(good)
    for bad in (
        {**good, "version": 2},
        {**good, "extra": 1},
        {**good, "errors": [{"file": "a.cu"}]},
        {k: v for k, v in good.items() if k != "summary"},
    ):
        with pytest.raises(AssertionError):
            validate_json(bad)


# --- GitHub annotations --------------------------------------------------------------------------


def test_github_escaping() -> None:
    assert github.escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert github.escape_property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A"
    assert github.annotation(
        "warning", "m: 50%, ok", file="dir,x/k:1.cu", line=3, title="CL001 x"
    ) == ("::warning file=dir%2Cx/k%3A1.cu,line=3,title=CL001 x::m: 50%25, ok")


def test_github_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_fake_pipeline(monkeypatch)
    write_sources(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(
        capsys,
        "--format",
        "github",
        "--extend-select",
        "CL003",
        "transpose.cu",
        "strided.cu",
        "missing.cu",
    )
    assert code == 2 and err == ""
    lines = out.splitlines()
    assert lines[-1] == (
        "::error file=missing.cu,title=cudalint::cannot read file: No such file or directory"
    )
    transpose = next(line for line in lines if "transpose.cu" in line)
    assert transpose.startswith(
        "::warning file=transpose.cu,line=10,col=25,endLine=10,endColumn=55,"
        "title=CL001 shared-bank-conflict::32-way bank conflict on load of 'tile' "
        "(32 wavefronts, ideal 1)%0Anote: bank 0 serves 32 distinct words"
    )
    assert any(line.startswith("::notice file=strided.cu,line=7,") for line in lines)
    assert any(
        line.startswith("::notice file=strided.cu,line=1,") and "CL004" in line for line in lines
    )


# --- statistics --------------------------------------------------------------------------------


def test_statistics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_fake_pipeline(monkeypatch)
    write_sources(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(
        capsys, "--statistics", "--select", "ALL", "transpose.cu", "strided.cu", "clean.cu"
    )
    assert code == 1
    assert out == (
        "2  CL001  shared-bank-conflict (warning)\n"
        "1  CL003  unknown-shared-index (info)\n"
        "1  CL004  partial-parse (info)\n"
        "3 files, 7 accesses: 5 proved, 1 worst-case, 1 unknown (14%); 2 conflicts\n"
    )
    _, out, _ = run(capsys, "--statistics", "--format", "json", "transpose.cu")
    assert json.loads(out) == [
        {"code": "CL001", "name": "shared-bank-conflict", "severity": "warning", "count": 1}
    ]
    code, _, err = run(capsys, "--statistics", "--format", "sarif", "transpose.cu")
    assert code == 2 and "--statistics prints text or JSON" in err


def test_options_unused_here_do_not_change_the_analysis() -> None:
    # Guards the snapshot: fixtures are analyzed with the defaults.
    assert Options() == Options(arch="sm_90", block_dim_source="cli")
