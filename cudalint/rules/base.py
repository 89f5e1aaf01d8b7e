"""What every rule shares: the ``Rule`` record, the per-file context and message helpers."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cudalint.diagnostics import Diagnostic, Fix, Severity
from cudalint.ir import Access, Launch, Span, TranslationUnit
from cudalint.model.arch import ArchError, parse_arch
from cudalint.model.explain import serialization
from cudalint.model.results import AccessResult, BankConflict, shape_text
from cudalint.options import Options

if TYPE_CHECKING:
    from cudalint.model.caches import RunCaches

#: Sections every rule docstring has, in this order (``--explain`` prints them).
DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety")

#: Appended to conflict messages for Kepler's 8-byte bank mode.
BANK_MODE_8_SUFFIX = " in 8-byte bank mode"

#: Items shown before an ellipsis in lists of words and lanes.
_LIST_HEAD = 3


@dataclass(frozen=True)
class FileContext:
    """Everything a rule may look at for one file."""

    #: The path as the user gave it; diagnostics in the main file use this spelling.
    path: str
    unit: TranslationUnit
    results: Sequence[AccessResult]
    #: The analysis options (fixes re-run the model with them); None: read from results.
    options: Options | None = None
    #: The file's bytes (fixes edit them); None: no fix has edits.
    source: bytes | None = None
    #: The file's analysis run, whose cached proofs the fixes' re-checks reuse; None: the
    #: re-checks start their own.
    run: RunCaches | None = None
    #: What the rules compute once per file and share (the fix planner,
    #: :func:`cudalint.fixes.planner_for`): it lives and dies with this context.
    shared: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    def display_file(self, file: str) -> str:
        """``file`` as the user spelled the path when it names the analyzed file."""
        if file == self.path or not file:
            return self.path
        try:
            if os.path.abspath(file) == os.path.abspath(self.path):
                return self.path
        except ValueError:  # pragma: no cover - odd characters in a path
            pass
        return file

    def array_name(self, access: Access) -> str:
        """The name of the array ``access`` is on, as declared (``tile``)."""
        if access.array_name:
            return access.array_name
        try:  # a record built by hand: its unit's array
            return self.unit.array(access.array).name
        except KeyError:
            return access.array


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    #: Whether the rule runs without ``--select``/``--extend-select`` naming it.
    default_enabled: bool
    #: One line, for listings.
    summary: str
    #: The module docstring, in the sections of ``DOC_SECTIONS``.
    doc: str
    check: Callable[[FileContext], Iterator[Diagnostic]]


# --- message pieces ----------------------------------------------------------------------


def format_number(value: float) -> str:
    """``32`` for 32.0, ``1.5`` for 1.5, ``1.33`` for 4/3."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def kind_phrase(result: AccessResult) -> str:
    return {"load": "load", "store": "store", "atomic": "atomic"}[result.access.kind]


def format_list(items: Sequence[str]) -> str:
    """``0, 1, 2, …`` for long lists; every item when there are at most four."""
    if len(items) <= _LIST_HEAD + 1:
        return ", ".join(items)
    return ", ".join(items[:_LIST_HEAD]) + ", …"


def is_kepler(arch: str) -> bool:
    try:
        return parse_arch(arch).family == "kepler"
    except ArchError:
        return False


def conflict_note(result: AccessResult, conflict: BankConflict) -> str:
    unit = "rows" if is_kepler(result.arch) else "words"
    words = format_list([str(w) for w in conflict.words])
    if all(len(lanes) == 1 for lanes in conflict.lanes):
        lanes = format_list([str(lanes[0]) for lanes in conflict.lanes])
    else:
        lanes = format_list(
            ["(" + ", ".join(str(x) for x in lanes) + ")" for lanes in conflict.lanes]
        )
    n = len(conflict.words)
    unit_n = unit if n != 1 else unit[:-1]
    serial = serialization(result)
    if serial is not None:
        # an atomic that serves lanes one at a time: count lanes, not words
        if n == 1:
            one = format_list([str(x) for x in conflict.lanes[0]])
            return (f"{unit[:-1]} {conflict.words[0]} (bank {conflict.bank}) is updated by "
                    f"{serial.lanes} lanes ({one}), {SERIAL_NOTE}")
        groups = format_list(
            ["(" + format_list([str(x) for x in ls]) + ")" for ls in conflict.lanes])
        return (f"bank {conflict.bank} serves {n} distinct {unit_n} ({words}) to "
                f"{serial.lanes} lanes {groups}, {SERIAL_NOTE}")
    return f"bank {conflict.bank} serves {n} distinct {unit_n} ({words}) for lanes {lanes}"


