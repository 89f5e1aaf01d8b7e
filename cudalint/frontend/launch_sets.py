"""Launch shapes the host code bounds to a finite set although the value is known only at
run time.

``std::min<int64_t>(1024, (n + 31) / 32 * 32)`` is one of 32, 64, ..., 1024 whatever ``n``
is; ``int nth = 32; while (nth < ncols && nth < 1024) nth *= 2;`` leaves one of 32, 64,
..., 1024; a host helper that doubles ``n = 1`` while ``n < x`` returns a power of two,
and CUDA launches no block of more than 1024 threads (x and y at most 1024, z at most 64,
the kernel's ``__launch_bounds__`` if lower), so ``next_power_of_2(ncols)`` as a block
size is one of 1, 2, 4, ..., 1024. A launch like that stands for the finite set of shapes,
each analysed exactly, and the model reports the worst with its shape named and says it
is the worst over the set (``docs/bank-model.md``, "Launch shapes from a bounded set").

The values of an integer expression are worked out as ``Vals``: a finite set, or a
family that only a bound makes finite (the multiples of ``m``; ``start`` times the powers
of ``ratio``). Nothing is guessed: a value the code does not bound (a parameter no call
site gives, a device property, a command-line argument) is ``ANY``, and a launch
dimension that is ``ANY`` keeps the launch's shape unknown (the assumed shape). The one
device property with a value is the warp size, 32 on every NVIDIA GPU
(``device_warp_size``, ``warp_size_queries``). A local assigned again in the block that
declares it (``int bs = n * 32; bs = std::min(bs, 256);``) has the last assignment's
values where it is read after it (``SetEval._straight``).

``exact`` says whether every value of a set is one the code computes for some value of
its run-time inputs; where the set was widened to stay sound (a doubling that is not the
single step of a loop, counted as any number of doublings; a ``c ? a : b`` whose
condition reads what its arms read) it is False, and the launch's note says the set is
a superset.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cudalint.frontend import types as ty
from cudalint.frontend.consteval import (
    UO_ADDR_OF,
    UO_POST_DEC,
    UO_POST_INC,
    UO_PRE_DEC,
    UO_PRE_INC,
    binary_value,
    unary_operator_kind,
    wrap,
)
from cudalint.frontend.cursors import (
    Env,
    Function,
    K,
    N,
    arguments,
    enclosing,
    key_of,
    node_int_type,
    strip,
)
from cudalint.frontend.execute import LAUNCH_CONFIG_CALLS, Executor
from cudalint.frontend.launch_api import config_call
from cudalint.frontend.tree import Node, subtree
from cudalint.ir import LONG, Const, IntType
from cudalint.model.arch import MAX_BLOCK_Z, MAX_THREADS_PER_BLOCK

if TYPE_CHECKING:
    from cudalint.frontend.host import HostLaunches, _HostExecutor

#: Shapes one launch may stand for through a bounded set (``min(1024, n)``: 1024).
MAX_SET_SHAPES = 1024
#: Values a finite set may hold while it is worked out (pairwise operations).
MAX_VALUES = 4096
#: Host helpers followed into for their returned values (``next_power_of_2(ncols)``).
MAX_DEPTH = 3
#: Shapes a set of two- or three-dimensional shapes may hold: each is proved for every
#: access (no shape dominates another there), a few milliseconds each; a larger set keeps
#: the launch's shape unknown (the assumed shape), as before sets.
MAX_MULTI_SET_SHAPES = 128
#: The largest blockDim.x and blockDim.y CUDA launches.
MAX_BLOCK_XY = 1024
#: A ``__launch_bounds__`` at most this many threads bounds even a launch value nothing
#: in the code bounds (``component_sets``): a superset of 1 .. cap threads.
ONE_WARP = 32


@dataclass(frozen=True)
class Vals:
    """The values an integer may have at run time: ``values`` (a finite set), or a
    family with no bound yet: every multiple of ``mult`` (``mult`` 1: any integer), or
    ``start * ratio**i`` for every ``i >= 0``."""

    values: frozenset[int] | None = None
    mult: int = 0
    start: int = 0
    ratio: int = 0
    exact: bool = True
    #: Also every integer below 1, left out of ``values`` (``min(256, n)``: ``n`` may be
    #: 0 or negative). Harmless for a launch dimension (such a launch fails), not for what
    #: is computed from it: ``min(256, n) + 64`` is any of 1, ..., 320.
    low: bool = False

    @property
    def is_any(self) -> bool:
        return self.values is None and self.mult == 1

    def inexact(self) -> Vals:
        return Vals(self.values, self.mult, self.start, self.ratio, False, self.low)

    def upto(self, hi: int) -> list[int] | None:
        """The positive values up to ``hi``, in order; None for ``ANY`` (no bound)."""
        if self.values is not None:
            return sorted(v for v in self.values if 1 <= v <= hi)
        if self.mult > 1:
            return list(range(self.mult, hi + 1, self.mult))
        if self.start >= 1 and self.ratio >= 2:
            out = []
            v = self.start
            while v <= hi:
                out.append(v)
                v *= self.ratio
            return out
        return None

    def contains(self, v: int) -> bool:
        if self.values is not None:
            return v in self.values
        if self.mult >= 1:
            return v % self.mult == 0
        x = self.start
        while 1 <= x <= abs(v):
            if x == v:
                return True
            x *= self.ratio
        return False


ANY = Vals(mult=1)


def _finite(values: Iterable[int], exact: bool = True, low: bool = False) -> Vals:
    s = frozenset(values)
    return Vals(s, exact=exact, low=low) if len(s) <= MAX_VALUES else ANY


class SetEval:
    """``Vals`` of the host expressions a launch's block shape is made of, evaluated in
    one context (the executor's values: template arguments, known parameters, the paths
    before the site)."""

    def __init__(self, host: HostLaunches, ex: _HostExecutor, depth: int = 0) -> None:
        self.host = host
        self.ex = ex
        self.depth = depth
        #: Locals being evaluated, with how many evaluations of each are open.
        self._visiting: dict[int, int] = {}
        #: Nodes of the launch's own block argument: the executor's values are those at
        #: the launch, so only these (and nodes reading no variable written anywhere:
        #: ``_stable``) are evaluated by it. ``int lim = 1024; while (t < lim) t *= 2;
        #: lim = 64;``: ``lim`` in the loop is not the 64 it holds at the launch.
        self.site: set[int] = set()
        self._unstable: tuple[set[int], set[int]] | None = None
        #: Locals bound to the values they hold before an assignment (``_straight``).
        self._bound: dict[int, Vals] = {}

    def _known(self, c: Node) -> int | None:
        if id(c) not in self.site and not self._stable(c):
            return None
        return self.ex.known(c)

    def _stable(self, c: Node) -> bool:
        """Whether no local ``c`` reads is written anywhere in the function (so the
        value the executor has for it at the launch is the one it has at ``c``)."""
        written = self._unstable_keys()[0]
        return not any(x.kind == N.DECL_REF and x.referenced is not None
                       and key_of(x.referenced) in written for x in _walk_fn(c))

    def _unstable_keys(self) -> tuple[set[int], set[int]]:
        """The locals written anywhere (assigned, address taken, named in a lambda, bound
        to a non-const reference), and those of them handed out by reference (``int &r =
        t``, ``set(t)`` with a lambda's ``int &`` parameter)."""
        if self._unstable is not None:
            return self._unstable
        fn = self.ex.fn
        written: set[int] = set()
        escaped: set[int] = set()
        if fn is not None and fn.body is not None:
            written = {k for k, v in fn.vars.items() if v.modified or v.writes}
            written |= _lambda_refs(self.host, fn.body)
            parents = self.host._parent_map(fn)
            for u in _walk_fn(fn.body):
                if u.kind != N.DECL_REF or u.referenced is None:
                    continue
                k = key_of(u.referenced)
                if k not in fn.vars:
                    continue
                up = enclosing(parents, u)
                if up is not None and _by_mutable_reference(self.host, up, u):
                    escaped.add(k)
            written |= escaped
        self._unstable = (written, escaped)
        return self._unstable

    # --- expressions --------------------------------------------------------------------

    def of(self, c: Node) -> Vals:
        v = self._known(c)
        if v is not None:
            return Vals(frozenset([v]))
        c = strip(c)
        kind = c.kind
        if kind in (N.BINARY, N.UNARY, N.CONDITIONAL, N.COMPOUND_ASSIGN) \
                and ty.is_floating_kind(c.ckind):
            # ``(int)(f / 3 * 12)`` with ``float f``: floating arithmetic, which the
            # integer sets would truncate at each step (8 / 3 * 12 is 32, not 24)
            return ANY
        kids = c.expr_children()
        if kind in (N.FUNCTIONAL_CAST, K.CSTYLE_CAST_EXPR.value, K.CXX_STATIC_CAST_EXPR.value) \
                and kids and node_int_type(c) is not None:
            return _narrow(self.of(kids[-1]), node_int_type(c))
        if kind == N.BINARY and len(kids) == 2:
            return self._binary(c.spelling, kids[0], kids[1])
        if kind == N.CONDITIONAL and len(kids) == 3:
            return self._conditional(c, kids[0], kids[1], kids[2])
        if kind == N.CALL:
            return self._call(c)
        if kind == N.DECL_REF:
            return _narrow(self._variable(c), node_int_type(c))
        return ANY

    def _binary(self, op: str, left: Node, right: Node) -> Vals:
        a, b = self.of(left), self.of(right)
        exact = a.exact and b.exact
        if a.low or b.low:
            return _low_binary(op, a, b, exact)
        if a.values is not None and b.values is not None:
            if len(a.values) * len(b.values) > MAX_VALUES:
                return ANY
            # ``t * t``: every pair is not a run-time pair where both read one input
            exact = exact and (len(a.values) == 1 or len(b.values) == 1)
            # a pair that divides by zero never reaches the launch (``512 / block_y``
            # with ``block_y = h_last_pow2(n)`` 0 for n = 0): only the others count
            out = {binary_value(op, x, y, LONG) for x in a.values for y in b.values
                   if not (op in ("/", "%") and y == 0)}
            if None in out or not out:
                return ANY
            return _finite((v for v in out if v is not None), exact)
        k = _single(b)
        ka = _single(a)
        if op == "<<" and ka is not None and ka >= 1 and k is None and b.values is None:
            # ``1 << pow_2`` (PointNet++'s ``opt_n_threads``): a power of two times the
            # constant, whatever the shift (one past the width is undefined)
            return Vals(start=ka, ratio=2, exact=exact)
        if op == "*" and ka is not None and k is None:
            a, b, k = b, a, ka
        if k is None:
            return ANY
        if op == "<<" and 0 <= k < 31:
            op, k = "*", 1 << k
        if op == ">>" and 0 <= k < 31:
            op, k = "/", 1 << k
        if op == "*" and k >= 1:
            if a.mult >= 1:
                return Vals(mult=a.mult * k, exact=exact)
            if a.start >= 1:
                return Vals(start=a.start * k, ratio=a.ratio, exact=exact)
        if op == "/" and k >= 1:
            if a.mult >= 1 and a.mult % k == 0:
                return Vals(mult=a.mult // k, exact=exact)
            if a.start >= 1 and a.start % k == 0:
                return Vals(start=a.start // k, ratio=a.ratio, exact=exact)
        if op in ("+", "-") and a.mult >= 1 and k % a.mult == 0:
            return Vals(mult=a.mult, exact=exact)
        return ANY

    def _conditional(self, c: Node, cond: Node, yes: Node, no: Node) -> Vals:
        known = self._known(cond)
        if known is not None:
            return self.of(yes if known else no)
        picked = _min_max(cond, yes, no)
        if picked is not None:
            return self._min_max(picked, self.of(yes), self.of(no))
        a, b = self.of(yes), self.of(no)
        u = _union(a, b)
        if u.is_any:
            return u
        # ``n > 256 ? 256 : n / 2``: the condition decides which arm, with what it reads
        return u if not (_reads(cond) & (_reads(yes) | _reads(no))) else u.inexact()

    def _call(self, c: Node) -> Vals:
        args = arguments(c)
        target = self.host._host_target(c)
        if target is not None and target.body is not None:
            return self._returned(target, args)
        name = c.spelling
        if name in ("min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax") \
                and len(args) == 2 and node_int_type(c) is not None:
            return self._min_max("min" if "min" in name else "max",
                                 self.of(args[0]), self.of(args[1]))
        return ANY

    def _min_max(self, op: str, a: Vals, b: Vals) -> Vals:
        exact = a.exact and b.exact
        if a.values is None and b.values is not None:
            a, b = b, a
        if a.values is None:
            return ANY  # both unbounded
        pick = min if op == "min" else max
        # ``min(t, 2 * t)``: not every pair runs where both read one input
        exact = exact and (len(a.values) == 1 or (b.values is not None and len(b.values) == 1))
        if b.values is not None:
            if len(a.values) * len(b.values) > MAX_VALUES:
                return ANY
            # max(v, y) with v below 1 (``Vals.low``) is y
            lifted = [v for w, o in ((a, b), (b, a)) if w.low and op == "max"
                      for v in (o.values or ())]
            return _finite(itertools.chain((pick(x, y) for x in a.values for y in b.values),
                                           lifted), exact, a.low or b.low)
        if op == "max":
            return ANY  # max(C, n): no bound above
        top = max(a.values)
        if top > MAX_VALUES:
            return ANY
        low = b.upto(top)
        if low is None:  # any integer: min(C, n) is any value up to C, or below 1
            if top < 1:
                return _finite(a.values, exact, True)
            return _finite(itertools.chain(a.values, range(1, top + 1)), exact, True)
        # b has values above every one of a, so each of a is reached too (and a
        # multiple of m may be 0 or negative)
        return _finite((min(x, y) for x in a.values for y in [*low, top + 1]), exact,
                       a.low or b.mult >= 1)

    def _variable(self, c: Node) -> Vals:
        ref = c.referenced
        fn = self.ex.fn
        if ref is None or fn is None or ref.kind not in (K.VAR_DECL, K.PARM_DECL):
            return ANY
        k = key_of(ref)
        bound = self._bound.get(k)
        if bound is not None:
            return bound  # the value before the assignment ``_straight`` evaluates
        var = fn.vars.get(k)
        if var is None or var.is_param or fn.body is None or _in_lambda(self.host, fn.body, k):
            return ANY  # ``[&] { t = 96; }``: a write this does not follow
        open_ = self._visiting.get(k, 0)
        if open_ and (open_ >= 2 or var.modified or var.writes):
            # a local read while it is evaluated: ANY, but for one that only has its
            # initializer, read once more (``by = min(q, 512 / bx)`` where ``bx``'s
            # assignment reads ``by``: ``bx`` is bound to its values so far by then,
            # ``_any_assigned``)
            return ANY
        self._visiting[k] = open_ + 1
        try:
            if var.address_taken or k in self._unstable_keys()[1]:
                return self._out_parameter(k, var.init)
            writes = self._writes(k)
            if not writes:
                return self.of(var.init) if var.init is not None else ANY
            if var.init is None:
                return ANY
            straight = self._straight(k, var.init, writes, c)
            if straight is not None:
                return straight
            doubled = self._doubled(k, var.init, writes)
            if doubled.is_any:
                return self._any_assigned(k, var.init, writes)
            return doubled
        finally:
            if open_:
                self._visiting[k] = open_
            else:
                del self._visiting[k]

    def _any_assigned(self, k: int, init: Node, writes: list[Node]) -> Vals:
        """A local written only by plain assignments (``int bx = min(p, 32); if (bx * by
        != 512) bx = min(p, 512 / by);``, apex's ``flexible_launch_configs``): wherever it
        is read it holds its initializer's value or one an assignment stored, so the union
        of their values (a superset: not every one reaches every read). What the
        assignments store may read the local itself, through other locals (``by =
        min(q, 512 / bx)``): they are evaluated with it bound to the union found so far,
        until the union stops growing (a fixed point, a few rounds). ``ANY`` for any other
        write (``bx *= 2``, ``++bx``) or a union that keeps growing."""
        rhs: list[Node] = []
        for w in writes:
            kids = w.children
            if w.kind != N.BINARY or w.spelling != "=" or len(kids) != 2:
                return ANY
            rhs.append(kids[1])
        out = self.of(init)
        for _ in range(6):
            if out.is_any:
                return ANY
            self._bound[k] = out
            try:
                grown = out
                for r in rhs:
                    grown = _union(grown, self.of(r))
                    if grown.is_any:
                        return ANY
            finally:
                del self._bound[k]
            if (grown.values, grown.mult, grown.start, grown.ratio, grown.low) == (
                    out.values, out.mult, out.start, out.ratio, out.low):
                return out.inexact()
            out = grown
        return ANY

    def _returned(self, target: object, args: list[Node]) -> Vals:
        """The values a host helper of the file returns (every ``return`` of its body),
        with the parameters the call passes as constants bound."""
        assert isinstance(target, Function)
        if self.depth > MAX_DEPTH or target.body is None or target.is_kernel:
            return ANY
        inner = self._helper(target, args)
        smeared = self._smeared_power(target, inner)
        if smeared is not None:
            return smeared  # whatever the argument: no need to follow it any deeper
        if self.depth >= MAX_DEPTH:
            return ANY
        out: Vals | None = None
        for n in _walk_fn(target.body):
            if n.kind != N.RETURN:
                continue
            exprs = n.expr_children()
            if not exprs:
                return ANY
            got = inner.of(exprs[0])
            out = got if out is None else _union(out, got)
            if out.is_any:
                return out
        return out if out is not None else ANY

    def _smeared_power(self, target: Function, inner: SetEval) -> Vals | None:
        """A helper that rounds to a power of two by smearing the top bit down
        (apex's ``h_last_pow2``: ``n |= n >> 1; ... n |= n >> 16; return n - (n >> 1);``,
        the round-up ``--n; ...; ++n``): whatever ``n`` comes in, after the shifts by 1, 2,
        4, ... up to half its width it is ``2^k - 1`` (all ones below its top bit), so the
        return is evaluated for each such value. None for any other body."""
        assert target.body is not None
        stmts = [st for st in target.body.children if st.kind != N.NULL_STMT]
        if len(stmts) < 2 or stmts[-1].kind != N.RETURN:
            return None
        params = Executor.params(target)
        if len(params) != 1:
            return None
        pk = key_of(params[0].cursor)
        t = node_int_type(params[0])
        if t is None:
            return None
        shifts: list[int] = []
        steps: list[Node] = []  # ``++n`` and the like after the smear, in order
        for st in stmts[:-1]:
            n = strip(st)
            kids = n.expr_children()
            if n.kind == N.COMPOUND_ASSIGN and n.spelling == "|=" and len(kids) == 2 \
                    and _is_ref(strip(kids[0]), pk) and not steps:
                rhs = strip(kids[1])
                parts = rhs.expr_children()
                if rhs.kind != N.BINARY or rhs.spelling != ">>" or len(parts) != 2 \
                        or not _is_ref(strip(parts[0]), pk):
                    return None
                c = inner._known(parts[1])
                if c is None:
                    return None
                shifts.append(c)
                continue
            if not shifts and _steps(n, pk) == -1:
                continue  # ``--n`` before: any value stays any value
            if shifts and _steps(n, pk) in (1, -1):
                steps.append(n)
                continue
            return None
        width = t.bits
        if sorted(shifts) != [1 << i for i in range(width.bit_length() - 1)]:
            return None  # not every shift up to half the width: not smeared
        values = [(1 << k) - 1 for k in range(width + 1)]
        if t.signed:
            values = [wrap(v, t) for v in values]
        out: Vals | None = None
        exprs = stmts[-1].expr_children()
        if not exprs:
            return None
        ret = strip(exprs[0])
        last = _steps(ret, pk) if ret.kind == N.UNARY and unary_operator_kind(ret.cursor) in (
            UO_PRE_INC, UO_PRE_DEC) else 0
        for v in values:
            for st in steps:
                v = wrap(v + _steps(strip(st), pk), t)
            if last:  # ``return ++x;``
                got = Vals(frozenset([wrap(v + last, t)]))
                out = got if out is None else _union(out, got)
                continue
            inner._bound[pk] = Vals(frozenset([v]))
            try:
                got = inner.of(exprs[0])
            finally:
                del inner._bound[pk]
            out = got if out is None else _union(out, got)
            if out.is_any:
                return out
        return out

    def _out_parameter(self, k: int, init: Node | None) -> Vals:
        """A local that host helpers of the file set through a non-const reference
        parameter (NVIDIA's ``computeGridSize(n, 256, numBlocks, numThreads)`` doing
        ``numThreads = min(blockSize, n)``): the values of every such assignment, and of
        the initializer; ``ANY`` when it is written or handed out any other way."""
        fn = self.ex.fn
        assert fn is not None and fn.body is not None
        parents = self.host._parent_map(fn)
        out: Vals | None = self.of(init) if init is not None else None
        for u in _walk_fn(fn.body):
            if u.kind != N.DECL_REF or u.referenced is None or key_of(u.referenced) != k:
                continue
            up = enclosing(parents, u)
            if up is None or up.kind == K.VAR_DECL.value \
                    or (up.kind == N.INIT_LIST and _by_mutable_reference(self.host, up, u)):
                return ANY  # ``int &r = t``, ``R r{t}``: written through r, not followed
            if up.kind == N.CALL and up.spelling != "dim3":
                args = arguments(up)
                idx = next((i for i, a in enumerate(args) if strip(a) is u), None)
                if idx is None:
                    continue  # the callee itself, not an argument
                target = self.host._host_target(up)
                if target is None:
                    ref = up.referenced
                    try:
                        params = list(ref.get_arguments() or ()) if ref is not None else []
                    except Exception:  # not a function declaration
                        return ANY
                    if idx < len(params) and not ty.is_reference_to_mutable(params[idx].type):
                        continue  # read: by value or const reference
                    return ANY
                got = self._assigned_in(target, idx, args)
                if got is None:
                    return ANY
                # the initializer's value (or an earlier call's) may be overwritten by
                # every path of the call: a superset
                out = got if out is None else _union(out, got).inexact()
                continue
            if up.kind == N.UNARY or Executor._write_target(up) is not None:
                return ANY  # ``&x``, an assignment, ``++``: not followed here
        return out if out is not None else ANY

    def _assigned_in(self, target: Function, idx: int, args: list[Node]) -> Vals | None:
        """The values a host helper assigns its reference parameter ``idx``: read values
        (a by-value or const-reference parameter) give None too, as does any write that
        is not ``p = value``."""
        params = Executor.params(target)
        if idx >= len(params) or target.body is None or self.depth >= MAX_DEPTH:
            return None
        p = params[idx]
        if not ty.is_reference_to_mutable(p.type):
            return None
        pk = key_of(p.cursor)
        pv = target.vars.get(pk)
        if pv is not None and pv.address_taken:
            return None
        inner = self._helper(target, args)
        out: Vals | None = None
        for n in _walk_fn(target.body):
            t = Executor._write_target(n)
            if t is None or not _names_local(t, pk):
                continue
            kids = n.children
            if n.kind != N.BINARY or n.spelling != "=" or len(kids) != 2 \
                    or strip(t).kind != N.DECL_REF:
                return None  # a compound assignment, ``(c ? p : q) = v``
            got = inner.of(kids[1])
            # two assignments: the first may be overwritten on every path (``p = 32;
            # if (n > 3) p = 64; else p = 96;`` never leaves 32), so not every value runs
            out = got if out is None else _union(out, got).inexact()
        return out

    def _helper(self, target: Function, args: list[Node]) -> SetEval:
        """An evaluator in host helper ``target`` with the arguments the call passes as
        constants bound to its integer parameters."""
        from cudalint.frontend.host import _Context, _HostExecutor

        values: dict[int, Const] = {}
        for p, a in zip(Executor.params(target), args, strict=False):
            pv = target.vars.get(key_of(p.cursor))
            if pv is None or pv.modified or pv.writes or (
                    target.body is not None and _in_lambda(self.host, target.body,
                                                           key_of(p.cursor))):
                continue  # ``if (big) b = 96;``: not the value the call passes
            pt = node_int_type(p)
            v = self._known(a) if pt is not None else None
            if v is not None and pt is not None:
                values[key_of(p.cursor)] = Const(v, pt)
        return SetEval(self.host,
                       _HostExecutor(self.host, target, _Context(Env(), values), {}),
                       self.depth + 1)

    def _straight(self, k: int, init: Node, writes: list[Node], read: Node) -> Vals | None:
        """A local assigned only by statements of the block that declares it, all before
        the statement holding ``read`` (ggml's ``int block_size = num_warps * warp_size;
        block_size = std::min(block_size, 256); dim3 block_dims(block_size, 1, 1);``):
        the last assignment's values, each right-hand side reading the values before it.
        None where a write is anything else (in a loop, under a condition, a compound
        assignment) or ``read`` is not in a later statement of that block."""
        fn = self.ex.fn
        if fn is None:
            return None
        parents = self.host._parent_map(fn)

        def statement(n: Node) -> tuple[Node, int] | None:
            """The block ``n`` is in, and the index there of the statement holding it."""
            child, up = n, parents.get(id(n))
            while up is not None and up.kind != N.COMPOUND_STMT:
                if not (up.is_expr or up.kind in (N.VAR_DECL, N.DECL_STMT)):
                    return None  # under a statement (a loop, an ``if``)
                child, up = up, parents.get(id(up))
            if up is None:
                return None
            return up, next(i for i, ch in enumerate(up.children) if ch is child)

        decl = statement(init)
        if decl is None:
            return None
        block, at = decl
        order: list[tuple[int, Node]] = []
        for w in writes:
            kids = w.children
            top = w  # under ``ExprWithCleanups`` (``std::min(n, 256)`` binds a temporary)
            while parents.get(id(top)) is not None and parents[id(top)].kind == N.UNEXPOSED:
                top = parents[id(top)]
            if parents.get(id(top)) is not block or w.kind != N.BINARY or w.spelling != "=" \
                    or len(kids) != 2 or strip(kids[0]).kind != N.DECL_REF:
                return None  # not an assignment statement of the block (or of one arm:
                # ``(c ? t : u) = v``)
            i = next(j for j, ch in enumerate(block.children) if ch is top)
            if i <= at:
                return None
            order.append((i, kids[1]))
        up: Node | None = read
        while up is not None and parents.get(id(up)) is not block:
            up = parents.get(id(up))
        if up is None:
            return None
        here = next(i for i, ch in enumerate(block.children) if ch is up)
        order.sort(key=lambda x: x[0])
        if len({i for i, _ in order}) != len(order) or order[-1][0] >= here:
            return None
        cur = self.of(init)
        saved = self._bound.get(k)
        try:
            for _, rhs in order:
                self._bound[k] = cur
                cur = self.of(rhs)
        finally:
            if saved is None:
                self._bound.pop(k, None)
            else:
                self._bound[k] = saved
        return cur

    # --- a local written in a loop ------------------------------------------------------

    def _writes(self, k: int) -> list[Node]:
        fn = self.ex.fn
        assert fn is not None and fn.body is not None
        out = []
        for n in _walk_fn(fn.body):
            t = Executor._write_target(n)
            if t is not None and _names_local(t, k):
                out.append(n)
        return out

    def _doubled(self, k: int, init: Node, writes: list[Node]) -> Vals:
        """``v`` initialised to one constant and only ever multiplied by one constant
        ratio (``v *= 2``, ``v <<= 1``, ``v = v * 2``): ``start * ratio**i``. A write that
        is the one write of a ``while``/``for`` loop whose condition has a conjunct
        ``v < C`` (``v <= C``) cannot take ``v`` past the first value at or above ``C``
        (above ``C``); with every write bounded so the values are finite. Without a
        bound the family stays open for the launch's limits to close."""
        first = self.of(init)
        start = _single(first)
        if start is None or start < 1:
            return ANY
        fn = self.ex.fn
        assert fn is not None
        parents = self.host._parent_map(fn)
        ratio = 0
        hi = 0
        bounded = True
        exact = True
        loops: dict[int, int] = {}
        cut: tuple[int, bool] | None = None
        for w in writes:
            r = self._ratio(w, k)
            if r is None or r < 2 or (ratio and r != ratio):
                return ANY
            ratio = r
            loop = _enclosing_loop(w, parents)
            if loop is None:
                bounded = exact = False  # ``if (big) n *= 2;``: any number of times
                continue
            loops[id(loop)] = loops.get(id(loop), 0) + 1
            cond = self._loop_condition(loop, w)
            limit = self._limit(cond, k) if cond is not None else None
            if limit is None:
                # ``while (n < x) n *= 2`` stops at any count for some x; a loop whose
                # test does not read ``n`` (``for (i = 0; i < 3; i++)``) may not
                bounded = False
                exact = exact and cond is not None and k in _reads(cond)
                continue
            c, strict, others = limit
            v = start
            while v < c if strict else v <= c:
                v *= r
            hi = max(hi, v)
            exact = exact and others  # ``while (n < 256)`` alone runs to 256 every time
            if self.site and any(id(x) in self.site for x in _walk_fn(loop)):
                # the launch in the loop: ``for (t = 32; t < 1024 && t < n; t *= 2)
                # k<<<1, t>>>()`` never launches 1024; where the test may not have seen
                # the value (a write before the launch in the body), a superset
                if len(writes) == 1 and _tested_at_use(self.ex, loop, w, self.site):
                    cut = (c, strict)
                else:
                    exact = False
        if any(count > 1 for count in loops.values()):
            bounded = exact = False  # two doublings per test: past the bound
        if not bounded:
            return Vals(start=start, ratio=ratio, exact=exact)
        vals = []
        v = start
        while v <= max(hi, start):
            if cut is None or (v < cut[0] if cut[1] else v <= cut[0]):
                vals.append(v)
            v *= ratio
        return _finite(vals, exact)

    def _ratio(self, w: Node, k: int) -> int | None:
        kids = w.children
        if len(kids) != 2:
            return None
        if w.kind == N.COMPOUND_ASSIGN:
            amount = self._known(kids[1])
            if amount is None:
                return None
            if w.spelling == "*=":
                return amount
            if w.spelling == "<<=" and 0 < amount < 31:
                return 1 << amount
            return None
        if w.kind != N.BINARY or w.spelling != "=":
            return None
        rhs = strip(kids[1])
        parts = rhs.expr_children() if rhs.kind == N.BINARY else []
        if len(parts) != 2:
            return None
        mine = [_is_ref(p, k) for p in parts]
        if rhs.spelling == "+" and all(mine):
            return 2
        if rhs.spelling == "*" and mine.count(True) == 1:
            amount = self._known(parts[mine.index(False)])
            return amount
        if rhs.spelling == "<<" and mine[0] and not mine[1]:
            amount = self._known(parts[1])
            return 1 << amount if amount is not None and 0 < amount < 31 else None
        return None

    def _loop_condition(self, loop: Node, w: Node) -> Node | None:
        """The condition every run of ``w`` in ``loop`` comes right after; None where
        it does not (a ``do``, the write in a ``for``'s init)."""
        if loop.kind == N.WHILE:
            kids = loop.children
            return kids[0] if len(kids) == 2 and kids[0].is_expr else None
        if loop.kind == N.FOR:
            parts = self.ex.for_parts(loop)
            if parts is None:
                return None
            init, cond, _inc, _body = parts
            if init is not None and any(x is w for x in _walk_fn(init)):
                return None
            return cond
        return None

    def _limit(self, cond: Node, k: int) -> tuple[int, bool, bool] | None:
        """From ``v < C && ...``: (C, strict, whether another conjunct is not constant)."""
        conjuncts = _conjuncts(cond)
        found: tuple[int, bool] | None = None
        others = False
        for c in conjuncts:
            c = strip(c)
            kids = c.expr_children()
            if c.kind == N.BINARY and len(kids) == 2 and c.spelling in ("<", "<=", ">", ">="):
                left, right = kids
                op = c.spelling
                if _is_ref(right, k) and not _is_ref(left, k):
                    left, right = right, left
                    op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
                if _is_ref(left, k) and op in ("<", "<="):
                    bound = self._known(right)
                    if bound is not None:
                        if found is None or bound < found[0]:
                            found = (bound, op == "<")
                        continue
            if self._known(c) is None:
                others = True
        return (found[0], found[1], others) if found is not None else None


# --- the launch ---------------------------------------------------------------------------


#: The values of each component of a bounded launch shape, whether they are exact, and
#: which components a limit of CUDA's (or ``__launch_bounds__``) cut (``component_sets``).
#: The fourth: for each component, the index of the first component written the same
#: (``dim3(t, t)``: (0, 0, 2)), which takes the same value in each shape.
ComponentSets = tuple[tuple[tuple[int, ...], ...], bool, tuple[int, ...], tuple[int, ...]]


def launch_set(host: HostLaunches, ex: _HostExecutor, block: Node, cap: int, where: str
               ) -> tuple[list[tuple[int, int, int]], str | None] | None:
    """The shapes a launch's block argument ``block`` may have when the host code bounds
    every unknown component to a finite set, and the note saying so (None when one
    shape is left: the launch's shape, whatever the run-time values); None when a
    component is not bounded (see the module docstring)."""
    got = component_sets(host, ex, block, cap)
    return describe(got, cap, where) if got is not None else None


def component_sets(host: HostLaunches, ex: _HostExecutor, block: Node, cap: int
                   ) -> ComponentSets | None:
    """The values of each component of the block argument ``block`` (see
    ``launch_set``); None when one is not bounded, or each is one known value."""
    ev = SetEval(host, ex)
    ev.site = {id(x) for x in subtree(block)}
    comps = _components(ex, block)
    evals: list[SetEval] = [ev, ev, ev]
    if comps is None:
        out = _out_components(ev, block)
        if out is None:
            return None
        comps = [c for c, _ in out]
        evals = [e for _, e in out]
    cap = max(1, min(cap, MAX_THREADS_PER_BLOCK))
    sets: list[tuple[int, ...]] = []
    exact = True
    limited: list[int] = []
    same = [0, 1, 2]
    texts = [None if isinstance(comp, int) or _has_call(comp) else _text(comp)
             for comp in comps]
    for i, comp in enumerate(comps):
        if isinstance(comp, int):
            sets.append((comp,))
            continue
        twin = next((j for j in range(i) if texts[i] is not None and texts[j] == texts[i]),
                    None)
        if twin is not None:
            same[i] = twin
        vals = evals[i].of(comp)
        hi = min(MAX_BLOCK_Z if i == 2 else MAX_BLOCK_XY, cap)
        got = vals.upto(hi)
        if got is None or (0 < vals.mult < 32 and vals.values is None):
            if cap > ONE_WARP:
                # an unknown value (a device property, a command-line argument) times a
                # small factor: nothing in the code bounds it, CUDA's limit alone would
                # leave hundreds of shapes the code has no reason to run (whole warps,
                # ``(n + 31) / 32 * 32``, are kept: the assumed shapes, one-dimensional)
                return None
            # a kernel whose ``__launch_bounds__`` allow one warp at most (ggml's
            # ``mm_ids_helper``, launched with the device's ``warp_size``): whatever
            # the value, the block is one of 1 .. cap threads, or the launch fails
            got = list(range(1, hi + 1))
            vals = vals.inexact()
        if vals.values is None or any(v > hi for v in vals.values):
            limited.append(i)
        exact = exact and vals.exact
        sets.append(tuple(got))
    if all(len(s) == 1 for s in sets) and not ex.facts:
        return None  # nothing a set adds: the executor's own value (or none)
    # (one value each under the conditions around the site: the shape, where the flow of
    # the statements had none: ``n > L ? L : n`` declared before ``if (n > L)``, read in
    # it, is ``L`` there, ``HostLaunches.guard_facts``)
    free = [i for i, s in enumerate(sets) if len(s) > 1 and same[i] == i]
    reads = [{(id(evals[i].ex.fn), k) for k in _deep_reads(evals[i].ex, c)}
             for i in free if not isinstance(c := comps[i], int)]
    if any(r1 & r2 for r1, r2 in itertools.combinations(reads, 2)):
        # ``dim3(min(n, 32), min(n, 16))``: the components read one input, so not every
        # combination need run
        exact = False
    return tuple(sets), exact, tuple(limited), tuple(same)


def describe(got: ComponentSets, cap: int, where: str
             ) -> tuple[list[tuple[int, int, int]], str | None] | None:
    """The shapes of ``got`` a kernel whose limit is ``cap`` threads can run, and the
    note for them (see ``launch_set``)."""
    cap = max(1, min(cap, MAX_THREADS_PER_BLOCK))
    sets = [[v for v in s if v <= (MAX_BLOCK_Z if i == 2 else MAX_BLOCK_XY) and v <= cap]
            for i, s in enumerate(got[0])]
    exact, limited, same = got[1], list(got[2]), got[3]
    for i, j in enumerate(same):
        if j != i:  # ``dim3(t, t)``: both within their limits
            sets[j] = [v for v in sets[j] if v in sets[i]]
            sets[i] = sets[j]
    if any(len(s) < len(g) for s, g in zip(sets, got[0], strict=True)):
        limited = sorted({*limited, *(i for i, (s, g) in enumerate(zip(sets, got[0],
                                                                         strict=True))
                                       if len(s) < len(g))})
    total = 1
    for i, s in enumerate(sets):
        total *= len(s) if same[i] == i else 1
    if total > 16 * MAX_SET_SHAPES:
        return None
    free = [s if same[i] == i else [0] for i, s in enumerate(sets)]
    shapes = []
    for combo in itertools.product(*free):
        x, y, z = (combo[same[i]] for i in range(3))
        if x * y * z <= cap:
            shapes.append((x, y, z))
    if not shapes or len(shapes) > MAX_SET_SHAPES or (
            len(shapes) > MAX_MULTI_SET_SHAPES and any(s[1:] != (1, 1) for s in shapes)):
        return None
    if len(shapes) == 1:
        return shapes, None
    parts = [f"blockDim.{'xyz'[i]} = " + (_show(s) if same[i] == i
                                           else f"blockDim.{'xyz'[same[i]]}")
             for i, s in enumerate(sets) if len(s) > 1]
    if limited:
        if cap < MAX_THREADS_PER_BLOCK:
            parts.append(f"up to the kernel's __launch_bounds__ of {cap} threads")
        elif limited == [2]:
            parts.append(f"up to CUDA's limit of {MAX_BLOCK_Z} for blockDim.z")
        else:
            parts.append(f"up to CUDA's limit of {MAX_THREADS_PER_BLOCK} threads per block")
    what = "; ".join(parts)
    if exact:
        note = (f"the {len(shapes)} block shapes the launch at {where} allows ({what}), "
                "one picked by run-time values")
    else:
        note = (f"{len(shapes)} block shapes that include every one the launch at {where} "
                f"can run ({what}; a superset: some may never run)")
    return shapes, note


def _components(ex: _HostExecutor, c: Node, depth: int = 0) -> list[Node | int] | None:
    """The three expressions of a launch's block argument (``dim3(nth, 1, 1)``, a
    ``dim3`` local initialised so and never written, an integer), 1 for those left out."""
    if depth > 8:
        return None
    c = strip(c)
    kind = c.kind
    if kind == N.FUNCTIONAL_CAST:
        inner = c.expr_children()
        return _components(ex, inner[-1], depth + 1) if inner else None
    if kind in (N.CALL, N.INIT_LIST) and node_int_type(c) is None:
        if kind == N.CALL and c.spelling != "dim3":
            return None
        args = arguments(c) if kind == N.CALL else c.expr_children()
        if len(args) == 1 and node_int_type(args[0]) is None:
            return _components(ex, args[0], depth + 1)
        if len(args) > 3:
            return None
        out: list[Node | int] = list(args)
        while len(out) < 3:
            out.append(1)
        return out
    if kind == N.DECL_REF and node_int_type(c) is None:
        ref = c.referenced
        fn = ex.fn
        if ref is None or fn is None or ref.kind != K.VAR_DECL:
            return None
        var = fn.vars.get(key_of(ref))
        if var is None or var.init is None or var.modified or var.writes:
            return None
        return _components(ex, var.init, depth + 1)
    if node_int_type(c) is not None:
        return [c, 1, 1]
    return None


def _out_components(ev: SetEval, c: Node) -> list[tuple[Node | int, SetEval]] | None:
    """The three expressions of a launch's block argument that is a ``dim3`` local set
    by one call of a host helper of the file through a ``dim3 &`` parameter (apex's
    ``dim3 block; flexible_launch_configs(reduction, stride, block, grid);`` doing
    ``block.x = block_x; block.y = block_y; block.z = 1;``), each with the evaluator it
    is read in: the helper's (the call's constant arguments bound) for what it assigns,
    the launching function's for what the local's initializer gives the others. Only
    where the helper's writes to the parameter are assignments run unconditionally (in
    its body's own block, no ``return``), the call runs unconditionally before the
    launch (in a block around it), and nothing else writes the local or hands it out."""
    c = strip(c)
    for _ in range(8):  # ``dim3(block)``, the copy the launch makes
        inner_args = arguments(c) if c.kind == N.CALL and c.spelling == "dim3" else (
            c.expr_children() if c.kind == N.FUNCTIONAL_CAST else [])
        if len(inner_args) != 1 or node_int_type(inner_args[0]) is not None:
            break
        c = strip(inner_args[0])
    ex, host = ev.ex, ev.host
    fn = ex.fn
    if c.kind != N.DECL_REF or node_int_type(c) is not None or c.referenced is None \
            or c.referenced.kind != K.VAR_DECL or fn is None or fn.body is None \
            or ev.depth >= MAX_DEPTH:
        return None
    k = key_of(c.referenced)
    var = fn.vars.get(k)
    if var is None or var.writes or var.assigned or var.loop_var \
            or _in_lambda(host, fn.body, k):
        return None
    parents = host._parent_map(fn)
    around: set[int] = set()
    cur = parents.get(id(c))
    while cur is not None:
        around.add(id(cur))
        cur = parents.get(id(cur))
    call: Node | None = None
    for u in _walk_fn(fn.body):
        if u.kind != N.DECL_REF or u.referenced is None or key_of(u.referenced) != k or u is c:
            continue
        up = enclosing(parents, u)
        if up is None or up.kind == N.CONDITIONAL:
            return None  # ``(c ? block : b2).x = 64``: an lvalue, perhaps written
        if up.kind == N.MEMBER_REF:
            w = Executor._write_target(parents.get(id(up), up))
            if w is not None and strip(w) is up:
                return None  # ``block.x = 64``: not followed here
            continue  # ``block.x`` read
        if _by_mutable_reference(host, up, u):
            if call is not None:
                return None  # a second call that may change it
            call = up
            continue
        w = Executor._write_target(up)
        if up.kind == N.UNARY or (w is not None and strip(w) is u):
            return None  # ``&block``, ``block = b``
    if call is None or call.extent.start.offset > c.extent.start.offset:
        return None
    stmt = call
    up = parents.get(id(stmt))
    while up is not None and up.kind in (N.UNEXPOSED, N.PAREN):
        stmt, up = up, parents.get(id(up))
    if up is None or up.kind != N.COMPOUND_STMT or id(up) not in around:
        return None  # a call under a condition, or in a loop that ended before
    target = host._host_target(call)
    args = arguments(call)
    if target is None or target.body is None \
            or host._has_jumps(target.body, (N.RETURN, N.GOTO, N.LABEL)):
        return None
    params = Executor.params(target)
    idx = next((i for i, a in enumerate(args) if strip(a).kind == N.DECL_REF
                and strip(a).referenced is not None and key_of(strip(a).referenced) == k),
               None)
    if idx is None or idx >= len(params) or len(params) != len(args):
        return None
    pk = key_of(params[idx].cursor)
    inner_parents = host._parent_map(target)
    written: dict[int, Node] = {}
    whole: Node | None = None
    for u in _walk_fn(target.body):
        if u.kind != N.DECL_REF or u.referenced is None or key_of(u.referenced) != pk:
            continue
        up = enclosing(inner_parents, u)
        if up is None or up.kind == N.CONDITIONAL:
            return None  # ``(c ? b : d).x = 64``: an lvalue, perhaps written
        member = up if up.kind == N.MEMBER_REF and up.spelling in ("x", "y", "z") else None
        top = enclosing(inner_parents, member if member is not None else u)
        w = Executor._write_target(top) if top is not None else None
        if w is None or strip(w) is not (member if member is not None else u):
            if _by_mutable_reference(host, up, u) or up.kind == N.UNARY:
                return None  # handed on, or its address taken
            continue  # a read
        assert top is not None
        kids = top.children
        if not ((top.kind == N.BINARY and top.spelling == "=")
                or (top.kind == N.CALL and top.spelling == "operator=")) or len(kids) < 2 \
                or inner_parents.get(id(top)) is not target.body:
            return None  # ``block.x *= 2``, or under a condition
        if member is not None:
            if whole is not None:
                return None  # ``block = dim3(...); block.x = 32;``: not one or the other
            written["xyz".index(member.spelling)] = kids[-1]
        elif whole is None and not written:
            whole = kids[-1]
        else:
            return None
    inner = ev._helper(target, args)
    if whole is not None:
        base = _components(inner.ex, whole)
        if base is None:
            return None
        return [(b, inner) for b in base]
    if not written:
        return None
    start: list[Node | int] = [1, 1, 1]
    if len(written) < 3 and var.init is not None:
        # what the helper leaves is the initializer's (``dim3 b(1, 1, 2)``): nothing else
        # writes the local, so those components are read at the launch as they are
        got = _components(ex, var.init)
        if got is None:
            return None
        start = got
    out: list[tuple[Node | int, SetEval]] = []
    for i in range(3):
        out.append((written[i], inner) if i in written else (start[i], ev))
    return out


# --- helpers ------------------------------------------------------------------------------


def _narrow(v: Vals, t: IntType | None) -> Vals:
    """``v`` converted to ``t`` (``uint8_t t = min(n, 10) * 30``: 300 is 44). A narrow
    type of values that also hold every integer below 1 is ANY (``(uint8_t)-5`` is 251);
    a 32-bit one keeps them (its arithmetic wraps as the 64-bit one does modulo 2**32)."""
    if t is None or t.bits >= 64 or v.is_any:
        return v
    if v.values is not None:
        if v.low and t.bits < 32:
            return ANY
        lo = -(1 << (t.bits - 1)) if t.signed else 0
        hi = (1 << (t.bits - 1)) - 1 if t.signed else (1 << t.bits) - 1
        if all(lo <= x <= hi for x in v.values):
            return v
        return _finite((wrap(x, t) for x in v.values), v.exact, v.low)
    if v.mult >= 1:
        if (1 << t.bits) % v.mult != 0:
            return ANY
        if t.bits <= 8:  # ``uint8_t b = n * 32``: 0, 32, ..., 224, not up to 1024
            return _finite((wrap(x, t) for x in range(0, 1 << t.bits, v.mult)), v.exact,
                           v.low)
        return v
    pow2 = v.start & (v.start - 1) == 0 and v.ratio & (v.ratio - 1) == 0
    if not pow2:
        return ANY
    if t.bits <= 8 and v.ratio >= 2:  # ``(uint8_t)(32 << k)``: 32, 64, 128, then 0
        out = [0]
        x = v.start
        while x < 1 << t.bits:
            out.append(wrap(x, t))
            x *= v.ratio
        return _finite(out, v.exact, v.low)
    return v  # a power of two times powers of two wraps to 0 or stays


def _single(v: Vals) -> int | None:
    return next(iter(v.values)) if v.values is not None and len(v.values) == 1 else None


def _union(a: Vals, b: Vals) -> Vals:
    exact = a.exact and b.exact
    low = a.low or b.low
    if a.values is not None and b.values is not None:
        return _finite(a.values | b.values, exact, low)
    if a.values is not None:
        a, b = b, a
    if b.values is not None:
        if all(a.contains(v) for v in b.values):
            return Vals(a.values, a.mult, a.start, a.ratio, exact, low)
        return ANY
    if (a.mult, a.start, a.ratio) == (b.mult, b.start, b.ratio):
        return Vals(a.values, a.mult, a.start, a.ratio, exact, low)
    if a.mult >= 1 and b.mult >= 1:
        return Vals(mult=math.gcd(a.mult, b.mult), exact=False, low=low)
    return ANY


def _low_binary(op: str, a: Vals, b: Vals, exact: bool) -> Vals:
    """``a op b`` where one side also holds every integer below 1 (``Vals.low``): what
    stays below 1 stays left out, what the operation lifts above it is added
    (``min(256, n) + 64``: 1, ..., 64 from n <= 0); ANY where that is not simple."""
    if a.values is None or b.values is None or (a.low and b.low) \
            or len(a.values) * len(b.values) > MAX_VALUES:
        return ANY
    swapped = b.low
    ks = a.values if swapped else b.values
    out = {binary_value(op, x, y, LONG) for x in a.values for y in b.values}
    if None in out or not ks:
        return ANY
    extra = range(0)
    if op == "+":
        extra = range(1, max(ks) + 1)  # v <= 0 plus k: any value up to k
    elif op == "-" and not swapped:
        extra = range(1, -min(ks) + 1)
    elif not ((op == "*" and min(ks) >= 0) or (op == "<<" and not swapped and min(ks) >= 0)
              or (op in ("/", ">>") and not swapped and min(ks) >= 1)):
        return ANY
    if len(extra) > MAX_VALUES:
        return ANY
    return _finite(itertools.chain((v for v in out if v is not None), extra), exact, True)


def _min_max(cond: Node, yes: Node, no: Node) -> str | None:
    """``a < b ? a : b`` is min, ``a > b ? a : b`` max (by the operands' text)."""
    c = strip(cond)
    kids = c.expr_children()
    if c.kind != N.BINARY or len(kids) != 2 or c.spelling not in ("<", "<=", ">", ">="):
        return None
    texts = [_text(x) for x in (kids[0], kids[1], yes, no)]
    if None in texts:
        return None
    less = c.spelling in ("<", "<=")
    if texts[0] == texts[2] and texts[1] == texts[3]:
        return "min" if less else "max"
    if texts[0] == texts[3] and texts[1] == texts[2]:
        return "max" if less else "min"
    return None


def _deep_reads(ex: _HostExecutor, n: Node) -> set[int]:
    """The variables ``n`` reads, through the initializers and writes of the locals it
    reads; -1 stands for a local written some other way (it may share anything)."""
    fn = ex.fn
    out: set[int] = set()
    todo = [n]
    seen: set[int] = set()
    while todo:
        x = todo.pop()
        for u in _walk_fn(x):
            if u.kind != N.DECL_REF or u.referenced is None:
                continue
            k = key_of(u.referenced)
            out.add(k)
            var = fn.vars.get(k) if fn is not None else None
            if var is None or k in seen:
                continue
            seen.add(k)
            if var.address_taken:
                out.add(-1)
            todo.extend(w for w in [var.init, *var.writes] if w is not None)
    return out


def _has_call(n: Node) -> bool:
    return any(x.kind in (N.CALL, N.UNARY) for x in _walk_fn(n))


def _text(n: Node) -> str | None:
    toks = [t.spelling for t in strip(n).cursor.get_tokens()]
    return " ".join(toks) if toks else None


def _reads(n: Node) -> set[int]:
    return {key_of(x.referenced) for x in _walk_fn(n)
            if x.kind == N.DECL_REF and x.referenced is not None}


def _steps(n: Node, k: int) -> int:
    """+1 for ``++n``/``n++``/``n += 1`` on the variable ``k``, -1 for the decrements, 0
    for anything else."""
    kids = n.expr_children()
    if n.kind == N.UNARY and len(kids) == 1 and _is_ref(strip(kids[0]), k):
        op = unary_operator_kind(n.cursor)
        return 1 if op in (UO_PRE_INC, UO_POST_INC) else -1 if op in (UO_PRE_DEC, UO_POST_DEC) \
            else 0
    if n.kind == N.COMPOUND_ASSIGN and n.spelling in ("+=", "-=") and len(kids) == 2 \
            and _is_ref(strip(kids[0]), k) and strip(kids[1]).spelling == "1":
        return 1 if n.spelling == "+=" else -1
    return 0


def _is_ref(n: Node, k: int) -> bool:
    n = strip(n)
    return n.kind == N.DECL_REF and n.referenced is not None and key_of(n.referenced) == k


def _conjuncts(n: Node) -> list[Node]:
    n = strip(n)
    kids = n.expr_children()
    if n.kind == N.BINARY and n.spelling == "&&" and len(kids) == 2:
        return _conjuncts(kids[0]) + _conjuncts(kids[1])
    return [n]


def _tested_at_use(ex: _HostExecutor, loop: Node, w: Node, site: set[int]) -> bool:
    """Whether the value the launch ``site`` in ``loop``'s body reads has passed the
    loop's test in the iteration it runs in, ``w`` being the variable's one write: ``w``
    is a ``for``'s increment, or comes after the launch in a ``while``'s body."""
    if loop.kind == N.FOR:
        parts = ex.for_parts(loop)
        return parts is not None and parts[2] is not None \
            and any(x is w for x in _walk_fn(parts[2]))
    if loop.kind != N.WHILE:
        return False
    uses = [x for x in _walk_fn(loop) if id(x) in site]
    try:
        first_write = int(w.extent.start.offset)
        return bool(uses) and all(int(u.extent.end.offset) <= first_write for u in uses)
    except Exception:  # no extent: not decided
        return False


def _enclosing_loop(n: Node, parents: dict[int, Node]) -> Node | None:
    cur = parents.get(id(n))
    while cur is not None:
        if cur.kind in (N.WHILE, N.FOR, N.DO, K.CXX_FOR_RANGE_STMT.value):
            return cur
        if cur.kind == K.LAMBDA_EXPR.value:
            return None
        cur = parents.get(id(cur))
    return None


def _by_mutable_reference(host: HostLaunches, up: Node, u: Node) -> bool:
    """Whether ``u``, a use of a local whose parent is ``up``, is bound to a non-const
    reference there: ``int &r = t``, or an argument of a call whose parameter is one, or
    an element of a braced initializer taken as it is, no conversion to a value between
    (``R r{t}`` with a member ``int &v``)."""
    if up.kind == N.INIT_LIST:
        for ch in up.children:
            while ch.kind == N.PAREN and ch.children:
                ch = ch.children[0]
            if ch is u:
                return True
        return False
    if up.kind == K.VAR_DECL.value:
        try:
            return ty.is_reference_to_mutable(up.cursor.type)
        except Exception:  # no type: as if it were
            return True
    if up.kind != N.CALL or up.spelling == "dim3" or up.spelling in LAUNCH_CONFIG_CALLS \
            or config_call(up) is not None:
        return False  # a kernel's arguments are copied to the device: never written back
    args = arguments(up)
    idx = next((i for i, a in enumerate(args) if strip(a) is u), None)
    if idx is None:
        return False
    target = host._host_target(up)
    if target is not None:
        params = [p.cursor for p in Executor.params(target)]
    else:
        ref = up.referenced
        try:
            params = list(ref.get_arguments() or ()) if ref is not None else []
        except Exception:  # not a function declaration
            return True
    try:
        return idx >= len(params) or ty.is_reference_to_mutable(params[idx].type)
    except Exception:
        return True


def _names_local(target: Node, k: int) -> bool:
    """Whether the write target ``target`` is the local ``k``, or may be: ``(c ? k : u)
    = v`` writes one of the two."""
    t = strip(target)
    if t.kind == N.CONDITIONAL and len(t.children) == 3:
        return _names_local(t.children[1], k) or _names_local(t.children[2], k)
    return t.kind == N.DECL_REF and t.referenced is not None and key_of(t.referenced) == k


def _lambda_refs(host: HostLaunches, body: Node) -> frozenset[int]:
    """The variables lambdas in ``body`` may write: assign, increment, take the address
    of, bind to a non-const reference or pass to one (``[&] { t = 96; }``, ``[&] {
    set(t); }``). A lambda that only reads a local it captures (PyTorch's
    ``AT_DISPATCH_...([&] { k<<<blocks, threads>>>(...); })``) leaves it as it is."""
    memo = host._lambda_writes
    hit = memo.get(id(body))
    if hit is not None:
        return hit
    out: set[int] = set()
    for lam in _walk_fn(body):
        if lam.kind != K.LAMBDA_EXPR.value:
            continue
        parents: dict[int, Node] = {}
        stack = [lam]
        while stack:
            n = stack.pop()
            for ch in n.children:
                parents[id(ch)] = n
                stack.append(ch)
        for x in subtree(lam):
            if x.kind not in (N.DECL_REF, K.VARIABLE_REF.value) or x.referenced is None:
                continue
            k = key_of(x.referenced)
            if k in out:
                continue
            if x.kind == K.VARIABLE_REF.value:
                out.add(k)  # a capture's own initializer (``[&t]``, ``[t = ...]``)
                continue
            node = x
            up = parents.get(id(node))
            converted = False  # an implicit conversion (to a value) on the way up
            while up is not None and up.kind in (N.UNEXPOSED, N.PAREN, N.MEMBER_REF,
                                                  N.ARRAY_SUBSCRIPT):
                if up.kind == N.ARRAY_SUBSCRIPT and up.children and up.children[0] is not node:
                    break  # ``a[t]``: t is an index, read
                converted = converted or up.kind == N.UNEXPOSED
                node, up = up, parents.get(id(up))
            if up is None:
                continue
            w = Executor._write_target(up)
            if (w is not None and strip(w) is strip(node)) or up.kind == N.UNARY \
                    or _by_mutable_reference(host, up, node) \
                    or (up.kind == N.RETURN and not converted):
                # (``[&]() -> int & { return t; }``: a reference to t, ``f() = 96``)
                out.add(k)
    got = memo[id(body)] = frozenset(out)
    return got


def _in_lambda(host: HostLaunches, body: Node, k: int) -> bool:
    """Whether a lambda in ``body`` may write the variable ``k`` (``_lambda_refs``)."""
    return k in _lambda_refs(host, body)


def _walk_fn(n: Node) -> list[Node]:
    """``n`` and the nodes under it, not into lambdas (another function's body)."""
    out: list[Node] = []
    stack = [n]
    while stack:
        x = stack.pop()
        out.append(x)
        if x.kind != K.LAMBDA_EXPR.value or x is n:
            stack.extend(x.children)
    return out


def _show(values: list[int]) -> str:
    """``32, 64, ..., 1024``; a list when short."""
    if len(values) <= 4:
        return ", ".join(str(v) for v in values)
    a, b = values[0], values[1]
    if all(y - x == b - a for x, y in itertools.pairwise(values)):
        return f"{a}, {b}, ..., {values[-1]}"
    if a > 0 and b % a == 0 and all(x * (b // a) == y for x, y in itertools.pairwise(values)):
        return f"{a}, {b}, {values[2]}, ..., {values[-1]}"
    return f"{len(values)} values from {a} to {values[-1]}"


def where_text(file: str, line: int) -> str:
    return f"{os.path.basename(file)}:{line}"


# --- the warp size ----------------------------------------------------------------------

#: The warp size of every NVIDIA GPU, what ``cudaDeviceProp::warpSize`` and
#: ``cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev)`` give at run time. cudalint
#: models NVIDIA's shared memory only (an AMD wavefront of 64 is a HIP build, not CUDA).
WARP_SIZE = 32
#: Files a folder may hold for ``warp_size_field`` to read them all.
MAX_FIELD_SCAN_FILES = 400
_SCANNED = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".cxx", ".inl")
_texts: dict[str, tuple[tuple[int, int], str]] = {}
_fields: dict[tuple[str, str, str], tuple[tuple[tuple[int, int], ...], bool]] = {}
#: The folder's files are looked at again (their sizes and times) after this many seconds
#: (an editor's session changes them; one file's analysis asks many times).
RECHECK_S = 1.0
_recent: dict[tuple[str, str, str], tuple[float, bool]] = {}


def device_warp_size(c: Node) -> int | None:
    """32 for a host read of the device's warp size: ``prop.warpSize`` (``p->warpSize``)
    of a ``cudaDeviceProp``, and an integer member every assignment of which in the folder
    that declares its struct stores one (``warp_size_field``: ggml's
    ``ggml_cuda_info().devices[id].warp_size``, filled from ``prop.warpSize``). None for
    anything else."""
    if c.kind != N.MEMBER_REF or "warp" not in c.spelling.lower():
        return None  # the folder is read for members named for the warp size only
    ref = c.referenced
    if ref is None or ref.kind != K.FIELD_DECL or node_int_type(c) is None:
        return None
    parent = ref.semantic_parent
    if c.spelling == "warpSize" and parent is not None and parent.spelling == "cudaDeviceProp":
        try:
            at = c.cursor.location.file
            where = os.path.abspath(str(at.name)) if at is not None else None
        except Exception:  # a cursor libclang cannot place
            where = None
        # ``prop.warpSize = 64;`` (or its address taken) in the program: not the device's
        return None if where is None or _prop_warp_size_written(where) else WARP_SIZE
    try:
        loc = ref.location
        if loc.file is None or loc.is_in_system_header or parent is None:
            return None
        path = os.path.abspath(str(loc.file.name))
    except Exception:  # a cursor libclang cannot place
        return None
    return WARP_SIZE if warp_size_field(path, str(parent.spelling), str(c.spelling)) else None


_PROP_WRITE = re.compile(r"(?:\.|->)\s*warpSize\s*(?:<<|>>|[-+*/%&|^])?=(?!=)"
                         r"|&\s*[\w\[\]().>-]*(?:\.|->)\s*warpSize\b"
                         r"|&\s*\w+\s*=\s*[^;]*(?:\.|->)\s*warpSize\b")


def _prop_warp_size_written(path: str) -> bool:
    """Whether the file ``path`` (where a ``cudaDeviceProp``'s ``warpSize`` is read)
    writes a ``warpSize`` member, or takes its address or a reference to it (read as
    text): then the ``warpSize`` read may hold what the program put there. Only that
    file: a ``cudaDeviceProp`` is a local of the function that fills it."""
    return _PROP_WRITE.search(_file_text(path, _stamp(path))) is not None


def warp_size_field(path: str, record: str, name: str) -> bool:
    """Whether member ``name`` of struct ``record`` (declared in ``path``) holds the warp
    size wherever it is read: the folder of ``path`` (one program per folder, as
    ``cudalint.linking`` assumes) assigns it at least once, each time ``= X.warpSize``,
    ``= X->warpSize`` or ``= 32``, with no compound assignment, and initializes no
    ``record`` with a non-empty brace list (``record r = {...}``: positional values).
    Read as text, every file of the folder, so that the assignment in another translation
    unit (ggml's ``ggml-cuda.cu``) counts; a member of that name in another struct of the
    folder only adds assignments to check."""
    folder = os.path.dirname(path)
    key = (folder, record, name)
    now = time.monotonic()
    recent = _recent.get(key)
    if recent is not None and now - recent[0] < RECHECK_S:
        return recent[1]  # a launch evaluation asks many times: the folder read once
    try:
        names = sorted(f for f in os.listdir(folder) if f.endswith(_SCANNED))
    except OSError:
        return False
    if not names or len(names) > MAX_FIELD_SCAN_FILES:
        return False
    files = [os.path.join(folder, f) for f in names]
    stamps = tuple(_stamp(f) for f in files)
    hit = _fields.get(key)
    if hit is not None and hit[0] == stamps:
        ok = hit[1]
    else:
        ok = _assigns_warp_size(
            [_file_text(f, st) for f, st in zip(files, stamps, strict=True)], record, name)
        _fields[key] = (stamps, ok)
    _recent[key] = (now, ok)
    return ok


def _assigns_warp_size(texts: list[str], record: str, name: str) -> bool:
    """Whether every way the folder's ``texts`` give member ``name`` a value stores the
    warp size (see ``warp_size_field``), read as text and refused wherever in doubt: an
    assignment ``.name = V`` / ``->name = V``, a default member initializer or a local
    of that name (``name = V``), a constructor's ``: name(V)``, with ``V`` 32, a read of
    a ``cudaDeviceProp``'s ``warpSize`` or of another ``name``; no compound assignment,
    no address or reference taken (``&r.name``, ``int &w = r.name``), no positional
    brace list of ``record`` or of an element of an array of it."""
    esc = re.escape(name)
    write = re.compile(rf"(?:\.|->)\s*{esc}\s*(<<|>>|[-+*/%&|^])?=(?!=)\s*([^;,)]*)")
    default = re.compile(rf"\b{esc}\s*(?:=(?!=)\s*([^;,]*)|\{{\s*([^}}]*)\}})")
    definition = re.compile(rf"\b(?:struct|class)\s+{re.escape(record)}\b[^;{{]*\{{")
    init = re.compile(rf"[:,]\s*{esc}\s*[({{]\s*([^)}}]*)[)}}]")
    addressed = re.compile(rf"&\s*[\w\[\]().>-]*(?:\.|->)\s*{esc}\b"
                           rf"|&\s*\w+\s*=\s*[^;]*\b{esc}\b")
    typed = re.compile(rf"\b{re.escape(record)}\b([^;{{}}()]*)\{{\s*([^}}\s])?")
    arrays = re.compile(rf"\b{re.escape(record)}\b\s*[&*]?\s*(\w+)\s*\[")
    props: set[str] = set()
    for text in texts:
        props.update(m.group(1) for m in re.finditer(
            r"\bcudaDeviceProp\s*[&*]?\s*(\w+)", text))

    def stores_warp_size(value: str) -> bool:
        value = value.strip()
        if value == str(WARP_SIZE):
            return True
        m = re.fullmatch(r"([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*(?:\.|->)\s*warpSize", value)
        if m is not None:
            return m.group(1) in props
        return re.fullmatch(rf"[\w\[\]().>\s-]*(?:\.|->)\s*{esc}", value) is not None

    ok = False
    tables = {m.group(1) for text in texts for m in arrays.finditer(text)}
    element_list = re.compile(
        rf"\b(?:{'|'.join(map(re.escape, sorted(tables)))})\s*\[[^\]]*\]\s*=\s*\{{\s*[^}}\s]"
    ) if tables else None
    for text in texts:
        if addressed.search(text):
            return False
        if element_list is not None and element_list.search(text):
            return False  # ``tab[1] = {64, 0}``: an element of an array of ``record``
        for m in write.finditer(text):
            if m.group(1) is not None or not stores_warp_size(m.group(2)):
                return False
            ok = True
        for d in definition.finditer(text):
            depth, i = 1, d.end()
            while i < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            for m in default.finditer(text, d.end(), i):
                value = m.group(1) if m.group(1) is not None else m.group(2)
                if not stores_warp_size(value or ""):
                    return False  # ``int warp_size = 64;`` in the struct: a default
        for m in init.finditer(text):
            if not stores_warp_size(m.group(1)):
                return False
        for m in typed.finditer(text):
            before = text[max(0, m.start() - 16):m.start()]
            declared = re.search(r"\b(struct|class|union)\s+$", before)
            if declared is None and m.group(2) is not None:
                return False  # ``record r = {a, b}``, ``record{...}``: positional values
    return ok


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


def _file_text(path: str, stamp: tuple[int, int]) -> str:
    hit = _texts.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        text = ""
    _texts[path] = (stamp, text)
    return text


#: Attribute queries that write the warp size through their first argument, with the
#: attribute naming it (the runtime's and the driver's).
_WARP_ATTRIBUTES = {"cudaDeviceGetAttribute": "cudaDevAttrWarpSize",
                    "cuDeviceGetAttribute": "CU_DEVICE_ATTRIBUTE_WARP_SIZE"}


def warp_size_queries(n: Node) -> list[Node]:
    """The integer variables (their references) that ``n`` sets to the warp size each time
    it runs: ``cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev)`` (the driver's
    ``cuDeviceGetAttribute`` with ``CU_DEVICE_ATTRIBUTE_WARP_SIZE``), as a statement, an
    initializer or an argument (``checkCudaErrors(...)``), or first in the body of a
    ``do { ... } while (0)`` (``CUDA_CHECK(...)``); not under ``?:``, ``&&``, ``||`` or a
    statement that may skip it."""
    out: list[Node] = []
    stack = [n]
    while stack:
        x = stack.pop()
        if x.kind == N.CALL and x.spelling in _WARP_ATTRIBUTES:
            args = arguments(x)
            if len(args) == 3:
                var, attr = strip(args[0]), strip(args[1])
                if var.kind == N.UNARY and var.children and attr.kind == N.DECL_REF \
                        and attr.spelling == _WARP_ATTRIBUTES[x.spelling] \
                        and unary_operator_kind(var.cursor) == UO_ADDR_OF:
                    target = strip(var.children[0])
                    ref = target.referenced
                    if target.kind == N.DECL_REF and ref is not None \
                            and ref.kind == K.VAR_DECL and node_int_type(target) is not None:
                        out.append(target)
        if x.kind == N.CONDITIONAL or (x.kind == N.BINARY and x.spelling in ("&&", "||")):
            stack.extend(x.children[:1])  # only the condition, the first operand, surely runs
        elif x.kind == N.DO and x.children:
            stack.append(x.children[0])  # ``do { ... } while (0)``: the body runs once
        elif x.kind == N.COMPOUND_STMT:
            for st in x.children:  # the statements before the first that may jump or skip
                if st.kind != N.DECL_STMT and not st.is_expr:
                    break
                stack.append(st)
        elif (x is n and x.kind == N.RETURN) or x.is_expr \
                or x.kind in (N.VAR_DECL, N.DECL_STMT):
            stack.extend(x.children)  # not into a loop's or an ``if``'s body: it may not run
    return out
