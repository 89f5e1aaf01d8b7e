"""Layout fixes for one array: padding, a new row stride for a 1-D array, XOR swizzle.

Each candidate is proved on every access to the array (and on the other arrays of the
kernels that use it, whose static bases move) by :class:`~cudalint.fixes.recheck.Rechecker`.
A candidate is kept only when no access gets worse; among those, padding takes the
smallest pad that makes every access to the array conflict-free, else the one with the
fewest total wavefronts; a swizzle is derived when no pad is clean (vector alignment,
the 48 KiB static limit) and is preferred only when it is clean and no pad is.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from cudalint import budget
from cudalint.diagnostics import Applicability, Edit, Fix
from cudalint.fixes import source as src
from cudalint.fixes.bounds import RangeMemo, within
from cudalint.fixes.recheck import Rechecker, Verdict, kernels_using, rebuildable, static_bytes
from cudalint.ir import Access, Binary, Cast, Const, Expr, SharedArray, TranslationUnit
from cudalint.model import analyze as model_analyze
from cudalint.model.arch import STATIC_SHARED_LIMIT, parse_arch, shared_memory
from cudalint.model.banks import period
from cudalint.model.results import AccessResult
from cudalint.options import Options

Kind = Literal["pad", "stride", "swizzle"]


@dataclass
class Candidate:
    kind: Kind
    #: Pad in elements (pad, stride); for a swizzle the XOR mask's row modulus.
    amount: int
    shift: int = 0
    verdicts: list[Verdict] = field(default_factory=list)
    new_arrays: dict[str, SharedArray] = field(default_factory=dict)

    @property
    def no_worse(self) -> bool:
        return all(v.no_worse for v in self.verdicts)

    @property
    def clean(self) -> bool:
        return all(v.array_clean for v in self.verdicts)

    @property
    def total(self) -> int:
        return sum(v.total(after=True) for v in self.verdicts)

    def improves(self, result: AccessResult) -> bool:
        return any(v.improves(result.access, result.bank_mode) for v in self.verdicts)

    def after(self, result: AccessResult) -> AccessResult | None:
        for v in self.verdicts:
            r = v.after(result.access, result.bank_mode)
            if r is not None:
                return r
        return None


@dataclass
class ArrayPlan:
    """What was derived for one declaration (all instantiations of it)."""

    arrays: list[SharedArray]
    fix: Fix | None = None
    candidate: Candidate | None = None
    #: Why no fix could be proven, when none was.
    failure: str | None = None


# --- index algebra ---------------------------------------------------------------------------


def _stride_terms(expr: Expr) -> list[int]:
    """Constant multipliers of the top-level additive terms (``r * 32 + c`` → [32])."""
    if isinstance(expr, Cast):
        return _stride_terms(expr.operand)
    if isinstance(expr, Binary):
        if expr.op == "+":
            return _stride_terms(expr.lhs) + _stride_terms(expr.rhs)
        if expr.op == "-":
            return _stride_terms(expr.lhs)
        if expr.op == "*":
            for c, other in ((expr.rhs, expr.lhs), (expr.lhs, expr.rhs)):
                inner = c.operand if isinstance(c, Cast) else c
                if isinstance(inner, Const) and inner.value >= 2 and not _is_const(other):
                    return [inner.value]
    return []


def _is_const(e: Expr) -> bool:
    return isinstance(e, Const) or (isinstance(e, Cast) and _is_const(e.operand))


def _replace_stride(expr: Expr, stride: int, new: int) -> Expr:
    """``expr`` with its top-level ``x * stride`` term's constant replaced by ``new``."""
    if isinstance(expr, Cast):
        return replace(expr, operand=_replace_stride(expr.operand, stride, new))
    if isinstance(expr, Binary):
        if expr.op == "+":
            return replace(expr, lhs=_replace_stride(expr.lhs, stride, new),
                           rhs=_replace_stride(expr.rhs, stride, new))
        if expr.op == "-":
            return replace(expr, lhs=_replace_stride(expr.lhs, stride, new))
        if expr.op == "*":
            for side in ("rhs", "lhs"):
                c = getattr(expr, side)
                other = expr.lhs if side == "rhs" else expr.rhs
                inner = c.operand if isinstance(c, Cast) else c
                if isinstance(inner, Const) and inner.value == stride and not _is_const(other):
                    new_c: Expr = Const(new, inner.type)
                    if isinstance(c, Cast):
                        new_c = replace(c, operand=new_c)
                    if side == "rhs":
                        return replace(expr, rhs=new_c)
                    return replace(expr, lhs=new_c)
    return expr


