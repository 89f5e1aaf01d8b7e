"""Fixture kernels with inline expectations, checked both ways.

Every ``fixtures/*.cu`` file is analyzed in-process with
``cudalint --format json --show-all --select ALL [ARGS] FILE`` (every rule on, so an
``expect:`` may name any of them) and its output is compared
with expectations written in comments on the source lines they are about, in
the spirit of mypy's ``# E:`` lines and clang-tidy's ``CHECK-MESSAGES``
(fixtures/README.md has the same description, with examples).

Syntax
------

``// expect: CODE TEXT``
    A diagnostic with code ``CODE`` on this line whose message contains
    ``TEXT`` (case-sensitive substring; TEXT may be empty). Several on one line
    are separated by `` ;; ``::

        v = tile[threadIdx.x][threadIdx.y];  // expect: CL001 32-way bank conflict on load of 'tile'

``// access: KIND WAVEFRONTS/IDEAL STATUS [mode=N] [w=N] [src=SOURCE] [block=X,Y,Z] [inst=A=1,B=2]``
    An access record (``accesses`` in the JSON output, ``--show-all``) on this
    line with that ``kind`` (load, store, atomic), ``wavefronts``,
    ``ideal_wavefronts`` and ``status`` (proved, worst-case, unknown). The
    numbers may be ``?`` for null (unknown accesses). Optional keys constrain
    ``bank_mode`` (``mode=8``), ``width`` in bytes (``w=8``),
    ``block_dim_source`` (``src=assumed``), ``block_dim`` (``block=16,16,1``,
    the launch shape a worst case came from) and ``instantiation``
    (``inst=T=float,N=4``, without its spaces; ``inst=-`` for none: records of
    several instantiations on one line are told apart); a key left out is not
    checked.
    Several on one line are separated by `` ;; `` (``s[i] += x`` is a load and
    a store; on Kepler every access has a record per bank mode)::

        s[i] += 1.0f;  // access: load 1/1 proved ;; store 1/1 proved

``// cudalint-args: FLAGS``
    A header line: extra command-line flags for this fixture (split like a shell
    would), e.g. ``// cudalint-args: --arch sm_35``.

One line may carry both kinds: ``// access: ... // expect: ...``. Each clause
runs to the next ``// expect:``/``// access:`` marker or the end of the line.

Checks, for each fixture
------------------------

- Every diagnostic is matched by an ``expect:`` on its line, and every
  ``expect:`` by a diagnostic (one to one: two expectations need two
  diagnostics).
- Every access record on a line is matched by an ``access:`` expectation on
  that line, one to one, and every ``access:`` expectation by a record. A line
  that holds an access record but carries no ``access:`` expectation is a
  failure too, so nothing unannotated slips through.
- The output is ``{"version": 1, ...}`` with no file ``errors``, and the exit
  status is 1 when a warning was reported, else 0.

A failure lists every difference as ``file:line: what differed``.

A pipeline that cannot be imported or run fails every fixture test: nothing here
turns an ``ImportError`` into a skip.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cudalint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

_MARKER = re.compile(r"//\s*(expect|access):")
_ARGS = re.compile(r"//\s*cudalint-args:(.*)$")


def _field(rec: dict[str, Any], name: str) -> object:
    """A record's field as an expectation names it: the instantiation without its
    spaces (``inst=T=float,N=4``), ``-`` where the record has none."""
    if name == "instantiation":
        return (rec.get(name) or "-").replace(" ", "")
    return rec.get(name)


_SEPARATOR = " ;; "
_ACCESS = re.compile(
    r"^(?P<kind>load|store|atomic)\s+"
    r"(?P<wf>\d+|\?)/(?P<ideal>\d+|\?)\s+"
    r"(?P<status>proved|worst-case|unknown)"
    r"(?P<keys>(?:\s+[a-z]+=\S+)*)\s*$"
)
_KEYS = {
    "mode": "bank_mode",
    "w": "width",
    "src": "block_dim_source",
    "block": "block_dim",
    "inst": "instantiation",
}
_INT_KEYS = {"mode", "w"}
_LIST_KEYS = {"block"}
#: How every fixture runs, before its own ``cudalint-args``: every rule is on, so an
#: ``expect:`` may name any of them and no diagnostic of any rule goes unexpected.
FLAGS = ("--format", "json", "--show-all", "--select", "ALL")
_CODE = re.compile(r"^(?P<code>[A-Z]+\d+)(?:\s+(?P<text>.*))?$")
_WARNING_CODES_FALLBACK = {"CL001", "CL002"}


class FixtureSyntaxError(ValueError):
    """A malformed expectation comment."""


@dataclass(frozen=True)
class ExpectDiag:
    line: int
    code: str
    text: str

    def matches(self, diag: dict[str, Any]) -> bool:
        return diag.get("code") == self.code and self.text in str(diag.get("message", ""))

    def __str__(self) -> str:
        return f"{self.code} {self.text}".rstrip()


@dataclass(frozen=True)
class ExpectAccess:
    line: int
    kind: str
    wavefronts: int | None
    ideal: int | None
    status: str
    #: Optional constraints: JSON field name -> expected value.
    extra: tuple[tuple[str, int | str | list[int | None]], ...] = ()

    def matches(self, rec: dict[str, Any]) -> bool:
        if (
            rec.get("kind") != self.kind
            or rec.get("wavefronts") != self.wavefronts
            or rec.get("ideal_wavefronts") != self.ideal
            or rec.get("status") != self.status
        ):
            return False
        return all(_field(rec, name) == value for name, value in self.extra)

    def __str__(self) -> str:
        wf = "?" if self.wavefronts is None else str(self.wavefronts)
        ideal = "?" if self.ideal is None else str(self.ideal)
        inverse = {v: k for k, v in _KEYS.items()}
        keys = "".join(f" {inverse[name]}={_key_text(value)}" for name, value in self.extra)
        return f"{self.kind} {wf}/{ideal} {self.status}{keys}"


@dataclass
class Fixture:
    path: Path
    args: list[str] = field(default_factory=list)
    diags: list[ExpectDiag] = field(default_factory=list)
    accesses: list[ExpectAccess] = field(default_factory=list)


def _parse_access(line: int, text: str) -> ExpectAccess:
    m = _ACCESS.match(text.strip())
    if not m:
        raise FixtureSyntaxError(
            f"line {line}: bad access expectation {text.strip()!r}; "
            "expected 'KIND W/I STATUS [mode=N] [w=N] [src=S]'"
        )
    extra: list[tuple[str, int | str | list[int]]] = []
    for item in m.group("keys").split():
        key, _, value = item.partition("=")
        if key not in _KEYS:
            raise FixtureSyntaxError(f"line {line}: unknown key {key!r} in {text.strip()!r}")
        try:
            if key in _INT_KEYS:
                extra.append((_KEYS[key], int(value)))
            elif key in _LIST_KEYS:
                # ``?``: a component the launch leaves unknown (``block=32,?,?``)
                extra.append((_KEYS[key], [None if v == "?" else int(v) for v in value.split(",")]))
            else:
                extra.append((_KEYS[key], value))
        except ValueError:
            raise FixtureSyntaxError(f"line {line}: bad value in {item!r}") from None
    wf, ideal = m.group("wf"), m.group("ideal")
    return ExpectAccess(
        line=line,
        kind=m.group("kind"),
        wavefronts=None if wf == "?" else int(wf),
        ideal=None if ideal == "?" else int(ideal),
        status=m.group("status"),
        extra=tuple(extra),
    )


def _key_text(value: object) -> str:
    if isinstance(value, list):
        return ",".join("?" if v is None else str(v) for v in value)
    return str(value)


def _parse_diag(line: int, text: str) -> ExpectDiag:
    m = _CODE.match(text.strip())
    if not m:
        raise FixtureSyntaxError(
            f"line {line}: bad diagnostic expectation {text.strip()!r}; expected 'CODE TEXT'"
        )
    return ExpectDiag(line=line, code=m.group("code"), text=(m.group("text") or "").strip())


def parse_fixture(path: Path, source: str | None = None) -> Fixture:
    """Read the expectations of one fixture file."""
    text = path.read_text(encoding="utf-8") if source is None else source
    fixture = Fixture(path)
    for lineno, line in enumerate(text.splitlines(), start=1):
        args = _ARGS.search(line)
        if args:
            fixture.args.extend(shlex.split(args.group(1)))
            continue
        markers = list(_MARKER.finditer(line))
        for i, m in enumerate(markers):
            end = markers[i + 1].start() if i + 1 < len(markers) else len(line)
            body = line[m.end() : end].strip()
            for clause in body.split(_SEPARATOR):
                clause = clause.strip()
                if not clause:
                    raise FixtureSyntaxError(f"line {lineno}: empty {m.group(1)} clause")
                if m.group(1) == "expect":
                    fixture.diags.append(_parse_diag(lineno, clause))
                else:
                    fixture.accesses.append(_parse_access(lineno, clause))
    return fixture


# --- matching ------------------------------------------------------------------------------


def _match(
    expected: Sequence[Any], actual: Sequence[dict[str, Any]], ok: Callable[[Any, Any], bool]
) -> tuple[list[Any], list[dict[str, Any]]]:
    """One-to-one matching (augmenting paths); returns (unmet expectations, unmatched actuals).

    Expectations may be partial (optional keys), so a greedy pass could pair an
    expectation with the record another one needs; a maximum matching cannot.
    """
    owner: dict[int, int] = {}  # actual index -> expected index

    def augment(e: int, seen: set[int]) -> bool:
        for a in range(len(actual)):
            if a in seen or not ok(expected[e], actual[a]):
                continue
            seen.add(a)
            if a not in owner or augment(owner[a], seen):
                owner[a] = e
                return True
        return False

    met = {e for e in range(len(expected)) if augment(e, set())}
    unmet = [expected[e] for e in range(len(expected)) if e not in met]
    extra = [actual[a] for a in range(len(actual)) if a not in owner]
    return unmet, extra


def _by_line(items: Sequence[Any], line_of: Callable[[Any], int | None]) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = {}
    for item in items:
        out.setdefault(line_of(item) or 0, []).append(item)
    return out


def _describe_record(rec: dict[str, Any]) -> str:
    wf = rec.get("wavefronts")
    ideal = rec.get("ideal_wavefronts")
    parts = [
        f"{rec.get('kind')} {'?' if wf is None else wf}/{'?' if ideal is None else ideal}",
        str(rec.get("status")),
        f"mode={rec.get('bank_mode')}",
        f"w={rec.get('width')}",
        f"src={rec.get('block_dim_source')}",
    ]
    if rec.get("instantiation"):
        parts.append(f"inst={_field(rec, 'instantiation')}")
    if rec.get("block_dim") is not None:
        parts.append(f"block={_key_text(rec['block_dim'])}")
    if rec.get("array"):
        parts.append(f"array={rec['array']}")
    if rec.get("reason"):
        parts.append(f"reason={rec['reason']!r}")
    return " ".join(parts)


def _describe_diag(diag: dict[str, Any]) -> str:
    return f"{diag.get('code')} {diag.get('message')}"


def _too_unknown(records: Sequence[dict[str, Any]], args: Sequence[str]) -> bool:
    """More than ``--max-unknown`` percent (default 50) of the records are unknown."""
    limit = 50.0
    for i, arg in enumerate(args[:-1]):
        if arg == "--max-unknown":
            limit = float(args[i + 1])
    unknown = sum(r.get("status") == "unknown" for r in records)
    return unknown > 0 and 100.0 * unknown / len(records) > limit


def compare(fixture: Fixture, output: dict[str, Any], exit_code: int | None = None) -> list[str]:
    """Every difference between the fixture's expectations and cudalint's JSON output."""
    name = _display(fixture.path)
    problems: list[str] = []
    if output.get("version") != 1:
        problems.append(f"{name}: JSON version is {output.get('version')!r}, expected 1")
    for error in output.get("errors") or []:
        problems.append(f"{name}: cudalint could not analyze the file: {error}")
    diags = list(output.get("diagnostics") or [])
    records = list(output.get("accesses") or [])

    exp_d = _by_line(fixture.diags, lambda e: e.line)
    got_d = _by_line(diags, lambda d: d.get("line"))
    for line in sorted(set(exp_d) | set(got_d)):
        unmet, extra = _match(exp_d.get(line, []), got_d.get(line, []), lambda e, d: e.matches(d))
        for e in unmet:
            got = "; ".join(_describe_diag(d) for d in got_d.get(line, [])) or "none"
            problems.append(f"{name}:{line}: expected diagnostic '{e}' not reported (got: {got})")
        for d in extra:
            problems.append(f"{name}:{line}: unexpected diagnostic {_describe_diag(d)}")

    exp_a = _by_line(fixture.accesses, lambda e: e.line)
    got_a = _by_line(records, lambda r: r.get("line"))
    for line in sorted(set(exp_a) | set(got_a)):
        wanted: list[ExpectAccess] = exp_a.get(line, [])
        found: list[dict[str, Any]] = got_a.get(line, [])
        if not wanted:
            for rec in found:
                problems.append(
                    f"{name}:{line}: access record on a line without 'access:' "
                    f"expectations: {_describe_record(rec)}"
                )
            continue
        missing, surplus = _match(wanted, found, lambda e, r: e.matches(r))
        if not missing and not surplus:
            continue
        have = "; ".join(_describe_record(rec) for rec in found) or "none"
        for e in missing:
            problems.append(f"{name}:{line}: expected access '{e}' not met (records: {have})")
        for rec in surplus:
            problems.append(f"{name}:{line}: unexpected access record {_describe_record(rec)}")

    if exit_code is not None:
        warned = any(
            d.get("severity") == "warning"
            or (d.get("severity") is None and d.get("code") in _WARNING_CODES_FALLBACK)
            for d in diags
        )
        want = 1 if warned else 0
        if _too_unknown(records, fixture.args):
            want = 2  # more accesses unknown than --max-unknown allows
        if exit_code != want:
            problems.append(f"{name}: exit status {exit_code}, expected {want}")
    return problems


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


# --- running cudalint ----------------------------------------------------------------------


def run_cudalint(args: Sequence[str]) -> tuple[int, str, str]:
    """``cudalint.cli.main(args)`` in-process: (exit status, stdout, stderr)."""
    from cudalint.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return int(code or 0), out.getvalue(), err.getvalue()


def run_json(argv: Sequence[str], label: str) -> tuple[int, dict[str, Any], str]:
    """(exit status, parsed JSON, stderr) of one in-process run."""
    code, out, err = run_cudalint(argv)
    try:
        output = json.loads(out)
    except json.JSONDecodeError:
        pytest.fail(
            f"{label}: cudalint {' '.join(argv)} exited {code} without JSON on stdout\n"
            f"stdout: {out[:2000]}\nstderr: {err[-2000:]}"
        )
    return code, output, err


def fixture_paths() -> list[Path]:
    return sorted(FIXTURES.glob("*.cu"))


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda p: p.name)
def test_fixture(path: Path) -> None:
    fixture = parse_fixture(path)
    argv = [*FLAGS, *fixture.args, str(path)]
    code, output, err = run_json(argv, _display(path))
    problems = compare(fixture, output, code)
    if problems:
        pytest.fail(
            f"{len(problems)} difference(s) for cudalint {' '.join(argv)}:\n"
            + "\n".join(problems)
            + (f"\nstderr: {err[-2000:]}" if err.strip() else ""),
            pytrace=False,
        )


# --- multi-file fixtures: a directory run as one invocation ---------------------------------

#: Files of a directory fixture whose expectations are read (directory discovery decides
#: which of them cudalint analyses on its own; every one may hold expected records).
_SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".inl")


def directory_fixture_paths() -> list[Path]:
    return sorted(p for p in (FIXTURES / "headers").glob("*") if p.is_dir())


def parse_directory_fixture(directory: Path) -> list[Fixture]:
    """One Fixture per source file; the ``cudalint-args`` of all of them go to the run."""
    return [
        parse_fixture(p)
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name.endswith(_SOURCE_SUFFIXES)
    ]


def _same_file(reported: object, path: Path) -> bool:
    if not isinstance(reported, str) or not reported:
        return False
    try:
        return Path(reported).resolve() == path.resolve()
    except OSError:
        return False


def compare_directory(
    fixtures: Sequence[Fixture], output: dict[str, Any], exit_code: int | None = None
) -> list[str]:
    """``compare`` for each file of a directory fixture against the records in that file,
    and every record in a file that is not part of the fixture is a difference too."""
    problems: list[str] = []
    diags = list(output.get("diagnostics") or [])
    records = list(output.get("accesses") or [])
    claimed: set[int] = set()
    for fixture in fixtures:
        mine_d = [d for d in diags if _same_file(d.get("file"), fixture.path)]
        mine_a = [r for r in records if _same_file(r.get("file"), fixture.path)]
        claimed.update(id(x) for x in (*mine_d, *mine_a))
        part = {"version": output.get("version"), "diagnostics": mine_d, "accesses": mine_a}
        problems += compare(fixture, part)
    for error in output.get("errors") or []:
        problems.append(f"cudalint could not analyze a file: {error}")
    for d in diags:
        if id(d) not in claimed:
            problems.append(
                f"{d.get('file')}:{d.get('line')}: unexpected diagnostic outside "
                f"the fixture: {_describe_diag(d)}"
            )
    for r in records:
        if id(r) not in claimed:
            problems.append(
                f"{r.get('file')}:{r.get('line')}: unexpected access record "
                f"outside the fixture: {_describe_record(r)}"
            )
    if exit_code is not None:
        want = 1 if any(d.get("severity") == "warning" for d in diags) else 0
        if _too_unknown(records, [a for f in fixtures for a in f.args]):
            want = 2  # more accesses unknown than --max-unknown allows
        if exit_code != want:
            problems.append(f"exit status {exit_code}, expected {want}")
    return problems


def run_directory_fixture(
    directory: Path, extra: Sequence[str] = ()
) -> tuple[list[str], list[str], int, dict[str, Any]]:
    """(argv, problems, exit status, output) of one directory fixture's run."""
    fixtures = parse_directory_fixture(directory)
    args = [a for f in fixtures for a in f.args]
    argv = [*FLAGS, *args, *extra, str(directory)]
    code, output, err = run_json(argv, _display(directory))
    problems = compare_directory(fixtures, output, code)
    if err.strip():
        problems = [*problems, f"stderr: {err[-2000:]}"] if problems else problems
    return argv, problems, code, output


