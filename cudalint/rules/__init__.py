"""Rules: one module per diagnostic code, and the registry that selects and runs them.

Selection follows ruff: ``--select`` replaces the default set, ``--extend-select``
adds to it, ``--ignore`` removes from it. Selectors are codes, code prefixes
(``CL00``), rule names (``shared-bank-conflict``) or ``ALL``. When selectors
disagree about a code, the more specific one (the longer prefix) wins; on a tie,
``--ignore`` wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cudalint.diagnostics import Diagnostic
from cudalint.rules import (
    partial_parse,
    possible_bank_conflict,
    shared_bank_conflict,
    split_vector_access,
    unknown_shared_index,
    unused_suppression,
)
from cudalint.rules.base import DOC_SECTIONS, FileContext, Rule

__all__ = [
    "DOC_SECTIONS",
    "RULES",
    "FileContext",
    "Rule",
    "RuleSelection",
    "UnknownSelectorError",
    "explain",
    "get_rule",
    "run_rules",
]

#: Every rule, by code.
RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        shared_bank_conflict.RULE,
        possible_bank_conflict.RULE,
        unknown_shared_index.RULE,
        partial_parse.RULE,
        split_vector_access.RULE,
        unused_suppression.RULE,
    )
}


class UnknownSelectorError(ValueError):
    """A ``--select``/``--ignore`` entry that matches no rule."""


def get_rule(code_or_name: str) -> Rule | None:
    key = code_or_name.strip()
    rule = RULES.get(key.upper())
    if rule is not None:
        return rule
    for rule in RULES.values():
        if rule.name == key.lower():
            return rule
    return None


def _matches(selector: str, rule: Rule) -> int:
    """How specifically ``selector`` names ``rule``: 0 = not at all."""
    if selector == "ALL":
        return 1
    if selector.lower() == rule.name:
        return 100
    if rule.code.startswith(selector.upper()):
        return 1 + len(selector)
    return 0


def _check_selectors(selectors: Iterable[str]) -> None:
    for selector in selectors:
        if not any(_matches(selector, rule) for rule in RULES.values()):
            raise UnknownSelectorError(f"unknown rule selector '{selector}'")


@dataclass(frozen=True)
class RuleSelection:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @classmethod
    def build(
        cls,
        select: Sequence[str] | None = None,
        extend_select: Sequence[str] = (),
        ignore: Sequence[str] = (),
    ) -> RuleSelection:
        """Validate the selectors (raises UnknownSelectorError) and build a selection."""

        def clean(items: Iterable[str]) -> tuple[str, ...]:
            return tuple(s.strip() for s in items if s.strip())

        sel = clean(select) if select is not None else None
        ext, ign = clean(extend_select), clean(ignore)
        _check_selectors((*(sel or ()), *ext, *ign))
        return cls(sel, ext, ign)

    def enabled(self, rule: Rule) -> bool:
        # Specificity of the strongest selector each way; -1 when none applies and 0 for
        # the default set, so that any explicit --ignore beats a default.
        on = max(
            (_matches(s, rule) or -1 for s in (*(self.select or ()), *self.extend_select)),
            default=-1,
        )
        if self.select is None and rule.default_enabled:
            on = max(on, 0)
        off = max((_matches(s, rule) or -1 for s in self.ignore), default=-1)
        return on >= 0 and on > off

    def rules(self) -> list[Rule]:
        return [rule for rule in RULES.values() if self.enabled(rule)]


DEFAULT_SELECTION = RuleSelection()


def run_rules(ctx: FileContext, selection: RuleSelection = DEFAULT_SELECTION) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for rule in selection.rules():
        diagnostics.extend(rule.check(ctx))
    return diagnostics


def explain(rule: Rule) -> str:
    """The text ``--explain`` prints: a header, then the rule's documentation."""
    default = "enabled by default" if rule.default_enabled else "off by default"
    _title, _, body = rule.doc.partition("\n")
    return (
        f"# {rule.code} {rule.name}\n\n"
        f"Default severity: {rule.severity} ({default}).\n\n"
        f"{body.strip()}\n"
    )


def rules_markdown() -> str:
    """docs/rules.md: every rule's documentation (a test keeps the file in sync)."""
    parts = [
        "# Rules\n\n"
        "Generated from the rule modules (`cudalint/rules/`); `cudalint --explain CODE`\n"
        "prints the same text. Select rules with `--select`, `--extend-select` and\n"
        "`--ignore` (codes, prefixes such as `CL00`, names, or `ALL`).\n\n"
        "| code | name | severity | default | summary |\n|---|---|---|---|---|\n"
        + "".join(
            f"| {r.code} | {r.name} | {r.severity} | "
            f"{'on' if r.default_enabled else 'off'} | {r.summary} |\n"
            for r in RULES.values()
        )
    ]
    for rule in RULES.values():
        parts.append("\n#" + explain(rule).replace("\n## ", "\n### "))
    return "".join(parts)
