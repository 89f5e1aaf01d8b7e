"""Opaque values carry a kind, and nothing after the frontend decides from their words.

Issue 18, item 2: the model used to decide whether an opaque value may differ between
lanes by matching prefixes of ``Opaque.reason`` written at ~40 places in the frontend, and
the rules picked their grammar from a result's reason text. These tests pin the data that
replaced it: every Opaque the frontend builds has an :class:`~cudalint.ir.OpaqueKind`;
uniformity follows the kind (a reason reworded changes no verdict); the clause a cause is
rendered from is a field; the IR's JSON and the parse cache carry the kind.
"""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import re

import pytest
from factories import strided_unit, transpose_unit
from test_frontend import parse

from cudalint import irjson
from cudalint.frontend import cache
from cudalint.ir import (
    INT,
    UINT,
    UNIFORM_WITHOUT_INPUTS,
    Access,
    Binary,
    Const,
    Expr,
    Kernel,
    Launch,
    Opaque,
    OpaqueKind,
    SharedArray,
    Span,
    Sym,
    TranslationUnit,
    walk,
)
from cudalint.model.analyze import analyze
from cudalint.options import Options
from cudalint.rules import FileContext, run_rules

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "cudalint"
TX = Sym("threadIdx.x", UINT, lane_dependent=True)
SPAN = Span("k.cu", 3, 3, 3, 20)


# --- every Opaque the frontend builds has a kind ------------------------------------------


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            called = (
                f.id
                if isinstance(f, ast.Name)
                else f.attr
                if isinstance(f, ast.Attribute)
                else None
            )
            if called == name:
                out.append(node)
    return out