@pytest.mark.parametrize("directory", directory_fixture_paths(), ids=lambda p: p.name)
def test_directory_fixture(directory: Path) -> None:
    argv, problems, _, _ = run_directory_fixture(directory)
    if problems:
        pytest.fail(
            f"{len(problems)} difference(s) for cudalint {' '.join(argv)}:\n" + "\n".join(problems),
            pytrace=False,
        )


@pytest.mark.parametrize("directory", directory_fixture_paths(), ids=lambda p: p.name)
def test_directory_fixture_is_the_same_with_jobs(directory: Path) -> None:
    """Reports of several files are merged into one set: ``-j 2`` gives ``-j 1``'s output."""
    _, _, code1, out1 = run_directory_fixture(directory, ["-j", "1"])
    _, _, code2, out2 = run_directory_fixture(directory, ["-j", "2"])
    assert (code1, out1) == (code2, out2)


def test_directory_fixture_checks_every_file(tmp_path: Path) -> None:
    """The directory checker itself: a record in a header needs its expectation in that
    header, and an expectation in one file is not met by a record in another."""
    (tmp_path / "a.cuh").write_text("x;  // access: store 1/1 proved\n", encoding="utf-8")
    (tmp_path / "a.cu").write_text("y;\n", encoding="utf-8")
    fixtures = parse_directory_fixture(tmp_path)
    rec = {"kind": "store", "wavefronts": 1, "ideal_wavefronts": 1, "status": "proved", "line": 1}
    good = {"version": 1, "diagnostics": [], "accesses": [{**rec, "file": str(tmp_path / "a.cuh")}]}
    assert compare_directory(fixtures, good, 0) == []
    wrong_file = {
        "version": 1,
        "diagnostics": [],
        "accesses": [{**rec, "file": str(tmp_path / "a.cu")}],
    }
    problems = compare_directory(fixtures, wrong_file, 0)
    assert len(problems) == 2, problems  # unmet in a.cuh, unexpected in a.cu
    outside = {
        "version": 1,
        "diagnostics": [],
        "accesses": [{**rec, "file": str(tmp_path / "a.cuh")}, {**rec, "file": "/elsewhere/b.h"}],
    }
    assert len(compare_directory(fixtures, outside, 0)) == 1
    duplicated = {
        "version": 1,
        "diagnostics": [],
        "accesses": [{**rec, "file": str(tmp_path / "a.cuh")}] * 2,
    }
    assert len(compare_directory(fixtures, duplicated, 0)) == 1


