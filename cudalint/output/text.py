"""``--format text``: compiler-style diagnostics with the source line, a caret and notes.

```
k.cu:12:9: warning: 32-way bank conflict on load of 'tile' (32 wavefronts, ideal 1) [CL001]
    v = tile[threadIdx.x][threadIdx.y];
        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  note: bank 0 serves 32 distinct words (0, 32, 64, …) for lanes 0, 1, 2, …
```

Columns in diagnostics count UTF-8 bytes; the caret line counts display cells, with
tabs expanded to stops of 8 (as clang does) in both the source and the caret line.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from cudalint.api import FileReport
from cudalint.diagnostics import Diagnostic
from cudalint.output import RenderOptions
from cudalint.output.statistics import percent, totals
from cudalint.suppressions import split_lines

TAB_STOP = 8

_RESET = "\033[0m"
_BOLD = "\033[1m"
_SEVERITY_COLOR = {
    "error": "\033[1;31m",
    "warning": "\033[1;35m",
    "info": "\033[1;36m",
}
_NOTE_COLOR = "\033[1;36m"
_CARET_COLOR = "\033[1;32m"
_HELP_COLOR = "\033[1;32m"


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color else text


def _cells(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _expand(text: str, column: int) -> tuple[str, int]:
    """Expand tabs in ``text`` written from display column ``column``; return the end column."""
    out: list[str] = []
    for ch in text:
        if ch == "\t":
            width = TAB_STOP - column % TAB_STOP
            out.append(" " * width)
            column += width
        else:
            out.append(ch)
            column += _cells(ch)
    return "".join(out), column


#: The most bytes of a source line an excerpt shows (a minified or generated file's one
#: 5 MB line is shown as a window around the span, marked with '…' where cut).
EXCERPT_BYTES = 240
#: Bytes kept before the span in a cut line.
EXCERPT_CONTEXT = 60
#: Characters that would drive the terminal or reorder the text: C0 and C1 controls,
#: DEL, and the bidirectional overrides ("Trojan source").
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str, *, newlines: bool = False) -> str:
    """``text`` with the characters that would reach the terminal as commands (an escape
    sequence in a file name or a source line) written as ``\\x1b``, ``\\u202e``;
    ``newlines``: line breaks are kept (a message of several lines)."""
    def escape(m: re.Match[str]) -> str:
        ch = m.group()
        return ch if newlines and ch == "\n" else ascii(ch)[1:-1]

    return _UNPRINTABLE.sub(escape, text)


def _cut(raw: bytes, start: int, end: int) -> tuple[bytes, int, int, bool, bool]:
    """A window of at most EXCERPT_BYTES of ``raw`` around [start, end), on UTF-8
    character boundaries; the span's offsets in it; whether it was cut at each end."""
    if len(raw) <= EXCERPT_BYTES:
        return raw, start, end, False, False
    lo = max(0, start - EXCERPT_CONTEXT)
    while 0 < lo < len(raw) and raw[lo] & 0xC0 == 0x80:
        lo -= 1
    hi = min(len(raw), lo + EXCERPT_BYTES)
    while lo < hi < len(raw) and raw[hi] & 0xC0 == 0x80:
        hi -= 1
    return raw[lo:hi], start - lo, min(end, hi) - lo, lo > 0, hi < len(raw)


def excerpt(source: bytes, d: Diagnostic) -> tuple[str, str] | None:
    """The source line of ``d`` and a caret line under its span (first line only)."""
    lines = split_lines(source)
    if not 1 <= d.line <= len(lines):
        return None
    raw = lines[d.line - 1][0]
    start = min(max(d.column - 1, 0), len(raw))
    end = d.end_column - 1 if d.end_line == d.line else len(raw)
    end = min(max(end, start), len(raw))
    raw, start, end, cut_before, cut_after = _cut(raw, start, end)

    def decode(b: bytes) -> str:
        return printable(b.decode("utf-8", errors="replace"))

    before, col = _expand(("…" if cut_before else "") + decode(raw[:start]), 0)
    span, end_col = _expand(decode(raw[start:end]), col)
    after, _ = _expand(decode(raw[end:]) + ("…" if cut_after else ""), end_col)
    width = max(end_col - col, 1)
    caret = " " * col + "^" + "~" * (width - 1)
    return (before + span + after).rstrip(), caret


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def summary(reports: Sequence[FileReport]) -> str:
    """``18 files, 48 accesses: 1 proved, 0 worst-case, 47 unknown (98%); 0 conflicts``.

    Every access falls in exactly one of the three statuses, so an analysis that saw
    little of the code cannot read as a clean one.
    """
    t = totals(reports)
    unknown = f"{t.unknown} unknown"
    if t.unknown:
        unknown += f" ({percent(t.unknown_percent)})"
    line = (
        f"{_plural(t.files, 'file')}, "
        f"{_plural(t.accesses, 'access', 'accesses')}: {t.proved} proved, "
        f"{t.worst_case} worst-case, {unknown}; "
        f"{_plural(t.conflicts, 'conflict')}"
    )
    if t.failed:
        line += f"; {_plural(t.failed, 'file')} could not be analyzed"
    return line


