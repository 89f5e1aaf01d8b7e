"""Suppression comments: ``// cudalint: ignore[CL001]`` and ``// cudalint: ignore-file[CL001]``.

- ``// cudalint: ignore[CODES]`` at the end of a line suppresses those diagnostics that
  start on that line; alone on its line, it suppresses the next line's (so that a long
  line can keep its comment above it). ``ignore`` without ``[...]`` suppresses every code.
- ``// cudalint: ignore-file[CODES]`` anywhere in a file suppresses those codes in
  the whole file (``ignore-file`` alone: every code).
- CODES is a comma-separated list of codes, prefixes or rule names, as for ``--ignore``.

A suppression that suppressed nothing (or names a rule that does not exist) is reported
as ``CL100 unused-suppression`` when that rule is selected (``--warn-unused-ignores``).
``NOLINT`` is not read: cpplint complains about NOLINT categories it does not know.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from cudalint.diagnostics import Diagnostic, Edit
from cudalint.edits import splice

__all__ = [
    "UNUSED_CODE",
    "UNUSED_NAME",
    "Suppression",
    "add_ignore_edits",
    "find_suppressions",
    "split_suppressed",
    "unused_suppressions",
]

UNUSED_CODE = "CL100"
UNUSED_NAME = "unused-suppression"

_COMMENT = re.compile(
    rb"//[ \t]*cudalint:[ \t]*(ignore-file|ignore)(?![\w-])(?:[ \t]*\[([^\]\n]*)\])?"
)


@dataclass
class Suppression:
    """One ``cudalint: ignore...`` comment."""

    #: 1-based line of the comment.
    line: int
    #: 1-based byte columns of the comment's directive (for the unused report).
    column: int
    end_column: int
    #: ``ignore`` or ``ignore-file``.
    kind: str
    #: The selectors in the brackets; empty for "every code".
    selectors: tuple[str, ...]
    #: The line whose diagnostics it suppresses (``ignore`` only).
    target_line: int
    #: Selectors that suppressed at least one diagnostic ("*" for the bare form).
    used: set[str] = field(default_factory=set)

    def matches(self, d: Diagnostic) -> str | None:
        """The selector that suppresses ``d``, or None."""
        if self.kind == "ignore" and d.line != self.target_line:
            return None
        if not self.selectors:
            return "*"
        for selector in self.selectors:
            if _selects(selector, d):
                return selector
        return None


def _selects(selector: str, d: Diagnostic) -> bool:
    if selector.upper() == "ALL":
        return True
    return selector.lower() == d.name or d.code.startswith(selector.upper())


_EOL = re.compile(rb"\r\n|\r|\n")


def split_lines(source: bytes) -> list[tuple[bytes, bytes]]:
    """(text, line ending) per line, as clang counts lines: ``\\n``, ``\\r\\n`` and a
    lone ``\\r`` (classic Mac files) each end one; the last line's ending may be empty."""
    parts = _EOL.split(source)
    ends = _EOL.findall(source)
    return [(text, ends[i] if i < len(ends) else b"") for i, text in enumerate(parts)]


def _line_comments(source: bytes) -> list[tuple[int, int, bytes]]:
    """(line, column of its ``//``, the line) for each line with a ``//`` comment in code.

    A small C lexer: ``//`` inside string or character literals or inside ``/* */``
    (which may span lines) does not start a comment.
    """
    out: list[tuple[int, int, bytes]] = []
    for number, line, _, _, comment in _scan(source):
        if comment is not None:
            out.append((number, comment, line))
    return out