def test_readme_example_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """README's sample session is what ``cudalint examples/transpose.cu`` prints (exit 1)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"```console\n\$ (cudalint [^\n]*)\n(.*?)```", readme, re.S)
    assert m, "README.md has no ```console block with a cudalint session"
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run_cudalint(shlex.split(m.group(1))[1:])
    assert code == 1
    assert out.rstrip("\n") == m.group(2).rstrip("\n")


# --- the fixtures themselves ---------------------------------------------------------------


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda p: p.name)
def test_fixture_is_well_formed(path: Path) -> None:
    """Expectations parse, and each fixture stays focused: 5 to 25 expected accesses."""
    fixture = parse_fixture(path)
    assert 5 <= len(fixture.accesses) <= 25, f"{path.name}: {len(fixture.accesses)} accesses"
    for e in fixture.diags:
        assert e.code in RULES, f"{path.name}:{e.line}: {e}"


def test_there_are_fixtures() -> None:
    assert len(fixture_paths()) >= 10


# --- self-tests of the checker (they need no pipeline) -------------------------------------

_SAMPLE = "\n".join(
    [
        "// cudalint-args: --arch sm_35 --bank-mode both",
        "__global__ void k(float *out) {",
        "    __shared__ float s[1024];",
        "    out[0] = s[32 * threadIdx.x];  // access: load 32/1 proved mode=4 ;; "
        "load 16/1 proved mode=8 // expect: CL001 32-way ;; CL001 16-way",
        "    s[threadIdx.x] += 1.0f;  // access: load 1/1 proved ;; store 1/1 proved w=4",
        "    out[1] = s[threadIdx.x];",
        "}",
        "",
    ]
)


def _rec(line: int, kind: str, wf: int | None, ideal: int | None, **kw: Any) -> dict[str, Any]:
    rec = {
        "line": line,
        "kind": kind,
        "wavefronts": wf,
        "ideal_wavefronts": ideal,
        "status": kw.pop("status", "proved"),
        "bank_mode": kw.pop("bank_mode", 4),
        "width": kw.pop("width", 4),
        "block_dim_source": "launch",
    }
    rec.update(kw)
    return rec


def _diag(line: int, code: str, message: str) -> dict[str, Any]:
    return {"line": line, "code": code, "message": message, "severity": "warning"}


def _good_output() -> dict[str, Any]:
    return {
        "version": 1,
        "diagnostics": [
            _diag(
                4,
                "CL001",
                "16-way bank conflict on load of 's' (16 wavefronts, ideal 1) in 8-byte bank mode",
            ),
            _diag(4, "CL001", "32-way bank conflict on load of 's' (32 wavefronts, ideal 1)"),
        ],
        "accesses": [
            _rec(4, "load", 16, 1, bank_mode=8),
            _rec(4, "load", 32, 1, bank_mode=4),
            _rec(5, "store", 1, 1),
            _rec(5, "load", 1, 1),
        ],
    }


def _sample() -> Fixture:
    return parse_fixture(Path("sample.cu"), _SAMPLE)


def test_checker_parses_the_syntax() -> None:
    f = _sample()
    assert f.args == ["--arch", "sm_35", "--bank-mode", "both"]
    assert [str(e) for e in f.diags] == ["CL001 32-way", "CL001 16-way"]
    assert [str(e) for e in f.accesses] == [
        "load 32/1 proved mode=4",
        "load 16/1 proved mode=8",
        "load 1/1 proved",
        "store 1/1 proved w=4",
    ]
    assert {e.line for e in f.accesses} == {4, 5}


def test_checker_accepts_matching_output() -> None:
    assert compare(_sample(), _good_output(), exit_code=1) == []


def test_checker_reports_unexpected_diagnostic() -> None:
    out = _good_output()
    out["diagnostics"].append(_diag(5, "CL001", "2-way bank conflict on store of 's'"))
    problems = compare(_sample(), out, 1)
    assert problems == [
        "sample.cu:5: unexpected diagnostic CL001 2-way bank conflict on store of 's'"
    ]


def test_checker_reports_unmet_diagnostic() -> None:
    out = _good_output()
    del out["diagnostics"][0]
    problems = compare(_sample(), out, 1)
    assert len(problems) == 1 and "expected diagnostic 'CL001 16-way' not reported" in problems[0]
    assert problems[0].startswith("sample.cu:4:")


def test_checker_matches_one_to_one() -> None:
    """Two expectations on a line need two diagnostics, not one matched twice."""
    out = _good_output()
    out["diagnostics"][0]["message"] = "32-way bank conflict"
    problems = compare(_sample(), out, 1)
    assert any("'CL001 16-way' not reported" in p for p in problems)
    assert any("unexpected diagnostic CL001 32-way" in p for p in problems)


def test_checker_reports_wrong_numbers() -> None:
    out = _good_output()
    out["accesses"][1]["wavefronts"] = 16
    problems = compare(_sample(), out, 1)
    assert any(
        p.startswith("sample.cu:4: expected access 'load 32/1 proved mode=4' not met")
        for p in problems
    )
    assert any("unexpected access record load 16/1 proved mode=4" in p for p in problems)


def test_checker_reports_wrong_status_width_and_kind() -> None:
    for key, value in (("status", "worst-case"), ("width", 8), ("kind", "atomic")):
        out = _good_output()
        out["accesses"][2][key] = value
        assert compare(_sample(), out, 1), key


def test_checker_reports_missing_and_extra_records() -> None:
    out = _good_output()
    del out["accesses"][3]
    problems = compare(_sample(), out, 1)
    assert problems == [
        "sample.cu:5: expected access 'load 1/1 proved' not met (records: "
        "store 1/1 proved mode=4 w=4 src=launch)"
    ]
    out = _good_output()
    out["accesses"].append(_rec(5, "load", 1, 1))
    assert len(compare(_sample(), out, 1)) == 1


def test_checker_reports_records_on_unannotated_lines() -> None:
    out = _good_output()
    out["accesses"].append(_rec(6, "load", 1, 1, array="s"))
    problems = compare(_sample(), out, 1)
    assert problems == [
        "sample.cu:6: access record on a line without 'access:' expectations: "
        "load 1/1 proved mode=4 w=4 src=launch array=s"
    ]


def test_checker_matching_is_not_greedy() -> None:
    """A loose expectation must not take the record a stricter one needs."""
    f = parse_fixture(Path("x.cu"), "a; // access: load 1/1 proved ;; load 1/1 proved mode=8\n")
    out = {
        "version": 1,
        "diagnostics": [],
        "accesses": [_rec(1, "load", 1, 1, bank_mode=8), _rec(1, "load", 1, 1, bank_mode=4)],
    }
    assert compare(f, out, 0) == []


def test_checker_tells_instantiations_apart() -> None:
    """Two instantiations' records on one line: without ``inst=`` swapped answers would
    pass as a multiset; with it each expectation names its own."""
    f = parse_fixture(
        Path("x.cu"),
        "a; // access: store 2/1 proved inst=T=float ;; store 1/1 proved inst=T=double,N=4\n",
    )
    right = [
        _rec(1, "store", 2, 1, instantiation="T=float"),
        _rec(1, "store", 1, 1, instantiation="T=double, N=4"),
    ]
    swapped = [
        _rec(1, "store", 1, 1, instantiation="T=float"),
        _rec(1, "store", 2, 1, instantiation="T=double, N=4"),
    ]
    out = {"version": 1, "diagnostics": []}
    assert compare(f, {**out, "accesses": right}, 0) == []
    problems = compare(f, {**out, "accesses": swapped}, 0)
    assert len(problems) == 4 and "inst=T=double,N=4" in problems[-1]
    none = parse_fixture(Path("y.cu"), "a; // access: store 1/1 proved inst=-\n")
    assert compare(none, {**out, "accesses": [_rec(1, "store", 1, 1)]}, 0) == []


def test_checker_checks_exit_status_and_version() -> None:
    problems = compare(_sample(), {**_good_output(), "version": 2}, 0)
    assert "sample.cu: JSON version is 2, expected 1" in problems
    assert "sample.cu: exit status 0, expected 1" in problems


def test_checker_rejects_malformed_expectations() -> None:
    for bad in (
        "x; // access: load 32 proved",
        "x; // access: read 1/1 proved",
        "x; // access: load 1/1 maybe",
        "x; // access: load 1/1 proved colour=red",
        "x; // expect: 32-way",
        "x; // expect: CL001 a ;;  ;; CL001 b",
    ):
        with pytest.raises(FixtureSyntaxError):
            parse_fixture(Path("x.cu"), bad + "\n")


def test_checker_block_key() -> None:
    f = parse_fixture(Path("x.cu"), "a; // access: store 2/1 proved block=16,16,1\n")
    assert str(f.accesses[0]) == "store 2/1 proved block=16,16,1"
    good: dict[str, Any] = {
        "version": 1,
        "diagnostics": [],
        "accesses": [_rec(1, "store", 2, 1, block_dim=[16, 16, 1])],
    }
    assert compare(f, good, 0) == []
    good["accesses"][0]["block_dim"] = [32, 8, 1]
    assert compare(f, good, 0) == [
        "x.cu:1: expected access 'store 2/1 proved block=16,16,1' not met (records: "
        "store 2/1 proved mode=4 w=4 src=launch block=32,8,1)",
        "x.cu:1: unexpected access record store 2/1 proved mode=4 w=4 src=launch block=32,8,1",
    ]


def test_checker_reports_file_errors() -> None:
    out = {**_good_output(), "errors": [{"file": "sample.cu", "message": "cannot read"}]}
    problems = compare(_sample(), out, 1)
    assert problems == [
        "sample.cu: cudalint could not analyze the file: "
        "{'file': 'sample.cu', 'message': 'cannot read'}"
    ]


def test_checker_unknown_numbers() -> None:
    f = parse_fixture(Path("x.cu"), "a; // access: load ?/? unknown\n")
    out = {
        "version": 1,
        "diagnostics": [],
        "accesses": [_rec(1, "load", None, None, status="unknown")],
    }
    assert compare(f, out, 2) == []  # all unknown: more than --max-unknown allows
