"""Host code: which kernel each ``<<<>>>`` site launches, with which template arguments and
block shapes.

A launch site is evaluated in every *context* its function runs in:

- the template arguments of a host function template, taken from its call sites
  (``run<64>()`` makes ``BM = 64`` inside ``template <int BM> void run()``);
- the values of its integer and ``dim3`` parameters where every call site in the file passes
  constants (``launch(out, 256)``, ``launch(dim3(16, 16))``), through any depth of host calls;
- the values of enclosing loop variables when the loop walks a constant set and the site
  depends on them: ``for (int bs : sizes)``, ``for (int i = 0; i < n; i++) ... sizes[i]``
  with ``n`` constant, ``for (int bs = 32; bs <= 1024; bs *= 2)``.

Each context gives a site at most one kernel and one block shape per kernel it may launch; a
site run in several contexts gives a set of shapes, and the model reports the worst with its
shape named. A function-pointer variable that only ever holds kernels of this file
(``auto kern = c ? k1 : k2; kern<<<g, b>>>()``) launches each of them.

A shape with known ``x`` and ``y`` but unknown ``z`` (``dim3(4, 8, n / 32)``) still fixes the
lanes of every warp for each ``z``: threads are numbered x fastest, then y, then z, and warps
are 32 consecutive numbers. When ``x*y`` is a multiple of 32 each warp lies in one z slice
(``threadIdx.z`` uniform in it); when it is not, warps straddle slices and the last warp may be
partial, so the result depends on ``z``. Either way the site stands for every legal ``z``
(``1 .. min(64, cap / (x*y))``, cap 1024 or the kernel's ``__launch_bounds__``), each a
complete shape the model enumerates exactly; an unknown ``y`` is expanded the same way. A set
larger than ``MAX_SHAPES`` is not sampled: when ``x`` is a known multiple of 32
(``dim3(32, by, bz)``, run-time ``by`` and ``bz``) every warp is one ``(y, z)`` row, and the
launch keeps its known components (``Launch.partial``) for the model to range over every legal
``y``/``z`` (see ``row_warp_shape``); otherwise the shape is unknown.

Nothing here guesses: a value that is not constant in a context stays unknown, and a launch
whose template arguments are unknown leaves the kernel's symbolic (uninstantiated) analysis
in charge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import TYPE_CHECKING

import clang.cindex as ci

from cudalint.budget import check as check_budget
from cudalint.frontend.consteval import (
    UO_POST_DEC,
    UO_POST_INC,
    UO_PRE_DEC,
    UO_PRE_INC,
    binary_value,
    evaluate_int,
    unary_operator_kind,
)
from cudalint.frontend.cursors import (
    EXPLICIT_INSTANTIATION,
    TK,
    Env,
    Function,
    K,
    N,
    Var,
    arguments,
    key_of,
    node_int_type,
    split_top_level,
    strip,
)
from cudalint.frontend.execute import LAUNCH_CONFIG_CALLS, Executor
from cudalint.frontend.tree import Node, build
from cudalint.ir import INT, LONG, Access, Const, Expr, Launch, Sym

if TYPE_CHECKING:
    from cudalint.frontend.walker import Walker

#: The call clang puts in a ``<<<>>>`` expression for its launch configuration:
#: ``cudaConfigureCall`` (cudalint's shim, CUDA < 9.2), ``__cudaPushCallConfiguration``
#: (real toolkits since 9.2), ``hipConfigureCall`` (HIP).
CONFIG_FUNCTIONS = LAUNCH_CONFIG_CALLS

#: Contexts one function is evaluated in, and loop assignments one site is evaluated under.
MAX_CONTEXTS = 64
#: Iterations a constant loop may have for its variable to be enumerated.
MAX_ITERATIONS = 64
#: Shapes one launch may stand for when a block dimension is unknown.
MAX_SHAPES = 64
MAX_THREADS = 1024
MAX_Z = 64

#: ``.value`` / ``::value`` ending a dependent member reference (``ic.value``).
_VALUE_MEMBER = re.compile(r"(\.|::)\s*value\s*$")
#: ``std::integral_constant<int, 32>{}`` (or ``()``) as an argument: the value it carries.
_INTEGRAL_CONSTANT = re.compile(
    r"^(?:::)?(?:std\s*::\s*)?integral_constant\s*<\s*[\w\s:]+?,\s*(.+?)\s*>\s*(?:\{\s*\}|\(\s*\))?$",
    re.S)
#: Levels of host calls a lambda may be passed down (``dispatch(launch, bs)``).
MAX_LAMBDA_DEPTH = 3

Dims = tuple[int | None, int | None, int | None]
Shape = tuple[int, int, int]


def config_call(call: Node) -> Node | None:
    """The launch-configuration call of a ``<<<>>>`` expression, or None if ``call`` is not
    a kernel launch."""
    for ch in call.children:
        if ch.kind == N.CALL and ch.spelling in CONFIG_FUNCTIONS:
            return ch
    return None


def expand_shape(dims: Dims, cap: int = MAX_THREADS) -> list[Shape]:
    """Every legal block shape ``dims`` may stand for (unknown components enumerated), or
    [] when ``x`` is unknown or there are more than ``MAX_SHAPES``."""
    x, y, z = dims
    if x is None or x < 1:
        return []
    if y is not None and z is not None:
        return [(x, y, z)]  # as launched, even past a limit: the launch itself would fail
    cap = max(1, min(cap, MAX_THREADS))
    ys = [y] if y is not None else list(range(1, cap // x + 1))
    out: list[Shape] = []
    for yy in ys:
        if yy < 1:
            continue
        zs = [z] if z is not None else list(range(1, min(MAX_Z, cap // (x * yy)) + 1))
        for zz in zs:
            out.append((x, yy, zz))
            if len(out) > MAX_SHAPES:
                return []
    return out


def row_warp_shape(dims: Dims, cap: int = MAX_THREADS) -> Dims | None:
    """``dims`` itself when it is a shape of whole-row warps that ``expand_shape`` does not
    list: ``x`` a known multiple of 32 (so each warp is 32 consecutive ``threadIdx.x`` with
    ``threadIdx.y``/``z`` fixed), ``y`` or ``z`` unknown, and the known part within
    ``cap``. The model then enumerates every legal ``y``/``z`` only where the index needs
    them: ``dim3(32, by, bz)`` is analysed exactly for every ``by``, ``bz``."""
    x, y, z = dims
    if x is None or x < 32 or x % 32 or (y is not None and z is not None):
        return None
    if (y is not None and y < 1) or (z is not None and (z < 1 or z > MAX_Z)):
        return None
    if x * (y or 1) * (z or 1) > max(1, min(cap, MAX_THREADS)):
        return None  # no legal shape agrees with the known part
    return dims


@dataclass
class _Context:
    """One way a function runs: template arguments and known parameter values."""

    env: Env
    values: dict[int, Const] = field(default_factory=dict)
    dims: dict[int, Dims] = field(default_factory=dict)

    def key(self) -> tuple[object, ...]:
        return (
            self.env.label,
            tuple(sorted((k, c.value) for k, c in self.values.items())),
            tuple(sorted(self.dims.items())),
        )


class _HostExecutor(Executor):
    """The executor's expression evaluation with a context's values bound, and reads of
    constant arrays (``block_sizes[j]``) folded."""

    def __init__(self, host: HostLaunches, fn: Function, ctx: _Context,
                 extra: dict[int, Const]) -> None:
        super().__init__(host.w, fn, ctx.env)
        self.host = host
        self.dims = ctx.dims
        #: The launch (or call) being evaluated: writes before it count (``b.x = 64``).
        self.site: Node | None = None
        self.values.update(ctx.values)
        self.values.update(extra)

    def _expr(self, c: Node) -> Expr:
        if c.kind == N.MEMBER_REF and len(c.children) == 1:
            # ``ic.value`` of a generic lambda's ``auto ic`` bound to an
            # ``std::integral_constant`` (a dependent member: clang leaves it unnamed)
            base = strip(c.children[0])
            if base.kind == N.DECL_REF and base.referenced is not None:
                bound = self.values.get(key_of(base.referenced))
                if isinstance(bound, Const) and key_of(base.referenced) in \
                        self.host._lambda_params and _VALUE_MEMBER.search(
                            self.host.w.slice(c.extent)):
                    return bound
        if self.host._lambda_params and c.cursor.type.spelling == "<dependent type>":
            text = " ".join(self.host.w.slice(c.extent).split())
            for k, pname in self.host._lambda_params.items():
                bound = self.values.get(k)
                if isinstance(bound, Const) and re.fullmatch(
                        rf"decltype \( ?{pname} ?\) ?:: ?value|{pname} ?\. ?value", text):
                    return bound
        if c.kind == N.ARRAY_SUBSCRIPT and len(c.children) == 2:
            base = strip(c.children[0])
            if base.kind == N.DECL_REF and base.referenced is not None:
                elements = self.host.constant_array(self.fn, base.referenced)
                index = self.expr(c.children[1])
                if elements is not None and isinstance(index, Const) \
                        and 0 <= index.value < len(elements):
                    return Const(elements[index.value], node_int_type(c) or INT)
        return super()._expr(c)

    def known(self, c: Node) -> int | None:
        e = self.expr(c)
        return e.value if isinstance(e, Const) else None

    def block_dims(self, c: Node, depth: int = 0) -> Dims | None:
        """The ``dim3`` (or integer) value of ``c`` with each component known or None."""
        if depth > 8:
            return None
        c = strip(c)
        kind = c.kind
        if kind == N.FUNCTIONAL_CAST:
            inner = c.expr_children()
            return self.block_dims(inner[-1], depth + 1) if inner else None
        if kind in (N.CALL, N.INIT_LIST):
            args = arguments(c) if kind == N.CALL else c.expr_children()
            if kind == N.CALL and c.spelling != "dim3":
                return self._int_dims(c)
            if len(args) == 1 and node_int_type(args[0]) is None:
                return self.block_dims(args[0], depth + 1)  # a copy of another dim3
            if len(args) > 3:
                return None
            values: list[int | None] = [self.known(a) for a in args]
            while len(values) < 3:
                values.append(1)
            return (values[0], values[1], values[2])
        if kind == N.DECL_REF:
            ref = c.referenced
            if ref is None:
                return None
            k = key_of(ref)
            if k in self.dims:
                return self.dims[k]
            if ref.kind not in (K.VAR_DECL, K.PARM_DECL):
                return None
            if node_int_type(c) is not None:
                return self._int_dims(c)
            var = self.fn.vars.get(k) if self.fn is not None else None
            if var is not None:
                if var.init is None:
                    return None
                if var.modified:
                    return self._member_written(k, var, depth)
                return self.block_dims(var.init, depth + 1)
            if ref.kind != K.VAR_DECL or not ref.type.is_const_qualified():
                return None
            inits = build(ref).expr_children()
            return self.block_dims(inits[-1], depth + 1) if inits else None
        return self._int_dims(c)

    def _member_written(self, k: int, var: Var, depth: int) -> Dims | None:
        """``dim3 b; b.x = 64; b.y = 4;`` before the launch: the initializer with each
        member assignment applied in order. Only when every write to ``b`` is such an
        assignment in a block that encloses the launch (run unconditionally before it)."""
        fn, site = self.fn, self.site
        if fn is None or fn.body is None or site is None or var.address_taken \
                or var.loop_var or var.init is None:
            return None
        parents = self.host._parent_map(fn)
        enclosing: set[int] = set()
        looped = False
        cur = parents.get(id(site))
        while cur is not None:
            enclosing.add(id(cur))
            looped = looped or cur.kind in (N.FOR, N.WHILE, N.DO, K.CXX_FOR_RANGE_STMT.value)
            cur = parents.get(id(cur))
        writes: list[tuple[int, str, Node]] = []
        for n in _walk(fn.body):
            target = Executor._write_target(n)
            if target is None:
                continue
            t = strip(target)
            base = t
            while base.kind in (N.MEMBER_REF, N.ARRAY_SUBSCRIPT) and base.children:
                base = strip(base.children[0])
            if base.kind != N.DECL_REF or base.referenced is None \
                    or key_of(base.referenced) != k:
                continue
            kids = n.children
            if n.kind != N.BINARY or n.spelling != "=" or len(kids) != 2 \
                    or t.kind != N.MEMBER_REF or t.spelling not in ("x", "y", "z") \
                    or strip(t.children[0]) is not base:
                return None
            offset = n.extent.start.offset
            if offset > site.extent.start.offset:
                if looped:
                    return None  # a later write may reach the next iteration's launch
                continue
            up = parents.get(id(n))
            if up is None or up.kind != N.COMPOUND_STMT or id(up) not in enclosing:
                return None  # conditional, or in a loop that ended before the launch
            writes.append((offset, t.spelling, kids[1]))
        dims = self.block_dims(var.init, depth + 1)
        if dims is None:
            return None
        value = list(dims)
        for _, member, rhs in sorted(writes, key=lambda w: w[0]):
            value["xyz".index(member)] = self.known(rhs)
        return (value[0], value[1], value[2])

    def _int_dims(self, c: Node) -> Dims | None:
        if node_int_type(c) is None:
            # a dependent expression in a generic lambda (``ic.value``) that has a value
            v = self.known(c) if c.cursor.type.spelling == "<dependent type>" else None
            return (v, 1, 1) if v is not None else None
        return (self.known(c), 1, 1)


class HostLaunches:
    """Evaluates every launch site of a walked file (see the module docstring)."""

    def __init__(self, walker: Walker) -> None:
        self.w = walker
        self._contexts: dict[int, list[_Context]] = {}
        self._in_progress: set[int] = set()
        self._parents: dict[int, dict[int, Node]] = {}
        self._arrays: dict[tuple[int, int], list[int] | None] = {}
        self._max_threads: dict[str, int] = {}
        self.launches: list[Launch] = []
        #: The integer kernel parameters each launch passes as constants, by name, parallel
        #: to ``launches`` (see ``bind_parameters``).
        self.launch_params: list[tuple[tuple[str, int], ...]] = []
        #: kernel name -> instantiation label -> its template arguments
        self.instantiations: dict[str, dict[str, Env]] = {}
        self._callers: dict[int, list[tuple[Function, Node]]] = {}
        #: keys of generic lambdas' parameters bound to integral constants -> their names
        self._lambda_params: dict[int, str] = {}

    # --- the whole file ---------------------------------------------------------------

    def run(self) -> None:
        for fn in self.w.functions:
            if fn.body is not None and not fn.is_kernel and not fn.is_device:
                self._find_calls(fn)
        seen: set[tuple[object, ...]] = set()
        for fn in self.w.functions:
            if not fn.launches:
                continue
            check_budget()
            try:
                contexts = self.contexts(fn)
                for call in fn.launches:
                    for ctx in contexts:
                        for launch, params in self._evaluate(fn, call, ctx):
                            key = (launch.kernel, launch.block, launch.span, launch.instantiation,
                                   params)
                            if key not in seen:
                                seen.add(key)
                                self.launches.append(launch)
                                self.launch_params.append(params)
            except RecursionError:
                continue

    def _find_calls(self, fn: Function) -> None:
        """Calls from host function ``fn`` to other host functions of the file."""
        assert fn.body is not None
        stack = [fn.body]
        while stack:
            n = stack.pop()
            stack.extend(n.children)
            if n.kind != N.CALL or config_call(n) is not None:
                continue
            target = self._host_target(n)
            if target is not None and target is not fn:
                self._callers.setdefault(id(target), []).append((fn, n))

    def _host_target(self, call: Node) -> Function | None:
        callee = self._callee(call)
        if callee is None:
            return None
        ref = callee.referenced
        name, nargs = callee.spelling, len(arguments(call))
        target = None
        if ref is not None and ref.kind == K.FUNCTION_DECL:
            target = self.w.function_for(ref, name, nargs)
        elif ref is None or ref.kind == K.OVERLOADED_DECL_REF:
            name = self._overloaded_name(callee) or name
            candidates = [f for f in self.w.functions_by_name.get(name, ())
                          if len(Executor.params(f)) == nargs]
            target = candidates[0] if len(candidates) == 1 else None
        if target is None or target.is_kernel or target.is_device or target.body is None:
            return None
        return target

    @staticmethod
    def _callee(call: Node) -> Node | None:
        for ch in call.children:
            s = strip(ch)
            return s if s.kind == N.DECL_REF else None
        return None

    @staticmethod
    def _overloaded_name(callee: Node) -> str | None:
        for ch in callee.children:
            if ch.kind == K.OVERLOADED_DECL_REF.value:
                return ch.spelling
        return None

    # --- contexts ---------------------------------------------------------------------

    def contexts(self, fn: Function) -> list[_Context]:
        k = id(fn)
        hit = self._contexts.get(k)
        if hit is not None:
            return hit
        root = [_Context(Env())]
        if k in self._in_progress or fn.is_kernel or fn.is_device:
            return root
        self._in_progress.add(k)
        out: dict[tuple[object, ...], _Context] = {}
        try:
            for caller, call in self._callers.get(k, ()):
                for cctx in self.contexts(caller):
                    for extra in self.loop_assignments(caller, call, cctx):
                        ex = _HostExecutor(self, caller, cctx, extra)
                        ex.site = call
                        ctx = self._callee_context(ex, call, fn)
                        if len(out) < MAX_CONTEXTS:
                            out.setdefault(ctx.key(), ctx)
            if fn.template_params:
                # ``template void reduce<float>(int, ...);``: NVIDIA's samples instantiate
                # the host wrapper explicitly and call it from another file
                for ctx in self._explicit_contexts(fn):
                    if len(out) < MAX_CONTEXTS:
                        out.setdefault(ctx.key(), ctx)
        finally:
            self._in_progress.discard(k)
        result = list(out.values()) or root
        self._contexts[k] = result
        return result

    def _explicit_contexts(self, fn: Function) -> list[_Context]:
        out: list[_Context] = []
        for text in self.w.project_texts():
            for m in EXPLICIT_INSTANTIATION.finditer(text):
                if m.group(1) != fn.name:
                    continue
                env = self.w._text_env(fn, split_top_level(m.group(2)))
                if env is not None and env.label is not None:
                    out.append(_Context(env))
        return out

    def _callee_context(self, ex: _HostExecutor, call: Node, target: Function) -> _Context:
        env = Env()
        if target.template_params:
            callee = self._callee(call)
            if callee is not None:
                env = self.template_env(ex, callee, target) or Env()
        ctx = _Context(env)
        for a, p in zip(arguments(call), Executor.params(target), strict=False):
            t = node_int_type(p)
            pk = key_of(p.cursor)
            if t is not None:
                v = ex.known(a)
                if v is not None:
                    ctx.values[pk] = Const(v, t)
            elif "dim3" in p.type.spelling:
                dims = ex.block_dims(a)
                if dims is not None and dims != (None, None, None):
                    ctx.dims[pk] = dims
        return ctx

    # --- loops ------------------------------------------------------------------------

    def _parent_map(self, fn: Function) -> dict[int, Node]:
        hit = self._parents.get(id(fn))
        if hit is None:
            hit = {}
            assert fn.body is not None
            stack = [fn.body]
            while stack:
                n = stack.pop()
                for ch in n.children:
                    hit[id(ch)] = n
                    stack.append(ch)
            self._parents[id(fn)] = hit
        return hit

    def _refs(self, fn: Function, n: Node) -> set[int]:
        """Keys of the variables ``n`` reads, through the initializers and writes of locals."""
        out: set[int] = set()
        todo = [n]
        while todo:
            cur = todo.pop()
            stack = [cur]
            while stack:
                x = stack.pop()
                stack.extend(x.children)
                if x.kind == N.DECL_REF and x.referenced is not None:
                    k = key_of(x.referenced)
                    if k in out:
                        continue
                    out.add(k)
                    var = fn.vars.get(k)
                    if var is not None:
                        if var.init is not None:
                            todo.append(var.init)
                        todo.extend(var.writes)
        return out

    def loop_assignments(self, fn: Function, site: Node, ctx: _Context) -> list[dict[int, Const]]:
        """Values of the enclosing loops' variables that ``site`` depends on: one dict per
        combination ([{}] when it depends on none, or a loop is not a constant walk)."""
        parents = self._parent_map(fn)
        loops: list[Node] = []
        switches = False
        cur = parents.get(id(site))
        while cur is not None:
            if cur.kind in (N.FOR, K.CXX_FOR_RANGE_STMT.value):
                loops.append(cur)
            switches = switches or cur.kind == N.SWITCH
            cur = parents.get(id(cur))
        lambdas = self._lambda_bindings(fn, site)
        if not loops and not switches:
            return lambdas
        refs = self._refs(fn, site)
        assignments: list[dict[int, Const]] = lambdas
        if switches:
            narrowed = self._switch_cases(fn, site, ctx, refs)
            if narrowed is not None:
                assignments = [{**a, **b} for a in lambdas for b in narrowed]
        for loop in reversed(loops):  # outermost first: inner bounds may use outer variables
            var = self._loop_var(loop)
            if var is None or key_of(var.cursor) not in refs:
                continue
            t = node_int_type(var) or INT
            vk = key_of(var.cursor)
            grown: list[dict[int, Const]] = []
            for a in assignments:
                domain = self._domain(fn, ctx, a, loop, var)
                if domain is None:
                    grown.append(a)
                    continue
                for v in domain:
                    grown.append({**a, vk: Const(v, t)})
                if len(grown) > MAX_CONTEXTS:
                    return [{}]
            assignments = grown
        return assignments

    # --- generic lambdas ----------------------------------------------------------------

    def _lambda_bindings(self, fn: Function, site: Node) -> list[dict[int, Const]]:
        """Inside ``auto launch = [&](auto ic) { k<ic.value><<<g, ic.value>>>(); }`` the
        parameter ``ic`` holds each ``std::integral_constant<int, N>{}`` the lambda is
        called with: directly (``launch(std::integral_constant<int, 32>{})``) or from a
        host function it is passed to (``dispatch(launch, bs)`` calling ``launch(...)`` in
        a ``switch``). One assignment per call; [{}] when ``site`` is in no such lambda,
        or the lambda is used any other way (stored, passed where it cannot be followed)."""
        parents = self._parent_map(fn)
        cur = parents.get(id(site))
        while cur is not None and cur.kind != K.LAMBDA_EXPR.value:
            cur = parents.get(id(cur))
        if cur is None:
            return [{}]
        params = [ch for ch in cur.children if ch.kind == K.PARM_DECL.value]
        holder = parents.get(id(cur))
        while holder is not None and holder.kind in (N.UNEXPOSED, N.PAREN):
            holder = parents.get(id(holder))
        if not params or holder is None or holder.kind != N.VAR_DECL:
            return [{}]
        calls = self._lambda_calls(fn, key_of(holder.cursor), 0)
        if not calls:
            return [{}]
        out: list[dict[int, Const]] = []
        for args in calls:
            bound: dict[int, Const] = {}
            for p, v in zip(params, args, strict=False):
                if v is not None:
                    pk = key_of(p.cursor)
                    self._lambda_params[pk] = p.spelling
                    bound[pk] = Const(v, INT)
            if bound and bound not in out:
                out.append(bound)
            if len(out) > MAX_CONTEXTS:
                return [{}]
        return out or [{}]

    def _lambda_calls(self, fn: Function, vk: int, depth: int
                      ) -> list[tuple[int | None, ...]] | None:
        """The integral-constant values of the arguments of every call of the callable
        variable or parameter ``vk`` of ``fn``, following it into host functions it is
        passed to; None when it is used any other way."""
        if fn.body is None or depth > MAX_LAMBDA_DEPTH:
            return None
        parents = self._parent_map(fn)
        names = dict(self.w.named_consts())
        out: list[tuple[int | None, ...]] = []
        for n in _walk(fn.body):
            if n.kind != N.DECL_REF or n.referenced is None or key_of(n.referenced) != vk:
                continue
            child, up = n, parents.get(id(n))
            while up is not None and up.kind in (N.UNEXPOSED, N.PAREN):
                child, up = up, parents.get(id(up))
            if up is None or up.kind != N.CALL:
                return None
            kids = up.children
            idx = next(i for i, ch in enumerate(kids) if ch is child)
            callee = self._callee(up)
            if callee is n or (idx >= 1 and up.spelling == "operator()"):
                out.append(tuple(self._integral_constant(a, names)
                                 for a in kids[idx + 1:]
                                 if not strip(a).spelling.startswith("operator")))
                continue
            target = self._host_target(up)
            args = arguments(up)
            pos = next((i for i, a in enumerate(args) if a is child or strip(a) is n), None)
            tparams = Executor.params(target) if target is not None else []
            if target is None or pos is None or pos >= len(tparams):
                return None
            got = self._lambda_calls(target, key_of(tparams[pos].cursor), depth + 1)
            if got is None:
                return None
            out.extend(got)
        return out

    def _integral_constant(self, arg: Node, names: dict[str, int]) -> int | None:
        text = " ".join(self.w.slice(arg.extent).split())
        m = _INTEGRAL_CONSTANT.match(text) or _INTEGRAL_CONSTANT.match(
            " ".join(arg.type.spelling.split()))
        if m is not None:
            return self.w._eval_text_in(m.group(1), names)
        return None

    def _switch_cases(self, fn: Function, site: Node, ctx: _Context, refs: set[int]
                      ) -> list[dict[int, Const]] | None:
        """Inside ``switch (threads) { case 512: k<512><<<g, threads>>>(); ... }`` the
        switch variable holds the case's value: one assignment per value of the labels
        that reach ``site`` (fall-through included), for each enclosing switch on an
        unmodified integer variable that ``site`` reads. None when no switch narrows
        anything; [] when ``site`` is unreachable in this context (the variable's known
        value matches no label)."""
        parents = self._parent_map(fn)
        chain: list[Node] = [site]
        cur = parents.get(id(site))
        while cur is not None:
            chain.append(cur)
            cur = parents.get(id(cur))
        assignments: list[dict[int, Const]] = [{}]
        narrowed = False
        for i, node in enumerate(chain):
            if node.kind != N.SWITCH or i < 2:
                continue
            exprs = [ch for ch in node.children if ch.is_expr]
            cond = strip(exprs[0]) if exprs else None
            if cond is None or cond.kind != N.DECL_REF or cond.referenced is None:
                continue
            vk = key_of(cond.referenced)
            var = fn.vars.get(vk)
            t = node_int_type(cond)
            if vk not in refs or var is None or var.modified or t is None:
                continue
            body = chain[i - 1]
            top = chain[i - 2] if body.kind == N.COMPOUND_STMT else body
            labels = self._case_labels(fn, node, body, top, chain[:i])
            if labels is None:
                continue
            known = _HostExecutor(self, fn, ctx, {}).known(cond)
            if known is not None:
                if known not in labels:
                    return []
                continue  # already that value
            narrowed = True
            assignments = [{**a, vk: Const(v, t)} for a in assignments for v in labels]
            if len(assignments) > MAX_CONTEXTS:
                return None
        return assignments if narrowed else None

    def _case_labels(self, fn: Function, switch: Node, body: Node, top: Node,
                     inner: list[Node]) -> list[int] | None:
        """The case values under which control reaches ``top`` (a statement of the switch
        body on the way to the site), or None when ``default`` may reach it or a label is
        not constant."""
        labels: list[Node] = [n for n in inner if n.kind in (N.CASE, N.DEFAULT)
                              and self._owner_switch(fn, n) is switch]
        if body.kind == N.COMPOUND_STMT:
            stmts = body.children
            idx = next((j for j, st in enumerate(stmts) if st is top), None)
            if idx is None:
                return None
            j = idx
            while j >= 0:
                st = stmts[j]
                if st.kind in (N.CASE, N.DEFAULT):
                    if j != idx:
                        labels.extend(self._nested_labels(st))
                    if j == 0 or stmts[j - 1].kind in (N.BREAK, N.RETURN, N.CONTINUE,
                                                      N.GOTO):
                        break  # no fall-through into this label
                elif j != idx and st.kind in (N.BREAK, N.RETURN, N.CONTINUE, N.GOTO):
                    return None  # code after a jump, reached only by a label above it
                j -= 1
        if not labels or any(lb.kind == N.DEFAULT for lb in labels):
            return None
        values: list[int] = []
        for lb in labels:
            exprs = [ch for ch in lb.children if ch.is_expr]
            v = evaluate_int(exprs[0].cursor) if exprs else None
            if v is None:
                return None
            if v not in values:
                values.append(v)
        return values

    @staticmethod
    def _nested_labels(case: Node) -> list[Node]:
        """``case 1: case 2: stmt`` nests the second label in the first."""
        out = [case]
        cur = case
        while True:
            sub = cur.children[-1] if cur.children else None
            if sub is None or sub.kind not in (N.CASE, N.DEFAULT):
                return out
            out.append(sub)
            cur = sub

    def _owner_switch(self, fn: Function, label: Node) -> Node | None:
        parents = self._parent_map(fn)
        cur = parents.get(id(label))
        while cur is not None and cur.kind != N.SWITCH:
            cur = parents.get(id(cur))
        return cur

    @staticmethod
    def _loop_var(loop: Node) -> Node | None:
        if loop.kind == K.CXX_FOR_RANGE_STMT.value:
            first = loop.children[0] if loop.children else None
            return first if first is not None and first.kind == N.VAR_DECL else None
        for ch in loop.children:
            if ch.kind == N.DECL_STMT:
                decls = [d for d in ch.children if d.kind == N.VAR_DECL]
                return decls[0] if len(decls) == 1 else None
            break
        return None

    def _domain(self, fn: Function, ctx: _Context, outer: dict[int, Const], loop: Node,
                var: Node) -> list[int] | None:
        """The values the loop variable takes, if the loop walks a small constant set."""
        vk = key_of(var.cursor)
        ex = _HostExecutor(self, fn, ctx, outer)
        if loop.kind == K.CXX_FOR_RANGE_STMT.value:
            if len(loop.children) < 3:
                return None
            rng = strip(loop.children[1])
            if rng.kind == N.INIT_LIST:
                vals = [ex.known(e) for e in rng.expr_children()]
                return None if any(v is None for v in vals) else [v for v in vals if v is not None]
            if rng.kind == N.DECL_REF and rng.referenced is not None:
                return self.constant_array(fn, rng.referenced)
            return None
        parts = ex.for_parts(loop)
        if parts is None:
            return None
        _init, cond, inc, body = parts
        if cond is None or inc is None:
            return None
        inits = [ch for ch in var.children if ch.is_expr]
        if not inits:
            return None
        start = ex.known(inits[-1])
        if start is None or vk in self._written_in(body):
            return None
        step = self._step(ex, inc, vk)
        if step is None:
            return None
        out: list[int] = []
        v = start
        t = node_int_type(var) or INT
        for _ in range(MAX_ITERATIONS + 1):
            probe = _HostExecutor(self, fn, ctx, {**outer, vk: Const(v, t)})
            ok = probe.known(cond)
            if ok is None:
                return None
            if not ok:
                return out
            out.append(v)
            nv = step(v)
            if nv is None or nv == v:
                return None
            v = nv
        return None  # too many iterations

    def _step(self, ex: _HostExecutor, inc: Node, vk: int) -> _Step | None:
        inc = strip(inc)
        ch = inc.children
        if not ch:
            return None
        target = strip(ch[0])
        if target.kind != N.DECL_REF or target.referenced is None \
                or key_of(target.referenced) != vk:
            return None
        if inc.kind == N.UNARY:
            uo = unary_operator_kind(inc.cursor)
            if uo in (UO_POST_INC, UO_PRE_INC):
                return _Step("+", 1)
            if uo in (UO_POST_DEC, UO_PRE_DEC):
                return _Step("-", 1)
            return None
        if inc.kind == N.COMPOUND_ASSIGN and len(ch) == 2:
            amount = ex.known(ch[1])
            op = inc.spelling[:-1]
            return _Step(op, amount) if amount is not None else None
        return None

    @staticmethod
    def _written_in(n: Node) -> set[int]:
        out: set[int] = set()
        stack = [n]
        while stack:
            x = stack.pop()
            stack.extend(x.children)
            target = Executor._write_target(x)
            if target is not None:
                t = strip(target)
                if t.kind == N.DECL_REF and t.referenced is not None:
                    out.add(key_of(t.referenced))
        return out

    # --- constant arrays --------------------------------------------------------------

    def constant_array(self, fn: Function | None, ref: ci.Cursor) -> list[int] | None:
        """The elements of a one-dimensional integer array that is never written after
        its initializer (a local whose only uses are reads, or a ``const`` global)."""
        if ref.kind != K.VAR_DECL:
            return None
        k = key_of(ref)
        cache_key = (id(fn), k)
        if cache_key in self._arrays:
            return self._arrays[cache_key]
        result = None
        try:
            result = self._constant_array(fn, ref, k)
        finally:
            self._arrays[cache_key] = result
        return result

    def _constant_array(self, fn: Function | None, ref: ci.Cursor, k: int) -> list[int] | None:
        if ref.type.kind != TK.CONSTANTARRAY:
            return None
        var = fn.vars.get(k) if fn is not None else None
        if var is not None:
            if var.modified or var.writes or self._escapes(fn, k):
                return None
            decl = var.init
            init = decl if decl is not None and strip(decl).kind == N.INIT_LIST else None
            if init is None:
                node = build(ref)
                init = next((ch for ch in node.children if ch.kind == N.INIT_LIST), None)
        else:
            if not ref.type.element_type.is_const_qualified():
                return None
            node = build(ref)
            init = next((ch for ch in node.children if ch.kind == N.INIT_LIST), None)
        if init is None:
            return None
        values: list[int] = []
        for e in strip(init).expr_children():
            v = evaluate_int(e.cursor)
            if v is None:
                return None
            values.append(v)
        if len(values) != int(ref.type.element_count) or not values:
            return None
        return values

    def _escapes(self, fn: Function | None, k: int) -> bool:
        """Whether a local array is used other than by subscript, ``sizeof`` or as the range
        of a range-for (passed to a call, its address stored: it may be written)."""
        if fn is None or fn.body is None:
            return True
        parents = self._parent_map(fn)
        stack = [fn.body]
        while stack:
            n = stack.pop()
            stack.extend(n.children)
            if n.kind != N.DECL_REF or n.referenced is None or key_of(n.referenced) != k:
                continue
            up = parents.get(id(n))
            while up is not None and up.kind in (N.UNEXPOSED, N.PAREN):
                up = parents.get(id(up))
            if up is None:
                return True
            if up.kind == N.ARRAY_SUBSCRIPT or up.kind == N.UNARY_EXPR \
                    or up.kind == K.CXX_FOR_RANGE_STMT.value:
                continue
            if up.kind == N.VAR_DECL and up.spelling.startswith("__range"):
                continue  # the range-for's implicit reference to its range
            return True
        return False

    # --- one launch site ----------------------------------------------------------------

    def _evaluate(self, fn: Function, call: Node, ctx: _Context
                  ) -> list[tuple[Launch, tuple[tuple[str, int], ...]]]:
        config = config_call(call)
        if config is None:
            return []
        span = self.w.span(call.extent)
        out: list[tuple[Launch, tuple[tuple[str, int], ...]]] = []
        for extra in self.loop_assignments(fn, call, ctx):
            ex = _HostExecutor(self, fn, ctx, extra)
            ex.site = call
            args = arguments(config)
            dims = ex.block_dims(args[1]) if len(args) > 1 else None
            for kernel, env in self.kernels_of(ex, call):
                label = None
                if kernel.template_params:
                    if env is not None and env.label is not None:
                        self.instantiations.setdefault(kernel.name, {}).setdefault(
                            env.label, env)
                        label = env.label
                    else:
                        label = None
                cap = self._cap(kernel)
                shapes = expand_shape(dims, cap) if dims is not None else []
                params = self._parameter_values(ex, call, kernel)
                if not shapes:
                    partial = row_warp_shape(dims, cap) if dims is not None else None
                    out.append((Launch(kernel.name, None, span, label, partial), params))
                for shape in shapes:
                    out.append((Launch(kernel.name, shape, span, label), params))
        return out

    @staticmethod
    def _parameter_values(ex: _HostExecutor, call: Node, kernel: Function
                          ) -> tuple[tuple[str, int], ...]:
        """The kernel's integer parameters this launch passes as constants in its context
        (``const int Bc = 32``, a ``#define``, a literal, a known host parameter)."""
        out: list[tuple[str, int]] = []
        for a, p in zip(arguments(call), Executor.params(kernel), strict=False):
            if node_int_type(p) is None or not p.spelling:
                continue
            v = ex.known(a)
            if v is not None:
                out.append((p.spelling, v))
        return tuple(out)

    # --- kernel parameters ------------------------------------------------------------

    def bind_parameters(self, kernel: Function, env: Env, accesses: list[Access]
                        ) -> tuple[list[Env], bool]:
        """Environments that run ``kernel`` (under template arguments ``env``) with the
        integer parameters its shared accesses depend on bound to the constants its
        launches pass, one per distinct set of values; and whether the symbolic run is
        still needed (a launch of this instantiation that binds none of them, or none).

        Each launch is relabelled with its environment's label (``Bc=32`` after the
        template arguments), so that the model pairs each launch's shape with the
        accesses its values give; a parameter a launch does not pass as a constant stays
        symbolic in that launch's environment.
        """
        used: set[str] = set()
        for a in accesses:
            _symbols(a.offset, used)
            if a.guard is not None:
                _symbols(a.guard, used)
        names = [p.spelling for p in Executor.params(kernel) if p.spelling in used]
        mine = [i for i, launch in enumerate(self.launches)
                if launch.kernel == kernel.name and launch.instantiation == env.label]
        if not names or not mine:
            return [], True
        envs: dict[str, Env] = {}
        symbolic = False
        for i in mine:
            bound = {n: v for n, v in self.launch_params[i] if n in names}
            if not bound:
                symbolic = True
                continue
            text = ", ".join(f"{n}={bound[n]}" for n in names if n in bound)
            label = f"{env.label}, {text}" if env.label else text
            if label not in envs:
                envs[label] = Env(label, dict(env.values), dict(env.types), bound)
            self.launches[i] = replace(self.launches[i], instantiation=label)
        return list(envs.values()), symbolic

    def _cap(self, kernel: Function) -> int:
        hit = self._max_threads.get(kernel.name)
        if hit is None:
            try:
                hit = self.w._kernel_record(kernel).max_threads or MAX_THREADS
            except Exception:  # an attribute the walker cannot read: the hardware limit
                hit = MAX_THREADS
            self._max_threads[kernel.name] = hit
        return hit

    def kernels_of(self, ex: _HostExecutor, call: Node) -> list[tuple[Function, Env | None]]:
        """The kernels a launch may start, each with its template arguments if known."""
        callee = self._callee(call)
        if callee is None:
            return []
        ref = callee.referenced
        if ref is not None and ref.kind in (K.VAR_DECL, K.PARM_DECL):
            return self._pointer_targets(ex, ref)
        name = callee.spelling
        if ref is None or ref.kind == K.OVERLOADED_DECL_REF:
            name = self._overloaded_name(callee) or name
        kernel = self.w.kernels_by_name.get(name)
        if kernel is None:
            return []
        return [(kernel, self.template_env(ex, callee, kernel) if kernel.template_params
                 else None)]

    def _pointer_targets(self, ex: _HostExecutor, ref: ci.Cursor
                         ) -> list[tuple[Function, Env | None]]:
        """Kernels a function-pointer variable may hold: its initializer and every value
        assigned to it, when each is a kernel of this file."""
        fn = ex.fn
        var = fn.vars.get(key_of(ref)) if fn is not None else None
        if var is None or var.address_taken or var.is_param:
            return []
        sources = ([var.init] if var.init is not None else []) + list(var.writes)
        out: list[tuple[Function, Env | None]] = []
        for s in sources:
            targets = self._function_refs(ex, s, 0)
            if targets is None:
                return []
            out.extend(targets)
        unique: dict[tuple[str, str | None], tuple[Function, Env | None]] = {}
        for kernel, env in out:
            unique.setdefault((kernel.name, env.label if env else None), (kernel, env))
        return list(unique.values())

    def _function_refs(self, ex: _HostExecutor, n: Node, depth: int
                       ) -> list[tuple[Function, Env | None]] | None:
        if depth > 8:
            return None
        n = strip(n)
        if n.kind == N.CONDITIONAL:
            kids = n.expr_children()
            if len(kids) != 3:
                return None
            c = ex.known(kids[0])
            branches = [kids[1]] if c else [kids[2]] if c == 0 else kids[1:]
            out: list[tuple[Function, Env | None]] = []
            for b in branches:
                got = self._function_refs(ex, b, depth + 1)
                if got is None:
                    return None
                out.extend(got)
            return out
        if n.kind == N.UNARY and n.children:
            return self._function_refs(ex, n.children[0], depth + 1)
        if n.kind == N.DECL_REF:
            ref = n.referenced
            if ref is None or ref.kind != K.FUNCTION_DECL:
                return None
            kernel = self.w.kernels_by_name.get(n.spelling or ref.spelling)
            if kernel is None:
                return None
            return [(kernel, self.template_env(ex, n, kernel) if kernel.template_params
                     else None)]
        return None

    # --- template arguments -----------------------------------------------------------

    def template_env(self, ex: _HostExecutor, callee: Node, target: Function) -> Env | None:
        """Template arguments a reference names: from the specialization clang resolved,
        else from the text between the angle brackets evaluated in the context."""
        env = self.w._spec_env(callee, target)
        if env is not None:
            return env
        text = self.w.slice(callee.extent)
        m = re.search(r"<(.*)>\s*$", text, re.S)
        if not m:
            return None
        args = split_top_level(m.group(1))
        if len(args) != len(target.template_params):
            return None
        names = dict(self.w.named_consts())
        names.update(ex.env.values)
        for k, carried in ex.values.items():
            pname = self._lambda_params.get(k)
            if pname is not None and isinstance(carried, Const):
                # ``ic.value``, ``decltype(ic)::value``, ``ic()``: the constant it carries
                args = [re.sub(rf"(?:\bdecltype\s*\(\s*{pname}\s*\)\s*::\s*value\b"
                               rf"|\b{pname}\s*\.\s*value\b|\b{pname}\s*\(\s*\))",
                               str(carried.value), a) for a in args]
        env = Env()
        parts: list[str] = []
        for p, arg in zip(target.template_params, args, strict=True):
            spelled = " ".join(arg.split())
            if p.is_type:
                bound = ex.env.types.get(spelled)
                size = bound[1] if bound is not None else self.w.type_size(spelled)
                if size is None:
                    return None
                shown = bound[0] if bound is not None else spelled
                env.types[p.name] = (shown, size)
                parts.append(f"{p.name}={shown}")
                continue
            for ident in re.findall(r"[A-Za-z_]\w*", arg):
                if ident not in names:
                    v = self._lambda_local(ex, ident)
                    if v is None:
                        v = self._local_value(ex, ident)
                    if v is not None:
                        names[ident] = v
            value = self.w._eval_text_in(arg, names)
            if value is None:
                return None
            env.values[p.name] = value
            parts.append(f"{p.name}={value}")
        env.label = ", ".join(parts)
        return env

    def _lambda_local(self, ex: _HostExecutor, name: str) -> int | None:
        """A local named ``name`` declared in a lambda around the site, before it
        (``constexpr int block_size = ic.value;``), which hides a same-named variable of
        the enclosing function."""
        fn, site = ex.fn, ex.site
        if fn is None or fn.body is None or site is None:
            return None
        parents = self._parent_map(fn)
        cur = parents.get(id(site))
        while cur is not None:
            if cur.kind == K.LAMBDA_EXPR.value:
                decls = [n for n in _walk(cur) if n.kind == N.VAR_DECL and n.spelling == name
                         and n.extent.start.offset < site.extent.start.offset]
                if len(decls) == 1:
                    var = fn.vars.get(key_of(decls[0].cursor))
                    if var is None or var.modified or var.init is None:
                        return None
                    return ex.known(var.init)
            cur = parents.get(id(cur))
        return None

    @staticmethod
    def _local_value(ex: _HostExecutor, name: str) -> int | None:
        fn = ex.fn
        if fn is None:
            return None
        keys = [k for k, var in fn.vars.items() if var.name == name]
        if len(keys) != 1:
            return None
        k = keys[0]
        cur = ex.values.get(k)
        if isinstance(cur, Const):
            return cur.value
        var = fn.vars[k]
        if var.modified or var.init is None:
            return None
        return ex.known(var.init)


@dataclass(frozen=True)
class _Step:
    op: str
    amount: int

    def __call__(self, v: int) -> int | None:
        return binary_value(self.op, v, self.amount, LONG)


def _symbols(e: object, out: set[str]) -> None:
    """Names of the symbols an expression reads (into ``out``)."""
    if isinstance(e, Sym):
        out.add(e.name)
    if is_dataclass(e) and not isinstance(e, type):
        for f in fields(e):
            v = getattr(e, f.name)
            if isinstance(v, tuple):
                for x in v:
                    _symbols(x, out)
            elif is_dataclass(v):
                _symbols(v, out)


def _walk(n: Node) -> list[Node]:
    out: list[Node] = []
    stack = [n]
    while stack:
        x = stack.pop()
        out.append(x)
        stack.extend(x.children)
    return out
