"""The bank map of one access (``--explain-access``, ``--bank-map-svg``): text and SVG.

Both draw :class:`cudalint.model.explain.BankMap`: 32 banks across, one row per
wavefront down, grouped by phase; each cell is the lane (or, for multicast, the lanes)
a bank serves in that pass. Colliding words (a bank that serves several words in one
phase) are red on a terminal and marked ``!`` in plain text; words several lanes share
are marked ``+`` (``#`` when both).
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from cudalint.model.banks import NUM_BANKS
from cudalint.model.explain import BankMap, Cell, PhaseMap, serialization
from cudalint.model.results import AccessResult, shape_text

__all__ = ["busiest", "describe", "lane_ranges", "lane_table", "render_svg", "render_text",
           "svg_file_name"]

_RESET = "\033[0m"
_CONFLICT = "\033[1;37;41m"
_MULTICAST = "\033[1;36m"
_DIM = "\033[2m"
_BOLD = "\033[1m"

_SOURCES = {
    "launch": "from the launch",
    "annotation": "from the block-dim annotation",
    "cli": "from --block-dim",
    "config": "from the configuration",
    "assumed": "assumed",
}


def lane_ranges(lanes: Sequence[int]) -> str:
    """``0-7, 16, 18-19``: ascending lanes as ranges."""
    parts: list[str] = []
    i = 0
    while i < len(lanes):
        j = i
        while j + 1 < len(lanes) and lanes[j + 1] == lanes[j] + 1:
            j += 1
        parts.append(str(lanes[i]) if i == j else f"{lanes[i]}-{lanes[j]}")
        i = j + 1
    return ", ".join(parts)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _array_name(result: AccessResult) -> str:
    return result.access.array_name or result.access.array  # the key: built by hand


def describe(result: AccessResult) -> tuple[str, str, str]:
    """Three lines about a result: what and where, the setting, the verdict."""
    a = result.access
    span = a.span
    head = f"{span.file}:{span.line}:{span.column}: {a.kind} of '{_array_name(result)}'"
    if a.text:
        head += f": {a.text}"
    width = result.merged_width or a.width
    setting = f"{width}-byte {a.kind}"
    if result.merged_width:
        setting += f" (nvcc merges it with {', '.join(result.merged_with) or 'its neighbours'})"
    setting += f", {result.arch}"
    if result.bank_mode != 4:
        setting += f", {result.bank_mode}-byte bank mode"
    if a.instantiation:
        setting += f", {a.instantiation}"
    if result.block_dim is not None:
        setting += (f", block {shape_text(result.block_dim)} "
                    f"{_SOURCES.get(result.block_dim_source, result.block_dim_source)}")
    else:
        setting += ", block shape assumed (blockDim.x a multiple of 32)"
    if result.warp is not None:
        setting += f", worst warp {result.warp}"
    if result.wavefronts is None or result.ideal_wavefronts is None:
        verdict = f"unknown: {result.reason or 'no cost'}"
    else:
        verdict = (f"{_plural(result.wavefronts, 'wavefront')}, "
                   f"ideal {result.ideal_wavefronts}: ")
        ways = result.ways
        serial = serialization(result)
        if serial is not None and serial.words == 1:
            verdict += f"{serial.lanes} lanes serialize on one address"
        elif serial is not None and ways is not None:
            verdict += (f"{_number(ways)}-way serialized atomic ({serial.lanes} lanes on "
                        f"{serial.words} words of bank {serial.bank})")
        elif result.has_conflict and ways is not None:
            verdict += f"{_number(ways)}-way bank conflict"
        else:
            verdict += "no bank conflict"
        verdict += f" ({result.status}"
        if result.reason:
            verdict += f": {result.reason}"
        verdict += ")"
    return head, setting, verdict


def _short(values: Sequence[int], limit: int = 4) -> str:
    shown = ", ".join(map(str, values[:limit]))
    return shown + (", …" if len(values) > limit else "")


def busiest(m: BankMap) -> str | None:
    """``bank 0 serves 32 words (0, 32, 64, 96, …) for lanes 0-31 in wavefronts 1-32``:
    the busiest bank of the costliest phase (lowest bank on ties), when it collides."""
    best: tuple[int, int, PhaseMap] | None = None
    first = 1
    start: dict[int, int] = {}
    for p in m.phases:
        start[id(p)] = first
        first += p.cost
        for b in range(NUM_BANKS):
            n = sum(1 for row in p.wavefronts if row[b] is not None)
            if n > 1 and (best is None or n > best[0]):
                best = (n, b, p)
    if best is None:
        return None
    n, b, p = best
    cells = [row[b] for row in p.wavefronts if row[b] is not None]
    words = [c.unit for c in cells if c is not None]
    lanes = sorted({lane for c in cells if c is not None for lane in c.lanes})
    w0 = start[id(p)]
    distinct = list(dict.fromkeys(words))
    if len(distinct) < len(words):
        # an atomic that serves each lane on its own: one lane per wavefront
        plural = m.unit_name + ("s" if len(distinct) > 1 else "")
        return (f"bank {b} serves {len(distinct)} {plural} ({_short(distinct)}) to "
                f"{len(lanes)} lanes {lane_ranges(lanes)}, one lane per wavefront, in "
                f"wavefronts {w0}-{w0 + n - 1}")
    return (f"bank {b} serves {n} {m.unit_name}s ({_short(words)}) for lanes "
            f"{lane_ranges(lanes)} in wavefronts {w0}-{w0 + n - 1}")


def _flag(cell: Cell) -> str:
    if cell.colliding and cell.multicast:
        return "#"
    if cell.colliding:
        return "!"
    if cell.multicast:
        return "+"
    return " "


#: Characters per bank in the text picture: a two-digit lane, its flag and a space, so
#: that neighbouring cells never run together (``  8+ 12+``, not ``8+12+``).
_TEXT_CELL = 4


def _text_cell(cell: Cell | None, color: bool) -> str:
    if cell is None:
        return _paint("  . ", _DIM, color)
    text = f"{cell.lanes[0]:>{_TEXT_CELL - 1}}{_flag(cell)}"
    if cell.colliding:
        return _paint(text, _CONFLICT, color)
    if cell.multicast:
        return _paint(text, _MULTICAST, color)
    return text


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color else text


#: Multicast cells listed under the text picture before "... and N more".
_MAX_SHARED_LINES = 8


def render_text(m: BankMap, color: bool = False) -> str:
    """The picture as text: 137 columns wide (4 per bank), one line per wavefront."""
    head, setting, verdict = describe(m.result)
    out = [_paint(head, _BOLD, color), "  " + setting, "  " + verdict, ""]
    label = 9
    out.append(" " * label + "bank")
    out.append(" " * label + "".join(f"{b:>{_TEXT_CELL - 1}} "
                                     for b in range(NUM_BANKS)).rstrip())
    shared: list[str] = []
    wavefront = 0
    for p in m.phases:
        out.append(
            f"  phase: lanes {p.first_lane}-{p.end_lane - 1} ({p.kind}), "
            f"{_plural(p.cost, 'wavefront')}"
        )
        for row in p.wavefronts:
            wavefront += 1
            cells = "".join(_text_cell(c, color) for c in row)
            out.append(f"  wf {wavefront:>3} " + cells.rstrip())
            for c in row:
                if c is not None and c.multicast:
                    shared.append(
                        f"    wavefront {wavefront}, bank {c.bank}: {m.unit_name} {c.unit} "
                        f"for lanes {lane_ranges(c.lanes)}"
                    )
    out.append("")
    out.append(f"  cell: the lowest lane the bank serves in that wavefront; . idle; "
               f"+ several lanes share the {m.unit_name} (multicast);")
    out.append(f"  ! the bank serves several {m.unit_name}s in this phase (a conflict); "
               "# both")
    top = busiest(m)
    if top is not None:
        out.append(f"  busiest: {top}")
    if shared:
        out.append(f"  shared {m.unit_name}s:")
        out.extend(shared[:_MAX_SHARED_LINES])
        if len(shared) > _MAX_SHARED_LINES:
            out.append(f"    ... and {len(shared) - _MAX_SHARED_LINES} more")
    if m.note:
        out.append(f"  note: {m.note}")
    out.append("  byte address per lane (the array's base, shifted to its worst start):")
    for first in range(0, len(m.addresses), 8):
        chunk = m.addresses[first:first + 8]
        values = " ".join(f"{'-' if a is None else a:>6}" for a in chunk)
        out.append(f"    lanes {first:>2}-{first + 7:<2} {values}")
    return "\n".join(out) + "\n"


# --- SVG ---------------------------------------------------------------------------------

_CELL_W = 30
_CELL_H = 28
_LEFT = 56
_RIGHT = 16
_PHASE_H = 20
#: Between the two panels of a before/after pair.
_GAP = 24
_FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
_FILL = {"plain": "#cfe2f3", "multicast": "#b7e1b0", "conflict": "#f28b82",
         "both": "#f6b26b", "idle": "#fafafa"}
_STROKE = {"plain": "#6f8fb0", "multicast": "#5a9a50", "conflict": "#b3261e",
           "both": "#b45f06", "idle": "#eeeeee"}
_LEGEND = (
    ("plain", "one lane"),
    ("multicast", "lanes share the word (multicast)"),
    ("conflict", "the bank serves several words in this phase"),
    ("both", "both: shared words that collide"),
)
#: Characters of a panel's first line (13 px bold) before it wraps (a long fix title).
_HEAD_CHARS = 125
#: Lanes per column of the per-lane table (4 columns of 8 lanes).
_TABLE_ROWS = 8
_TABLE_ROW_H = 14


def _cell_class(cell: Cell) -> str:
    if cell.colliding and cell.multicast:
        return "both"
    if cell.colliding:
        return "conflict"
    if cell.multicast:
        return "multicast"
    return "plain"


def _cell_label(lanes: tuple[int, ...]) -> str:
    if len(lanes) == 1:
        return str(lanes[0])
    if lanes[-1] - lanes[0] == len(lanes) - 1:
        return f"{lanes[0]}-{lanes[-1]}"
    if len(lanes) == 2:
        return f"{lanes[0]},{lanes[1]}"
    return f"{lanes[0]}+{len(lanes) - 1}"


def _fit(label: str) -> int:
    """A font size that fits ``label`` in a cell."""
    return 9 if len(label) <= 3 else 8 if len(label) == 4 else 7 if len(label) <= 5 else 6


def _text(x: float, y: float, body: str, size: int = 11, anchor: str = "start",
          weight: str = "normal", fill: str = "#202124", cls: str | None = None) -> str:
    klass = f' class="{cls}"' if cls else ""
    return (f'<text{klass} x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(body)}</text>')


def _span_text(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def lane_table(m: BankMap) -> list[tuple[int, int, str, str]]:
    """Per active lane: (lane, byte address, words, banks). Words are 4-byte word
    indices (byte // 4); banks those the lane's bytes fall in (on Kepler's 8-byte mode,
    8-byte bank slots). ``words``/``banks`` are ``160`` or a range ``160-163``."""
    rows = []
    for lane, a in enumerate(m.addresses):
        if a is None:
            continue
        end = a + max(m.width, 1) - 1
        slots = range(a // m.bank_bytes, end // m.bank_bytes + 1)
        banks = sorted({u % NUM_BANKS for u in slots})
        contiguous = banks == list(range(banks[0], banks[-1] + 1))
        bank_text = (_span_text(banks[0], banks[-1]) if contiguous
                     else ",".join(map(str, banks)))
        rows.append((lane, a, _span_text(a // 4, end // 4), bank_text))
    return rows


def _panel(m: BankMap, title: tuple[str, str, str], tag: str) -> tuple[list[str], int]:
    """One bank map: its header, the grid, the busiest bank, the note and the per-lane
    table; elements drawn from (0, 0); returns them and the panel's height."""
    head, setting, verdict = title
    grid_w = NUM_BANKS * _CELL_W
    parts: list[str] = []
    y = 4
    for line in textwrap.wrap(head, _HEAD_CHARS, break_on_hyphens=False) or [""]:
        y += 18
        parts.append(_text(12, y, line, 13, weight="bold"))
    y += 18
    parts.append(_text(12, y, setting, 11, fill="#3c4043"))
    y += 16
    conflict = m.result.has_conflict
    parts.append(_text(12, y, verdict, 11, weight="bold",
                       fill="#b3261e" if conflict else "#188038"))
    y += 24
    parts.append(_text(_LEFT - 8, y, "bank", 10, anchor="end", fill="#5f6368"))
    for b in range(NUM_BANKS):
        parts.append(_text(_LEFT + b * _CELL_W + _CELL_W / 2, y, str(b), 10, anchor="middle",
                           fill="#5f6368"))
    y += 6
    grid_top = y
    dividers = len(parts)
    wavefront = 0
    unit = m.unit_name
    for p in m.phases:
        parts.append(f'<rect x="{_LEFT}" y="{y}" width="{grid_w}" height="{_PHASE_H}" '
                     f'fill="#f1f3f4"/>')
        parts.append(_text(_LEFT + 6, y + 14,
                           f"phase: lanes {p.first_lane}-{p.end_lane - 1} ({p.kind}), "
                           f"{_plural(p.cost, 'wavefront')}", 10, fill="#3c4043"))
        y += _PHASE_H
        for row in p.wavefronts:
            wavefront += 1
            parts.append(_text(_LEFT - 8, y + _CELL_H / 2 + 4, f"wf {wavefront}", 10,
                               anchor="end", fill="#5f6368"))
            for b, cell in enumerate(row):
                x = _LEFT + b * _CELL_W
                if cell is None:
                    parts.append(
                        f'<rect class="cell idle" x="{x + 1}" y="{y + 1}" '
                        f'width="{_CELL_W - 2}" height="{_CELL_H - 2}" rx="2" '
                        f'fill="{_FILL["idle"]}" stroke="{_STROKE["idle"]}" '
                        f'data-bank="{b}" data-wavefront="{wavefront}"/>'
                    )
                    continue
                cls = _cell_class(cell)
                label = _cell_label(cell.lanes)
                lanes = " ".join(map(str, cell.lanes))
                word = str(cell.unit)
                tip = (f"bank {b}, wavefront {wavefront}: {unit} {cell.unit}, "
                       f"lanes {lane_ranges(cell.lanes)}")
                parts.append(
                    f'<g><title>{escape(tip)}</title>'
                    f'<rect class="cell {cls}" x="{x + 1}" y="{y + 1}" '
                    f'width="{_CELL_W - 2}" height="{_CELL_H - 2}" rx="2" '
                    f'fill="{_FILL[cls]}" stroke="{_STROKE[cls]}" data-bank="{b}" '
                    f'data-wavefront="{wavefront}" data-word="{cell.unit}" '
                    f'data-lanes={quoteattr(lanes)}/>'
                    + _text(x + _CELL_W / 2, y + 12, label, _fit(label), anchor="middle",
                            cls="lane")
                    + _text(x + _CELL_W / 2, y + _CELL_H - 5, word, min(_fit(word), 7),
                            anchor="middle", fill="#5f6368", cls="word")
                    + "</g>"
                )
            y += _CELL_H
        y += 4
    # a rule every 8 banks helps to find a bank (under the cells and phase bands)
    parts[dividers:dividers] = [
        f'<line x1="{_LEFT + b * _CELL_W}" y1="{grid_top}" x2="{_LEFT + b * _CELL_W}" '
        f'y2="{y - 4}" stroke="#9aa0a6" stroke-dasharray="2,2"/>'
        for b in range(8, NUM_BANKS, 8)
    ]
    y += 14
    what = ("row (byte / 256)" if unit == "row" else "word index (byte / 4)")
    parts.append(_text(12, y, f"cell: the lanes the bank serves (top) and the {what} "
                              "it serves them (bottom)", 10, fill="#3c4043"))
    top = busiest(m)
    if top is not None:
        y += 16
        parts.append(_text(12, y, "busiest: " + top, 11, fill="#b3261e"))
    if m.note:
        y += 16
        parts.append(_text(12, y, "note: " + m.note, 10, fill="#3c4043"))
    y += 22
    banks = "8-byte bank slot" if m.bank_bytes == 8 else "bank"
    parts.append(_text(12, y, f"per lane: byte address (the array's base shifted to its "
                              f"worst start), 4-byte word, {banks}", 10, weight="bold",
                       fill="#3c4043"))
    y += 4
    col_w = grid_w // 4
    # columns of one table column: (right edge or left start, anchor) per field
    fields = ((22, "end"), (82, "end"), (160, "end"), (172, "start"))
    for c in range(NUM_BANKS // _TABLE_ROWS):
        cx = _LEFT + c * col_w
        for (dx, anchor), name in zip(fields, ("lane", "byte", "word", "bank"), strict=True):
            parts.append(_text(cx + dx, y + _TABLE_ROW_H - 2, name, 9, anchor=anchor,
                               fill="#5f6368"))
    table_top = y + _TABLE_ROW_H
    for lane, byte, words, banks_text in lane_table(m):
        cx = _LEFT + (lane // _TABLE_ROWS) * col_w
        cy = table_top + (lane % _TABLE_ROWS + 1) * _TABLE_ROW_H - 2
        cells = "".join(
            _text(cx + dx, cy, value, 9, anchor=anchor)
            for (dx, anchor), value in zip(fields, (str(lane), str(byte), words, banks_text),
                                           strict=True))
        parts.append(
            f'<g class="lane-row" data-lane="{lane}" data-byte="{byte}" '
            f'data-word={quoteattr(words)} data-bank={quoteattr(banks_text)}>{cells}</g>'
        )
    y = table_top + _TABLE_ROWS * _TABLE_ROW_H + 6
    body = "\n".join(parts)
    return [f'<g class="panel {tag}">\n{body}\n</g>'], y


def render_svg(m: BankMap, fix: str | None = None, after: BankMap | None = None) -> str:
    """A standalone SVG of the picture; every cell is a ``<rect class="cell ...">`` with
    ``data-bank``, ``data-wavefront``, ``data-word`` and ``data-lanes`` attributes, and
    shows its lanes and its word index; under the grid, a ``lane-row`` per active lane
    (``data-lane``, ``data-byte``, ``data-word``, ``data-bank``).

    ``after``: the same access with a suggested fix applied, as the fix planner
    re-checked it (``fix``: the fix's title), drawn beside the current map (panels
    ``before`` and ``after``)."""
    panel_w = _LEFT + NUM_BANKS * _CELL_W + _RIGHT
    parts, height = _panel(m, describe(m.result), "before" if after is not None else "now")
    width = panel_w
    if after is not None:
        _head, setting, verdict = describe(after.result)
        title = f"with the fix: {fix}" if fix else "with the fix"
        right, right_h = _panel(after, (title, setting, verdict), "after")
        parts.append(f'<g transform="translate({panel_w + _GAP},0)">')
        parts.extend(right)
        parts.append("</g>")
        parts.append(f'<line x1="{panel_w + _GAP / 2:g}" y1="8" x2="{panel_w + _GAP / 2:g}" '
                     f'y2="{max(height, right_h)}" stroke="#dadce0"/>')
        width = 2 * panel_w + _GAP
        height = max(height, right_h)
    y = height + 16
    lx = 12.0
    for cls, what in _LEGEND:
        parts.append(f'<rect x="{lx:g}" y="{y - 10}" width="14" height="12" rx="2" '
                     f'fill="{_FILL[cls]}" stroke="{_STROKE[cls]}"/>')
        parts.append(_text(lx + 20, y, what, 10, fill="#3c4043"))
        lx += 34 + 6.2 * len(what)
    height = y + 14
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{_FONT}">\n'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>\n'
        + "\n".join(parts)
        + "\n</svg>\n"
    )


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def svg_file_name(result: AccessResult) -> str:
    """A deterministic file name: the source path, line, column, and where needed the
    instantiation and bank mode: ``examples_transpose.cu-32-32.svg``."""
    span = result.access.span
    path = span.file
    if os.path.isabs(path):
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            path = rel
    name = _UNSAFE.sub("_", path.replace("\\", "/").lstrip("./")).strip("_") or "stdin"
    name += f"-{span.line}-{span.column}"
    if result.access.instantiation:
        name += "-" + _UNSAFE.sub("_", result.access.instantiation).strip("_")
    if result.bank_mode != 4:
        name += f"-bank{result.bank_mode}"
    return name + ".svg"