def _scan(source: bytes) -> list[tuple[int, bytes, bool, bool, int | None]]:
    """Per line: (number, text, starts inside ``/* */``, ends inside it, column of its
    ``//`` comment or None)."""
    out: list[tuple[int, bytes, bool, bool, int | None]] = []
    in_block = False
    for number, (line, _) in enumerate(split_lines(source), start=1):
        starts_in_block = in_block
        comment: int | None = None
        i, n, quote = 0, len(line), 0
        while i < n:
            if in_block:
                close = line.find(b"*/", i)
                if close < 0:
                    break
                in_block = False
                i = close + 2
                continue
            c = line[i]
            if quote:
                if c == 0x5C:  # backslash
                    i += 2
                    continue
                if c == quote:
                    quote = 0
            elif c in (0x22, 0x27):  # " '
                quote = c
            elif line.startswith(b"//", i):
                comment = i
                break
            elif line.startswith(b"/*", i):
                in_block = True
                i += 2
                continue
            i += 1
        out.append((number, line, starts_in_block, in_block, comment))
    return out


def find_suppressions(source: bytes) -> list[Suppression]:
    """Every suppression comment of ``source``, in order."""
    found: list[Suppression] = []
    for number, start, line in _line_comments(source):
        alone = line[:start].strip() == b""
        for m in _COMMENT.finditer(line, start):
            kind = m.group(1).decode()
            inner = m.group(2)
            selectors: tuple[str, ...] = ()
            if inner is not None:
                selectors = tuple(
                    s.strip() for s in inner.decode("utf-8", "replace").split(",") if s.strip()
                )
            found.append(
                Suppression(
                    line=number,
                    column=m.start() + 1,
                    end_column=m.end() + 1,
                    kind=kind,
                    selectors=selectors,
                    target_line=number + 1 if alone and m.start() == start else number,
                )
            )
    return found


def _suppressor(
    suppressions: Sequence[Suppression], d: Diagnostic
) -> tuple[Suppression, str] | None:
    for s in suppressions:
        selector = s.matches(d)
        if selector is not None:
            return s, selector
    return None


def split_suppressed(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, bytes | None]
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """The diagnostics that no suppression comment covers, and those one covers, each in
    the order given. ``sources`` maps a diagnostic's ``file`` to its bytes (None or
    missing: unreadable, nothing suppressed there)."""
    by_file: dict[str, list[Suppression]] = {}
    kept: list[Diagnostic] = []
    dropped: list[Diagnostic] = []
    for d in diagnostics:
        if d.file not in by_file:
            source = sources.get(d.file)
            by_file[d.file] = find_suppressions(source) if source else []
        (kept if _suppressor(by_file[d.file], d) is None else dropped).append(d)
    return kept, dropped


def unused_suppressions(
    file: str, suppressions: Sequence[Suppression], hits: Iterable[Diagnostic],
    enabled_codes: frozenset[str],
) -> list[Diagnostic]:
    """``CL100`` for each of ``file``'s ``suppressions`` (or of its selectors) that
    suppresses none of ``hits`` (diagnostics in ``file``; ``suppressions`` themselves
    are not changed)."""
    fresh = [replace(s, used=set()) for s in suppressions]
    for d in hits:
        hit = _suppressor(fresh, d)
        if hit is not None:
            hit[0].used.add(hit[1])
    return _unused(file, fresh, enabled_codes)


def _unused(
    file: str, suppressions: Sequence[Suppression], enabled: frozenset[str]
) -> list[Diagnostic]:
    from cudalint.rules import get_rule

    out: list[Diagnostic] = []
    for s in suppressions:
        directive = f"cudalint: {s.kind}"
        if not s.selectors:
            if "*" in s.used:
                continue
            message = f"unused suppression '{directive}': nothing to suppress"
        else:
            unused = [sel for sel in s.selectors if sel not in s.used]
            if not unused:
                continue
            parts = []
            for sel in unused:
                rule = get_rule(sel)
                if rule is None and not _any_code(sel):
                    parts.append(f"{sel} (unknown rule)")
                elif rule is not None and rule.code not in enabled:
                    parts.append(f"{sel} (not enabled)")
                else:
                    parts.append(sel)
            message = f"unused suppression of {', '.join(parts)}"
        out.append(
            Diagnostic(
                code=UNUSED_CODE,
                name=UNUSED_NAME,
                severity="warning",
                message=message,
                file=file,
                line=s.line,
                column=s.column,
                end_line=s.line,
                end_column=s.end_column,
            )
        )
    return out