#: Why a serialized atomic costs one pass per lane (docs/bank-model.md, 32-bit atomics).
SERIAL_NOTE = "one lane per pass: this atomic does not combine lanes on one word"


def _launch_for(ctx: FileContext, result: AccessResult) -> Launch | None:
    access = result.access
    candidates = [
        launch
        for launch in ctx.unit.launches
        if launch.kernel == access.kernel
        and (launch.block if launch.block is not None else launch.partial) == result.block_dim
    ]
    exact = [c for c in candidates if c.instantiation == access.instantiation]
    chosen = exact or candidates
    return chosen[0] if chosen else None


def _span_location(ctx: FileContext, span: Span) -> str:
    return f"{ctx.display_file(span.file)}:{span.line}"


def block_shape_note(ctx: FileContext, result: AccessResult) -> str:
    source = result.block_dim_source
    if result.block_dim is None or source == "assumed":
        return "block shape unknown; assumed: blockDim.x a multiple of 32"
    shape = shape_text(result.block_dim)
    if source == "launch":
        launch = _launch_for(ctx, result)
        where = f" at {_span_location(ctx, launch.span)}" if launch is not None else ""
        free = [f"blockDim.{c}" for c, d in zip("xyz", result.block_dim, strict=True)
                if d is None]
        every = f", every legal {' and '.join(free)}" if free else ""
        if launch is not None and launch.bound is not None:
            return f"block shape {shape}, one of {launch.bound}"
        return f"block shape {shape} from the launch{where}{every}"
    if source == "annotation":
        return f"block shape {shape} from the 'cudalint: block-dim' annotation"
    if source == "cli":
        return f"block shape {shape} from --block-dim"
    return f"block shape {shape} from the configuration"


def warp_note(result: AccessResult) -> str | None:
    # Warp 0 is where every search starts; naming it says nothing.
    if not result.warp or result.block_dim is None or None in result.block_dim:
        return None
    x, y, z = result.block_dim
    assert x is not None and y is not None and z is not None
    if x * y * z <= 32:
        return None
    first = 32 * result.warp
    last = min(first + 31, x * y * z - 1)
    return f"worst warp: warp {result.warp} of the block (threads {first}-{last})"


def call_note(ctx: FileContext, calls: Sequence[Span]) -> str | None:
    """``called at a.cu:12:9`` for an access in a ``__device__`` function, with the calls
    that led there (``(from a.cu:40:5)``): one helper line called twice in a kernel gives
    two diagnostics, told apart by this note."""
    if not calls:
        return None

    def at(span: Span) -> str:
        return f"{ctx.display_file(span.file)}:{span.line}:{span.column}"

    text = f"called at {at(calls[0])}"
    if len(calls) > 1:
        text += f" (from {', '.join(at(s) for s in calls[1:])})"
    return text


def instantiation_notes(ctx: FileContext, result: AccessResult) -> list[str]:
    """``in instantiation BM=64`` for template arguments; kernel parameters a launch passes
    as constants (``Access.launch_params``) read ``with Bc=32 passed by the launch``."""
    label = result.access.instantiation or ""
    bound = set(result.access.launch_params)
    parts = re.split(r",\s*(?=[A-Za-z_]\w*=)", label)
    args = [p for p in parts if p.split("=", 1)[0] not in bound]
    params = [p for p in parts if p.split("=", 1)[0] in bound]
    notes = []
    if args:
        notes.append(f"in instantiation {', '.join(args)}")
    if params:
        notes.append(f"with {', '.join(params)} passed by the launch")
    return notes