def fixable(d: Diagnostic) -> str | None:
    """``"safe"`` when ``--fix`` fixes ``d``, ``"unsafe"`` when only ``--unsafe-fixes``
    does, else None (no fix, or one shown as advice only)."""
    fix = d.fix
    if fix is None or not fix.edits or fix.applicability not in ("safe", "unsafe"):
        return None
    return fix.applicability


def fixable_line(reports: Sequence[FileReport]) -> str | None:
    """``[*] 3 fixable with `--fix` (5 with `--unsafe-fixes`)``, as ruff ends its
    output; None when no diagnostic has a fix that ``--fix``/``--unsafe-fixes`` applies."""
    kinds = [fixable(d) for r in reports for d in r.diagnostics]
    safe = kinds.count("safe")
    unsafe = kinds.count("unsafe")
    if not safe and not unsafe:
        return None
    line = f"[*] {safe} fixable with `--fix`"
    if unsafe:
        line += f" ({safe + unsafe} with `--unsafe-fixes`)"
    return line


#: The note a helper's access carries about its call (rules.base.call_note).
_CALL_NOTE = "called at "
#: Calls a merged diagnostic's one-line tag names before "and N more".
_CALLS_SHOWN = 3
#: The note of a template instantiation's access (rules.base.instantiation_notes).
_INSTANTIATION_NOTE = "in instantiation "
#: Instantiations a folded diagnostic's note names before "and N more".
_INSTANTIATIONS_SHOWN = 4


@dataclass(frozen=True)
class LineTags:
    """What the line formats add to diagnostics that would print the same line: a
    ``__device__`` helper's access reported once per kernel that calls it, or once per
    call in one kernel. ``tags``: the text after the message, by ``id`` of the
    diagnostic; ``skip``: diagnostics folded into another (the same finding through
    another call of the helper, with the same notes and fix); ``notes``: the notes of a
    diagnostic that stands for several calls (one "called at N places" note)."""

    tags: dict[int, str] = field(default_factory=dict)
    skip: set[int] = field(default_factory=set)
    notes: dict[int, tuple[str, ...]] = field(default_factory=dict)


def _calls(d: Diagnostic) -> str:
    """The call chain of a helper's access, ``12:5 from 40:9`` (file names for calls in
    another file)."""
    if d.result is None or not d.result.access.call_sites:
        return ""
    access = d.result.access
    here = access.span.file
    calls = [("" if c.file == here else f"{os.path.basename(c.file)}:") + f"{c.line}:{c.column}"
             for c in access.call_sites]
    return calls[0] + (f" from {', '.join(calls[1:])}" if calls[1:] else "")


def kernel_tags(reports: Sequence[FileReport]) -> LineTags:
    """The :class:`LineTags` of the reports: ``(in kernel K)`` where kernels differ;
    within one kernel, the findings of one helper line through different calls with the
    same message, notes and fix are one diagnostic that names its calls (``called at 3
    places: 61:5 from 99:9; ...``), and a call alone is named (``called at 14:5``)."""
    out = LineTags()
    _fold_instantiations(reports, out)
    groups: dict[tuple[str, int, int, str, str], list[Diagnostic]] = {}
    for report in reports:
        for d in report.diagnostics:
            if d.result is not None and id(d) not in out.skip:
                groups.setdefault((d.file, d.line, d.column, d.code, d.message), []).append(d)

    def notes_of(d: Diagnostic) -> tuple[str, ...]:
        return out.notes.get(id(d), d.notes)

    for same in groups.values():
        if len(same) < 2:
            continue
        kernels = [d.result.access.kernel for d in same if d.result is not None]
        by_kernel: dict[str, list[Diagnostic]] = {}
        for d in same:
            if d.result is not None:
                by_kernel.setdefault(d.result.access.kernel, []).append(d)
        for kernel, members in by_kernel.items():
            # one diagnostic per kind of finding; the calls that give it, together
            kinds: dict[tuple[object, ...], list[Diagnostic]] = {}
            for d in members:
                key = (tuple(n for n in notes_of(d) if not n.startswith(_CALL_NOTE)),
                       d.fix.title if d.fix is not None else None, d.severity)
                kinds.setdefault(key, []).append(d)
            several = len(members) > 1
            for kind in kinds.values():
                first = kind[0]
                parts = []
                if len(set(kernels)) > 1:
                    parts.append(f"in kernel {kernel}")
                chains = [c for c in (_calls(d) for d in kind) if c]
                if len(kind) > 1 and len(chains) == len(kind):
                    out.skip.update(id(d) for d in kind[1:])
                    many = len(chains) > _CALLS_SHOWN + 1  # never "and 1 more"
                    shown = "; ".join(chains[:_CALLS_SHOWN] if many else chains) + (
                        f"; and {len(chains) - _CALLS_SHOWN} more" if many else "")
                    parts.append(f"called at {len(chains)} places: {shown}")
                    notes = [n for n in notes_of(first) if not n.startswith(_CALL_NOTE)]
                    full = [n[len(_CALL_NOTE):] for d in kind for n in notes_of(d)
                            if n.startswith(_CALL_NOTE)]
                    at = next((i for i, n in enumerate(notes_of(first))
                               if n.startswith(_CALL_NOTE)), len(notes))
                    notes.insert(at, f"called at {len(full)} places: " + "; ".join(full))
                    out.notes[id(first)] = tuple(notes)
                elif several and chains:
                    # the helper called twice in one kernel: which calls (the whole
                    # chain: one call site can be reached twice from further up)
                    for d in kind:
                        tag_parts = [*parts, f"called at {_calls(d)}"] if _calls(d) else parts
                        if tag_parts:
                            out.tags[id(d)] = f" ({', '.join(tag_parts)})"
                    continue
                if parts:
                    out.tags[id(first)] = f" ({', '.join(parts)})"
                    if len(kind) > 1 and len(chains) != len(kind):
                        for d in kind[1:]:
                            out.tags[id(d)] = out.tags[id(first)]
    return out


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders ``N=4`` before ``N=32`` (numbers by value)."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", text))