def swizzled(row: Expr, col: Expr, modulus: int | None, shift: int) -> Expr:
    """``col ^ ((row % modulus) << shift)`` (``% modulus`` left out when None)."""
    t = col.type
    mask: Expr = row if modulus is None else Binary("%", row, Const(modulus, row.type), row.type)
    if shift:
        mask = Binary("<<", mask, Const(shift, mask.type), mask.type)
    return Binary("^", col, mask, t)


# --- source helpers ----------------------------------------------------------------------------


def _int_value(text: str) -> int | None:
    m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*", text)
    if not m:
        return None
    return int(m.group(1), 0)


def constants(tokens: Sequence[src.Token]) -> dict[str, int]:
    """``#define N 32``, ``#define N (32)``, ``const(expr) int N = 32;`` in the file."""
    out: dict[str, int] = {}
    for i, t in enumerate(tokens):
        if t.directive and t.text == "define" and i + 2 < len(tokens):
            name = tokens[i + 1]
            rest = [x for x in tokens[i + 2:i + 5] if x.directive and x.line == name.line]
            texts = [x.text for x in rest]
            if texts[:1] and _int_value(texts[0]) is not None and (
                len(texts) == 1 or not tokens[i + 3].directive or tokens[i + 3].line != name.line
            ):
                out[name.text] = _int_value(texts[0])  # type: ignore[assignment]
            elif texts[:3] and texts[0] == "(" and texts[2:3] == [")"]:
                v = _int_value(texts[1])
                if v is not None:
                    out[name.text] = v
        elif t.text == "=" and i > 0 and i + 2 < len(tokens) and tokens[i + 2].text == ";":
            v = _int_value(tokens[i + 1].text)
            back = [x.text for x in tokens[max(0, i - 5):i - 1]]
            if v is not None and ("const" in back or "constexpr" in back):
                out[tokens[i - 1].text] = v
    return out


def _value(tok: src.Token, consts: dict[str, int]) -> int | None:
    if tok.kind == "number":
        return _int_value(tok.text)
    if tok.kind == "ident":
        return consts.get(tok.text)
    return None


def extent_text(text: str, pad: int) -> str:
    """The extent ``text`` grown by ``pad``, in the user's spelling."""
    t = text.strip()
    v = _int_value(t)
    if v is not None:
        return str(v + pad)
    m = re.fullmatch(r"(.*\S)\s*\+\s*([0-9]+)", t)
    if m and _int_value(m.group(2)) is not None and not re.search(r"[<>?&|^,]", m.group(1)):
        return f"{m.group(1)} + {int(m.group(2)) + pad}"
    if re.search(r"[<>?&|^,=]", t):
        t = f"({t})"
    return f"{t} + {pad}"


# --- the planner --------------------------------------------------------------------------------

class _Hashed:
    """A search key with its hash computed once: the key holds the unit's kernels,
    arrays, launches and accesses, whose hash a tuple would compute again on every
    lookup and store."""

    __slots__ = ("hash", "key")

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        self.hash = hash(key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Hashed) and other.hash == self.hash and other.key == self.key


@dataclass(eq=False)
class KeptPlans:
    """What fix planning keeps between the analyses of a process that keeps analyses (the
    language server's worker, :func:`cudalint.model.analyze.use_analysis_cache`): candidate
    searches by what they read (``LayoutPlanner._search_key``) and subscript ranges
    (:func:`cudalint.fixes.bounds.index_range`). It lives on the installed analysis cache
    and goes with it; each dict is emptied when it outgrows its limit. Both hold answers
    of pure functions of immutable values, never changed once stored, so the worker's
    threads share them (single dict operations).
    """

    searches: dict[_Hashed, tuple[Candidate, ...]] = field(default_factory=dict)
    ranges: RangeMemo = field(default_factory=dict)

    SEARCHES_KEPT = 256


_KEPT_ATTRIBUTE = "fix_plans"
_KEPT_LOCK = threading.Lock()