def _is_member(node: ast.expr) -> bool:
    """``OpaqueKind.X`` for a member X of the enumeration."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "OpaqueKind"
        and node.attr in OpaqueKind.__members__
    )


def _kind_argument(call: ast.Call, position: int) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == "kind":
            return kw.value
    return call.args[position] if len(call.args) > position else None


def test_every_opaque_constructed_in_the_frontend_names_its_kind() -> None:
    """Each ``Opaque(...)``, ``_about(...)`` and ``self._opaque(...)`` in the frontend's
    source passes a member of OpaqueKind first (or the ``kind`` its helper was given), and
    a ``_loop_opaque`` that is not a loop's value says which kind it is."""
    seen = 0
    for path in sorted((PACKAGE / "frontend").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in ("Opaque", "_about", "_opaque"):
            for call in _calls(tree, name):
                seen += 1
                kind = _kind_argument(call, 0)
                where = f"{path.name}:{call.lineno}: {name}(...)"
                assert kind is not None, f"{where} has no kind"
                assert _is_member(kind) or (isinstance(kind, ast.Name) and kind.id == "kind"), (
                    f"{where}: the kind is {ast.unparse(kind)}, not a member of OpaqueKind"
                )
        for call in _calls(tree, "_loop_opaque"):
            what = call.args[2] if len(call.args) > 2 else None
            kind = _kind_argument(call, 4)
            if kind is not None:
                assert _is_member(kind), f"{path.name}:{call.lineno}"
            elif isinstance(what, ast.Constant):
                assert "loop" in what.value, f"{path.name}:{call.lineno}: not a loop's value"
    assert seen >= 40  # the scan found the constructors (a renamed helper fails here)


def test_the_kind_is_required() -> None:
    with pytest.raises(TypeError):
        Opaque("value loaded from 'x'")  # type: ignore[call-arg]


_SOURCE = r"""
__device__ int f(int);
__device__ int g(int v) { return v + 1; }
__device__ void h(int v) { __shared__ float q[64]; q[v] = 1; }   // a parameter
__global__ void k(const int* in, const float* w, int n) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  s[in[blockIdx.x]] = 0;                       // a load from a uniform address
  s[f(0)] = 0;                                 // an unfollowed call without inputs
  s[g(t)] = 0;                                 // a device function's parameter
  int j = 0;
  if (in[t] > 0) j = 1;
  s[j] = 0;                                    // depends on control flow
  int pos = 0;
  for (int i = 0; i < n; ++i) { if (in[i] > 0) pos += t; }
  s[pos] = 0;                                  // assigned in a loop
  s[(int)w[0]] = 0;                            // conversion of a loaded float
  s[sizeof(float) * t] = 0;
  const int* p = in;
  s[*p] = 0;                                   // loaded through a pointer
}
"""


def _opaques(tu: TranslationUnit) -> list[Opaque]:
    out: list[Opaque] = []
    for a in tu.accesses:
        roots: list[Expr] = [a.offset, *a.indices]
        if a.guard is not None:
            roots.append(a.guard)
        out.extend(n for r in roots for n in walk(r) if isinstance(n, Opaque))
    return out


def test_opaque_values_of_a_parse_have_kinds_and_consistent_clauses(tmp_path: pathlib.Path) -> None:
    tu = parse(tmp_path, _SOURCE)
    found = _opaques(tu)
    kinds = {o.kind for o in found}
    assert {
        OpaqueKind.LOAD,
        OpaqueKind.CALL,
        OpaqueKind.PARAMETER,
        OpaqueKind.BRANCH,
        OpaqueKind.LOOP,
    } <= kinds, kinds
    for o in found:
        assert isinstance(o.kind, OpaqueKind)
        if o.name is not None:  # a clause about a variable: the reason says just that
            assert o.reason == f"'{o.name}' {o.clause}"
        else:
            assert o.clause == ""
    j = next(o for o in found if o.kind is OpaqueKind.BRANCH and o.name == "j")
    assert (j.reason, j.clause) == ("'j' depends on control flow", "depends on control flow")
    pos = next(o for o in found if o.kind is OpaqueKind.LOOP and o.name == "pos")
    assert pos.reason == f"'pos' {pos.clause}"


# --- uniformity follows the kind, never the words ---------------------------------------


def _unit(offset: Expr) -> TranslationUnit:
    array = SharedArray(
        key="k::s",
        name="s",
        element_type="float",
        element_bytes=4,
        dims=(1024,),
        span=SPAN,
        kernel="k",
    )
    access = Access(
        array=array.key,
        kernel="k",
        kind="store",
        width=4,
        offset=Binary("*", offset, Const(4, INT), INT),
        span=SPAN,
        text="s[i]",
    )
    return TranslationUnit(
        file="k.cu",
        kernels=(Kernel("k", SPAN),),
        arrays=(array,),
        accesses=(access,),
        launches=(Launch("k", (32, 1, 1), SPAN),),
    )


#: Reasons of every shape the frontend writes, each tried with every kind.
_WORDINGS = (
    "value loaded from 'in'",
    "call to 'f'",
    "'p' is a pointer",
    "size of a type that depends on a template parameter",
    "literal that is not an integer",
    "unknown extent",
    "'i' is not an integer",
    "'x' has no known value here",
    "xyzzy",
)


@pytest.mark.parametrize("kind", list(OpaqueKind), ids=lambda k: k.value)
def test_an_input_less_opaque_value_is_uniform_by_its_kind_whatever_its_reason(
    kind: OpaqueKind,
) -> None:
    """``threadIdx.x + v`` with an input-less opaque ``v``: proved (one wavefront, ``v``
    a uniform shift) when the kind cannot read the thread index, unknown otherwise, for
    every wording of the reason, including the wordings of the other kinds."""
    verdicts = set()
    for reason in _WORDINGS:
        (r,) = analyze(_unit(Binary("+", TX, Opaque(kind, reason), UINT)), Options())
        verdicts.add((r.status, r.wavefronts))
    assert len(verdicts) == 1, verdicts
    uniform = kind.uniform_without_inputs
    assert verdicts == ({("proved", 1)} if uniform else {("unknown", None)})
    assert uniform == (kind in UNIFORM_WITHOUT_INPUTS)


def test_the_uniform_kinds_are_data_sizes_literals_and_non_integers() -> None:
    expected = {OpaqueKind.LOAD, OpaqueKind.SIZE, OpaqueKind.LITERAL, OpaqueKind.NOT_INTEGER}
    assert expected == UNIFORM_WITHOUT_INPUTS


@pytest.mark.parametrize("kind", [OpaqueKind.LOAD, OpaqueKind.CALL])
def test_an_opaque_value_with_a_lane_input_is_lane_dependent_whatever_its_kind(
    kind: OpaqueKind,
) -> None:
    (r,) = analyze(_unit(Opaque(kind, "value loaded from 'in'", (TX,))), Options())
    assert (r.status, r.reason) == ("unknown", "the index depends on value loaded from 'in'")


def test_a_cause_is_rendered_from_the_clause_fields() -> None:
    named = Opaque(
        OpaqueKind.LOOP, "'pos' is assigned in a loop", (TX,), INT, "pos", "is assigned in a loop"
    )
    (r,) = analyze(_unit(named), Options())
    assert r.reason == "the index depends on 'pos', which is assigned in a loop"
    # the same words without the fields are not taken apart
    (r,) = analyze(_unit(Opaque(OpaqueKind.LOOP, named.reason, (TX,))), Options())
    assert r.reason == "the index depends on 'pos' is assigned in a loop"


@pytest.mark.parametrize(("kind", "joined"), [("condition", " "), ("cause", ": ")])
def test_a_rule_words_the_reason_by_its_kind_not_its_words(kind: str, joined: str) -> None:
    """CL002 (and CL001 where it gives another bank mode's possible conflict) append a
    condition after a space and a cause after a colon, as the result's ``reason_kind``
    says, whatever the reason's first word."""
    for make, code in ((transpose_unit, "CL002"), (strided_unit, "CL001")):
        unit, results = make()
        for reason in ("when stride % 16 == 0", "in iteration 4 of the 'd' loop", "xyzzy"):
            changed = [
                dataclasses.replace(r, reason=reason, reason_kind=kind)
                if r.status != "proved" or make is transpose_unit
                else r
                for r in results
            ]
            if make is transpose_unit:
                changed = [dataclasses.replace(r, status="worst-case") for r in changed]
            messages = [
                d.message
                for d in run_rules(FileContext(unit.file, unit, changed))
                if d.code == code
            ]
            assert messages and all(joined + reason in m for m in messages), messages


# --- no decision reads English ---------------------------------------------------------------

#: A reason's text compared, matched or sliced: what the kind and the fields replaced.
#: (Comparing with the budget's own constant, ``reason == NOT_ANALYZED``, is no parse of
#: English and is left to the budget's callers.)
_TEXT_MATCH = re.compile(
    r"\breason\s*(?:==|!=)(?!\s*NOT_ANALYZED\b)|\breason\.(?:startswith|endswith|partition|split)\b"
    r"|\bin\s+[\w.]*\breason\b|\breason\s*\[|re\.\w+\([^)]*\breason\b"
)


@pytest.mark.parametrize("layer", ["frontend", "model", "rules"])
def test_no_layer_decides_from_reason_text(layer: str) -> None:
    hits = []
    for path in sorted((PACKAGE / layer).glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _TEXT_MATCH.search(line):
                hits.append(f"{path.name}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)


# --- the array's name, and operators read once --------------------------------------------


def test_an_access_keeps_its_arrays_name(tmp_path: pathlib.Path) -> None:
    """The key of an instantiated array (``k<S=4>::tile``) is never taken apart: the
    access carries the declared name, and messages use it even where the unit at hand
    does not hold the array (a header's result shown with another file's unit)."""
    tu = parse(
        tmp_path,
        """
template <int S> __global__ void k(float *out) {
    __shared__ float tile[32 * S];
    tile[threadIdx.x * S] = 1.0f;
}
int main() { k<4><<<1, 32>>>(0); }
""",
    )
    (a,) = tu.accesses
    assert (a.array, a.array_name) == ("k<S=4>::tile", "tile")
    other = TranslationUnit(file="other.cu")
    assert FileContext("other.cu", other, []).array_name(a) == "tile"
    renamed = dataclasses.replace(a, array_name="t2")  # the field, not the key, is read
    assert FileContext("other.cu", other, []).array_name(renamed) == "t2"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("i += 2", ("+", 2)),
        ("i <<= 1", ("<<", 1)),
        ("i -= 1", ("-", 1)),
        ("i *= 2", ("*", 2)),
    ],
)
def test_compound_assignments_read_their_operator_from_one_table(
    tmp_path: pathlib.Path, source: str, expected: tuple[str, int]
) -> None:
    tu = parse(
        tmp_path,
        f"""
__global__ void k(int n) {{
  __shared__ float s[4096];
  for (int i = 1; i < n; {source}) s[i] = 0;
}}
""",
    )
    (a,) = tu.accesses
    ind = next(n.induction for n in walk(a.offset) if isinstance(n, Sym) and n.induction)
    assert ind is not None
    assert (ind.op, ind.step) == (expected[0], Const(expected[1], INT))


def test_operator_functions_are_parsed_once() -> None:
    from cudalint.frontend.cursors import operator_function

    assert operator_function("operator+=") == operator_function("operator+=")
    got = {
        name: operator_function(name)
        for name in (
            "operator=",
            "operator+=",
            "operator<<=",
            "operator++",
            "operator--",
            "operator==",
            "operator<=",
            "operator()",
            "operator[]",
            "operatorish",
            "min",
        )
    }
    assert {n: (o.op, o.writes, o.applies) for n, o in got.items() if o is not None} == {
        "operator=": ("=", True, None),
        "operator+=": ("+=", True, "+"),
        "operator<<=": ("<<=", True, "<<"),
        "operator++": ("++", True, "+"),
        "operator--": ("--", True, "-"),
        "operator==": ("==", False, None),
        "operator<=": ("<=", False, None),
        "operator()": ("()", False, None),
        "operator[]": ("[]", False, None),
        "operatorish": ("ish", False, None),
    }
    assert got["min"] is None


# --- the kind in the IR's JSON and in the parse cache ----------------------------------------


def test_the_kind_survives_the_ir_json_and_the_cache() -> None:
    named = Opaque(
        OpaqueKind.BRANCH, "'j' depends on control flow", (TX,), INT, "j", "depends on control flow"
    )
    tu = _unit(Binary("+", named, Opaque(OpaqueKind.SIZE, "unknown extent"), INT))
    text = irjson.dumps_tu(tu)
    assert '"kind":"branch"' in text and '"kind":"size"' in text
    assert irjson.loads_tu(text) == tu
    assert cache._decode(cache._encode(tu)) == tu
    bad = text.replace('"kind":"branch"', '"kind":"Branch"')
    with pytest.raises(irjson.IRFormatError, match="expected OpaqueKind"):
        irjson.loads_tu(bad)
