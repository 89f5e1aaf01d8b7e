"""cudalint.irjson: the IR as JSON, and a run replayed from it.

Every fixture (single files, ``fixtures/fixes``, the ``fixtures/headers`` directories run
as one invocation) and every ``bench/accuracy/*.cu`` is recorded once (``_record``: the
command line's own task building and ``run_tasks``); then

- each unit and the whole run survive ``dumps``/``loads`` exactly, and writing is
  deterministic;
- the replay from the IR alone (``render_ir``) prints what the command line printed,
  fix records aside, and with the files' bytes given, fixes included;
- a few runs are compared with ``cudalint.cli.main`` itself;
- malformed documents give IRFormatError (a ValueError) naming the place.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import re
import shlex
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cudalint import ir, irjson
from cudalint.api import FileReport
from cudalint.irjson import IRFormatError, Run
from cudalint.output import RenderOptions
from cudalint.output.json import render
from cudalint.suppressions import find_suppressions

ROOT = Path(__file__).resolve().parent.parent
_ARGS = re.compile(r"//\s*cudalint-args:(.*)$", re.MULTILINE)


def _args(files: list[Path]) -> list[str]:
    return [
        a
        for f in files
        for m in _ARGS.finditer(f.read_text("utf-8"))
        for a in shlex.split(m.group(1))
    ]


def _cases() -> dict[str, list[str]]:
    """name -> argv (relative paths: run from the repository root)."""
    cases: dict[str, list[str]] = {}
    singles = [
        *sorted((ROOT / "fixtures").glob("*.cu")),
        *sorted((ROOT / "fixtures" / "fixes").glob("*.cu")),
        *sorted((ROOT / "bench" / "accuracy").glob("*.cu")),
    ]
    for path in singles:
        rel = str(path.relative_to(ROOT))
        cases[rel] = [*_args([path]), rel]
    for directory in sorted(p for p in (ROOT / "fixtures" / "headers").iterdir() if p.is_dir()):
        files = sorted(p for p in directory.rglob("*") if p.is_file())
        rel = str(directory.relative_to(ROOT))
        cases[rel] = [*_args(files), rel]
    return cases


CASES = _cases()


@dataclasses.dataclass
class Recorded:
    argv: list[str]
    run: Run
    text: str
    #: The command line's reports of the same run_tasks (suppressions applied).
    reports: list[FileReport]


@cache
def recorded(name: str) -> Recorded:
    argv = ["--format", "json", "--show-all", "-j", "1", *CASES[name]]
    run, reports = irjson._record(argv, str(ROOT))
    return Recorded(argv, run, irjson.dumps_run(run), reports)


def _direct(rec: Recorded) -> str:
    return render(rec.reports, RenderOptions(show_all=True, max_unknown=rec.run.max_unknown))


def _without_fixes(text: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(text)
    for d in document["diagnostics"]:
        d.pop("fix")
    return document


def _sources(run: Run) -> dict[str, bytes]:
    return {e.path: (ROOT / e.path).read_bytes() for e in run.files if e.unit is not None}


# --- round trip ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_round_trip(name: str) -> None:
    rec = recorded(name)
    assert rec.run.files, "nothing recorded"
    units = [e.unit for e in rec.run.files if e.unit is not None]
    assert units, [e.error for e in rec.run.files]
    for unit in units:
        text = irjson.dumps_tu(unit)
        back = irjson.loads_tu(text)
        assert back == unit
        assert irjson.dumps_tu(back) == text  # deterministic: the same bytes again
    back_run = irjson.loads_run(rec.text)
    assert back_run == rec.run
    assert irjson.dumps_run(back_run) == rec.text


@pytest.mark.parametrize("name", sorted(CASES))
def test_replay_gives_the_command_lines_output(name: str) -> None:
    rec = recorded(name)
    direct = _direct(rec)
    replay, status = irjson.render_ir(rec.text, show_all=True)
    assert _without_fixes(replay) == _without_fixes(direct)
    # With the files' bytes the fixes are the same too: one pipeline, not a copy.
    with_sources, _ = irjson.render_ir(rec.text, show_all=True, sources=_sources(rec.run))
    assert with_sources == direct
    document = json.loads(replay)
    has_accesses = any(e.unit.accesses for e in rec.run.files if e.unit is not None)
    assert bool(document["accesses"]) == has_accesses
    from cudalint.cli import exit_status

    assert status == exit_status(rec.reports, False, rec.run.max_unknown)


def _cli(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    from cudalint.cli import main

    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    return code, out.getvalue()


@pytest.mark.parametrize(
    "name",
    [
        "fixtures/headers/header_twice",
        "fixtures/headers/block_reduce",
        "fixtures/launch_param_constants.cu",
        "fixtures/kepler_sm35.cu",
        "bench/accuracy/atomics.cu",
    ],
)
def test_replay_equals_cudalint_main(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = recorded(name)
    code, out = _cli(rec.argv, monkeypatch)
    replay, status = irjson.render_ir(rec.text, show_all=True, sources=_sources(rec.run))
    assert (status, replay) == (code, out)
    assert irjson.check_ir(rec.text, sources=_sources(rec.run)) == json.loads(out)


def test_the_header_fixture_exercises_suppressions_and_covered_headers() -> None:
    """header_twice holds a suppression in its header and a header analysed only as
    part of the files that include it: both must be in the IR and act in the replay."""
    rec = recorded("fixtures/headers/header_twice")
    assert any(e.covered_by for e in rec.run.files)
    assert rec.run.suppressions
    for lines in rec.run.suppressions.values():
        for _, text in lines:
            assert "cudalint: ignore" in text
    without = dataclasses.replace(rec.run, suppressions={})
    assert (
        irjson.render_ir(without, show_all=True)[0] != irjson.render_ir(rec.run, show_all=True)[0]
    )


def test_module_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert irjson.main(["dump", "-j", "1", "fixtures/transpose_2d_32x32.cu"]) == 0
    dumped = capsys.readouterr().out
    assert json.loads(dumped)["format"] == "cudalint-ir"
    path = tmp_path / "run.json"
    path.write_text(dumped, "utf-8")
    status = irjson.main(["check", "--show-all", str(path)])
    out = capsys.readouterr().out
    code, cli_out = _cli(
        ["--format", "json", "--show-all", "fixtures/transpose_2d_32x32.cu"], monkeypatch
    )
    assert status == code == 1
    assert _without_fixes(out) == _without_fixes(cli_out)
    assert irjson.main(["check", str(tmp_path / "missing.json")]) == 2
    assert "error" in capsys.readouterr().err
    assert irjson.main(["dump", "--fix", "fixtures/transpose_2d_32x32.cu"]) == 2
    assert "--fix" in capsys.readouterr().err
    assert irjson.main(["frobnicate"]) == 2


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--fix", "fixtures/guarded.cu"], "--fix"),
        (["--baseline", "b.json", "fixtures/guarded.cu"], "--baseline"),
        (["--arch", "sm_xx", "fixtures/guarded.cu"], "sm_xx"),
        ([], "no paths"),
        (["--version"], "no run"),
    ],
)
def test_dump_refuses_what_it_cannot_record(argv: list[str], message: str) -> None:
    with (
        contextlib.redirect_stderr(io.StringIO()),
        contextlib.redirect_stdout(io.StringIO()),
        pytest.raises(ValueError, match=re.escape(message)),
    ):
        irjson.dump_run(argv, str(ROOT))


def test_a_file_that_cannot_be_analysed_is_an_error_entry(tmp_path: Path) -> None:
    text = irjson.dump_run(["-j", "1", "missing.cu"], str(tmp_path))
    run = irjson.loads_run(text)
    assert run.files[0].unit is None and run.files[0].error
    document = irjson.check_ir(text)
    assert document["errors"] == [{"file": "missing.cu", "message": run.files[0].error}]
    assert irjson.render_ir(text)[1] == 2


# --- the codec ------------------------------------------------------------------------------


def _span(line: int = 1) -> ir.Span:
    return ir.Span("k.cu", line, 1, line, 2)


def test_deep_trees_round_trip() -> None:
    """Trees as deep as the source's expressions (the frontend takes thousands of levels)
    are written and read on a thread with room for them."""
    expr: ir.Expr = ir.Sym("threadIdx.x", lane_dependent=True)
    for n in range(3000):
        expr = ir.Binary("+", expr, ir.Const(n))
    access = ir.Access("k::s", "k", "load", 4, expr, _span())
    unit = ir.TranslationUnit("k.cu", accesses=(access,))
    back = irjson.loads_tu(irjson.dumps_tu(unit))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(50_000)  # for the comparison below (dataclass __eq__ recurses)
    try:
        assert back == unit
    finally:
        sys.setrecursionlimit(limit)


def test_every_kind_of_value_round_trips() -> None:
    sym = ir.Sym("i", induction=ir.Induction(ir.Const(0), "+", ir.Const(2), "<", ir.Const(64)))
    unit = ir.TranslationUnit(
        "k.cu",
        kernels=(ir.Kernel("k", _span(), 256, (32, 8, 1), ("T",)),),
        arrays=(
            ir.SharedArray(
                "k::s",
                "s",
                "float",
                4,
                (0,),
                _span(),
                (),
                (),
                "k",
                16,
                ir.Select(ir.Const(1), sym, ir.Opaque(ir.OpaqueKind.LOAD, "load", (sym,))),
            ),
        ),
        accesses=(
            ir.Access(
                "k::s",
                "k",
                "atomic",
                4,
                ir.Cast(sym, ir.LONG),
                _span(2),
                guard=ir.Unary("!", sym),
                launch_params=("W",),
                atomic_op="atomicAdd",
                atomic_operand=-1,
                matrix=True,
            ),
        ),
        launches=(ir.Launch("k", None, _span(3), "T=4", (32, None, None)),),
        notes=(ir.Note("warning", "caf\u00e9 \u2192 \U0001f600", None),),
        parsed=False,
        includes=("/abs/h.cuh",),
    )
    text = irjson.dumps_tu(unit)
    assert irjson.loads_tu(text) == unit
    assert irjson.loads_tu(text.encode("utf-8")) == unit
    run = Run(
        files=(
            irjson.FileEntry("a.cu", codes=frozenset({"CL001", "CL100"}), unit=unit),
            irjson.FileEntry("b.cu", error="cannot read file"),
        ),
        max_unknown=float("inf"),
        suppressions={"a.cu": ((3, "//cudalint: ignore"),)},
    )
    back = irjson.loads_run(irjson.dumps_run(run))
    assert back == run
    assert isinstance(back.files[0].unit.accesses[0].launch_params, tuple)  # type: ignore[union-attr]
    assert isinstance(back.files[0].codes, frozenset)


def test_writing_is_sorted_and_leaves_out_defaults() -> None:
    unit = ir.TranslationUnit(
        "k.cu",
        accesses=(
            ir.Access("k::s", "k", "load", 4, ir.Sym("threadIdx.x", lane_dependent=True), _span()),
        ),
    )
    text = irjson.dumps_tu(unit)
    line = next(x for x in text.splitlines() if '"Access"' in x)
    record = json.loads(line.strip().rstrip(","))
    assert list(record) == sorted(record)
    assert "guard" not in record and "volatile" not in record
    assert record["offset"] == {"_t": "Sym", "lane_dependent": True, "name": "threadIdx.x"}
    document = json.loads(text)
    assert (document["format"], document["version"]) == ("cudalint-ir-unit", 2)
    assert irjson.document_schema(text) == irjson.schema_fingerprint()


def test_writing_something_else_is_an_error() -> None:
    with pytest.raises(IRFormatError, match="not a TranslationUnit"):
        irjson.dumps_tu("k.cu")  # type: ignore[arg-type]
    bad = ir.TranslationUnit("k.cu", includes=([1],))  # type: ignore[arg-type]
    with pytest.raises(IRFormatError, match=r"unit\.includes\[0\]: cannot write a list"):
        irjson.dumps_tu(bad)


def _unit_doc(unit: Any, **top: Any) -> str:
    return json.dumps({"format": "cudalint-ir-unit", "version": 2, "unit": unit, **top})


_CONST = {"_t": "Const", "value": 1}
_ACCESS = {
    "_t": "Access",
    "array": "k::s",
    "kernel": "k",
    "kind": "load",
    "width": 4,
    "offset": _CONST,
    "span": {"_t": "Span", "file": "k.cu", "line": 1, "column": 1, "end_line": 1, "end_column": 2},
}


def _with_access(**changes: Any) -> str:
    access = {**_ACCESS, **changes}
    return _unit_doc({"_t": "TranslationUnit", "file": "k.cu", "accesses": [access]})


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "not JSON"),
        ("{", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        ("[1, 2]", "expected a JSON object, got an array"),
        (
            '{"format": "cudalint-ir-unit", "version": 1, "unit": null}',
            "version 1 is not supported",
        ),
        ('{"format": "cudalint-ir-unit", "version": true, "unit": null}', "version True"),
        ('{"format": "something", "version": 1}', "not a cudalint-ir-unit document"),
        ('{"format": "cudalint-ir-unit", "version": 2}', "without 'unit'"),
        ('{"format": "cudalint-ir-unit", "version": 2, "unit": {}, "x": 1}', "unknown key 'x'"),
        (_unit_doc([]), "unit: expected a TranslationUnit node, got an array"),
        (_unit_doc({"_t": "TranslationUnit"}), "lacks its field 'file'"),
        (_unit_doc({"_t": "TranslationUnit", "file": "k.cu", "colour": 1}), "no field 'colour'"),
        (
            _unit_doc({"_t": "TranslationUnit", "file": 3}),
            "unit.file: expected str, got the number 3",
        ),
        (_unit_doc({"_t": "TranslationUnit", "file": "k.cu", "parsed": 1}), "expected bool"),
        (_with_access(width="4"), "unit.accesses[0].width: expected int, got the string '4'"),
        (_with_access(width=True), "expected int, got a boolean"),
        (_with_access(kind="read"), "unit.accesses[0].kind: expected Literal"),
        (_with_access(offset={"_t": "Span"}), "unit.accesses[0].offset: expected Const | Sym"),
        (_with_access(offset={"_t": "Nope"}), "got a 'Nope' node"),
        (
            _with_access(offset={"_t": "Binary", "op": "**", "lhs": _CONST, "rhs": _CONST}),
            "unit.accesses[0].offset.op: expected Literal",
        ),
        (_with_access(offset={"_t": "Const", "value": 1.5}), "offset.value: expected int"),
        (
            _with_access(
                offset={"_t": "Const", "value": 1, "type": {"_t": "IntType", "bits": None}}
            ),
            "offset.type.bits: expected int, got null",
        ),
        (_with_access(indices={"a": 1}), "indices: expected an array, got an object"),
        (_with_access(indices=[_CONST, 7]), "indices[1]: expected Const | Sym"),
        (
            _unit_doc(
                {
                    "_t": "TranslationUnit",
                    "file": "k.cu",
                    "kernels": [
                        {
                            "_t": "Kernel",
                            "name": "k",
                            "span": _ACCESS["span"],
                            "annotated_block": [32, 1],
                        }
                    ],
                }
            ),
            "annotated_block: expected tuple[int, int, int] | None, got an array",
        ),
        (
            _unit_doc(
                {
                    "_t": "TranslationUnit",
                    "file": "k.cu",
                    "notes": [
                        {
                            "_t": "Note",
                            "severity": "note",
                            "message": "m",
                            "span": {"_t": "float", "v": "x"},
                        }
                    ],
                }
            ),
            "span: expected Span | None",
        ),
        ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
    ],
)
def test_malformed_documents(text: str | bytes, message: str) -> None:
    with pytest.raises(IRFormatError) as info:
        irjson.loads_tu(text)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "run, message",
    [
        (
            {"_t": "Run", "files": [{"_t": "FileEntry", "path": "a.cu", "codes": ["CL001"]}]},
            "run.files[0].codes: expected a frozenset",
        ),
        ({"_t": "Run", "suppressions": {"a.cu": []}}, "run.suppressions: expected a dict"),
        ({"_t": "Run", "suppressions": {"_t": "dict", "v": [["a.cu"]]}}, "not a [key, value] pair"),
        (
            {"_t": "Run", "suppressions": {"_t": "dict", "v": [["a.cu", [[1]]]]}},
            "run.suppressions['a.cu'][0]: expected 2 items, got 1",
        ),
        (
            {"_t": "Run", "max_unknown": {"_t": "float", "v": "lots"}},
            "run.max_unknown: expected float",
        ),
        (
            {
                "_t": "Run",
                "files": [
                    {
                        "_t": "FileEntry",
                        "path": "a.cu",
                        "options": {"_t": "Options", "bank_mode": "16"},
                    }
                ],
            },
            "run.files[0].options.bank_mode",
        ),
    ],
)
def test_malformed_run_documents(run: dict[str, Any], message: str) -> None:
    text = json.dumps({"format": "cudalint-ir", "version": 2, "run": run})
    with pytest.raises(IRFormatError) as info:
        irjson.loads_run(text)
    assert message in str(info.value)
    with pytest.raises(IRFormatError, match="not a cudalint-ir-unit document"):
        irjson.loads_tu(text)


# --- suppression comments without the code ---------------------------------------------------


def test_suppression_lines_keep_the_directives_and_drop_the_code() -> None:
    source = (
        b"int secret_a = 1;  // cudalint: ignore[CL001]\n"
        b"  // cudalint: ignore-file[CL002, possible-bank-conflict]\n"
        b"// note about secret_b // cudalint: ignore\n"
        b'const char* s = "// cudalint: ignore[CL003]";\n'
        b"/* // cudalint: ignore[CL004]\n"
        b"   still a block */ x = 1; // cudalint:ignore [CL005] and secret_c\n"
        b"\t//cudalint: ignore[CL001]//cudalint: ignore-file\n"
        b"y = t[i]; // cudalint: ignore[\xff\xfe]\n"
    )
    lines = irjson.suppression_lines(source)
    text = "\n".join(t for _, t in lines)
    assert "secret" not in text and "int " not in text and "note" not in text
    rebuilt = irjson._rebuild(lines)

    def facts(data: bytes) -> list[tuple[Any, ...]]:
        # Line 8's selector is not UTF-8: kept as "?" bytes, its columns unchanged.
        return [
            (s.line, s.column, s.end_column, s.kind, s.target_line)
            + ((s.selectors,) if s.line != 8 else ())
            for s in find_suppressions(data)
        ]

    assert facts(rebuilt) == facts(source)
    assert len(find_suppressions(source)) == 7