def kept_plans() -> KeptPlans | None:
    """The plans kept alongside the installed analysis cache; None when none is installed
    (a one-shot run: nothing is kept past its file)."""
    store = model_analyze.kept_alongside()
    if store is None:
        return None
    kept = store.get(_KEPT_ATTRIBUTE)
    if not isinstance(kept, KeptPlans):
        with _KEPT_LOCK:
            kept = store.get(_KEPT_ATTRIBUTE)
            if not isinstance(kept, KeptPlans):
                kept = store[_KEPT_ATTRIBUTE] = KeptPlans()
    return kept


class LayoutPlanner:
    """Derives and proves layout fixes for the arrays of one file."""

    def __init__(self, path: str, unit: TranslationUnit, options: Options,
                 source: bytes, rechecker: Rechecker) -> None:
        self.path = path
        self.unit = unit
        self.options = options
        self.source = source
        self.tokens = src.tokenize(source)
        self.consts = constants(self.tokens)
        self.rechecker = rechecker
        self.arch = parse_arch(options.arch)
        self._plans: dict[tuple[int, int, str], ArrayPlan] = {}
        #: Kept between analyses where the process keeps them, else this planner's own.
        self._kept = kept_plans()
        self._ranges: RangeMemo = self._kept.ranges if self._kept is not None else {}
        #: Accesses of the array being planned that go through a derived pointer.
        self._opaque: list[Access] = []

    # grouping: one declaration, possibly several instantiations
    def group(self, key: str) -> list[SharedArray]:
        arr = self.unit.array(key)
        return [a for a in self.unit.arrays
                if a.span == arr.span and a.name == arr.name and a.dims]

    def plan(self, key: str) -> ArrayPlan:
        arr = self.unit.array(key)
        gk = (arr.span.line, arr.span.column, arr.span.file)
        if gk not in self._plans:
            # A scalar or a dimensionless (extern) array has no group: its plan fails
            # in _derive with the reason, instead of indexing an empty group.
            self._plans[gk] = self._derive(self.group(key) or [arr])
        return self._plans[gk]

    def accesses(self, array: SharedArray) -> list[Access]:
        return [a for a in self.unit.accesses if a.array == array.key]

    def checked(self, array: SharedArray) -> list[Access]:
        """The accesses the fix re-checks and rewrites (plain subscript chains)."""
        return [a for a in self.accesses(array) if rebuildable(a, array)]

    # --- derivation ---
    def _derive(self, arrays: list[SharedArray]) -> ArrayPlan:
        plan = ArrayPlan(arrays)
        first = arrays[0]
        if first.element_bytes <= 0 or not first.dims or 0 in first.dims:
            plan.failure = f"the layout of '{first.name}' is not known"
            return plan
        if getattr(first, "base_offset", None) is not None:
            plan.failure = (f"'{first.name}' is in dynamic shared memory, whose size the "
                            "launch gives: no declaration to pad")
            return plan
        self._opaque = [acc for a in arrays for acc in self.accesses(a)
                        if not rebuildable(acc, a)]
        if all(not rebuildable(acc, a) for a in arrays for acc in self.accesses(a)):
            plan.failure = (f"no access to '{first.name}' has subscripts the model can "
                            "rebuild, so no layout change can be re-checked")
            return plan
        for a in arrays:
            if not self.rechecker.faithful(a):
                plan.failure = (f"the subscripts of '{a.name}' do not reproduce the analyzed "
                                "offsets")
                return plan
        all_uses = [u for a in arrays for u in src.array_uses(
            self.source, a, self.accesses(a), self.tokens)]
        uses = list({(u.line, u.column): u for u in all_uses}.values())
        vector = max((u.vector_bytes for u in uses if u.kind == "pointer"), default=0)
        vector = max([vector, *(acc.width for acc in self._opaque
                                if acc.width > first.element_bytes)])
        step = max(1, vector // first.element_bytes) if vector > first.element_bytes else 1
        candidates = self._candidates(arrays, step)
        if not candidates:
            plan.failure = self._why_none(arrays)
            return plan
        clean = [c for c in candidates if c.clean]
        best = clean[0] if clean else min(candidates, key=lambda c: c.total)
        plan.candidate = best
        plan.fix = self._fix(arrays, best, uses, vector)
        return plan

    def _search(self, arrays: list[SharedArray], step: int) -> list[Candidate]:
        """The proved candidates worth offering (best pad, then a swizzle when no pad is
        clean): what the planner reads of the model, none of it of the source."""
        first = arrays[0]
        candidates: list[Candidate] = []
        if len(first.dims) >= 2:
            pad = self._best_pad(arrays, step)
            if pad is not None:
                candidates.append(pad)
            if pad is None or not pad.clean:
                swz = self._best_swizzle(arrays, max(1, step))
                if swz is not None:
                    candidates.append(swz)
        else:
            stride = self._common_stride(arrays)
            if stride is not None:
                pad = self._best_pad(arrays, step, stride=stride)
                if pad is not None:
                    candidates.append(pad)
        return candidates

    def _search_key(self, arrays: list[SharedArray], step: int) -> _Hashed | None:
        """What :meth:`_search` reads, as a key; None when searches are not remembered.

        The re-checks analyse the kernels that use the arrays (their accesses only: the
        other kernels' accesses are neither proved nor placed with them); the static
        layout, the block shapes and the occupancy read the unit's kernels, arrays and
        launches; the rest is the options and ``step``.
        """
        if self._kept is None:  # a one-shot run: nothing to reuse
            return None
        kernels = {k for a in arrays for k in kernels_using(self.unit, a.key)}
        key = (self.options, tuple(arrays), step, self.unit.file, self.unit.kernels,
               self.unit.arrays, self.unit.launches,
               tuple(acc for acc in self.unit.accesses if acc.kernel in kernels))
        try:
            return _Hashed(key)
        except RecursionError:  # an offset too deep to hash
            return None

    def _candidates(self, arrays: list[SharedArray], step: int) -> list[Candidate]:
        """:meth:`_search`, remembered between analyses in a process that keeps them
        (the language server's worker: an edit elsewhere in the file leaves the arrays
        of the other kernels with the same search, which is then not proved again).
        Nothing is kept from a search the time budget cut short."""
        key = self._search_key(arrays, step)
        if key is None or self._kept is None:
            return self._search(arrays, step)
        searches = self._kept.searches
        hit = searches.get(key)
        if hit is not None:
            return list(hit)
        found = self._search(arrays, step)
        if not budget.current().expired:
            if len(searches) >= KeptPlans.SEARCHES_KEPT:
                searches.clear()
            searches[key] = tuple(found)
        return found

    def _why_none(self, arrays: list[SharedArray]) -> str:
        a = arrays[0]
        if len(a.dims) == 1 and self._common_stride(arrays) is None:
            return (f"'{a.name}' is one-dimensional and its accesses do not share one row "
                    "stride that a pad could change")
        return (f"no pad (or swizzle) of '{a.name}' lowers the reported conflict without "
                "making another access worse, within the 48 KiB static limit")

    def _common_stride(self, arrays: list[SharedArray]) -> int | None:
        common: set[int] | None = None
        for a in arrays:
            n = a.dims[0]
            for acc in self.checked(a):
                terms = _stride_terms(acc.indices[0]) if acc.indices else []
                ok = {c for c in terms if terms.count(c) == 1 and n % c == 0 and c < n}
                common = ok if common is None else common & ok
        if not common:
            return None
        if len(arrays) > 1 and len({a.dims for a in arrays}) > 1:
            return None
        return max(common)

    def _max_pad(self) -> int:
        p = period(self.arch, 4, 4)
        return max(p, 128)

    def _padded(self, a: SharedArray, pad: int, stride: int | None) -> SharedArray:
        if stride is None:
            return replace(a, dims=(*a.dims[:-1], a.dims[-1] + pad))
        return replace(a, dims=(a.dims[0] // stride * (stride + pad),))

    def _fits(self, arrays: list[SharedArray], new: dict[str, SharedArray]) -> bool:
        for a in arrays:
            for kernel in kernels_using(self.unit, a.key):
                if static_bytes(self.unit, kernel, new[a.key]) > STATIC_SHARED_LIMIT:
                    return False
        return True

    def _try(self, arrays: list[SharedArray], cand: Candidate, stride: int | None = None
             ) -> Candidate | None:
        for a in arrays:
            if cand.kind == "swizzle":
                new = a
                modulus, shift = cand.amount, cand.shift

                def imap(acc: Access, idx: tuple[Expr, ...], m: int = modulus,
                         s: int = shift) -> tuple[Expr, ...]:
                    return (*idx[:-1],
                            swizzled(idx[-2], idx[-1], self._row_modulus(acc, m), s))

                verdict = self.rechecker.check(a, new, imap, skip_opaque=True)
            else:
                new = self._padded(a, cand.amount, stride)
                if stride is None:
                    verdict = self.rechecker.check(a, new, skip_opaque=True)
                else:
                    def smap(acc: Access, idx: tuple[Expr, ...], c: int = stride,
                             p: int = cand.amount) -> tuple[Expr, ...]:
                        return (_replace_stride(idx[0], c, c + p),)

                    verdict = self.rechecker.check(a, new, smap, skip_opaque=True)
            if verdict is None:
                return None
            cand.verdicts.append(verdict)
            cand.new_arrays[a.key] = new
        return cand

    def pad_candidates(self, arrays: list[SharedArray], step: int,
                       stride: int | None = None) -> list[Candidate]:
        """Every pad from ``step`` up to one bank period, proved (those that fit)."""
        out: list[Candidate] = []
        e = arrays[0].element_bytes
        # One bank period of padding at most, and no more than 32 candidates.
        limit = min(max(step, self._max_pad() // e), 32 * step)
        for pad in range(step, limit + 1, step):
            new = {a.key: self._padded(a, pad, stride) for a in arrays}
            if not self._fits(arrays, new):
                break
            cand = self._try(arrays, Candidate("stride" if stride else "pad", pad), stride)
            if cand is None:
                break
            out.append(cand)
            if cand.clean and cand.no_worse:
                break
        return out

    def _best_pad(self, arrays: list[SharedArray], step: int, stride: int | None = None
                  ) -> Candidate | None:
        ok = [c for c in self.pad_candidates(arrays, step, stride)
              if c.no_worse and any(v.total(True) < v.total(False) for v in c.verdicts)]
        if not ok:
            return None
        clean = [c for c in ok if c.clean]
        if clean:
            return clean[0]
        return min(ok, key=lambda c: (c.total, c.amount))

    def swizzle_candidates(self, arrays: list[SharedArray], step: int) -> list[Candidate]:
        out: list[Candidate] = []
        cols = arrays[0].dims[-1]
        e = arrays[0].element_bytes
        min_shift = (step - 1).bit_length()
        for a in arrays:
            if a.dims[-1] != cols:
                return []
        for bits in range(1, 6):
            for shift in range(min_shift, 5):
                span = (1 << bits) << shift
                if span > cols or cols % span or span * e > 4 * 32 * 8:
                    continue
                cand = self._try(arrays, Candidate("swizzle", 1 << bits, shift))
                if cand is None:
                    return out
                out.append(cand)
        return out

    def _best_swizzle(self, arrays: list[SharedArray], step: int) -> Candidate | None:
        ok = [c for c in self.swizzle_candidates(arrays, step)
              if c.no_worse and any(v.total(True) < v.total(False) for v in c.verdicts)]
        if not ok:
            return None
        clean = [c for c in ok if c.clean]
        if clean:
            return min(clean, key=lambda c: (c.amount << c.shift, c.amount))
        return min(ok, key=lambda c: (c.total, c.amount << c.shift))

    # --- the fix as data ---
    def _fix(self, arrays: list[SharedArray], cand: Candidate, uses: list[src.Use],
             vector: int) -> Fix | None:
        first = arrays[0]
        reasons_display: list[str] = []
        reasons_unsafe: list[str] = []
        # The planner edits one file (the main file or a header, see FixPlanner): the
        # declaration and every access must be in it.
        if first.span.file and first.span.file != self.path:
            reasons_display.append(f"'{first.name}' is declared in {first.span.file}")
        elsewhere = sorted({acc.span.file for a in arrays for acc in self.accesses(a)
                            if acc.span.file and acc.span.file != first.span.file})
        if elsewhere:
            reasons_display.append(f"'{first.name}' is also accessed in {elsewhere[0]}")
        bound = self._launch_bound(arrays)
        if bound:
            reasons_display.append(bound)
        for acc in self._opaque:
            what = f" ({acc.text})" if acc.text else ""
            reasons_display.append(
                f"'{first.name}' is also accessed through a pointer at line "
                f"{acc.span.line}{what}, which cudalint can neither re-check nor rewrite"
            )
        for u in uses:
            if u.kind == "pointer":
                what = f" as {u.vector_type}" if u.vector_type else ""
                reasons_display.append(
                    f"'{first.name}' is also used through a pointer{what} at line {u.line}, "
                    "which cudalint can neither re-check nor rewrite"
                )
            elif u.kind == "macro":
                reasons_display.append(f"'{first.name}' appears in a macro at line {u.line}")
            elif u.kind == "sizeof":
                reasons_unsafe.append(f"sizeof '{first.name}' at line {u.line} changes")
        edits: list[Edit] = []
        shown = ""
        if cand.kind != "swizzle":
            decl = self._declaration_edit(first, cand)
            if decl is None:
                reasons_display.append(
                    "the declaration's extents could not be found in the source")
            else:
                edits.append(decl[0])
                shown = decl[1]
        if cand.kind == "pad":
            pad_check = self._bounds(arrays, last=True)
            if pad_check:
                reasons_unsafe.append(pad_check)
        elif cand.kind == "stride":
            more, why_d, why_u = self._stride_edits(arrays, cand)
            edits.extend(more)
            reasons_display.extend(why_d)
            reasons_unsafe.extend(why_u)
        else:
            more, why_d, why_u = self._swizzle_edits(arrays, cand)
            edits = more
            shown = self._swizzle_example(more)
            reasons_display.extend(why_d)
            reasons_unsafe.extend(why_u)
            reasons_unsafe.append("the swizzle changes the layout other code may assume")
        title = self._title(first, cand, shown)
        applicability: Applicability
        if reasons_display or not edits:
            applicability = "display-only"
            reason = reasons_display[0] if reasons_display else "no edit could be made"
            title += f"; not applied: {reason}"
        elif reasons_unsafe:
            applicability = "unsafe"
            title += f" (unsafe: {reasons_unsafe[0]})"
        else:
            applicability = "safe"
        if vector and cand.kind in ("pad", "stride") and cand.amount > 1:
            title += f"; a pad of {cand.amount} keeps the {vector}-byte vector reads aligned"
        return Fix(title, applicability, tuple(sorted(set(edits), key=_edit_key)))

    def _title(self, array: SharedArray, cand: Candidate, shown: str) -> str:
        if cand.kind == "swizzle":
            mask = self._mask_text("row", cand.amount, cand.shift)
            example = f", e.g. {shown}" if shown else ""
            return (f"swizzle the column index of '{array.name}': col ^ {mask}{example} "
                    f"({'conflict-free' if cand.clean else 'fewer wavefronts'}, no extra memory)")
        extra, occupancy = self._cost(array, cand)
        decl = shown or array.name
        what = "pad the last dimension" if cand.kind == "pad" else "pad each row"
        cost = f"+{extra} bytes per block"
        if occupancy:
            cost += f"; {occupancy}"
        if not cand.clean:
            cost += "; fewer wavefronts, not conflict-free"
        return f"{what}: {decl} ({cost})"

    def _cost(self, array: SharedArray, cand: Candidate) -> tuple[int, str | None]:
        new = cand.new_arrays[array.key]
        kernels = sorted(kernels_using(self.unit, array.key))
        if not kernels:
            return new.size_bytes - array.size_bytes, None
        kernel = kernels[0]
        before = static_bytes(self.unit, kernel)
        after = static_bytes(self.unit, kernel, new)
        limits = shared_memory(self.arch)
        dims = self._block_dims(kernel)
        threads = dims[0] * dims[1] * dims[2] if dims else None
        b0, b1 = limits.blocks_per_sm(before, threads), limits.blocks_per_sm(after, threads)
        note = None
        if b1 < b0:
            note = (f"blocks per SM by shared memory drop from {b0} to {b1} on "
                    f"{self.arch.name}")
        return after - before, note

    def _block_dims(self, kernel: str) -> tuple[int, int, int] | None:
        if self.options.block_dim is not None:
            return self.options.block_dim
        shapes = [la.block for la in self.unit.launches if la.kernel == kernel and la.block]
        k = next((k for k in self.unit.kernels if k.name == kernel), None)
        if k is not None and k.annotated_block is not None:
            return k.annotated_block
        return max(shapes, key=lambda d: d[0] * d[1] * d[2]) if shapes else None

    def _mask_text(self, row: str, modulus: int | None, shift: int) -> str:
        inner = row if modulus is None else f"({row} % {modulus})"
        return f"({inner} << {shift})" if shift else inner

    def _row_modulus(self, acc: Access, modulus: int) -> int | None:
        """``modulus``, or None when the row subscript is proved below it (``% m`` is
        then left out of the rewritten index, in the model and in the source alike)."""
        if within(acc.indices[-2], modulus, acc, self.unit, self.options, self._ranges):
            return None
        return modulus

    def _swizzle_example(self, edits: list[Edit]) -> str:
        if not edits:
            return ""
        e = edits[0]
        for acc in self.unit.accesses:
            subs = self._subscripts(acc)
            if subs and src.position_of(self.source, subs[-1].start) == (e.line, e.column):
                head = self.source[
                    src.offset_of(self.source, acc.span.line, acc.span.column):subs[-1].start
                ].decode("utf-8", "replace")
                return f"{head}{e.content}]"
        return ""

    def _declaration_edit(self, array: SharedArray, cand: Candidate
                          ) -> tuple[Edit, str] | None:
        """The edit of the last extent, and the new declarator as shown (``tile[32][33]``)."""
        if cand.kind == "swizzle":
            return None
        if not array.dim_spans or len(array.dim_spans) != len(array.dims):
            return None
        span = array.dim_spans[-1]
        a, b = src.span_edit_range(self.source, span)
        text = self.source[a:b].decode("utf-8", "replace")
        if array.dim_texts and text.strip() != array.dim_texts[-1].strip():
            return None
        if cand.kind == "pad":
            new = extent_text(text, cand.amount)
        else:
            new = self._stride_extent(text, array, cand)
        before = [
            self.source[slice(*src.span_edit_range(self.source, s))].decode("utf-8", "replace")
            for s in array.dim_spans[:-1]
        ]
        shown = array.name + "".join(f"[{t.strip()}]" for t in (*before, new))
        edit = Edit(self.path, span.line, span.column, span.end_line, span.end_column, new)
        return edit, shown

    def _launch_bound(self, arrays: list[SharedArray]) -> str | None:
        """Why a fix proved with kernel parameters a launch passes as constants
        (``Access.launch_params``, ``Bc=32``) must not be applied: the proof (and the bounds
        check) holds for this file's launches only, while the rewrite changes the kernel
        for every caller (another translation unit, Python bindings) whatever it passes.
        Template arguments and constants of the kernel are part of its code; these are not.
        """
        for a in arrays:
            for acc in self.accesses(a):
                names = set(acc.launch_params)
                if not names:
                    continue
                parts = re.split(r",\s*(?=[A-Za-z_]\w*=)", acc.instantiation or "")
                values = ", ".join(p for p in parts if p.split("=", 1)[0] in names)
                values = values or ", ".join(sorted(names))
                site = next((ln.span for ln in self.unit.launches
                             if ln.kernel == acc.kernel
                             and ln.instantiation == acc.instantiation), None)
                where = f" at line {site.line}" if site is not None and (
                    not site.file or site.file == self.path) else (
                    f" at {site.file}:{site.line}" if site is not None else "")
                return (f"the proof assumes {values}, which the launch{where} passes to "
                        f"kernel '{acc.kernel}'; other callers (another file, Python "
                        "bindings) may pass other values")
        return None

    def _stride_extent(self, text: str, array: SharedArray, cand: Candidate) -> str:
        stride = self._common_stride([array]) or 1
        new_stride = stride + cand.amount
        rows = array.dims[0] // stride
        m = re.fullmatch(r"\s*(.+?)\s*\*\s*([A-Za-z_0-9]+)\s*", text)
        if m:
            right = m.group(2)
            v = _int_value(right)
            if v == stride:
                return f"{m.group(1)} * {new_stride}"
            if self.consts.get(right) == stride:
                return f"{m.group(1)} * ({right} + {cand.amount})"
        if _int_value(text.strip()) is not None:
            return f"{rows} * {new_stride}"
        return f"({text.strip()}) / {stride} * {new_stride}"

    def _bounds(self, arrays: list[SharedArray], last: bool) -> str | None:
        """Why padding might change meaning: a last subscript not proved in range."""
        for a in arrays:
            for acc in self.checked(a):
                inside = within(acc.indices[-1], a.dims[-1], acc, self.unit, self.options,
                                self._ranges)
                if inside is None:
                    return (f"cannot show the last subscript at line {acc.span.line} stays "
                            f"below {a.dims[-1]}")
                if inside is False:
                    return (f"the last subscript at line {acc.span.line} reaches past "
                            f"{a.dims[-1]}, into the next row, which padding moves")
        return None

    def _subscripts(self, acc: Access) -> list[src.Subscript]:
        return src.access_subscripts(self.source, acc, self.tokens)

    def _stride_edits(self, arrays: list[SharedArray], cand: Candidate
                      ) -> tuple[list[Edit], list[str], list[str]]:
        edits: list[Edit] = []
        display: list[str] = []
        unsafe: list[str] = []
        seen: set[tuple[int, int]] = set()
        for a in arrays:
            stride = self._common_stride([a]) or 0
            for acc in self.checked(a):
                pos = (acc.span.line, acc.span.column)
                subs = self._subscripts(acc)
                if len(subs) != 1:
                    display.append(f"the access at line {acc.span.line} is not written as "
                                   f"'{a.name}[...]'")
                    continue
                column = _replace_stride(acc.indices[0], stride, 0)
                inside = within(column, stride, acc, self.unit, self.options, self._ranges)
                if inside is False:
                    display.append(
                        f"the column part of the subscript at line {acc.span.line} reaches "
                        f"past {stride}, so a new row stride would change which element it "
                        "names")
                elif inside is None:
                    unsafe.append(f"cannot show the column at line {acc.span.line} stays "
                                  f"below {stride}")
                if pos in seen:
                    continue
                seen.add(pos)
                toks = src.tokens_between(self.tokens, subs[0].start, subs[0].end)
                hits = [
                    k for k, t in enumerate(toks)
                    if _value(t, self.consts) == stride
                    and ((k > 0 and toks[k - 1].text == "*")
                         or (k + 1 < len(toks) and toks[k + 1].text == "*"))
                ]
                if len(hits) != 1:
                    display.append(f"the row stride {stride} of the subscript at line "
                                   f"{acc.span.line} could not be found in the source")
                    continue
                t = toks[hits[0]]
                new = (str(stride + cand.amount) if t.kind == "number"
                       else f"({t.text} + {cand.amount})")
                line, col = src.position_of(self.source, t.start)
                eline, ecol = src.position_of(self.source, t.end)
                edits.append(Edit(self.path, line, col, eline, ecol, new))
        return edits, display, unsafe

    def _swizzle_edits(self, arrays: list[SharedArray], cand: Candidate
                       ) -> tuple[list[Edit], list[str], list[str]]:
        edits: list[Edit] = []
        display: list[str] = []
        unsafe: list[str] = []
        seen: set[tuple[int, int]] = set()
        for a in arrays:
            for acc in self.checked(a):
                inside = within(acc.indices[-1], a.dims[-1], acc, self.unit, self.options,
                                self._ranges)
                if inside is not True:
                    display.append(f"cannot show the column at line {acc.span.line} stays "
                                   f"below {a.dims[-1]}")
                pos = (acc.span.line, acc.span.column)
                if pos in seen:
                    continue
                seen.add(pos)
                subs = self._subscripts(acc)
                if len(subs) != len(a.dims):
                    display.append(f"the access at line {acc.span.line} is not written as "
                                   "a plain subscript chain")
                    continue
                row_toks = src.tokens_between(self.tokens, subs[-2].start, subs[-2].end)
                if not src.is_pure(row_toks):
                    display.append(f"the row subscript at line {acc.span.line} has side "
                                   "effects and cannot be repeated")
                    continue
                row = src.parenthesize(subs[-2].text)
                col = src.parenthesize(subs[-1].text)
                mask = self._mask_text(row, self._row_modulus(acc, cand.amount), cand.shift)
                new = f"{col} ^ {mask}"
                line, c0 = src.position_of(self.source, subs[-1].start)
                eline, c1 = src.position_of(self.source, subs[-1].end)
                edits.append(Edit(self.path, line, c0, eline, c1, new))
        return edits, display, unsafe


def _edit_key(e: Edit) -> tuple[str, int, int, int, int, str]:
    return (e.file, e.line, e.column, e.end_line, e.end_column, e.content)