def access_notes(ctx: FileContext, result: AccessResult) -> tuple[str, ...]:
    """The notes every access diagnostic carries: conflict, block shape, warp, arch."""
    notes: list[str] = []
    if result.conflict is not None:
        notes.append(conflict_note(result, result.conflict))
    notes.append(block_shape_note(ctx, result))
    warp = warp_note(result)
    if warp is not None:
        notes.append(warp)
    called = call_note(ctx, result.access.call_sites)
    if called is not None:
        notes.append(called)
    if result.access.instantiation:
        notes.extend(instantiation_notes(ctx, result))
    if result.ways_formula:
        notes.append(f"ways = {result.ways_formula}")
    if result.merged_width:
        # ``iteration i+1``: the access's own copy in an unrolled loop (cudalint.model.merge)
        copies = [t.split(" ", 1)[1] for t in result.merged_with if t.startswith("iteration ")]
        parts = [f"'{t}'" for t in result.merged_with if not t.startswith("iteration ")]
        if copies:
            parts.append(f"its copies in iterations {', '.join(copies)} of the unrolled "
                         f"'{result.access.unrolled_by}' loop")
        others = ", ".join(parts)
        notes.append(
            f"nvcc merges this access with {others} into one {result.merged_width}-byte access"
        )
    notes.append(f"arch {result.arch}")
    return tuple(notes)


def access_diagnostic(
    rule: Rule, ctx: FileContext, result: AccessResult, message: str,
    modes: Sequence[AccessResult] = (),
) -> Diagnostic:
    """The diagnostic of one access; ``modes``: its results in every bank mode analysed
    (Kepler), when the diagnostic reports them all."""
    span = result.access.span
    notes = access_notes(ctx, result)
    if len(modes) > 1:
        extra = other_modes_notes(result, modes)
        notes = (*notes[:1], *extra, *notes[1:]) if result.conflict else (*extra, *notes)
    return Diagnostic(
        code=rule.code,
        name=rule.name,
        severity=rule.severity,
        message=message,
        file=ctx.display_file(span.file),
        line=span.line,
        column=span.column,
        end_line=span.end_line,
        end_column=span.end_column,
        result=result,
        fix=None,
        notes=notes,
        bank_modes=tuple(modes) if len(modes) > 1 else (),
    )


def proved_fix(ctx: FileContext, result: AccessResult) -> Fix | None:
    """The fix for a conflict, derived and re-checked by :mod:`cudalint.fixes`."""
    from cudalint.fixes import planner_for

    planner = planner_for(ctx.shared, ctx.path, ctx.unit, ctx.results, ctx.options, ctx.source,
                          ctx.run)
    return planner.fix_for(result)


def conflict_message(
    template: str, ctx: FileContext, result: AccessResult,
    serialized: tuple[str, str] | None = None,
    modes: Sequence[AccessResult] | None = None,
) -> str:
    """Fill a conflict message template; add the bank mode where it is not the usual 4.

    ``serialized``: the templates for an atomic whose lanes share a word (one address;
    several words of one bank), used instead of ``template`` where that is the cost.
    ``modes``: the access's results in every bank mode analysed (Kepler): with more than
    one, the message names the mode of ``result`` (:func:`other_modes_clause` gives the
    others).
    """
    assert result.wavefronts is not None and result.ideal_wavefronts is not None
    ways = result.ways if result.ways is not None else float(result.wavefronts)
    serial = serialization(result) if serialized is not None else None
    if serial is not None:
        assert serialized is not None
        template = serialized[0] if serial.words == 1 else serialized[1]
    message = template.format(
        ways=format_number(ways),
        kind=kind_phrase(result),
        op=result.access.atomic_op or "atomic",
        array=ctx.array_name(result.access),
        wavefronts=result.wavefronts,
        ideal=result.ideal_wavefronts,
        lanes=serial.lanes if serial is not None else 0,
        words=serial.words if serial is not None else 0,
        bank=serial.bank if serial is not None else 0,
    )
    if modes is not None and len(modes) > 1:
        message += (BOTH_MODES_SUFFIX if same_in_every_mode(result, modes)
                    else BANK_MODE_SUFFIX.format(mode=result.bank_mode))
    elif result.bank_mode == 8:
        message += BANK_MODE_8_SUFFIX
    return message


# --- Kepler: one finding, every bank mode ------------------------------------------------

#: After a message whose access was analysed in several bank modes: the mode it is about.
BANK_MODE_SUFFIX = " in {mode}-byte bank mode"
#: ... when every mode costs the same (wavefronts, ideal and status).
BOTH_MODES_SUFFIX = " in both bank modes"
#: Then, per other mode: its cost (``conflict``: ``16-way``, ``possible 2-way``, ``no
#: conflict``, ``unknown``).
OTHER_MODE = "; {mode}-byte bank mode: {verdict}"