def _fold_instantiations(reports: Sequence[FileReport], out: LineTags) -> None:
    """One diagnostic for a finding that several template instantiations of one kernel
    give alike (same place, message, call, notes and fix: ggml's flash-attention
    kernels, one line per instantiation): the others are skipped and its instantiation
    note names them all (``in 3 instantiations: D=64; D=128; D=256``). The JSON keeps
    every record; this is what the line formats print."""
    groups: dict[tuple[object, ...], list[Diagnostic]] = {}
    for report in reports:
        for d in report.diagnostics:
            if d.result is None:
                continue
            inst = [n for n in d.notes if n.startswith(_INSTANTIATION_NOTE)]
            if len(inst) != 1:
                continue
            access = d.result.access
            rest = tuple(n for n in d.notes if not n.startswith(_INSTANTIATION_NOTE))
            key = (d.file, d.line, d.column, d.code, d.message, access.kernel,
                   access.call_sites, rest, d.fix.title if d.fix is not None else None,
                   d.severity)
            groups.setdefault(key, []).append(d)
    for same in groups.values():
        if len(same) < 2:
            continue
        first = same[0]
        out.skip.update(id(d) for d in same[1:])
        labels = sorted({n[len(_INSTANTIATION_NOTE):] for d in same
                         for n in d.notes if n.startswith(_INSTANTIATION_NOTE)},
                        key=_natural)
        if len(labels) < 2:
            continue  # the same instantiation twice: one diagnostic, notes as they are
        many = len(labels) > _INSTANTIATIONS_SHOWN + 1  # never "and 1 more"
        shown = labels[:_INSTANTIATIONS_SHOWN] if many else labels
        note = (f"in {len(labels)} instantiations: " + "; ".join(shown)
                + (f"; and {len(labels) - _INSTANTIATIONS_SHOWN} more" if many else ""))
        out.notes[id(first)] = tuple(note if n.startswith(_INSTANTIATION_NOTE) else n
                                     for n in first.notes)


def render_diagnostic(d: Diagnostic, source: bytes | None, color: bool,
                      tag: str = "", notes: Sequence[str] | None = None) -> list[str]:
    head = (
        _paint(f"{printable(d.file)}:{d.line}:{d.column}:", _BOLD, color)
        + " "
        + _paint(f"{d.severity}:", _SEVERITY_COLOR.get(d.severity, _BOLD), color)
        + " "
        + _paint(printable(d.message + tag), _BOLD, color)
        + f" [{d.code}]"
        + (" [*]" if fixable(d) == "safe" else "")
    )
    out = [head]
    if source is not None:
        ex = excerpt(source, d)
        if ex is not None:
            out.append(ex[0])
            out.append(_paint(ex[1], _CARET_COLOR, color))
    out.extend("  " + _paint("note:", _NOTE_COLOR, color) + " " + printable(note)
               for note in (d.notes if notes is None else notes))
    if d.fix is not None:
        # The fix, under the notes (issue 5): its title says what, the cost and, for a
        # fix --fix will not apply, why.
        out.append("  " + _paint("help:", _HELP_COLOR, color) + " " + printable(d.fix.title))
    return out


def _read_or_none(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except (OSError, ValueError):
        return None


def render(reports: Sequence[FileReport], options: RenderOptions) -> str:
    blocks: list[str] = []
    headers: dict[str, bytes | None] = {}
    tags = kernel_tags(reports)
    for report in reports:
        for d in report.diagnostics:
            if id(d) in tags.skip:
                continue
            # A diagnostic in an included file shows no excerpt of the main file; an
            # access in a project header shows the header's line.
            source = report.source if d.file == report.path else None
            if source is None and d.result is not None and d.file != report.path:
                if d.file not in headers:
                    headers[d.file] = _read_or_none(d.file)
                source = headers[d.file]
            blocks.append("\n".join(render_diagnostic(
                d, source, options.color, tags.tags.get(id(d), ""),
                tags.notes.get(id(d)))) + "\n")
    if not options.quiet:
        fixes = fixable_line(reports)
        blocks.append(summary(reports) + "\n" + (fixes + "\n" if fixes else ""))
    return "\n".join(blocks)
