"""The rule registry, rule selection, and each rule's messages and notes."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from factories import clean_unit, strided_unit, transpose_unit

from cudalint.ir import Launch, Note, Span, TranslationUnit
from cudalint.model.results import AccessResult, BankConflict
from cudalint.rules import (
    DOC_SECTIONS,
    RULES,
    FileContext,
    RuleSelection,
    UnknownSelectorError,
    explain,
    get_rule,
    rules_markdown,
    run_rules,
)
from cudalint.rules.base import format_list, format_number

Maker = Callable[[], tuple[TranslationUnit, list[AccessResult]]]
DOCS = Path(__file__).resolve().parent.parent / "docs"


def context(make: Maker = transpose_unit, **replace_results: Any) -> FileContext:
    unit, results = make()
    if replace_results:
        results = [dataclasses.replace(r, **replace_results) for r in results]
    return FileContext(path=unit.file, unit=unit, results=results)


def codes(selection: RuleSelection) -> list[str]:
    return [rule.code for rule in selection.rules()]


# --- registry -------------------------------------------------------------------------------


def test_codes_and_names_are_stable() -> None:
    assert {code: rule.name for code, rule in RULES.items()} == {
        "CL001": "shared-bank-conflict",
        "CL002": "possible-bank-conflict",
        "CL003": "unknown-shared-index",
        "CL004": "partial-parse",
        "CL005": "split-vector-access",
        "CL100": "unused-suppression",
    }
    assert {code: rule.severity for code, rule in RULES.items()} == {
        "CL001": "warning",
        "CL002": "warning",
        "CL003": "info",
        "CL004": "info",
        "CL005": "info",
        "CL100": "warning",
    }


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_docs_have_every_section_in_order(code: str) -> None:
    rule = RULES[code]
    assert rule.code == code
    assert re.fullmatch(r"CL\d{3}", rule.code)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name)
    assert rule.doc.startswith(f"{code} {rule.name}:")
    headings = re.findall(r"^## (.+)$", rule.doc, flags=re.MULTILINE)
    assert tuple(headings) == DOC_SECTIONS
    for section in rule.doc.split("\n## ")[1:]:
        assert section.partition("\n")[2].strip(), f"{code}: empty section {section!r}"


def test_explain_prints_header_and_sections() -> None:
    text = explain(RULES["CL003"])
    assert text.startswith(
        "# CL003 unknown-shared-index\n\nDefault severity: info (off by default)."
    )
    assert "## Why is this bad?" in text and "## Fix safety" in text


def test_get_rule_by_code_or_name() -> None:
    assert get_rule("cl001") is RULES["CL001"]
    assert get_rule("possible-bank-conflict") is RULES["CL002"]
    assert get_rule("CL999") is None


def test_docs_rules_md_is_in_sync() -> None:
    assert (DOCS / "rules.md").read_text(encoding="utf-8") == rules_markdown()


# --- selection ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("select", "extend", "ignore", "expected"),
    [
        (None, (), (), ["CL001", "CL002", "CL004"]),
        (["CL003"], (), (), ["CL003"]),
        (None, ["CL003"], (), ["CL001", "CL002", "CL003", "CL004"]),
        (None, (), ["CL001"], ["CL002", "CL004"]),
        (["CL00"], (), (), ["CL001", "CL002", "CL003", "CL004", "CL005"]),
        (["ALL"], (), ["CL004"], ["CL001", "CL002", "CL003", "CL005", "CL100"]),
        (["CL"], (), ["CL001"], ["CL002", "CL003", "CL004", "CL005", "CL100"]),
        # The more specific selector wins; on a tie, ignore wins.
        (["CL001"], (), ["CL"], ["CL001"]),
        (None, (), ["CL00"], []),
        (["CL001"], (), ["CL001"], []),
        (["shared-bank-conflict"], (), (), ["CL001"]),
        (None, (), ["partial-parse"], ["CL001", "CL002"]),
        ([], (), (), []),
    ],
)
def test_selection(
    select: list[str] | None, extend: list[str], ignore: list[str], expected: list[str]
) -> None:
    assert codes(RuleSelection.build(select, extend, ignore)) == expected


@pytest.mark.parametrize("bad", ["CL9", "XYZ", "E501", "shared-bank"])
def test_unknown_selector_is_an_error(bad: str) -> None:
    with pytest.raises(UnknownSelectorError, match=re.escape(bad)):
        RuleSelection.build(select=None, ignore=[bad])


# --- message pieces -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"), [(32.0, "32"), (1.5, "1.5"), (4 / 3, "1.33"), (2.25, "2.25"), (1.0, "1")]
)
def test_format_number(value: float, text: str) -> None:
    assert format_number(value) == text


def test_format_list() -> None:
    assert format_list(["0", "1", "2", "3"]) == "0, 1, 2, 3"
    assert format_list([str(i) for i in range(5)]) == "0, 1, 2, …"


# --- CL001 ----------------------------------------------------------------------------------


def test_cl001_message_and_notes_on_transpose() -> None:
    ctx = context()
    diagnostics = run_rules(ctx)
    assert len(diagnostics) == 1
    d = diagnostics[0]
    assert (d.code, d.name, d.severity) == ("CL001", "shared-bank-conflict", "warning")
    assert d.message == "32-way bank conflict on load of 'tile' (32 wavefronts, ideal 1)"
    assert (d.file, d.line, d.column, d.end_line, d.end_column) == ("transpose.cu", 10, 25, 10, 55)
    assert d.fix is None
    assert d.result is ctx.results[1]
    assert d.notes == (
        "bank 0 serves 32 distinct words (0, 32, 64, …) for lanes 0, 1, 2, …",
        "block shape (32, 8, 1) from the launch at transpose.cu:15",
        "arch sm_90",
    )


def test_cl001_needs_a_conflict() -> None:
    ctx = context(wavefronts=1, ideal_wavefronts=1, conflict=None)
    assert run_rules(ctx) == []


def test_cl001_not_for_worst_case() -> None:
    ctx = context(status="worst-case", reason="when n % 2 == 0", reason_kind="condition")
    assert [d.code for d in run_rules(ctx)] == ["CL002"]


def test_fractional_ways_and_8_byte_mode() -> None:
    ctx = context(strided_unit)
    cl001 = [d for d in run_rules(ctx) if d.code == "CL001"]
    # Kepler, both bank modes: one diagnostic (CL001: proved in 8-byte mode) that gives
    # the 4-byte mode's possible conflict too; no CL002 of its own for that mode.
    assert [d.message for d in cl001] == [
        "1.5-way bank conflict on load of 's' (3 wavefronts, ideal 2) in 8-byte bank mode; "
        "4-byte bank mode: possible 32-way (32 wavefronts, ideal 1) when stride % 16 == 0"
    ]
    assert [d.code for d in run_rules(ctx)].count("CL002") == 0
    # Kepler words are 256-byte rows.
    assert cl001[0].notes[:2] == (
        "bank 3 serves 3 distinct rows (3, 35, 67) for lanes 3, 4, 5",
        "in 4-byte bank mode: bank 0 serves 2 distinct rows (0, 2) for lanes (0, 16), (1, 17)",
    )
    assert cl001[0].result is ctx.results[1]
    assert cl001[0].bank_modes == (ctx.results[0], ctx.results[1])


def test_kind_in_message() -> None:
    unit, results = transpose_unit()
    store = dataclasses.replace(
        results[1], access=dataclasses.replace(results[1].access, kind="atomic")
    )
    ctx = FileContext(unit.file, unit, [store])
    assert run_rules(ctx)[0].message.startswith("32-way bank conflict on atomic of 'tile'")


# --- CL002 ----------------------------------------------------------------------------------


def test_cl002_puts_the_condition_in_the_message() -> None:
    unit, results = strided_unit()
    # the 4-byte bank mode alone (``--bank-mode 4``): a possible conflict
    ctx = FileContext(unit.file, unit, [r for r in results if r.bank_mode == 4])
    cl002 = [d for d in run_rules(ctx) if d.code == "CL002"]
    assert len(cl002) == 1
    assert cl002[0].message == (
        "possible 32-way bank conflict on load of 's' (32 wavefronts, ideal 1) "
        "when stride % 16 == 0"
    )
    assert cl002[0].notes == (
        "bank 0 serves 2 distinct rows (0, 2) for lanes (0, 16), (1, 17)",
        "block shape unknown; assumed: blockDim.x a multiple of 32",
        "arch sm_35",
    )


def test_cl002_other_reasons_follow_a_colon() -> None:
    ctx = context(status="worst-case", reason="blockDim.x changes the lane pattern")
    (d,) = run_rules(ctx)
    assert d.message.endswith("(32 wavefronts, ideal 1): blockDim.x changes the lane pattern")


def test_kepler_both_modes_one_diagnostic_per_access() -> None:
    """A result per bank mode (Kepler, both modes) makes one diagnostic: CL002 when no
    mode is proved to conflict, "in both bank modes" when the costs agree, and one CL003
    for an access unknown in both modes (in one mode: that mode is named)."""
    unit, results = strided_unit()
    load, _eight, unknown = results
    both = [
        load,
        dataclasses.replace(load, bank_mode=8),
        unknown,
        dataclasses.replace(unknown, bank_mode=8),
    ]
    ctx = FileContext(unit.file, unit, both)
    found = run_rules(ctx, RuleSelection.build(select=["ALL"]))
    assert [(d.code, d.line) for d in found if d.code != "CL004"] == [("CL002", 6), ("CL003", 7)]
    cl002, cl003 = (d for d in found if d.code != "CL004")
    assert cl002.message == (
        "possible 32-way bank conflict on load of 's' (32 wavefronts, "
        "ideal 1) in both bank modes when stride % 16 == 0"
    )
    assert [r.bank_mode for r in cl002.bank_modes] == [4, 8]
    assert not cl003.message.endswith("bank mode") and "bank mode" not in cl003.message
    # unknown in 8-byte mode only, clean in 4-byte mode: CL003 names the mode
    clean = dataclasses.replace(
        unknown, status="proved", wavefronts=1, ideal_wavefronts=1, reason=None
    )
    ctx = FileContext(unit.file, unit, [clean, dataclasses.replace(unknown, bank_mode=8)])
    (d,) = [d for d in run_rules(ctx, RuleSelection.build(select=["CL003"]))]
    assert d.message == (
        "cannot determine the bank conflicts of load of 's' in 8-byte bank "
        "mode: index depends on a call to 'perm'"
    )
    # possible in one mode, none in the other: CL002 gives both
    ctx = FileContext(
        unit.file,
        unit,
        [
            load,
            dataclasses.replace(
                load, bank_mode=8, status="proved", wavefronts=1, conflict=None, reason=None
            ),
        ],
    )
    (d,) = run_rules(ctx, RuleSelection.build(select=["CL001", "CL002"]))
    assert d.message == (
        "possible 32-way bank conflict on load of 's' (32 wavefronts, "
        "ideal 1) in 4-byte bank mode when stride % 16 == 0; 8-byte bank "
        "mode: no conflict (1 wavefront, ideal 1)"
    )


# --- CL003 ----------------------------------------------------------------------------------


def test_cl003_off_by_default_and_gives_the_reason() -> None:
    ctx = context(strided_unit)
    assert "CL003" not in [d.code for d in run_rules(ctx)]
    cl003 = run_rules(ctx, RuleSelection.build(select=["CL003"]))
    assert [(d.code, d.severity, d.line, d.message) for d in cl003] == [
        (
            "CL003",
            "info",
            7,
            "cannot determine the bank conflicts of load of 's': index depends on a call to 'perm'",
        )
    ]


# --- CL004 ----------------------------------------------------------------------------------


def test_cl004_reports_the_first_clang_error_and_counts_the_rest() -> None:
    unit, results = strided_unit()
    extra = tuple(
        Note("error", f"error {i}", Span("strided.cu", 2 + i, 1, 2 + i, 2)) for i in range(5)
    )
    unit = dataclasses.replace(unit, notes=unit.notes + extra)
    found = run_rules(FileContext(unit.file, unit, results), RuleSelection.build(["CL004"]))
    (d,) = [d for d in found if d.message.startswith("clang:")]
    assert d.message == (
        "clang: 'missing.cuh' file not found; code it affects may be missing from the analysis"
    )
    assert (d.line, d.column, d.end_column, d.severity, d.result) == (1, 10, 23, "info", None)
    assert d.notes == (
        "clang: error 0 (at strided.cu:2:1)",
        "clang: error 1 (at strided.cu:3:1)",
        "clang: error 2 (at strided.cu:4:1)",
        "and 2 more clang errors",
    )


def test_cl004_reports_a_missing_include_given_as_a_note() -> None:
    unit, results = strided_unit()
    note = Note("note", "'nope.cuh' file not found", Span("strided.cu", 1, 10, 1, 20))
    unit = dataclasses.replace(unit, notes=(note,))
    (d,) = run_rules(FileContext(unit.file, unit, results), RuleSelection.build(["CL004"]))
    assert d.message.startswith("clang: 'nope.cuh' file not found;")
    assert d.severity == "info"


def test_cl004_silent_without_errors() -> None:
    unit, results = strided_unit()
    unit = dataclasses.replace(unit, notes=(Note("note", "a remark", None),))
    assert run_rules(FileContext(unit.file, unit, results), RuleSelection.build(["CL004"])) == []


def test_cl004_reports_code_cudalint_skipped() -> None:
    # The frontend's warnings (a function it could not analyze, PTX it cannot trace) are
    # code missing from the analysis: each is reported, never dropped.
    unit, results = strided_unit()
    span = Span("strided.cu", 3, 1, 9, 2)
    unit = dataclasses.replace(unit, notes=(Note("warning", "skipped", span),))
    (d,) = run_rules(FileContext(unit.file, unit, results), RuleSelection.build(["CL004"]))
    assert (d.message, d.line, d.column, d.severity) == ("skipped", 3, 1, "info")


# --- notes ----------------------------------------------------------------------------------


def _notes_for(result: AccessResult, unit_launches: tuple[Launch, ...] = ()) -> tuple[str, ...]:
    unit, _ = transpose_unit()
    unit = dataclasses.replace(unit, launches=unit_launches)
    (d,) = run_rules(FileContext(unit.file, unit, [result]))
    return d.notes


@pytest.mark.parametrize(
    ("source", "note"),
    [
        ("cli", "block shape (64, 4, 1) from --block-dim"),
        ("annotation", "block shape (64, 4, 1) from the 'cudalint: block-dim' annotation"),
        ("config", "block shape (64, 4, 1) from the configuration"),
        ("launch", "block shape (64, 4, 1) from the launch"),
    ],
)
def test_block_shape_notes(source: str, note: str) -> None:
    _, results = transpose_unit()
    r = dataclasses.replace(results[1], block_dim=(64, 4, 1), block_dim_source=source)
    assert note in _notes_for(r)


def test_launch_note_names_the_matching_launch_and_worst_warp() -> None:
    _, results = transpose_unit()
    launches = (
        Launch("other", (64, 4, 1), Span("transpose.cu", 3, 1, 3, 5)),
        Launch("transpose", (32, 8, 1), Span("transpose.cu", 15, 5, 15, 14)),
        Launch("transpose", (64, 4, 1), Span("./transpose.cu", 16, 5, 16, 14)),
    )
    r = dataclasses.replace(results[1], block_dim=(64, 4, 1), warp=3)
    notes = _notes_for(r, launches)
    assert "block shape (64, 4, 1) from the launch at transpose.cu:16" in notes
    assert "worst warp: warp 3 of the block (threads 96-127)" in notes


def test_instantiation_note() -> None:
    unit, results = transpose_unit()
    # S is a template argument; n is a kernel parameter that the launch passes as a
    # constant (cudalint.frontend.host.bind_parameters), named in Access.launch_params
    r = dataclasses.replace(
        results[1],
        access=dataclasses.replace(
            results[1].access, instantiation="S=4, n=8", launch_params=("n",)
        ),
    )
    unit = dataclasses.replace(unit, launches=())
    (d,) = run_rules(FileContext(unit.file, unit, [r]))
    assert "in instantiation S=4" in d.notes
    assert "with n=8 passed by the launch" in d.notes


def test_clean_unit_has_no_diagnostics() -> None:
    assert run_rules(context(clean_unit), RuleSelection.build(["ALL"])) == []


def test_conflict_without_details_still_reports() -> None:
    ctx = context(conflict=None)
    (d,) = run_rules(ctx)
    assert d.notes[0].startswith("block shape")


def test_conflict_note_for_one_word() -> None:
    ctx = context(conflict=BankConflict(bank=7, words=(7,), lanes=((0, 1, 2),)))
    (d,) = run_rules(ctx)
    assert d.notes[0] == "bank 7 serves 1 distinct word (7) for lanes (0, 1, 2)"