def bank_mode_groups(results: Sequence[AccessResult]) -> list[tuple[AccessResult, ...]]:
    """The results of each access (source access and instantiation), one per bank mode
    analysed, 4-byte mode first; groups in the order of their first result.

    On Kepler the model analyses both bank modes (``--bank-mode both``, the default
    there) and returns a result per mode; a rule reports the access once, with every
    mode's cost. Elsewhere each group holds one result."""
    groups: dict[tuple[object, ...], list[AccessResult]] = {}
    for r in results:
        a = r.access
        key: tuple[object, ...] = (a.span, a.kind, a.text, a.kernel, a.array,
                                   a.instantiation, r.arch)
        group = groups.setdefault(key, [])
        if any(o.bank_mode == r.bank_mode for o in group):
            # not one result per mode (not from the model): keep it on its own
            groups[(id(r),)] = [r]
            continue
        group.append(r)
    return [tuple(sorted(g, key=lambda r: r.bank_mode)) for g in groups.values()]


def conflict_code(result: AccessResult) -> str | None:
    """The rule that reports ``result`` on its own: CL001 (a proved conflict), CL002 (a
    worst-case one), or None."""
    if not result.has_conflict:
        return None
    return {"proved": "CL001", "worst-case": "CL002"}.get(result.status)


def group_owner(group: Sequence[AccessResult]) -> str | None:
    """The one rule that reports an access analysed in several bank modes: CL001 when it
    is proved to conflict in some mode, else CL002 when it may conflict in some mode."""
    codes = {conflict_code(r) for r in group}
    return "CL001" if "CL001" in codes else "CL002" if "CL002" in codes else None


def group_primary(group: Sequence[AccessResult], code: str) -> AccessResult | None:
    """The result a group's diagnostic is about: the first mode (4-byte before 8-byte)
    in which ``code`` reports it; None when ``code`` does not own the group."""
    if group_owner(group) != code:
        return None
    return next(r for r in group if conflict_code(r) == code)


def same_in_every_mode(result: AccessResult, group: Sequence[AccessResult]) -> bool:
    """Every mode of ``group`` costs what ``result`` costs (the message says "in both
    bank modes" and gives no other mode)."""
    def cost(r: AccessResult) -> tuple[object, ...]:
        return (r.wavefronts, r.ideal_wavefronts, r.status)

    return all(cost(r) == cost(result) for r in group)


def other_modes_clause(result: AccessResult, group: Sequence[AccessResult]) -> str:
    """``; 8-byte bank mode: 16-way (16 wavefronts, ideal 1)`` for each mode of the
    group other than ``result``'s (nothing when they cost the same)."""
    if same_in_every_mode(result, group):
        return ""
    parts = []
    for r in group:
        if r is result:
            continue
        if r.wavefronts is None or r.ideal_wavefronts is None:
            verdict = "unknown"
        else:
            wavefronts = "wavefront" if r.wavefronts == 1 else "wavefronts"
            cost = f"({r.wavefronts} {wavefronts}, ideal {r.ideal_wavefronts})"
            if not r.has_conflict:
                verdict = f"no conflict {cost}"
            else:
                ways = format_number(r.ways if r.ways is not None else float(r.wavefronts))
                possible = "possible " if r.status != "proved" else ""
                verdict = f"{possible}{ways}-way {cost}"
                if r.status != "proved" and r.reason:
                    # a condition reads on after the numbers, a cause after a colon
                    verdict += (" " if r.reason_kind == "condition" else ": ") + r.reason
        parts.append(OTHER_MODE.format(mode=r.bank_mode, verdict=verdict))
    return "".join(parts)


def other_modes_notes(result: AccessResult, group: Sequence[AccessResult]) -> list[str]:
    """The busiest bank of each other mode that conflicts (``in 8-byte bank mode: bank
    0 serves ...``)."""
    return [f"in {r.bank_mode}-byte bank mode: {conflict_note(r, r.conflict)}"
            for r in group if r is not result and r.has_conflict and r.conflict is not None]


def group_fix(ctx: FileContext, result: AccessResult,
              group: Sequence[AccessResult]) -> Fix | None:
    """The proved fix for the diagnostic of ``group``: the one for ``result``, else one
    that improves another mode (the planner re-checks every mode: it makes none worse)."""
    for r in (result, *(o for o in group if o is not result)):
        fix = proved_fix(ctx, r)
        if fix is not None:
            return fix
    return None