def _any_code(selector: str) -> bool:
    from cudalint.rules import RULES

    if selector.upper() == "ALL":
        return True
    return any(
        code.startswith(selector.upper()) for code in RULES
    ) or selector.upper() == UNUSED_CODE


# --- --add-ignores -------------------------------------------------------------------------


def add_ignore_edits(source: bytes, file: str, codes_by_line: dict[int, set[str]]
                     ) -> tuple[list[Edit], list[int]]:
    """Edits that add ``// cudalint: ignore[...]`` for ``codes_by_line`` (line → codes).

    A line that already ends in a cudalint ignore comment gets the new codes merged into
    its brackets; other lines get the comment appended. A line that ends in a backslash
    (a macro continuation) cannot take a ``//`` comment: it is returned as skipped.
    """
    lines = split_lines(source)
    scanned = _scan(source)
    edits: list[Edit] = []
    skipped: list[int] = []
    for number in sorted(codes_by_line):
        if not 1 <= number <= len(lines):
            continue
        line, eol = lines[number - 1]
        codes = set(codes_by_line[number])
        if line.rstrip().endswith(b"\\"):
            skipped.append(number)
            continue
        _, _, starts_in_block, ends_in_block, _ = scanned[number - 1]
        if ends_in_block:
            # A '//' appended here would land inside the '/* ...' the line opens: the
            # comment goes alone on a line of its own above, which suppresses the next
            # line; impossible when that line would itself be inside a comment or
            # continue a macro.
            above = lines[number - 2][0] if number > 1 else b""
            if starts_in_block or (number > 1 and (scanned[number - 2][3]
                                                   or above.rstrip().endswith(b"\\"))):
                skipped.append(number)
                continue
            if any(s.kind == "ignore" and s.target_line == number
                   and (not s.selectors or codes <= set(s.selectors))
                   for s in find_suppressions(source)):
                continue
            indent = line[: len(line) - len(line.lstrip(b" \t"))].decode("ascii")
            text = f"{indent}// cudalint: ignore[{', '.join(sorted(codes))}]"
            edits.append(Edit(file, number, 1, number, 1,
                              text + (eol or b"\n").decode("ascii")))
            continue
        existing = [
            s for s in find_suppressions(line) if s.kind == "ignore" and s.target_line == 1
        ]
        if existing and existing[-1].selectors:
            s = existing[-1]
            merged = sorted(set(s.selectors) | codes)
            text = f"// cudalint: ignore[{', '.join(merged)}]"
            edits.append(Edit(file, number, s.column, number, s.end_column, text))
            continue
        if existing:  # a bare 'ignore' already covers every code
            continue
        stripped = line.rstrip()
        column = len(stripped) + 1
        text = f"  // cudalint: ignore[{', '.join(sorted(codes))}]"
        edits.append(Edit(file, number, column, number, len(line) + 1, text))
    return edits, skipped


def apply_edits(source: bytes, edits: Sequence[Edit]) -> bytes:
    """``source`` with single-line ``edits`` applied (they must not overlap), their
    positions in clang's lines (:func:`split_lines`); :func:`cudalint.edits.splice`
    applies them."""
    starts: list[int] = []
    offset = 0
    lines = split_lines(source)
    for text, eol in lines:
        starts.append(offset)
        offset += len(text) + len(eol)

    def at(line: int, column: int) -> int:
        return starts[line - 1] + min(max(column - 1, 0), len(lines[line - 1][0]))

    return splice(source, ((at(e.line, e.column), at(e.line, e.end_column),
                            e.content.encode()) for e in edits))
