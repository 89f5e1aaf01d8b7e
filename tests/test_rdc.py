"""Kernel launches from device code (dynamic parallelism): a file with clang's "requires
relocatable device code" error is parsed again with -fgpu-rdc, as nvcc's -rdc=true
builds it; other files are parsed without it (the flag changes clang's instantiations
of generic lambdas in host code). Both in a run and in the editor's kept documents."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from cudalint.frontend import parse
from cudalint.options import Options

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

PLAIN = "__global__ void k(float *o) { __shared__ float s[32]; s[threadIdx.x] = o[0]; }\n"


def _errors(unit: parse.TranslationUnit) -> list[str]:
    return [n.message for n in unit.notes if n.severity != "warning"]


def test_a_device_side_launch_parses_in_a_run() -> None:
    unit = parse.parse_file(str(FIXTURES / "dynamic_parallelism.cu"), Options())
    assert _errors(unit) == []
    assert sorted(a.array_name for a in unit.accesses) == ["launched", "s", "s", "s", "t", "t"]


def test_a_device_side_launch_parses_in_a_kept_document(tmp_path: Path) -> None:
    store = parse.DocumentStore()
    path = str(FIXTURES / "dynamic_parallelism.cu")
    source = Path(path).read_bytes()
    for text in (source, source + b"\n// an edit\n"):
        unit = store.parse(path, Options(), text)
        assert _errors(unit) == []
        assert len(unit.accesses) == 6
    doc = store.document(path)
    assert doc._rdc and doc._args is not None and parse.RDC in doc._args
    assert doc.reparses == 1  # the edit reparsed the unit kept with -fgpu-rdc


def test_other_files_are_parsed_without_rdc(tmp_path: Path) -> None:
    src = tmp_path / "plain.cu"
    src.write_text(PLAIN)
    store = parse.DocumentStore()
    unit = store.parse(str(src), Options(), PLAIN.encode())
    assert _errors(unit) == [] and len(unit.accesses) == 1
    doc = store.document(str(src))
    assert not doc._rdc and doc._args is not None and parse.RDC not in doc._args
    assert parse.RDC not in parse.clang_args(Options())
    assert parse.RDC in parse.clang_args(Options(), rdc=True)


def test_verbose_prints_the_command_the_file_was_parsed_with(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``-v``: the clang line of a file parsed again with -fgpu-rdc has it (the one its
    unit came from, not the first parse's); another file's has not."""
    from cudalint.cli import main

    plain = tmp_path / "plain.cu"
    plain.write_text(PLAIN)
    dynamic = str(FIXTURES / "dynamic_parallelism.cu")
    main(["-v", "--no-cache", "--exit-zero", "-q", dynamic, str(plain)])
    lines = [ln.removeprefix("cudalint: ") for ln in capsys.readouterr().err.splitlines()]
    commands = {}
    for ln in lines:
        path, _, rest = ln.partition(": ")
        if rest.startswith("clang "):
            commands[path] = shlex.split(rest)
    assert parse.RDC in commands[dynamic]
    assert parse.RDC not in commands[str(plain)]
    assert commands[dynamic][-1] == dynamic and "-fsyntax-only" in commands[dynamic]
