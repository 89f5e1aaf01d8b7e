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

Before the site, each path through the host function's statements is followed (``_Flow``):
integer locals, and each component of a ``dim3`` local declared there (``dim3 b(16, 2);
if (wide) b.x = 32;`` launches (16, 2, 1) and (32, 2, 1)). A kernel this file only declares
(defined in another file of its folder) gets its launches recorded under its name for
``cudalint.linking``.

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
complete shape the model enumerates exactly; an unknown ``y`` is expanded the same way. When
``x`` is a known multiple of 32 (``dim3(32, by, bz)``, run-time ``by`` and ``bz``) every warp
is one ``(y, z)`` row, and the launch keeps its known components (``Launch.partial``) for the
model to range over every legal ``y``/``z`` (see ``row_warp_shape``) rather than proving each
listed shape; a set larger than ``MAX_SHAPES`` is not sampled: the shape is unknown.

A block size known only at run time that the host code bounds to a finite set
(``min(256, n)``, ``while (nth < n && nth < 1024) nth *= 2``, a helper returning a power of
two, a ``dim3`` parameter the caller passes one of those) stands for every shape of the
set, each launch record carrying the set in words (``Launch.bound``; see
``launch_sets``); the model words the worst over it as such.

Nothing here guesses: a value that is not constant in a context stays unknown, and a launch
whose template arguments are unknown leaves the kernel's symbolic (uninstantiated) analysis
in charge.

What the statements before a site leave (``_Flow``) is worked out once per site and set of
inputs it can depend on (``HostLaunches.flow``: contexts that differ only in parameters
named at or after the site share it), and the states after each statement of a block are
kept for the next site of the same context (``_Flow._prefix``), so a function with many
launches, or called with many values, does not follow its statements again for each.
Neither changes a result: the keys hold everything the statements run can read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Protocol

import clang.cindex as ci

from cudalint.budget import check as check_budget
from cudalint.frontend import cexpr
from cudalint.frontend import types as ty
from cudalint.frontend.consteval import (
    UO_ADDR_OF,
    UO_POST_DEC,
    UO_POST_INC,
    UO_PRE_DEC,
    UO_PRE_INC,
    binary_value,
    evaluate_int,
    unary_operator_kind,
    wrap,
)
from cudalint.frontend.cursors import (
    COMPOUND_ASSIGN_OPS,
    EXPLICIT_INSTANTIATION,
    Env,
    Function,
    K,
    N,
    Var,
    arguments,
    enclosing,
    function_reference,
    key_of,
    node_int_type,
    split_top_level,
    strip,
)
from cudalint.frontend.execute import _MAX_DEPTH as MAX_INLINE_DEPTH
from cudalint.frontend.execute import LAUNCH_CONFIG_CALLS, DependentClass, Executor, fn_key
from cudalint.frontend.launch_api import (
    CASTS,
    MODULE_GET_FUNCTION,
    Site,
    api_launch,
    config_call,
    is_launch,
    mangled_name,
    site_of,
    string_literal,
    unwrap,
)
from cudalint.frontend.launch_sets import (
    WARP_SIZE,
    ComponentSets,
    component_sets,
    describe,
    device_warp_size,
    launch_set,
    warp_size_queries,
    where_text,
)
from cudalint.frontend.program import Program
from cudalint.frontend.tree import Node, build, subtree
from cudalint.ir import (
    INT,
    LONG,
    UINT,
    Access,
    Const,
    Expr,
    Launch,
    Opaque,
    OpaqueKind,
    Span,
    Sym,
)
from cudalint.model.arch import MAX_BLOCK_Z as MAX_Z
from cudalint.model.arch import MAX_THREADS_PER_BLOCK as MAX_THREADS

#: The call clang puts in a ``<<<>>>`` expression for its launch configuration:
#: ``cudaConfigureCall`` (cudalint's shim, CUDA < 9.2), ``__cudaPushCallConfiguration``
#: (real toolkits since 9.2), ``hipConfigureCall`` (HIP).
CONFIG_FUNCTIONS = LAUNCH_CONFIG_CALLS

#: Contexts one function is evaluated in, and loop assignments one site is evaluated under.
MAX_CONTEXTS = 64
#: ``HostLaunches.contexts`` stops working out a callee's contexts once
#: ``MAX_CONTEXTS`` are kept (the rest would be dropped); False works them all out, the
#: reference ``tests/test_speed_host_cap.py`` compares with.
SKIP_PAST_CAP = True
#: ``HostLaunches.contexts`` works out a callee's context once per caller context, site
#: and values the statements before it leave (``flow``): the same inputs again (another
#: loop value the site does not read, ggml's ``launch_fattn`` reaching
#: ``ggml_cuda_kernel_launch`` the same way from several paths) give the same context.
#: False works every one out, the reference ``tests/test_speed_host_cap.py`` compares with.
DEDUPE_CALLEE_CONTEXTS = True
#: ``_Flow.decls`` keeps the value of a local's initializer by what it can read
#: (``HostLaunches._init_key``): the same declaration run in another context whose
#: template arguments and values it does not read gives the same value. False runs
#: every one, the reference ``tests/test_speed_host_cap.py`` compares with.
MEMO_INITIALIZERS = True
_IDENT = re.compile(r"[A-Za-z_]\w*")
#: Iterations a constant loop may have for its variable to be enumerated.
MAX_ITERATIONS = 64
#: Instantiations of one kernel a file analyses when launches through function pointers,
#: or in host templates instantiated by a macro, add them (ggml's ``DECL_MMQ_CASE(type)``
#: reaches 32 instantiations of ``mul_mat_q`` in one file, its
#: ``ggml_cuda_kernel_launch`` hundreds): later ones are left out, in the order the
#: launches are found. Other launches (``k<64><<<...>>>``) are not limited.
MAX_POINTER_INSTANTIATIONS = 4
#: Shapes one launch may stand for when a block dimension is unknown.
MAX_SHAPES = 64

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


def _keeps_state(fn: Function, memo: dict[int, tuple[Node, bool]]) -> bool:
    """Whether ``fn``'s body has a ``static`` local that is not ``const``: a call's value
    then depends on the calls before it (``static int n = 0; return 32 * ++n;`` gives 32,
    then 64), which ``call_value`` does not follow: such a call has no value.

    ``memo``: the answers by id() of the function, each with the body it is for (kept
    alive, so that the id stays its own); the walk's (``HostLaunches.stateful``), not
    the process's: a body holds its walker, and through it the file's translation unit
    and cursor trees (a module-level memo of 4096 bodies kept every earlier file's unit
    alive in one process: 40-60 MB a ggml file, 16 GB after ggml's CUDA backend)."""
    body = fn.body
    if body is None:
        return False
    hit = memo.get(id(fn))
    if hit is not None and hit[0] is body:
        return hit[1]
    found = any(_static_mutable(x) for x in subtree(body) if x.kind == N.VAR_DECL)
    memo[id(fn)] = (body, found)
    return found


def _static_mutable(decl: Node) -> bool:
    """Whether the variable ``decl`` is ``static`` and not ``const``."""
    try:
        return decl.cursor.storage_class == ci.StorageClass.STATIC \
            and not ty.is_const(decl.cursor.type)
    except Exception:  # a declaration libclang cannot describe: it may keep state
        return True


def expand_shape(dims: Dims, cap: int = MAX_THREADS) -> list[Shape]:
    """Every legal block shape ``dims`` may stand for (unknown components enumerated), or
    [] when ``x`` is unknown or there are more than ``MAX_SHAPES``."""
    x, y, z = dims
    if x is None or x < 1:
        return []
    if y is not None and z is not None:
        return [(x, y, z)]  # as launched, even past a limit: the launch itself would fail
    if x % 32 == 0:
        # whole-row warps (``row_warp_shape``): the model ranges over ``y``/``z`` where
        # the index reads them, instead of one proof per listed shape (ggml's
        # ``dim3(warp_size, nwarps)``: 32 shapes, each proved again)
        return []
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


def _member_key(k: int, i: int) -> int:
    """The key under which ``_Flow`` keeps component ``i`` (x, y, z) of the ``dim3``
    local with key ``k`` (declaration keys are 32-bit hashes: these never collide)."""
    return (1 << 40) + 4 * k + i


def _with_members(keys: set[int]) -> set[int]:
    return keys | {_member_key(k, i) for k in keys for i in range(3)}


def _is_dim3(n: Node) -> bool:
    t = n.cursor.type
    return node_int_type(n) is None and ty.canonical_spelling(t).replace(
        "const ", "").replace("struct ", "").strip() == "dim3"


def _is_launch_config(n: Node) -> bool:
    """Whether ``n`` is a ``cudaLaunchConfig_t`` (``cudaLaunchKernelEx``'s configuration)."""
    return node_int_type(n) is None and ty.canonical_spelling(n.cursor.type).replace(
        "const ", "").replace("struct ", "").strip() == "cudaLaunchConfig_st"


@dataclass
class _Context:
    """One way a function runs: template arguments and known parameter values."""

    env: Env
    values: dict[int, Const] = field(default_factory=dict)
    dims: dict[int, Dims] = field(default_factory=dict)
    #: Function-pointer parameters (by key) whose call sites pass kernels of the file:
    #: each kernel with its template arguments, if known (``_pointer_targets``).
    kernels: dict[int, tuple[tuple[Function, Env | None], ...]] = field(default_factory=dict)
    #: ``dim3`` members of struct parameters (by key and member name) that the call site
    #: gives (``launch(k, cfg)`` with ``cfg`` built from a known ``dim3``).
    fields: dict[tuple[int, str], Dims] = field(default_factory=dict)
    #: Reached from a macro-written explicit instantiation (``_macro_instantiations``):
    #: the kernels it launches count against ``MAX_POINTER_INSTANTIATIONS``.
    limited: bool = False
    #: ``dim3`` parameters (by key) whose call site passes a shape bounded to a finite
    #: set (``launch_sets.component_sets``): ``launch(..., block_dims)`` with ``nth``
    #: from a doubling loop in the caller.
    dim_sets: dict[int, ComponentSets] = field(default_factory=dict)

    def key(self) -> tuple[object, ...]:
        return (
            self.env.label,
            tuple(sorted((k, c.value) for k, c in self.values.items())),
            tuple(sorted(self.dims.items())),
            tuple(sorted((k, tuple((f.name, e.label if e is not None else None)
                                   for f, e in v)) for k, v in self.kernels.items())),
            tuple(sorted(self.fields.items())),
            tuple(sorted(self.dim_sets.items())),
        )


class _HostExecutor(Executor):
    """The executor's expression evaluation with a context's values bound, and reads of
    constant arrays (``block_sizes[j]``) folded."""

    def __init__(self, host: HostLaunches, fn: Function, ctx: _Context,
                 extra: Mapping[int, Const | None]) -> None:
        super().__init__(host.w, fn, ctx.env)
        self.host = host
        self.dims = ctx.dims
        self.dim_sets = ctx.dim_sets
        self.kernels = ctx.kernels
        self.fields = ctx.fields
        #: Set when a template argument named a local declared in several blocks
        #: (``HostLaunches._in_scope``): the context it gives counts as ``limited``.
        self.scoped = False
        #: The launch (or call) being evaluated: writes before it count (``b.x = 64``).
        self.site: Node | None = None
        #: What the ``if`` conditions around the site say (``HostLaunches.guard_facts``):
        #: an expression (``_fact_key``: what it reads) -> the expression it equals there.
        self.facts: dict[tuple[object, ...], Node | int] = {}
        self.values.update(ctx.values)
        self.lane_event_lists = host.lane_event_lists  # the file's, not one context's
        self.body_facts = host.body_facts
        #: Variables whose value here the statements before the site decide (see
        #: ``_Flow``): a constant, or (in ``unknown``) no known value, whatever their
        #: initializer or context says.
        self.flowed: set[int] = set(extra)
        self.unknown: set[int] = set()
        for k, v in extra.items():
            if v is None:
                self.values.pop(k, None)
                self.unknown.add(k)
            else:
                self.values[k] = v

    def decl_ref(self, c: Node) -> Expr:
        ref = c.referenced
        if ref is not None and ref.kind in (K.VAR_DECL, K.PARM_DECL):
            k = key_of(ref)
            if k in self.unknown:
                return Opaque(OpaqueKind.VARIABLE, f"'{c.spelling}' has no known value here",
                              (), node_int_type(c) or INT, c.spelling, "has no known value here")
            cur = self.values.get(k)
            if k in self.flowed and isinstance(cur, Const):
                return cur  # its value before its address escapes (``f(&x)`` later)
        return super().decl_ref(c)

    def _expr(self, c: Node) -> Expr:
        if self.facts and self.depth == 0:  # the site's own frame, not a helper's
            key = _fact_key(c) if c.kind in _FACT_KINDS else None
            other = self.facts.get(key) if key is not None else None
            if isinstance(other, int):
                return Const(other, node_int_type(c) or INT)  # a comparison that holds
            if other is not None:
                facts, self.facts = self.facts, {}  # ``A == B``: no way back to A
                try:
                    v = self.expr(other)
                finally:
                    self.facts = facts
                t = node_int_type(c)
                if isinstance(v, Const) and t is not None:
                    return Const(v.value, t)
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
        if self.host._lambda_params and ty.spelling(c.cursor.type) == "<dependent type>":
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
        if c.kind == N.MEMBER_REF:
            warp = device_warp_size(c)  # ``prop.warpSize``: 32 on every NVIDIA GPU
            if warp is not None:
                return Const(warp, node_int_type(c) or INT)
            member = self._dim3_member(c)
            if member is not None:
                return Const(member, node_int_type(c) or UINT)
        return super()._expr(c)

    def dependent_type(self, text: str, depth: int = 0) -> DependentClass | str | None:
        """The executor's, where a local ``using``/``typedef`` of that name in scope at the
        site is read first: one macro argument expanded twice (``BOOL_SWITCH``'s branches,
        each with its own ``constexpr bool``) declares one alias per expansion, and the
        one that the site sees is the one in its own branch."""
        name = text.strip()
        if self.site is not None and self.fn is not None and name.isidentifier():
            alias = self.host.alias_in_scope(self.fn, self.site, name)
            if alias is not None:
                return super().dependent_type(
                    ty.spelling(alias.underlying_typedef_type), depth + 1)
        return super().dependent_type(text, depth)

    def _dim3_member(self, c: Node) -> int | None:
        """``b.x`` of a ``dim3`` local or parameter that nothing writes after its
        declaration (ggml's ``dim3 block_dims_fixup(block_dims.x, block_dims.y / 2,
        block_dims.z)``): that component of its value. A written one is left out: its
        value where ``b.x`` is read need not be the one at the launch."""
        if c.spelling not in ("x", "y", "z") or len(c.children) != 1:
            return None
        base = strip(c.children[0])
        if base.kind != N.DECL_REF or base.referenced is None or not _is_dim3(base):
            return None
        var = self.fn.vars.get(key_of(base.referenced)) if self.fn is not None else None
        if var is None or var.modified or var.writes:
            return None
        dims = self.block_dims(base)
        return dims["xyz".index(c.spelling)] if dims is not None else None

    def returned_value(self, c: Node, target: Function, args: list[Node]) -> Expr | None:
        """``return EXPR;`` bodies as the executor inlines them; else, for a host (or
        ``__host__ __device__``) function of the file, its statements run on the
        argument values here (``largestPowerOfTwoLessOrEqual(block_size)``: a loop and
        early returns): the value when every path returns the same constant.

        A free function whose body is not one ``return EXPR;`` (the inlining failed on
        its statements alone, no value read: ``Executor.returned_open``) is not tried
        again in this walk: a flow asks for every call on every path (matrixMul's
        ``checkCmdLineFlag``, 17 times a walk)."""
        k = fn_key(target)
        plain = not target.template_params and target.node.cursor.kind == K.FUNCTION_DECL
        if plain and k in self.host.not_inlined:
            got = None
        else:
            # (a call too deep or recursive here is refused by this executor's state)
            refused = self.depth >= MAX_INLINE_DEPTH or k in self.stack
            self.returned_open = False
            got = super().returned_value(c, target, args)
            if got is None and plain and not refused and not self.returned_open:
                self.host.not_inlined.add(k)
        if got is not None or target.body is None or target.is_kernel:
            return got
        t = node_int_type(c)
        if t is None:
            return None
        values: dict[int, Const] = {}
        for p, a in zip(self.params(target), args, strict=False):
            pt = node_int_type(p)
            v = self.known(a) if pt is not None else None
            if v is not None and pt is not None:
                wrapped = binary_value("+", v, 0, pt)  # converted to the parameter's type
                values[key_of(p.cursor)] = Const(v if wrapped is None else wrapped, pt)
        v = self.host.call_value(target, values)
        return Const(v, t) if v is not None else None

    def known(self, c: Node) -> int | None:
        e = self.expr(c)
        return e.value if isinstance(e, Const) else None

    def lane_source(self, name: str, target: Function | None, depth: int = 0) -> bool:
        """By the name only (an atomic, a shuffle, a clock): the body of a function a
        call runs is not read here. Host code has no lanes, and its evaluation reads
        constants only; the answer would add the thread index to the inputs of a value
        that is not one. Reading the bodies cost each flow (an executor per statement and
        path, each with its own answers) a walk of every helper called, and built their
        bodies (matrixMul's ``findCudaDevice``, whose value ``call_value`` keeps)."""
        return super().lane_source(name, None, depth)

    def site_dims(self, site: Site) -> Dims | None:
        """The block shape of a launch site, each component known or None."""
        if site.block is not None:
            return self.block_dims(site.block)
        if site.components is not None:
            x, y, z = site.components
            return (self.known(x), self.known(y), self.known(z))
        if site.config is not None:
            return self.config_dims(site.config)
        return None

    def config_dims(self, config: Node) -> Dims | None:
        """``blockDim`` of the ``cudaLaunchConfig_t`` a ``cudaLaunchKernelEx`` is given:
        of a local, what the statements before the site leave in it (``_Flow`` follows
        ``config.blockDim = b``, ``config.blockDim.x = 64`` and ``config = {g, b}`` as it
        follows a ``dim3`` local's components); of a parameter, what its call site gives
        (``_Context.fields``)."""
        c = strip(config)
        if c.kind == N.MEMBER_REF and len(c.children) == 1 and _is_launch_config(c):
            return self._member_config_dims(c)
        ref = c.referenced if c.kind == N.DECL_REF else None
        if ref is None or not _is_launch_config(c):
            return None
        k = key_of(ref)
        members = [_member_key(k, i) for i in range(3)]
        if all(m in self.flowed for m in members):
            got = tuple(g.value if isinstance(g, Const) else None
                        for g in (self.values.get(m) for m in members))
            return got  # type: ignore[return-value]
        return self.field_dims(c, "blockDim", 0)

    def _member_config_dims(self, c: Node) -> Dims | None:
        """``blockDim`` of ``obj.cfg``, a configuration member of a local ``obj`` that a
        constructor call builds (``auto pdl = pdl_config(params); cudaLaunchKernelEx(
        &pdl.cfg, ...)``, ggml's ``ggml_cuda_kernel_launch``): what the constructor's
        body leaves in it, statement by statement (``cfg = {}; cfg.blockDim =
        params.block_dims;``), each value read from the constructor's arguments at the
        call. Only when nothing but launches uses the local after it is built (``&obj.cfg``
        given to a launch function)."""
        fn = self.fn
        base = strip(c.children[0])
        ref = base.referenced if base.kind == N.DECL_REF else None
        if fn is None or fn.body is None or ref is None or ref.kind != K.VAR_DECL:
            return None
        k = key_of(ref)
        var = fn.vars.get(k)
        if var is None or var.init is None or var.assigned or var.writes:
            return None
        exempt = self.host.launch_addresses(fn)
        parents = self.host._parent_map(fn)
        for n in subtree(fn.body):
            if n.kind != N.DECL_REF or n.referenced is None or key_of(n.referenced) != k:
                continue
            up = parents.get(id(n))
            while up is not None and up.kind in (N.MEMBER_REF, N.UNEXPOSED, N.PAREN):
                up = parents.get(id(up))
            if up is None or id(up) not in exempt:
                return None  # used some other way: it may change the configuration
        init = strip(var.init)
        while init.kind in (N.FUNCTIONAL_CAST, N.UNEXPOSED) and len(init.expr_children()) == 1:
            init = strip(init.expr_children()[0])
        ctor = init.referenced if init.kind == N.CALL else None
        if ctor is None or ctor.kind != K.CONSTRUCTOR:
            return None
        definition = ctor.get_definition()
        if definition is None:
            return None
        members = build(definition).children
        params = [key_of(p.cursor) for p in members if p.kind == N.PARM_DECL]
        body = next((m for m in members if m.kind == N.COMPOUND_STMT), None)
        args = arguments(init)
        if body is None or len(args) < len(params):
            return None
        name = c.spelling
        owner = definition.semantic_parent

        def touches(n: Node) -> bool:
            """Whether ``n`` names the member, ``this``, or calls a method of the class
            (which may change the member)."""
            for x in subtree(n):
                if (x.kind == N.MEMBER_REF and x.spelling == name) \
                        or x.kind == K.CXX_THIS_EXPR.value:
                    return True
                ref = x.referenced if x.kind == N.CALL else None
                if ref is not None and ref.kind == K.CXX_METHOD \
                        and ref.semantic_parent == owner:
                    return True
            return False

        dims: list[int | None] = [None, None, None]
        for st in body.children:
            target = Executor._write_target(strip(st)) if st.is_expr else None
            chain: list[str] = []
            t = strip(target) if target is not None else None
            while t is not None and t.kind == N.MEMBER_REF:
                chain.append(t.spelling)
                kids = t.children
                t = strip(kids[0]) if kids else None
                if t is not None and t.kind == K.CXX_THIS_EXPR.value:
                    t = None
            chain.reverse()
            if target is None or t is not None or not chain or chain[0] != name:
                if touches(st):
                    return None  # a statement that may write it some other way
                continue  # another member (``attr.id = ...``), another object
            kids = strip(st).children
            rhs = kids[-1] if len(kids) >= 2 else None
            if rhs is not None and touches(rhs):
                return None
            if len(chain) == 1:
                dims = [None, None, None]  # ``cfg = {}``: its blockDim unknown until set
            elif chain[1] != "blockDim":
                continue
            elif len(chain) == 2 and rhs is not None:
                got = self._ctor_value(rhs, params, args)
                dims = list(got) if got is not None else [None, None, None]
            elif len(chain) == 3 and chain[2] in ("x", "y", "z") and rhs is not None:
                v = self._ctor_value(rhs, params, args)
                dims["xyz".index(chain[2])] = v[0] if v is not None and v[1:] == (1, 1) \
                    else None
            else:
                dims = [None, None, None]
        return (dims[0], dims[1], dims[2])

    def _ctor_value(self, rhs: Node, params: list[int], args: list[Node]) -> Dims | None:
        """A ``dim3`` (or integer) value in a constructor's body, read from its arguments
        ``args`` (by the parameters' keys ``params``): a parameter, a member of one, or a
        value that reads neither."""
        r = strip(rhs)
        while r.kind in (N.CALL, N.FUNCTIONAL_CAST) and node_int_type(r) is None \
                and len(r.expr_children()) == 1 and r.spelling in ("dim3", ""):
            r = strip(r.expr_children()[0])  # dim3's copy constructor
        if r.kind == N.DECL_REF and r.referenced is not None \
                and key_of(r.referenced) in params:
            return self.block_dims(args[params.index(key_of(r.referenced))])
        if r.kind == N.MEMBER_REF and len(r.children) == 1:
            b = strip(r.children[0])
            if b.kind == N.DECL_REF and b.referenced is not None \
                    and key_of(b.referenced) in params:
                return self.field_dims(args[params.index(key_of(b.referenced))], r.spelling, 0)
        if any(x.kind == N.MEMBER_REF or (x.kind == N.DECL_REF and x.referenced is not None
                                          and key_of(x.referenced) in params)
               for x in subtree(r)):
            return None
        return self.block_dims(r)

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
        if kind == N.MEMBER_REF and len(c.children) == 1 and _is_dim3(c):
            return self.field_dims(c.children[0], c.spelling, depth + 1)  # ``cfg.block``
        if kind == N.DECL_REF:
            ref = c.referenced
            if ref is None:
                # a dependent name (``Ktraits::kNThreads`` in a host template): the value
                # of the member in this context's class, if it is an integer
                return self._int_dims(c)
            k = key_of(ref)
            if k in self.dims:
                return self.dims[k]
            if ref.kind not in (K.VAR_DECL, K.PARM_DECL):
                return None
            if node_int_type(c) is not None:
                return self._int_dims(c)
            var = self.fn.vars.get(k) if self.fn is not None else None
            members = [_member_key(k, i) for i in range(3)]
            if var is not None and all(m in self.flowed for m in members):
                # what the statements before the site leave in it, path by path
                # (``if (n < 512) b.x = n; else b.x = 512;``: see ``_Flow``)
                got = tuple(g.value if isinstance(g, Const) else None
                            for g in (self.values.get(m) for m in members))
                if None in got and var.init is not None:
                    # writes that all run before the site, read there with what a
                    # ``switch`` narrowed (``dim3 b(K); b.y = 2; switch (K) {...}``)
                    lazy = self._member_written(k, var, depth)
                    if lazy is not None:
                        return lazy
                return got  # type: ignore[return-value]
            if var is not None:
                if var.init is None:
                    return None
                if var.modified:
                    return self._member_written(k, var, depth)
                return self.block_dims(var.init, depth + 1)
            if ref.kind != K.VAR_DECL or not ty.is_const(ref.type):
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
        for n, target in self.host._write_nodes(fn):
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
            v = self.known(c) if ty.spelling(c.cursor.type) == "<dependent type>" else None
            return (v, 1, 1) if v is not None else None
        return (self.known(c), 1, 1)

    def field_dims(self, base: Node, name: str, depth: int) -> Dims | None:
        """The ``dim3`` member ``name`` of the struct ``base`` names (``cfg.block``): a
        parameter's as its call site gave it (``_Context.fields``), or a local's from its
        initializer (a constructor whose member initializer copies one of its
        parameters, ``{g, b}`` of an aggregate) when nothing writes the local after it."""
        b = strip(base)
        if depth > 8 or b.kind != N.DECL_REF or b.referenced is None:
            return None
        ref = b.referenced
        k = key_of(ref)
        got = self.fields.get((k, name))
        if got is not None or ref.kind != K.VAR_DECL:
            return got
        var = self.fn.vars.get(k) if self.fn is not None else None
        if var is not None:
            if var.init is None or var.modified or var.writes:
                return None
            return self.init_field(var.init, name, depth + 1)
        if not ty.is_const(ref.type):
            return None
        inits = build(ref).expr_children()
        return self.init_field(inits[-1], name, depth + 1) if inits else None

    def init_field(self, init: Node, name: str, depth: int) -> Dims | None:
        """Member ``name`` of the struct value ``init`` builds (see ``field_dims``)."""
        n = strip(init)
        while n.kind == N.FUNCTIONAL_CAST and len(n.expr_children()) == 1 and depth < 8:
            n = strip(n.expr_children()[0])
            depth += 1
        if depth > 8:
            return None
        if n.kind == N.DECL_REF:
            return self.field_dims(n, name, depth + 1)  # a copy of another struct
        if n.kind == N.INIT_LIST:
            names = [f for f, _ in ty.record_fields(n.type)]
            kids = n.expr_children()
            if name not in names or names.index(name) >= len(kids):
                return None
            return self.block_dims(kids[names.index(name)], depth + 1)
        ctor = n.referenced if n.kind == N.CALL else None
        if ctor is None or ctor.kind != K.CONSTRUCTOR:
            return None
        args = arguments(n)
        if len(args) == 1 and ty.canonical_spelling(strip(args[0]).type).replace(
                "const ", "") == ty.canonical_spelling(n.type).replace("const ", ""):
            return self.init_field(args[0], name, depth + 1)  # the copy constructor
        members = build(ctor).children
        params = [p for p in members if p.kind == N.PARM_DECL]
        for i, m in enumerate(members[:-1]):
            if m.kind != K.MEMBER_REF.value or m.spelling != name:
                continue
            value = members[i + 1]
            # ``block(b_)``: the dim3 copy of parameter ``b_`` (a copy constructor call,
            # casts), or a value that reads none of the constructor's parameters
            while value.kind in (N.UNEXPOSED, N.PAREN, N.CALL, N.FUNCTIONAL_CAST) \
                    and len(value.expr_children()) == 1 \
                    and (value.kind != N.CALL or value.spelling == "dim3"):
                value = value.expr_children()[0]
            pkeys = [key_of(p.cursor) for p in params]
            if value.kind == N.DECL_REF and value.referenced is not None \
                    and key_of(value.referenced) in pkeys:
                i_arg = pkeys.index(key_of(value.referenced))
                return self.block_dims(args[i_arg], depth + 1) if i_arg < len(args) else None
            if any(x.kind == N.DECL_REF and x.referenced is not None
                   and key_of(x.referenced) in pkeys for x in subtree(value)):
                return None
            return self.block_dims(value, depth + 1)
        return None


@dataclass
class _State:
    """One path through a host function's statements: the values they leave in the
    variables they write (None: no known value), and the variables whose address has
    escaped (``f(&x)``, a non-const reference argument), unknown from there on."""

    vals: dict[int, Const | None] = field(default_factory=dict)
    escaped: frozenset[int] = frozenset()

    def overrides(self) -> dict[int, Const | None]:
        out = dict(self.vals)
        for k in self.escaped:
            out[k] = None
            for i in range(3):
                if _member_key(k, i) in out:
                    out[_member_key(k, i)] = None
        return out

    def key(self, keys: set[int] | None = None) -> tuple[object, ...]:
        return (
            tuple(sorted((k, v.value if v is not None else None)
                         for k, v in self.vals.items() if keys is None or k in keys)),
            tuple(sorted(k for k in self.escaped if keys is None or k in keys)),
        )

    def with_value(self, k: int, v: Const | None) -> _State:
        vals = dict(self.vals)
        vals[k] = None if k in self.escaped else v
        return _State(vals, self.escaped)


#: Host calls nested inside one another that ``call_value`` follows.
MAX_CALL_DEPTH = 4


@dataclass(frozen=True)
class CallValue:
    """What a call of a host function returned (``HostLaunches.call_value``), and what it
    depends on besides the function, its text and its arguments: the stack of calls it
    ran in. A call nested in it is refused when it would run a function already on the
    stack (recursion) or run deeper than ``MAX_CALL_DEPTH``; so the value holds for
    another stack only where the same nested calls are refused (``valid``). Functions are
    named by ``HostLaunches._call_name``."""

    value: int | None
    #: The functions whose value the run asked for, directly or not, itself included.
    asked: frozenset[object]
    #: Those of ``asked`` on the stack when it ran (their calls were refused).
    stacked: frozenset[object]
    #: The depth (calls on the stack) it ran at, where a call nested in it was refused
    #: for the depth: it holds at that depth only. None: none was.
    exact: int | None
    #: The most calls it had running at once, itself included: with no call refused for
    #: the depth, it holds at any depth ``d`` with ``d + height <= MAX_CALL_DEPTH``.
    height: int

    def valid(self, stack: set[object], depth: int) -> bool:
        """Whether a call made at ``depth`` with ``stack`` on the stack gives ``value``."""
        if self.asked & stack != self.stacked:
            return False
        if self.exact is not None:
            return depth == self.exact
        return depth + self.height <= MAX_CALL_DEPTH


class CallKeeper(Protocol):
    """Call values kept across versions of a document (the language server's walker,
    ``walker._CallKeeper``): by a digest of what a call of a function may read."""

    #: (``key``, the arguments by parameter position) -> the values found, any stack.
    kept: dict[tuple[str, tuple[tuple[int, int], ...]], list[CallValue]]

    def name(self, fn: Function) -> object | None:
        """A name of ``fn`` that holds across versions (None: none)."""

    def named(self, name: object) -> bool:
        """Whether ``name`` names a function of this version (a value kept from another
        version whose run asked for a function that moved is not compared by name)."""

    def key(self, fn: Function) -> str | None:
        """The digest of what a call of ``fn`` may read (None: not known)."""


@dataclass
class _CallFrame:
    """A ``call_value`` run in progress: what the calls nested in it depended on."""

    asked: set[object]
    height: int = 1
    cut: bool = False  # a nested call was refused for the depth
    volatile: bool = False  # a RecursionError: not kept

    def absorb(self, nested: CallValue) -> None:
        self.asked |= nested.asked
        self.cut = self.cut or nested.exact is not None
        self.height = max(self.height, nested.height + 1)
#: Paths one site's statements may fork into (conditional reassignments) before they
#: are merged (values that differ become unknown).
MAX_STATES = 16


class _Flow:
    """The host statements before a site, run in order: what each path through them
    leaves in the variables the site reads.

    ``if (block_size <= 64) block_size = 128;``, ``x = 16;``, ``n *= 2``, declarations:
    each statement before the site (in the blocks that enclose it) runs on every path,
    a condition with a known value picks its branch, an unknown one forks the path, and
    a path that returns (or leaves the loop or switch the site is in) never reaches the
    site. A loop around the site makes every variable it writes unknown at the site
    (any iteration's value), except the loop variables that ``loop_assignments`` already
    enumerates; a loop or ``switch`` wholly before the site makes what it writes
    unknown. A variable whose address escapes (``cudaMalloc(&x)``, a non-const
    reference argument) is unknown from that point on, and known before it.
    """

    def __init__(self, host: HostLaunches, fn: Function, ctx: _Context,
                 extra: dict[int, Const], relevant: set[int],
                 returns: list[int | None] | None = None) -> None:
        self.host = host
        self.fn = fn
        self.ctx = ctx
        self.extra = extra
        self.relevant = _with_members(relevant)
        self.parents = host._parent_map(fn)
        #: When running a whole function for its value (``HostLaunches.call_value``):
        #: the value of each ``return`` a path reaches (None: unknown), and whether a
        #: ``return`` sits in code that is not followed (then the value is unknown).
        self.returns = returns
        self.lost_return = False
        #: What the states depend on besides the statements run (see ``HostLaunches.flow``),
        #: when they may be shared with other sites' runs (``_prefix``); None: not shared.
        self.memo: tuple[object, ...] | None = None
        #: ``merge`` calls that had several paths to merge (``_prefix``).
        self.merges = 0

    def executor(self, st: _State) -> _HostExecutor:
        return _HostExecutor(self.host, self.fn, self.ctx, {**self.extra, **st.overrides()})

    def run(self, site: Node) -> list[dict[int, Const | None]]:
        """``extra`` with each path's values added; [] when no path reaches ``site``."""
        fn = self.fn
        assert fn.body is not None
        path = [site]
        cur = self.parents.get(id(site))
        while cur is not None:
            path.append(cur)
            cur = self.parents.get(id(cur))
        path.reverse()
        if path[0] is not fn.body:
            return [dict(self.extra)]
        if self.host._has_jumps(fn.body, (N.GOTO, N.LABEL)):
            # a jump may reach the site from anywhere: every variable written is unknown
            st = _State({k: None for k, var in fn.vars.items()
                         if (var.assigned or var.address_taken) and k not in self.extra})
            return [{**self.extra, **st.overrides()}]
        states = [_State()]
        for i in range(len(path) - 1):
            states = self.enter(path, i, states)
            if not states:
                return []
            states = self.merge(states)
        out: list[dict[int, Const | None]] = []
        seen: set[tuple[object, ...]] = set()
        for st in states:
            k = st.key(self.relevant)
            if k not in seen:
                seen.add(k)
                out.append({**self.extra, **st.overrides()})
        return out

    # --- the blocks around the site ---------------------------------------------------

    def enter(self, path: list[Node], i: int, states: list[_State]) -> list[_State]:
        """Into ``path[i]`` on the way to ``path[i + 1]``."""
        node, child = path[i], path[i + 1]
        kind = node.kind
        if kind == N.COMPOUND_STMT:
            stmts = node.children
            idx = next((j for j, st in enumerate(stmts) if st is child), None)
            if idx is None:
                return states
            start = 0
            up = self.parents.get(id(node))
            if up is not None and up.kind == N.SWITCH:
                # the site's case label: statements before it run only by fall-through
                start = idx
                while start > 0 and stmts[start].kind not in (N.CASE, N.DEFAULT):
                    start -= 1
                for st in stmts[:start]:
                    states = [self.clobber(st, s) for s in states]
                if start < idx:
                    states = self.exec(_case_body(stmts[start]), states)
                    start += 1
            if self.memo is not None and start == 0:
                return self._prefix(node, stmts, idx, states)
            for st in stmts[start:idx]:
                states = self.exec(st, states)
                if not states:
                    return []
            return states
        if kind == N.SWITCH:
            return self.switch_entry(path, i, states)
        if kind == N.IF:
            cond, then, other = _if_parts(node)
            if cond is None or child is cond or (child is not then and child is not other):
                return states
            out: list[_State] = []
            for s in states:
                v = self.executor(s).known(cond)
                if v is None or bool(v) == (child is then):
                    out.append(self.clobber(cond, s))
            return out
        if kind in (N.FOR, N.WHILE, N.DO, K.CXX_FOR_RANGE_STMT.value):
            if kind == N.FOR:
                parts = self.executor(_State()).for_parts(node)
                init = parts[0] if parts is not None else None
                if init is not None and child is not init:
                    states = self.exec(init, states)
            written = self.written(node)
            loop_vars: set[int] = set()
            var = self.host._loop_var(node)
            if var is not None:
                loop_vars.add(key_of(var.cursor))
            out = []
            for s in states:
                vals = dict(s.vals)
                for k in written | loop_vars:
                    if k in self.extra:
                        vals.pop(k, None)  # enumerated by loop_assignments
                    else:
                        vals[k] = None
                    for i in range(3):
                        if _member_key(k, i) in vals:
                            vals[_member_key(k, i)] = None
                out.append(_State(vals, s.escaped | self.escapes(node)))
            return out
        if kind == K.LAMBDA_EXPR.value:
            # run when called, later: what the function writes after it is unknown
            kept = self.host._written_after.get(id(node))
            later = kept[1] if kept is not None else None
            if later is None:
                start = node.extent.start.offset
                later = set()
                assert self.fn.body is not None
                for n in subtree(self.fn.body):
                    written = self._targets(n)
                    if written and n.extent.start.offset > start:
                        later |= written
                # once per lambda: nested dispatch lambdas (BOOL_SWITCH) enter it for
                # every site, and each walk asks libclang every node's offset
                self.host._written_after[id(node)] = (node, later)
            return [self._forget(s, later - set(self.extra)) for s in states]
        return states

    def _prefix(self, block: Node, stmts: list[Node], idx: int, states: list[_State]
                ) -> list[_State]:
        """``stmts[:idx]`` of ``block`` run on ``states``, resumed from what an earlier
        site of the same context left after a prefix of them (``HostLaunches._traces``:
        the states after each statement), with the same values of the loop variables
        those statements can name: the launches of one function each follow its
        statements from the start, and most share them; a call in a loop (``for (int
        step ...) update(step)``) is one site per value of ``step``. Which
        variables a site reads matters only where paths were merged (``merge``), so a
        trace is shared by every site up to the first statement that merged paths, and
        past it only by sites that read the same variables."""
        start = tuple((tuple(sorted(s.vals.items(), key=_first)), s.escaped) for s in states)
        # a loop variable declared in ``stmts[idx]`` (a loop the site is in) cannot be named
        # before it; a generic lambda's parameter is matched by name too (``_expr``)
        later = self.host._declared_in(stmts[idx])
        loops = tuple(sorted(((k, v) for k, v in self.extra.items()
                              if k not in later or k in self.host._lambda_params), key=_first))
        clean_key = (self.memo, loops, id(block), start)
        exact_key = (*clean_key, tuple(sorted(self.relevant)))
        traces = self.host._traces
        clean = traces.setdefault(clean_key, [states])
        trace = traces.setdefault(exact_key, [states])
        if len(trace) < len(clean):
            trace[len(trace):] = clean[len(trace):]
        j = min(len(trace) - 1, idx)
        states = trace[j]
        while j < idx and states:
            merges = self.merges
            states = self.exec(stmts[j], states)
            j += 1
            if j == len(trace):
                trace.append(states)
            if j == len(clean) and merges == self.merges:
                clean.append(states)
        return states

    def switch_entry(self, path: list[Node], i: int, states: list[_State]) -> list[_State]:
        """A path reaches the site's case only when the switch value is one of its
        labels: a known value that is not drops the path, an unknown variable takes
        each label's value."""
        node = path[i]
        body = path[i + 1]
        exprs = [ch for ch in node.children if ch.is_expr]
        if not exprs or body is exprs[0] or i + 2 >= len(path):
            return states
        top = path[i + 2] if body.kind == N.COMPOUND_STMT else body
        labels = self.host._case_labels(self.fn, node, body, top, list(reversed(path[i + 1:])))
        cond = exprs[0]
        if labels is None:
            return [self.clobber(cond, s) for s in states]
        local = strip(cond)
        vk: int | None = None
        t = node_int_type(local)
        if local.kind == N.DECL_REF and local.referenced is not None \
                and key_of(local.referenced) in self.fn.vars and t is not None:
            vk = key_of(local.referenced)
        out: list[_State] = []
        for s in states:
            v = self.executor(s).known(cond)
            if v is not None:
                if v in labels:
                    out.append(s)
            elif vk is not None and vk not in s.escaped:
                out.extend(s.with_value(vk, Const(lb, t or INT)) for lb in labels)
            else:
                out.append(s)
        return out

    # --- statements before the site ----------------------------------------------------

    def exec(self, n: Node, states: list[_State]) -> list[_State]:
        kind = n.kind
        if kind == N.COMPOUND_STMT:
            for st in n.children:
                states = self.exec(st, states)
                if not states:
                    break
            return states
        if kind == N.RETURN and self.returns is not None:
            exprs = n.expr_children()
            for state in states:
                self.returns.append(self.executor(state).known(exprs[0]) if exprs else None)
            return []
        if kind in (N.RETURN, N.BREAK, N.CONTINUE):
            return []  # this path leaves before the site
        if kind == N.DECL_STMT:
            return [self.decls(n, s) for s in states]
        if kind == N.IF:
            cond, then, other = _if_parts(n)
            if cond is None:
                return [self.clobber(n, s) for s in states]
            out: list[_State] = []
            for s in states:
                v = self.value(cond, s)
                s = self.clobber(cond, s)
                if v is None or v:
                    out.extend(self.exec(then, [s]) if then is not None else [s])
                if v is None or not v:
                    out.extend(self.exec(other, [s]) if other is not None else [s])
            return self.merge(out)
        if kind in (N.CASE, N.DEFAULT):
            return self.exec(_case_body(n), states)
        if n.is_expr:
            return [self.effect(n, s) for s in states]
        if kind in (N.FOR, N.WHILE, N.DO):
            out = []
            for s in states:
                got = self.iterate(n, s)
                out.extend(got if got is not None else [self.clobber(n, s)])
            return self.merge(out)
        return [self.clobber(n, s) for s in states]  # switches, range-for, anything else

    def iterate(self, n: Node, s: _State) -> list[_State] | None:
        """A loop wholly before the site, run iteration by iteration while its condition
        is known (``for (; log2N > 11; log2N -= 2, N >>= 2)``): the states it leaves,
        or None when it cannot be followed (a jump out of its body, an unknown
        condition, more than ``MAX_ITERATIONS`` iterations)."""
        kind = n.kind
        init = inc = None
        if kind == N.FOR:
            parts = self.executor(s).for_parts(n)
            if parts is None:
                return None
            init, cond, inc, body = parts
        else:
            kids = n.children
            if len(kids) != 2:
                return None
            body, cond = (kids[1], kids[0]) if kind == N.WHILE else (kids[0], kids[1])
        if cond is None or not cond.is_expr or self.host._has_jumps(
                body, (N.BREAK, N.CONTINUE, N.RETURN, N.GOTO)):
            return None
        active = self.exec(init, [s]) if init is not None else [s]
        first = kind == N.DO
        done: list[_State] = []
        for _ in range(MAX_ITERATIONS + 1):
            going: list[_State] = []
            for a in active:
                if not first:
                    v = self.value(cond, a)
                    if v is None:
                        return None
                    a = self.clobber(cond, a)
                    if not v:
                        done.append(a)
                        continue
                got = self.exec(body, [a])
                if inc is not None:
                    got = self.exec(inc, got)
                going.extend(got)
            first = False
            active = self.merge(going)
            if not active:
                return self.merge(done)
        return None

    def decls(self, n: Node, s: _State) -> _State:
        for d in n.children:
            if d.kind != N.VAR_DECL:
                continue
            s = self.clobber(d, s)
            k = key_of(d.cursor)
            var = self.fn.vars.get(k)
            if var is not None and var.modified and _is_dim3(d):
                # ``dim3 b;`` is (1, 1, 1); its components are followed from here on (a
                # dim3 never written after its declaration is read from its initializer
                # at the site, where a ``switch`` may have narrowed what it reads)
                dims = self.executor(s).block_dims(var.init) if var.init is not None \
                    else (1, 1, 1)
                for i in range(3):
                    v3 = dims[i] if dims is not None else None
                    s = s.with_value(_member_key(k, i),
                                     Const(v3, UINT) if v3 is not None else None)
                continue
            if var is not None and _is_launch_config(d):
                # ``cudaLaunchConfig_t cfg = {g, b};``: its ``blockDim`` is followed from
                # here on (``_config_write``); ``cfg;``, ``cfg = {}``: not known yet
                dims = self.executor(s).init_field(var.init, "blockDim", 0) \
                    if var.init is not None else None
                for i in range(3):
                    v3 = dims[i] if dims is not None else None
                    s = s.with_value(_member_key(k, i),
                                     Const(v3, UINT) if v3 is not None else None)
                continue
            if var is None or node_int_type(d) is None:
                continue
            v = self.value(var.init, s) if var.init is not None else None
            t = node_int_type(d) or INT
            s = s.with_value(k, Const(v, t) if v is not None else None)
        return s

    def value(self, n: Node, s: _State) -> int | None:
        """``known(n)`` on path ``s`` (an initializer, a condition, what is assigned),
        kept by the file's host flows by what it can read (``HostLaunches._init_key``)."""
        memo = self.host._init_values
        # not inside a call run for its value (``call_value``): there a host call's value
        # depends on the stack (too deep, recursive), which the key does not hold
        key = self.host._init_key(self, n, s) \
            if MEMO_INITIALIZERS and not self.host._call_frames else None
        if key is None:
            return self.executor(s).known(n)
        if key in memo:
            return memo[key]
        v = memo[key] = self.executor(s).known(n)
        return v

    def effect(self, n: Node, s: _State) -> _State:
        """An expression statement: an assignment to a local is run, anything else only
        makes what it writes unknown."""
        n = strip(n)
        kids = n.children
        if n.kind == N.BINARY and n.spelling == "," and len(kids) == 2:
            return self.effect(kids[1], self.effect(kids[0], s))
        if n.kind == N.CALL and n.spelling != "dim3":
            out = self._out_call(n, s)
            if out is not None:
                return out
        target = Executor._write_target(n)
        t = strip(target) if target is not None else None
        member = self._member_write(n, t, s)
        if member is not None:
            return member
        if t is None or t.kind != N.DECL_REF or t.referenced is None \
                or key_of(t.referenced) not in self.fn.vars:
            return self.clobber(n, s)
        k = key_of(t.referenced)
        it = node_int_type(t)
        v: int | None = None
        if it is not None:
            if n.kind == N.BINARY and len(kids) == 2:
                v = self.value(kids[1], s)
            elif n.kind == N.COMPOUND_ASSIGN:
                v = self.value(n, s)
            elif n.kind == N.UNARY:
                cur = self.value(t, s)
                uo = unary_operator_kind(n.cursor)
                if cur is not None:
                    v = binary_value("+" if uo in (UO_POST_INC, UO_PRE_INC) else "-",
                                     cur, 1, it)
        for ch in kids[1:]:
            s = self.clobber(ch, s)
        return s.with_value(k, Const(v, it) if v is not None and it is not None else None)

    def _out_call(self, n: Node, s: _State) -> _State | None:
        """A call of a host helper of the file that sets locals through non-const
        reference parameters (apex's ``flexible_launch_configs(r, st, block, grid)`` doing
        ``block.x = ...``; ``getConfig(n, threads)``): the helper's statements run with
        the arguments' values bound (see ``_out_run``) and each such local takes what
        the helper's paths leave in its parameter (one value all of them leave, else
        unknown). None where the call is not of that form (the caller then makes what
        it hands out unknown, as for any call)."""
        target = self.host._host_target(n)
        if target is None or target.body is None or n.referenced is None:
            return None
        params = Executor.params(target)
        args = arguments(n)
        if len(params) != len(args):
            return None  # a defaulted parameter or a pack: not bound one to one
        #: caller's key, parameter's key, whether a dim3, the argument
        outs: list[tuple[int, int, bool, Node]] = []
        for p, a in zip(params, args, strict=True):
            if not ty.is_reference_to_mutable(p.type):
                continue
            x = strip(a)
            if x.kind != N.DECL_REF or x.referenced is None:
                return None
            k = key_of(x.referenced)
            var = self.fn.vars.get(k)
            if var is None or k in s.escaped or k in self.extra:
                return None
            if _is_dim3(x):
                if _member_key(k, 0) not in s.vals:
                    return None  # a dim3 whose components this path does not follow
                outs.append((k, key_of(p.cursor), True, x))
            elif node_int_type(x) is not None and not var.loop_var:
                outs.append((k, key_of(p.cursor), False, x))
            else:
                return None
        if not outs or len({o[0] for o in outs}) != len(outs):
            return None
        got = self._out_run(target, params, args, outs, s)
        if got is None:
            return None
        handed = {id(x) for *_, x in outs}
        for a in args:
            if id(strip(a)) not in handed:
                s = self.clobber(a, s)
        for k, pk, dim, x in outs:
            if dim:
                for i in range(3):
                    s = s.with_value(_member_key(k, i), got.vals.get(_member_key(pk, i)))
            else:
                v = got.vals.get(pk)
                t = node_int_type(x)
                s = s.with_value(k, Const(wrap(v.value, t), t) if v is not None and t is not None
                                 else None)
        return s

    def _out_run(self, target: Function, params: list[Node], args: list[Node],
                 outs: list[tuple[int, int, bool, Node]], s: _State) -> _State | None:
        """The state ``target``'s statements leave (``_Flow``, all paths joined) with the
        by-value integer arguments' known values bound and each reference parameter of
        ``outs`` starting with its local's value on path ``s``; None where that is not
        followed: a ``return`` before the end, a parameter whose address the helper
        hands on, a call nested too deep or recursive, no path reaching the end."""
        host = self.host
        assert target.body is not None
        name = host._call_name(target)
        if len(host._call_frames) >= MAX_CALL_DEPTH or name in host._calling \
                or host._has_jumps(target.body, (N.RETURN, N.GOTO, N.LABEL)):
            return None
        ex = self.executor(s)
        values: dict[int, Const] = {}
        out_keys = {o[1] for o in outs}
        for p, a in zip(params, args, strict=True):
            pk = key_of(p.cursor)
            pt = node_int_type(p)
            if pk in out_keys or pt is None or ty.is_reference(p.type):
                continue
            v = ex.known(a)
            if v is not None:
                values[pk] = Const(wrap(v, pt), pt)
        start = _State()
        for k, pk, dim, x in outs:
            pv = target.vars.get(pk)
            if pv is None or (pv.address_taken and not dim):
                return None
            if dim:
                for i in range(3):
                    start = start.with_value(_member_key(pk, i), s.vals.get(_member_key(k, i)))
            else:
                v = ex.known(x)
                t = node_int_type(x)
                cur = Const(v, t) if v is not None and t is not None else None
                start = start.with_value(pk, cur)
        own = _CallFrame({name})
        frame = host._call_frames[-1] if host._call_frames else None
        if frame is not None:
            frame.asked.add(name)
        host._call_frames.append(own)
        host._calling.add(name)
        try:
            flow = _Flow(host, target, _Context(Env(), values), {}, set())
            left = flow.exec(target.body, [start])
        except RecursionError:
            left = []
        finally:
            host._call_frames.pop()
            host._calling.discard(name)
        if frame is not None:
            frame.absorb(CallValue(None, frozenset(own.asked), frozenset(own.asked & host._calling),
                                   len(host._call_frames) if own.cut else None, own.height))
        if not left:
            return None
        end = _join(left)
        if any(o[1] in end.escaped for o in outs):
            return None  # handed on to code that is not followed
        return end

    def _member_write(self, n: Node, t: Node | None, s: _State) -> _State | None:
        """``b.x = v`` or ``b = dim3(...)`` on a ``dim3`` local whose components this path
        follows (declared before the site: ``decls``): the state after it; None for
        any other statement."""
        if t is None:
            return None
        config = self._config_write(n, t, s)
        if config is not None:
            return config
        kids = n.children
        whole = t.kind == N.DECL_REF
        base = t if whole else (strip(t.children[0]) if t.kind == N.MEMBER_REF
                                and t.spelling in ("x", "y", "z") and t.children else None)
        if base is None or base.kind != N.DECL_REF or base.referenced is None:
            return None
        k = key_of(base.referenced)
        if _member_key(k, 0) not in s.vals or k in s.escaped:
            return None
        assign = (n.kind == N.BINARY and n.spelling == "=") or (
            n.kind == N.CALL and n.spelling == "operator=")
        rhs = kids[-1] if assign and len(kids) >= 2 else None
        for ch in kids[1:]:
            s = self.clobber(ch, s)
        ex = self.executor(s)
        if whole:
            dims = ex.block_dims(rhs) if rhs is not None else None
            for i in range(3):
                v = dims[i] if dims is not None else None
                s = s.with_value(_member_key(k, i), Const(v, UINT) if v is not None else None)
            return s
        i = "xyz".index(t.spelling)
        v = ex.known(rhs) if rhs is not None else (ex.known(n) if n.kind == N.COMPOUND_ASSIGN
                                                   else None)
        return s.with_value(_member_key(k, i), Const(v, UINT) if v is not None else None)

    def _config_write(self, n: Node, t: Node, s: _State) -> _State | None:
        """A write to a ``cudaLaunchConfig_t`` local whose ``blockDim`` this path follows
        (``decls``): ``cfg = {g, b}``, ``cfg.blockDim = b``, ``cfg.blockDim.x = v``, or
        another member (``blockDim`` as it was); None for any other statement."""
        chain: list[str] = []
        base = t
        while base.kind == N.MEMBER_REF and len(base.children) == 1:
            chain.append(base.spelling)
            base = strip(base.children[0])
        if base.kind != N.DECL_REF or base.referenced is None:
            return None
        k = key_of(base.referenced)
        if _member_key(k, 0) not in s.vals or k in s.escaped or not _is_launch_config(base):
            return None
        chain.reverse()
        kids = n.children
        assign = (n.kind == N.BINARY and n.spelling == "=") or (
            n.kind == N.CALL and n.spelling == "operator=")
        rhs = kids[-1] if assign and len(kids) >= 2 else None
        for ch in kids[1:]:
            s = self.clobber(ch, s)
        if chain and chain[0] != "blockDim":
            return s  # ``cfg.gridDim = g``, ``cfg.stream = st``
        ex = self.executor(s)
        values: list[int | None]
        if not chain:
            dims = ex.init_field(rhs, "blockDim", 0) if rhs is not None else None
            values = list(dims) if dims is not None else [None, None, None]
        elif len(chain) == 1:
            dims = ex.block_dims(rhs) if rhs is not None else None
            values = list(dims) if dims is not None else [None, None, None]
        elif len(chain) == 2 and chain[1] in ("x", "y", "z"):
            i = "xyz".index(chain[1])
            values = [s.vals[_member_key(k, j)].value  # type: ignore[union-attr]
                      if s.vals.get(_member_key(k, j)) is not None else None
                      for j in range(3)]
            values[i] = ex.known(rhs) if rhs is not None else None
        else:
            values = [None, None, None]
        for i, v in enumerate(values):
            s = s.with_value(_member_key(k, i), Const(v, UINT) if v is not None else None)
        return s

    # --- what a statement may write ---------------------------------------------------

    def _targets(self, n: Node) -> set[int]:
        """Locals ``n`` itself writes (not its children)."""
        target = Executor._write_target(n)
        return set() if target is None else self._target_locals(target)

    def _target_locals(self, target: Node) -> set[int]:
        t = strip(target)
        if t.kind == N.CONDITIONAL and len(t.children) == 3:
            # ``(c ? t : u) = v`` writes one of the two
            return self._target_locals(t.children[1]) | self._target_locals(t.children[2])
        while t.kind in (N.MEMBER_REF, N.ARRAY_SUBSCRIPT) and t.children:
            base = strip(t.children[0])
            if ty.is_pointer_kind(base.ckind):
                return set()  # a write through a pointer
            t = base
        if t.kind == N.CONDITIONAL and len(t.children) == 3:
            return self._target_locals(t)  # ``(c ? b : d).x = 32``
        if t.kind == N.DECL_REF and t.referenced is not None:
            k = key_of(t.referenced)
            if k in self.fn.vars:
                return {k}
        return set()

    def written(self, n: Node) -> set[int]:
        hit = self.host._written_cache.get(id(n))
        if hit is None:
            hit = set()
            for x in subtree(n):
                hit |= self._targets(x)
            self.host._written_cache[id(n)] = hit
        return hit

    def escapes(self, n: Node) -> frozenset[int]:
        """Locals whose address ``n`` hands out: ``&x``, a non-const reference argument,
        a reference variable bound to one."""
        hit = self.host._escapes_cache.get(id(n))
        if hit is not None:
            return hit
        out: set[int] = set()

        def local(e: Node) -> None:
            e = strip(e)
            while e.kind in (N.MEMBER_REF, N.ARRAY_SUBSCRIPT) and e.children \
                    and not ty.is_pointer_kind(strip(e.children[0]).ckind):
                e = strip(e.children[0])
            if e.kind == N.DECL_REF and e.referenced is not None \
                    and key_of(e.referenced) in self.fn.vars:
                out.add(key_of(e.referenced))

        read_only = self.host.launch_addresses(self.fn)
        for x in subtree(n):
            if x.kind == N.UNARY and x.children \
                    and unary_operator_kind(x.cursor) == UO_ADDR_OF:
                if id(x) not in read_only:
                    local(x.children[0])
            elif x.kind == N.CALL and config_call(x) is None:
                ref = x.referenced
                if ref is None:
                    continue
                try:
                    params = list(ref.get_arguments() or ())
                except Exception:  # not a function declaration
                    continue
                for a, p in zip(arguments(x), params, strict=False):
                    if p is not None and ty.is_reference_to_mutable(p.type):
                        local(a)
            elif x.kind == N.VAR_DECL and ty.is_reference(x.type):
                inits = x.expr_children()
                if inits and not ty.points_to_const(x.type):
                    local(inits[-1])
            elif x.kind == N.INIT_LIST:
                for ch in x.children:
                    while ch.kind == N.PAREN and ch.children:
                        ch = ch.children[0]
                    if ch.kind in (N.DECL_REF, N.MEMBER_REF, N.ARRAY_SUBSCRIPT):
                        local(ch)  # no conversion to a value: bound to a reference member
            elif x.kind == K.LAMBDA_EXPR.value:
                # run when called, which is not followed: what its body writes (``[&] {
                # t = 96; }``) and a local it returns as an lvalue (``[&]() -> int & {
                # return t; }``, then ``f() = 96``) may change at any call from here on
                for y in subtree(x):
                    out |= self._targets(y)
                    if y.kind == N.RETURN and y.children:
                        r = y.children[0]
                        while r.kind == N.PAREN and r.children:
                            r = r.children[0]
                        if r.kind in (N.DECL_REF, N.MEMBER_REF, N.ARRAY_SUBSCRIPT):
                            local(r)  # no conversion to a value: a reference to it
        hit = frozenset(out)
        self.host._escapes_cache[id(n)] = hit
        return hit

    def clobber(self, n: Node, s: _State) -> _State:
        """``s`` after ``n`` runs in a way that is not followed: what it writes unknown."""
        if self.returns is not None and any(x.kind == N.RETURN for x in subtree(n)):
            self.lost_return = True
        written = self.written(n) - set(self.extra)
        escaped = self.escapes(n)
        if not written and not escaped:
            return s
        after = self._forget(_State(s.vals, s.escaped | escaped), written)
        if escaped - s.escaped:
            after = self._warp_size_queries(n, s, after)
        return after

    def _warp_size_queries(self, n: Node, before: _State, after: _State) -> _State:
        """``after`` with the locals ``n`` sets through ``cudaDeviceGetAttribute(&v,
        cudaDevAttrWarpSize, dev)`` known to be 32 (``launch_sets.warp_size_queries``),
        where that call is all ``n`` does with them: their address goes nowhere else."""
        for ref in warp_size_queries(n):
            k = key_of(ref.referenced)
            t = node_int_type(ref)
            if k in before.escaped or k not in self.fn.vars or k in self.extra or t is None \
                    or sum(1 for x in subtree(n) if x.kind == N.DECL_REF
                           and x.referenced is not None and key_of(x.referenced) == k) != 1:
                continue
            vals = dict(after.vals)
            vals[k] = Const(WARP_SIZE, t)
            after = _State(vals, after.escaped - {k})
        return after

    @staticmethod
    def _forget(s: _State, keys: set[int]) -> _State:
        if not keys:
            return s
        vals = dict(s.vals)
        for k in keys:
            vals[k] = None
            for i in range(3):
                if _member_key(k, i) in vals:
                    vals[_member_key(k, i)] = None  # a dim3's components with it
        return _State(vals, s.escaped)

    def merge(self, states: list[_State]) -> list[_State]:
        """Paths that agree on what the site reads become one (the rest of what they
        disagree on unknown); more than ``MAX_STATES`` all become one."""
        if len(states) <= 1:
            return states
        self.merges += 1
        groups: dict[tuple[object, ...], list[_State]] = {}
        for s in states:
            groups.setdefault(s.key(self.relevant), []).append(s)
        out = [_join(g) for g in groups.values()]
        return [_join(out)] if len(out) > MAX_STATES else out


def _join(states: list[_State]) -> _State:
    """One state for several paths: a value all of them leave, else unknown."""
    first = states[0]
    if len(states) == 1:
        return first
    keys: set[int] = set()
    escaped: frozenset[int] = frozenset()
    for s in states:
        keys |= set(s.vals)
        escaped |= s.escaped
    vals: dict[int, Const | None] = {}
    for k in keys:
        seen = {(s.vals[k].value if s.vals.get(k) is not None else None)  # type: ignore[union-attr]
                if k in s.vals else "absent" for s in states}
        vals[k] = first.vals.get(k) if len(seen) == 1 else None
    return _State(vals, escaped)


def _block_component(arg: Node, block: Node) -> str | None:
    """``blockDim.x`` (``.y``, ``.z``) when the launch argument ``arg`` is that component
    of the launch's block shape ``block``: ``b.x`` beside a ``dim3`` variable ``b``, or the
    integer expression the shape is made of (``k<<<g, n>>>(n)``), written the same and free
    of calls and writes, so that both are one value at the launch."""
    a = strip(arg)
    b = strip(block)
    while b.kind in (N.UNEXPOSED, N.CALL) and b.children and node_int_type(b) is None \
            and not any(list(ch.cursor.get_tokens()) for ch in b.children[1:]):
        b = strip(b.children[0])  # dim3's copy or converting constructor (default y, z)
    if a.kind == N.MEMBER_REF and a.spelling in ("x", "y", "z") and a.children:
        base = strip(a.children[0])
        if base.kind == N.DECL_REF and b.kind == N.DECL_REF and base.referenced is not None \
                and b.referenced is not None \
                and key_of(base.referenced) == key_of(b.referenced) and _is_dim3(b):
            return f"blockDim.{a.spelling}"
        return None
    if node_int_type(b) is None or node_int_type(a) is None or not _pure(a):
        return None
    ta = [t.spelling for t in a.cursor.get_tokens()]
    return "blockDim.x" if ta and ta == [t.spelling for t in b.cursor.get_tokens()] else None


def _function_pointer(a: Node) -> bool:
    """Whether an argument may name a function (``k<4>``, ``&k``, a pointer variable):
    what ``HostLaunches._function_refs`` is asked about."""
    return ty.names_function(strip(a).type)


#: A function-like ``#define`` with its continuation lines: name, parameters, body.
_FUNCTION_MACRO = re.compile(
    r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)((?:[^\n]*\\\r?\n)*[^\n]*)", re.M)
#: A preprocessor directive with its continuation lines.
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\r?\n)*[^\n]*", re.M)


def _balanced(text: str, start: int) -> list[str] | None:
    """The comma-separated arguments of a call whose ``(`` ends just before ``start``."""
    depth = 0
    for i in range(start, min(len(text), start + 2000)):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                inner = text[start:i]
                return [a.strip() for a in split_top_level(inner)] if inner.strip() else []
            depth -= 1
    return None


def _unparen(text: str) -> str:
    """``(64)`` as ``64``: a macro argument put in parentheses that names a type or a
    single token (text_env evaluates expressions, and reads type names bare)."""
    t = text.strip()
    while t.startswith("(") and t.endswith(")") and _balanced(t, 1) is not None \
            and len(t) > 2 and _balanced(t, 1) == [t[1:-1].strip()]:
        t = t[1:-1].strip()
    return t


def _takes(fn: Function, nargs: int) -> bool:
    """Whether ``fn`` can be called with ``nargs`` arguments: its parameters with a
    default argument may be left out, a parameter pack (``Args... args``) takes any
    number."""
    params = Executor.params(fn)
    packs = sum(1 for p in params if ty.spelling(p.type).endswith("..."))
    required = sum(1 for p in params if not p.expr_children()
                   and not ty.spelling(p.type).endswith("..."))
    return required <= nargs and (packs > 0 or nargs <= len(params))


def _pure(n: Node) -> bool:
    """``n`` reads variables and constants only: no call, assignment or increment."""
    if n.kind in (N.CALL, N.COMPOUND_ASSIGN) or (n.kind == N.BINARY and n.spelling == "=") \
            or (n.kind == N.UNARY and unary_operator_kind(n.cursor) in (
                UO_POST_INC, UO_POST_DEC, UO_PRE_INC, UO_PRE_DEC)):
        return False
    return all(_pure(ch) for ch in n.children)


def _first(item: tuple[int, Const | None]) -> int:
    return item[0]


_ARITHMETIC = frozenset(["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"])
_COMPARISONS = frozenset(["<", "<=", ">", ">=", "==", "!="])
#: The expressions a guard fact may stand for (``_HostExecutor._expr``).
_FACT_KINDS = frozenset([N.DECL_REF, N.BINARY, N.PAREN, N.UNEXPOSED, K.CSTYLE_CAST_EXPR.value])
_FIXED_KINDS = frozenset([N.PAREN, N.UNEXPOSED, N.INTEGER_LITERAL, N.CHARACTER_LITERAL,
                          N.BOOL_LITERAL, K.CSTYLE_CAST_EXPR.value, N.UNARY_EXPR])


def _fact_key(n: Node) -> tuple[object, ...] | None:
    """An expression of a guard fact as what it reads: each name by its declaration (a
    lambda's parameter, a shadowing local or a helper's parameter of the same spelling
    is another), literals by their text, operators by their spelling; None for anything
    else."""
    x = strip(n)
    kind = x.kind
    if kind == N.DECL_REF:
        ref = x.referenced
        return None if ref is None else ("ref", key_of(ref))
    if kind in (N.INTEGER_LITERAL, N.CHARACTER_LITERAL, N.BOOL_LITERAL):
        # by value: a literal a macro expands to has no tokens of its own (libclang gives
        # the span from the ``#define`` to the use)
        v = evaluate_int(x.cursor)
        return ("lit", v) if v is not None else None
    parts = [_fact_key(ch) for ch in x.children]
    if any(p is None for p in parts):
        return None
    if kind == N.BINARY and (x.spelling in _ARITHMETIC or x.spelling in _COMPARISONS):
        return (x.spelling, *parts)
    if kind == K.CSTYLE_CAST_EXPR.value or (kind == N.UNEXPOSED and len(parts) == 1):
        return ("cast", ty.spelling(x.cursor.type), *parts)
    return None


def _if_parts(n: Node) -> tuple[Node | None, Node | None, Node | None]:
    """(condition, then, else) of an ``if``."""
    children = n.children
    cond_i = next((i for i, ch in enumerate(children) if ch.is_expr), None)
    if cond_i is None:
        return None, None, None
    rest = children[cond_i + 1:]
    return children[cond_i], rest[0] if rest else None, rest[1] if len(rest) > 1 else None


def _case_body(n: Node) -> Node:
    """The statement under ``case 1: case 2: stmt``."""
    while n.kind in (N.CASE, N.DEFAULT) and n.children:
        n = n.children[-1]
    return n


class HostLaunches:
    """Evaluates every launch site of a walked file (see the module docstring)."""

    def __init__(self, program: Program) -> None:
        #: The unit whose launches are evaluated (the walker, seen through ``Program``).
        self.w = program
        self._contexts: dict[int, list[_Context]] = {}
        self._in_progress: set[int] = set()
        self._parents: dict[int, dict[int, Node]] = {}
        self._writes: dict[int, list[tuple[Node, Node]]] = {}
        self._guards: dict[int, dict[tuple[object, ...], Node | int]] = {}
        #: ``launch_sets._lambda_refs`` by function body (this unit's, alive while it is).
        self._lambda_writes: dict[int, frozenset[int]] = {}
        self._arrays: dict[tuple[int, int], list[int] | None] = {}
        self._max_threads: dict[str, int] = {}
        #: By id() of a lambda: the locals its function writes after it (``_Flow.enter``),
        #: with the node, kept alive so that the id stays its own.
        self._written_after: dict[int, tuple[Node, set[int]]] = {}
        #: ``Executor.lane_events`` of every host executor of the file.
        self.lane_event_lists: dict[int, tuple[Node, list[Node]]] = {}
        self.body_facts: dict[tuple[str, int], tuple[Node, object]] = {}
        #: ``_keeps_state``'s answers, by id() of a function (with its body)
        self.stateful: dict[int, tuple[Node, bool]] = {}
        self.launches: list[Launch] = []
        #: The integer kernel parameters each launch passes as constants, by name, parallel
        #: to ``launches`` (see ``bind_parameters``).
        self.launch_params: list[tuple[tuple[str, int | str], ...]] = []
        #: kernel name -> instantiation label -> its template arguments
        self.instantiations: dict[str, dict[str, Env]] = {}
        #: Instantiations launched through a function pointer past
        #: ``MAX_POINTER_INSTANTIATIONS``, not analysed, by kernel.
        self.capped: dict[str, int] = {}
        self._callers: dict[int, list[tuple[Function, Node]]] = {}
        #: host function templates named with template arguments but not called there
        self._named: dict[int, list[tuple[Function, Node]]] = {}
        #: keys of generic lambdas' parameters bound to integral constants -> their names
        self._lambda_params: dict[int, str] = {}
        #: By id() of a Node: the locals it writes, and those whose address it hands out
        #: (see ``_Flow``); the variables a site reads (``_refs``).
        self._written_cache: dict[int, set[int]] = {}
        self._escapes_cache: dict[int, frozenset[int]] = {}
        self._refs_cache: dict[int, set[int]] = {}
        #: Host functions being run for their value (``_call_name``), their runs, and the
        #: values found (by function and arguments, each with the stacks it holds for);
        #: see ``call_value``.
        self._calling: set[object] = set()
        self._call_frames: list[_CallFrame] = []
        self._call_values: dict[tuple[object, ...], list[CallValue]] = {}
        #: Call values kept across versions of a document (set by the language server's
        #: walker), and how many calls ran and how many it answered (tests, benchmarks).
        self.keeper: CallKeeper | None = None
        self.calls_done = 0
        self.calls_kept = 0
        #: Free functions whose body the executor's ``return EXPR;`` inlining cannot
        #: follow, whatever the arguments (``_HostExecutor.returned_value``).
        self.not_inlined: set[int] = set()
        #: ``flow`` results by function, site, template arguments, loop values and the
        #: context values the statements outside the site can read (``_flow_key``), and
        #: those variables by (function, site).
        self._flows: dict[tuple[object, ...], list[dict[int, Const | None]]] = {}
        self._outside: dict[tuple[int, int], frozenset[int]] = {}
        #: ``_Flow.init_value``'s values by ``_init_key``, and what an initializer can
        #: read (``_init_reads``) by its id, with the node kept alive.
        self._init_values: dict[tuple[object, ...], int | None] = {}
        self._init_read: dict[int, tuple[Node, frozenset[int], frozenset[str]]] = {}
        #: The states after each statement of a block, run from its start (``_Flow._prefix``).
        self._traces: dict[tuple[object, ...], list[list[_State]]] = {}
        self._jumps: dict[tuple[int, tuple[int, ...]], bool] = {}
        self._declared: dict[int, frozenset[int]] = {}
        #: Function-like macros whose body instantiates a function template explicitly,
        #: by the template's name (``_macro_instantiations``).
        self._instantiating_macros: dict[str, list[tuple[str, list[str], str]]] | None = None
        #: Each launch site taken apart (``site``), by id() of its node, kept alive.
        self._sites: dict[int, tuple[Node, Site | None]] = {}
        #: ``launch_addresses`` by id() of the function, kept alive.
        self._launch_addresses: dict[int, tuple[Function, frozenset[int]]] = {}
        #: ``_array_init``'s initializers by id() of the function, the functions kept.
        self._array_decls: dict[int, dict[int, Node]] = {}
        self._array_owners: list[Function] = []

    # --- the whole file ---------------------------------------------------------------

    def run(self, may_launch: Callable[[Function], bool] | None = None,
            follow: Callable[[Function], bool] | None = None) -> None:
        """Every launch of the file. ``may_launch``: the functions that can hold one
        (the others' ``launches`` are not asked for); ``follow``: the host functions
        whose calls ``contexts`` needs, those that can call a launching one (a lazy walk,
        ``walker.Walker._host_scope``, builds no other host function)."""
        self.find_calls(self.w.functions if follow is None
                        else [fn for fn in self.w.functions if follow(fn)])
        seen: set[tuple[object, ...]] = set()
        for fn in self.w.functions:
            if (may_launch is None or may_launch(fn)) and fn.launches:
                self.add(self.launches_of(fn), seen)

    def find_calls(self, functions: list[Function]) -> None:
        """The calls between host functions (which ``contexts`` follows) made by those
        of ``functions``. The language server's walk passes only the callers of the
        functions whose launches it evaluates again (``walker.Walker._host_launches``)."""
        for fn in functions:
            if fn.body is not None and not fn.is_kernel and not fn.is_device:
                self._find_calls(fn)

    def launches_of(self, fn: Function
                    ) -> list[tuple[Launch, tuple[tuple[str, int | str], ...]]]:
        """The launches ``fn`` makes in each of its contexts, with the parameters each
        passes as constants, in order (repeats left in: ``add`` drops them)."""
        check_budget()
        out: list[tuple[Launch, tuple[tuple[str, int | str], ...]]] = []
        try:
            contexts = self.contexts(fn)
            for call in fn.launches:
                for ctx in contexts:
                    out.extend(self._evaluate(fn, call, ctx))
        except RecursionError:
            pass
        return out

    def add(self, found: list[tuple[Launch, tuple[tuple[str, int | str], ...]]],
            seen: set[tuple[object, ...]]) -> None:
        """``found`` (``launches_of``) added to ``launches``, each launch once."""
        for launch, params in found:
            key = (launch.kernel, launch.block, launch.span, launch.instantiation, params)
            if key not in seen:
                seen.add(key)
                self.launches.append(launch)
                self.launch_params.append(params)

    def _find_calls(self, fn: Function) -> None:
        """Calls from host function ``fn`` to other host functions of the file."""
        assert fn.body is not None
        stack = [fn.body]
        callees: set[int] = set()
        refs: list[Node] = []
        while stack:
            n = stack.pop()
            stack.extend(n.children)
            if n.kind == N.DECL_REF:
                refs.append(n)
            if n.kind != N.CALL or is_launch(n):
                continue
            callee = self._callee(n)
            if callee is not None:
                callees.add(id(callee))
            target = self._host_target(n)
            if target is not None and target is not fn:
                self._callers.setdefault(id(target), []).append((fn, n))
        for n in refs:
            # ``check(run<2, 2048>, M, N, K)``: a host function template named with its
            # template arguments but not called here runs with them wherever it is called
            if id(n) in callees:
                continue
            target = self._template_ref(n)
            if target is not None and target is not fn:
                self._named.setdefault(id(target), []).append((fn, n))

    def _template_ref(self, n: Node) -> Function | None:
        """The host function template a reference names with explicit template arguments
        (``run<2, 2048>``), if it is one of this file's."""
        target = next((f for f in self.w.functions_by_name.get(n.spelling, ())
                       if f.template_params and not f.is_kernel and not f.is_device
                       and f.body is not None), None)
        if target is None:
            return None  # before the cursor's kind and text, which cost more
        ref = n.referenced
        if ref is None or ref.kind not in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE) \
                or "<" not in self.w.slice(n.extent):
            return None
        return target

    def _host_target(self, call: Node) -> Function | None:
        callee = self._callee(call)
        if callee is None:
            return None
        ref = callee.referenced
        name = callee.spelling
        target = None
        if ref is not None and ref.kind == K.FUNCTION_DECL:
            # the argument count only where the declaration does not name the function
            target = self.w.functions_by_key.get(key_of(ref)) \
                or self.w.function_for(ref, name, len(arguments(call)))
            if target is None:
                # a deduced specialization of a variadic template (``launch(k, cfg,
                # args...)``): the template the specialization comes from
                spec = ci.conf.lib.clang_getSpecializedCursorTemplate(ref)
                if spec is not None and spec._kind_id == K.FUNCTION_TEMPLATE.value:
                    target = self.w.functions_by_key.get(key_of(spec))
        elif ref is None or ref.kind == K.OVERLOADED_DECL_REF:
            name = self._overloaded_name(callee) or name
            nargs = len(arguments(call))
            candidates = [f for f in self.w.functions_by_name.get(name, ())
                          if len(Executor.params(f)) == nargs]
            if not candidates:
                # ``launch_rows<S>(k, n)`` leaving a defaulted parameter out, a pack
                candidates = [f for f in self.w.functions_by_name.get(name, ())
                              if _takes(f, nargs)]
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
        # (caller context, site, flowed values, lambda parameters known): worked out
        # already, so that its context is in ``out`` or dropped by the cap; the caller
        # contexts kept alive with them (their id is part of the key)
        asked: set[tuple[object, ...]] = set()
        alive: list[_Context] = []
        try:
            for caller, call in self._callers.get(k, ()):
                for cctx in self.contexts(caller):
                    alive.append(cctx)
                    for extra in self.loop_assignments(caller, call, cctx):
                        if len(out) >= MAX_CONTEXTS and SKIP_PAST_CAP:
                            # none is kept past the cap: the flows and contexts it would
                            # drop are not worked out (``loop_assignments`` still runs: it
                            # registers generic lambdas' parameters)
                            continue
                        for flowed in self.flow(caller, call, cctx, extra):
                            if len(out) >= MAX_CONTEXTS and SKIP_PAST_CAP:
                                break
                            if DEDUPE_CALLEE_CONTEXTS:
                                inputs = (id(cctx), id(call), frozenset(flowed.items()),
                                          len(self._lambda_params))
                                if inputs in asked:
                                    continue
                                asked.add(inputs)
                            ex = _HostExecutor(self, caller, cctx, flowed)
                            ex.site = call
                            ctx = self._callee_context(ex, call, fn)
                            # ggml's ``constexpr bool fallback`` in each branch of
                            # ``mul_mat_q_case`` doubles 352 instantiations of mul_mat_q
                            ctx.limited = cctx.limited or ex.scoped
                            if len(out) < MAX_CONTEXTS:
                                out.setdefault(ctx.key(), ctx)
            for caller, ref in self._named.get(k, ()):
                for cctx in self.contexts(caller):
                    ex = _HostExecutor(self, caller, cctx, {})
                    env = self.template_env(ex, ref, fn)
                    if env is not None and env.label is not None and len(out) < MAX_CONTEXTS:
                        ctx = _Context(env, limited=cctx.limited)
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
        in_macro = False
        for text in self.w.project_texts():
            for m in EXPLICIT_INSTANTIATION.finditer(text):
                if m.group(1) != fn.name:
                    continue
                env = self.w.text_env(fn, split_top_level(m.group(2)))
                if env is not None and env.label is not None:
                    out.append(_Context(env))
                else:
                    in_macro = True  # ``#define DECL(D) template void f<D>(...)``
        if in_macro or not out:
            out.extend(self._macro_instantiations(fn))
        return out

    def _macro_instantiations(self, fn: Function) -> list[_Context]:
        """Explicit instantiations of ``fn`` written by a function-like macro
        (``#define DECL(D, T) template void f<D, T>(...)``) invoked at the main file's
        top level (ggml's ``DECL_FATTN_VEC_CASE(64, GGML_TYPE_F16, GGML_TYPE_F16);``,
        one file per instantiation): the macro's arguments put in its template argument
        list. libclang does not visit explicit instantiations; an invocation inside
        another macro's body (ggml's ``extern`` declarations in its headers) is not one
        of the main file's."""
        texts = self.w.project_texts()
        if self._instantiating_macros is None:
            found: dict[str, list[tuple[str, list[str], str]]] = {}
            for text in texts:
                for m in _FUNCTION_MACRO.finditer(text):
                    body = re.sub(r"\\\r?\n", " ", m.group(3))
                    for inst in EXPLICIT_INSTANTIATION.finditer(body):
                        params = [x.strip() for x in m.group(2).split(",")]
                        found.setdefault(inst.group(1), []).append(
                            (m.group(1), params, inst.group(2)))
            self._instantiating_macros = found
        macros = self._instantiating_macros.get(fn.name)
        if not macros or not texts:
            return []
        main = _DIRECTIVE.sub(lambda d: "\n" * d.group(0).count("\n"), texts[0])
        out: list[_Context] = []
        for name, params, targs in macros:
            for call in re.finditer(rf"\b{re.escape(name)}\s*\(", main):
                args = _balanced(main, call.end())
                if args is None or len(args) != len(params):
                    continue
                bound = dict(zip(params, args, strict=True))
                text = "".join(f"({bound[w]})" if w in bound else w
                               for w in re.split(r"([A-Za-z_]\w*)", targs))
                env = self.w.text_env(fn, [_unparen(a) for a in split_top_level(text)])
                if env is not None and env.label is not None:
                    out.append(_Context(env, limited=True))
        return out

    def _callee_context(self, ex: _HostExecutor, call: Node, target: Function) -> _Context:
        env = Env()
        if target.template_params:
            callee = self._callee(call)
            if callee is not None:
                env = self.template_env(ex, callee, target, arguments(call)) or Env()
        ctx = _Context(env)
        args = arguments(call)
        params = Executor.params(target)
        for i, p in enumerate(params):
            t = node_int_type(p)
            pk = key_of(p.cursor)
            if i >= len(args):
                # a default argument (``const int warp_size = WARP_SIZE``): the caller
                # names no value, the declaration's constant is the one passed
                default = p.expr_children()
                v = ex.known(default[-1]) if t is not None and default else None
                if v is not None and t is not None:
                    ctx.values[pk] = Const(v, t)
                continue
            a = args[i]
            if t is not None:
                v = ex.known(a)
                if v is not None:
                    ctx.values[pk] = Const(v, t)
            elif "dim3" in ty.spelling(p.type):
                dims = ex.block_dims(a)
                if dims is not None and dims != (None, None, None):
                    ctx.dims[pk] = dims
                if dims is None or None in dims:
                    got = component_sets(self, ex, a, MAX_THREADS)
                    if got is not None:
                        ctx.dim_sets[pk] = got
            elif _function_pointer(a):
                # ``launch(k<4>, ...)``, ``launch(kern, ...)`` with a pointer local: the
                # kernels the parameter holds in this context
                kernels = self._function_refs(ex, a, 0)
                if kernels:
                    ctx.kernels[pk] = tuple(kernels)
            else:
                self._struct_fields(ex, a, p, ctx)
        return ctx

    def _struct_fields(self, ex: _HostExecutor, a: Node, p: Node, ctx: _Context) -> None:
        """The ``dim3`` members of a struct argument (by value or reference) known at the
        call, into ``ctx.fields`` (``launch(k, cfg)``, ``cfg.block`` in ``launch``)."""
        pk = key_of(p.cursor)
        for name, spelled in ty.record_fields(p.type):
            if spelled.replace("struct ", "") != "dim3":
                continue
            dims = ex.init_field(a, name, 0)
            if dims is not None and dims != (None, None, None):
                ctx.fields[(pk, name)] = dims

    # --- loops ------------------------------------------------------------------------

    def guard_facts(self, fn: Function, site: Node) -> dict[tuple[object, ...], Node | int]:
        """The equalities the ``if`` statements around ``site`` hold where it runs:
        ``if (C / H == 64) k<64><<<B * H, C / H>>>(...)`` launches 64 threads (ggml's
        ``gla.cu``). Each side of an ``A == B`` conjunct of a condition whose then-branch
        holds the site, by what it reads (``_fact_key``), where both sides read only literals,
        constants and variables that nothing assigns after their declaration (their value
        at the site is the one the condition saw). Such a comparison conjunct is itself a
        fact, 1 there (0 in the else-branch of a condition that is one comparison): mmcv's
        ``num_threads = channels > LIMIT ? LIMIT : channels`` read under ``if (channels >
        LIMIT)`` is ``LIMIT``."""
        hit = self._guards.get(id(site))
        if hit is not None:
            return hit
        facts: dict[tuple[object, ...], Node | int] = {}
        parents = self._parent_map(fn)
        child, cur = site, parents.get(id(site))
        while cur is not None:
            if cur.kind == N.IF:
                cond, then, other = _if_parts(cur)
                if cond is not None and child is then:
                    for a, b in self._equalities(fn, cond):
                        ka, kb = _fact_key(a), _fact_key(b)
                        if ka is not None and kb is not None:
                            facts.setdefault(ka, b)
                            facts.setdefault(kb, a)
                    for c in self._comparisons(fn, cond):
                        kc = _fact_key(c)
                        if kc is not None:
                            facts.setdefault(kc, 1)
                elif cond is not None and child is other and other is not None:
                    c = strip(cond)
                    if c.kind == N.BINARY and c.spelling in _COMPARISONS \
                            and all(self._fixed(fn, x) for x in c.expr_children()):
                        kc = _fact_key(c)
                        if kc is not None:
                            facts.setdefault(kc, 0)
            child, cur = cur, parents.get(id(cur))
        self._guards[id(site)] = facts
        return facts

    def _comparisons(self, fn: Function, cond: Node) -> list[Node]:
        """The comparison conjuncts of ``cond`` whose sides are ``_fixed``."""
        c = strip(cond)
        sides = c.expr_children()
        if c.kind != N.BINARY or len(sides) != 2:
            return []
        if c.spelling == "&&":
            return self._comparisons(fn, sides[0]) + self._comparisons(fn, sides[1])
        if c.spelling in _COMPARISONS and all(self._fixed(fn, x) for x in sides):
            return [c]
        return []

    def _equalities(self, fn: Function, cond: Node) -> list[tuple[Node, Node]]:
        c = strip(cond)
        if c.kind != N.BINARY:
            return []
        sides = c.expr_children()
        if len(sides) != 2:
            return []
        if c.spelling == "&&":
            return self._equalities(fn, sides[0]) + self._equalities(fn, sides[1])
        if c.spelling == "==" and all(self._fixed(fn, x) for x in sides):
            return [(strip(sides[0]), strip(sides[1]))]
        return []

    def _fixed(self, fn: Function, n: Node) -> bool:
        """``n`` is arithmetic on literals, constants and variables never assigned."""
        for x in subtree(n):
            if x.kind == N.DECL_REF:
                ref = x.referenced
                if ref is None:
                    return False
                if ref.kind in (K.VAR_DECL, K.PARM_DECL):
                    var = fn.vars.get(key_of(ref))
                    if var is None or var.modified:
                        return False
            elif x.kind == N.BINARY:
                if x.spelling not in _ARITHMETIC:
                    return False
            elif x.kind not in _FIXED_KINDS:
                return False
        return True

    def _write_nodes(self, fn: Function) -> list[tuple[Node, Node]]:
        """Each node of ``fn``'s body that writes (``Executor._write_target``) with what
        it writes, in ``_walk``'s order; kept by function (``_member_written`` asks for
        every ``dim3`` read at every site of every context)."""
        hit = self._writes.get(id(fn))
        if hit is None:
            assert fn.body is not None
            hit = []
            for n in subtree(fn.body):
                target = Executor._write_target(n)
                if target is not None:
                    hit.append((n, target))
            self._writes[id(fn)] = hit
        return hit

    def launch_addresses(self, fn: Function) -> frozenset[int]:
        """By id(): the ``&x`` nodes of ``fn`` that hand an address only to the toolkit's
        launch functions, which read what it points to and write nothing there:
        ``&config`` given to ``cudaLaunchKernelEx``, and the elements of a ``void *args[]
        = {&a, (void *)&b}`` array that is only ever the argument array of launches.
        What they point to stays known after them (``_Flow.escapes``)."""
        hit = self._launch_addresses.get(id(fn))
        if hit is not None:
            return hit[1]
        out: set[int] = set()
        calls = [c for c in fn.launches if api_launch(c) is not None] \
            if fn.body is not None else []
        uses: dict[int, int] = {}
        for call in calls:
            site = self.site(call)
            if site is None:
                continue
            if site.config is not None:
                out.add(id(strip(arguments(call)[0])))
            a = strip(site.arg_array) if site.arg_array is not None else None
            if a is not None and a.kind == N.DECL_REF and a.referenced is not None:
                k = key_of(a.referenced)
                uses[k] = uses.get(k, 0) + 1
        if uses:
            assert fn.body is not None
            refs: dict[int, int] = {}
            for n in subtree(fn.body):
                if n.kind == N.DECL_REF and n.referenced is not None:
                    k = key_of(n.referenced)
                    if k in uses:
                        refs[k] = refs.get(k, 0) + 1
            for k, count in uses.items():
                var = fn.vars.get(k)
                init = self._array_init(fn, k)
                if var is None or refs.get(k) != count or init is None or var.modified \
                        or var.writes:
                    continue  # used some other way too
                for e in init.expr_children():
                    x = strip(e)
                    while x.kind in CASTS and x.expr_children():
                        x = strip(x.expr_children()[-1])
                    if x.kind == N.UNARY and unary_operator_kind(x.cursor) == UO_ADDR_OF:
                        out.add(id(x))
        got = frozenset(out)
        self._launch_addresses[id(fn)] = (fn, got)
        return got

    def _array_init(self, fn: Function, k: int) -> Node | None:
        """The braced initializer of the local array ``k`` of ``fn`` (``void *args[] =
        {&a, &b}``), a node of ``fn``'s body; None if it has none."""
        decls = self._array_decls.get(id(fn))
        if decls is None:
            found: dict[int, Node] = {}
            if fn.body is not None:
                for n in subtree(fn.body):
                    if n.kind == N.VAR_DECL and ty.is_array_kind(n.ckind):
                        inits = n.expr_children()
                        if inits and strip(inits[-1]).kind == N.INIT_LIST:
                            found[key_of(n.cursor)] = strip(inits[-1])
            decls = found
            self._array_decls[id(fn)] = decls
            self._array_owners.append(fn)
        return decls.get(k)

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

    def call_value(self, fn: Function, values: dict[int, Const]) -> int | None:
        """The value a call of host function ``fn`` returns with its integer parameters
        bound to ``values``: its statements run in order (see ``_Flow``), every path
        must reach a ``return`` of one and the same constant.

        A call nested deeper than ``MAX_CALL_DEPTH``, or of a function already running,
        has no value; so a value found is kept with the stacks it holds for
        (``CallValue``), and a call elsewhere (at the top, after it was first asked for
        nested at the limit) runs again where it may differ. The language server's
        walker keeps them across versions (``keeper``), by what the function may read."""
        if fn.body is None or _keeps_state(fn, self.stateful):
            return None
        name = self._call_name(fn)
        frame = self._call_frames[-1] if self._call_frames else None
        depth = len(self._call_frames)
        if frame is not None:
            frame.asked.add(name)
        if depth >= MAX_CALL_DEPTH:
            if frame is not None:
                frame.cut = True
            return None
        if name in self._calling:
            return None  # recursion (``stacked`` of the runs around it)
        key = (id(fn), tuple(sorted((k, c.value) for k, c in values.items())))
        hit = next((e for e in self._call_values.get(key, ()) if e.valid(self._calling, depth)),
                   None)
        kept_key = self._kept_call_key(fn, values) if hit is None else None
        if kept_key is not None and self.keeper is not None:
            named = self.keeper.named
            hit = next((e for e in self.keeper.kept.get(kept_key, ())
                        if e.valid(self._calling, depth) and all(map(named, e.asked))), None)
            if hit is not None:
                self.calls_kept += 1
                self._call_values.setdefault(key, []).append(hit)
        if hit is not None:
            if frame is not None:
                frame.absorb(hit)
            return hit.value
        own = _CallFrame({name})
        self._call_frames.append(own)
        self._calling.add(name)
        self.calls_done += 1
        notes = len(self.w.notes)
        result: int | None = None
        try:
            returns: list[int | None] = []
            flow = _Flow(self, fn, _Context(Env(), dict(values)), {}, set(), returns)
            left = flow.exec(fn.body, [_State()])
            if not left and not flow.lost_return and returns \
                    and None not in returns and len(set(returns)) == 1:
                result = returns[0]
        except RecursionError:
            result = None
            own.volatile = True
        finally:
            self._call_frames.pop()
            self._calling.discard(name)
        got = CallValue(result, frozenset(own.asked), frozenset(own.asked & self._calling),
                        depth if own.cut else None, own.height)
        if frame is not None:
            frame.absorb(got)
            frame.volatile = frame.volatile or own.volatile
        if not own.volatile:
            self._call_values.setdefault(key, []).append(got)
            if kept_key is not None and self.keeper is not None \
                    and len(self.w.notes) == notes \
                    and not any(isinstance(n, int) for n in got.asked):
                self.keeper.kept.setdefault(kept_key, []).append(got)
        return result

    def _call_name(self, fn: Function) -> object:
        """``fn`` as ``CallValue`` names it: as the ``keeper`` does, where it names it
        (across versions), else by ``id`` (an int: such a value is not kept)."""
        if self.keeper is not None:
            name = self.keeper.name(fn)
            if name is not None and not isinstance(name, int):
                return name
        return id(fn)

    def _kept_call_key(self, fn: Function, values: dict[int, Const]
                       ) -> tuple[str, tuple[tuple[int, int], ...]] | None:
        """The key of a call of ``fn`` with ``values`` in ``keeper.kept``: what ``fn`` may
        read (``CallKeeper.key``) and the arguments by parameter position."""
        if self.keeper is None:
            return None
        digest = self.keeper.key(fn)
        if digest is None:
            return None
        where = {key_of(p.cursor): i for i, p in enumerate(Executor.params(fn))}
        if not where.keys() >= values.keys():
            return None
        return digest, tuple(sorted((where[k], c.value) for k, c in values.items()))

    def flow(self, fn: Function, site: Node, ctx: _Context, extra: dict[int, Const]
             ) -> list[dict[int, Const | None]]:
        """``extra`` with the values the statements before ``site`` leave, one dict per
        path that differs in what the site reads ([] when no path reaches it); see
        ``_Flow``."""
        if fn.body is None:
            return [dict(extra)]
        key = self._flow_key(fn, site, ctx, extra)
        hit = self._flows.get(key) if key is not None else None
        if hit is None:
            flow = _Flow(self, fn, ctx, extra, self._refs(fn, site))
            if key is not None:
                flow.memo = (id(fn), *key[2:7], tuple(sorted(ctx.values.items())),
                             tuple(sorted(ctx.dims.items())), key[-1])
            try:
                hit = flow.run(site)
            except RecursionError:
                return [dict(extra)]
            if key is not None:
                self._flows[key] = hit
        return [dict(d) for d in hit]

    def _flow_key(self, fn: Function, site: Node, ctx: _Context, extra: Mapping[int, Const]
                  ) -> tuple[object, ...] | None:
        """What ``flow`` depends on: the site, the template arguments, ``extra``, and the
        context's values of the variables named before the site, outside its own subtree
        (``_Flow`` runs only the statements before the site and the conditions around it;
        the site's arguments are read afterwards, with the whole context). A host function
        called from a loop with a counter that only reaches the callee's launch
        (``adamw_update(..., t, ...)`` in llm.c's ``gpt2_update``, one context per step)
        then follows its statements once, not once per context. None: not cached (an
        ``Env`` with no label but bound values)."""
        env = ctx.env
        if env.label is None and (env.values or env.types or env.params or env.functions):
            return None
        named = self._outside_refs(fn, site)
        return (
            id(fn), id(site), env.label,
            tuple(sorted(env.values.items())), tuple(sorted(env.types.items())),
            tuple(sorted(env.params.items())), tuple(sorted(env.functions.items())),
            tuple(sorted(extra.items(), key=lambda kv: kv[0])),
            tuple(sorted((k, v) for k, v in ctx.values.items() if k in named)),
            tuple(sorted((k, v) for k, v in ctx.dims.items() if k in named)),
            len(self._lambda_params),
        )

    def _declared_in(self, n: Node) -> frozenset[int]:
        """Keys of the variables and parameters declared in ``n``."""
        hit = self._declared.get(id(n))
        if hit is None:
            hit = self._declared[id(n)] = frozenset(
                key_of(x.cursor) for x in subtree(n) if x.kind in (N.VAR_DECL, N.PARM_DECL))
        return hit

    def _has_jumps(self, n: Node, kinds: tuple[int, ...]) -> bool:
        """Whether ``n`` or a node under it is of one of ``kinds``."""
        k = (id(n), kinds)
        hit = self._jumps.get(k)
        if hit is None:
            hit = self._jumps[k] = any(x.kind in kinds for x in subtree(n))
        return hit

    def _outside_refs(self, fn: Function, site: Node) -> frozenset[int]:
        """Keys of the declarations referenced in ``fn``'s body outside ``site`` and not
        after it: at or before its start in its file (a macro's expansion shares its
        invocation's offset), or in another file. Only a parameter's references are
        placed (the context binds parameters); any other declaration referenced outside
        ``site`` is in."""
        k = (id(fn), id(site))
        hit = self._outside.get(k)
        if hit is None:
            assert fn.body is not None
            start = site.extent.start
            file = start.file.name if start.file is not None else None
            offset = start.offset
            params = {key_of(p.cursor) for p in Executor.params(fn)}
            out: set[int] = set()
            stack = [fn.body]
            while stack:
                n = stack.pop()
                if n is site:
                    continue
                stack.extend(n.children)
                if n.kind != N.DECL_REF or n.referenced is None:
                    continue
                rk = key_of(n.referenced)
                if rk in out:
                    continue
                if rk not in params:
                    out.add(rk)
                    continue
                at = n.extent.start
                if at.offset <= offset or (at.file.name if at.file is not None else None) \
                        != file:
                    out.add(rk)
            hit = frozenset(out)
            self._outside[k] = hit
        return hit

    def _init_reads(self, fn: Function, init: Node) -> tuple[frozenset[int], frozenset[str]]:
        """What evaluating ``init`` in ``fn`` can read: the keys of the variables
        (``_refs``, through the initializers and writes of locals, with the ``dim3``
        members ``_Flow`` follows) and every name it, those initializers and writes and
        the declarations of the variables they name spell (a template argument's name, in
        an expression or a type: ``float buf[D]; int n = sizeof(buf);``)."""
        hit = self._init_read.get(id(init))
        if hit is not None:
            return hit[1], hit[2]
        keys = self._refs(fn, init)
        names: set[str] = set()
        declared: set[int] = set()
        for n in [init] + [x for k in keys if (var := fn.vars.get(k)) is not None
                           for x in ([var.init] if var.init is not None else []) + var.writes]:
            names.update(_IDENT.findall(self.w.slice(n.extent)))
            for x in subtree(n):
                if x.kind != N.DECL_REF:
                    continue
                names.add(x.spelling)
                ref = x.referenced
                if ref is not None and key_of(ref) not in declared:
                    declared.add(key_of(ref))
                    names.update(_IDENT.findall(self.w.slice(ref.extent)))
        got = (frozenset(_with_members(keys)), frozenset(names))
        self._init_read[id(init)] = (init, *got)
        return got

    def _init_key(self, flow: _Flow, init: Node, s: _State) -> tuple[object, ...] | None:
        """What ``flow.executor(s).known(init)`` depends on: the initializer, the values
        the path and the context give the variables it can read, the template arguments
        whose names it spells (the other arguments of the context do not change it: ggml's
        ``launch_fattn`` reads ``K->nb[1]`` alike for each of its 64 contexts), the
        context's other template bindings, and the generic lambdas' parameters known.
        None: not kept (a class bound to a template parameter)."""
        ctx, env = flow.ctx, flow.ctx.env
        if env.classes:
            return None
        keys, names = self._init_reads(flow.fn, init)
        flowed = {**flow.extra, **s.overrides()}
        return (
            id(flow.fn), id(init),
            tuple(sorted((k, v) for k, v in flowed.items() if k in keys)),
            tuple(sorted((k, v) for k, v in ctx.values.items() if k in keys)),
            tuple(sorted((k, v) for k, v in ctx.dims.items() if k in keys)),
            tuple(sorted((k, tuple((id(f), e.label if e is not None else None) for f, e in v))
                         for k, v in ctx.kernels.items() if k in keys)),
            tuple(sorted((k, v) for k, v in ctx.fields.items() if k[0] in keys)),
            tuple(sorted((k, v) for k, v in ctx.dim_sets.items() if k in keys)),
            env.label is None,
            tuple(sorted((n, v) for n, v in env.values.items() if n in names)),
            tuple(sorted(env.types.items())), tuple(sorted(env.params.items())),
            tuple(sorted(env.functions.items())),
            len(self._lambda_params),
        )

    def _refs(self, fn: Function, n: Node) -> set[int]:
        """Keys of the variables ``n`` reads, through the initializers and writes of locals."""
        hit = self._refs_cache.get(id(n))
        if hit is not None:
            return hit
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
        self._refs_cache[id(n)] = out
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
        holder = enclosing(parents, cur)
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
        for n in subtree(fn.body):
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
            " ".join(ty.spelling(arg.type).split()))
        if m is not None:
            return cexpr.evaluate(m.group(1), names, self.w.macro_types)
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
            op = COMPOUND_ASSIGN_OPS.get(inc.spelling)
            return _Step(op, amount) if amount is not None and op is not None else None
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
        if not ty.is_constant_array(ref.type):
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
            if not ty.is_const(ty.element(ref.type)):
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
        if len(values) != ty.array_length(ref.type) or not values:
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
            up = enclosing(parents, n)
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

    def site(self, call: Node) -> Site | None:
        """``call`` taken apart (``launch_api.site_of``), once per node."""
        k = id(call)
        hit = self._sites.get(k)
        if hit is None:
            hit = self._sites[k] = (call, site_of(call))
        return hit[1]

    def _evaluate(self, fn: Function, call: Node, ctx: _Context
                  ) -> list[tuple[Launch, tuple[tuple[str, int | str], ...]]]:
        site = self.site(call)
        if site is None:
            return []
        span = self.w.span(call.extent)
        out: list[tuple[Launch, tuple[tuple[str, int | str], ...]]] = []
        for flowed in (f for extra in self.loop_assignments(fn, call, ctx)
                       for f in self.flow(fn, call, ctx, extra)):
            ex = _HostExecutor(self, fn, ctx, flowed)
            ex.site = call
            ex.facts = self.guard_facts(fn, call)
            dims = ex.site_dims(site)
            targets = self.kernels_of(ex, site)
            external = None if targets else self._declared_kernel(site)
            sets: dict[int, tuple[list[Shape], str | None] | None] = {}
            if external is not None:
                # defined in another file: its launch shapes travel with this unit's
                # launches, and ``link_launches`` hands them to the file defining it
                shapes = expand_shape(dims, MAX_THREADS) if dims is not None else []
                bounded = self._bounded(ex, site.block, dims, MAX_THREADS, span, sets)
                if bounded is not None:
                    out.extend((Launch(external, shape, span, bound=bounded[1]), ())
                               for shape in bounded[0])
                    continue
                if not shapes:
                    partial = row_warp_shape(dims) if dims is not None else None
                    out.append((Launch(external, None, span, None, partial), ()))
                out.extend((Launch(external, shape, span), ()) for shape in shapes)
            for kernel, env in targets:
                label = None
                if kernel.template_params:
                    if env is not None and env.label is not None:
                        known = self.instantiations.setdefault(kernel.name, {})
                        if env.label not in known and len(known) >= MAX_POINTER_INSTANTIATIONS \
                                and (ctx.limited or self._through_pointer(site)):
                            # a generic launcher handed hundreds of instantiations (ggml's
                            # ``ggml_cuda_kernel_launch``): the first ones only
                            self.capped[kernel.name] = self.capped.get(kernel.name, 0) + 1
                            continue
                        known.setdefault(env.label, env)
                        label = env.label
                    else:
                        label = None
                cap = self._cap(kernel, env)
                shapes = expand_shape(dims, cap) if dims is not None else []
                params = self._parameter_values(ex, site, kernel)
                bounded = self._bounded(ex, site.block, dims, cap, span, sets)
                if bounded is not None:
                    # a run-time value the host code bounds: each shape of the set
                    out.extend((Launch(kernel.name, shape, span, label, bound=bounded[1]),
                                params) for shape in bounded[0])
                    continue
                if not shapes:
                    partial = row_warp_shape(dims, cap) if dims is not None else None
                    out.append((Launch(kernel.name, None, span, label, partial), params))
                for shape in shapes:
                    out.append((Launch(kernel.name, shape, span, label), params))
        return out

    def _bounded(self, ex: _HostExecutor, block: Node | None, dims: Dims | None, cap: int,
                 span: Span, memo: dict[int, tuple[list[Shape], str | None] | None]
                 ) -> tuple[list[Shape], str | None] | None:
        """The shapes of a launch whose block shape ``block`` is not constant but bounded
        by the host code to a finite set, with the note the model words the set with
        (``launch_sets``); None when a component is constant-free and unbounded, or
        every component is known, or the shape is no one expression (the driver's three
        integers, ``cudaLaunchKernelEx``'s configuration). By ``cap`` in ``memo`` (one
        launch, kernels with different ``__launch_bounds__``)."""
        if block is None or (dims is not None and None not in dims):
            return None
        if cap not in memo:
            where = where_text(span.file, span.line)
            b = strip(block)
            while b.kind in (N.CALL, N.FUNCTIONAL_CAST) and node_int_type(b) is None \
                    and len(b.expr_children()) == 1:
                b = strip(b.expr_children()[0])  # dim3's copy constructor
            ref = b.referenced if b.kind == N.DECL_REF else None
            passed = ex.dim_sets.get(key_of(ref)) if ref is not None \
                and ref.kind == K.PARM_DECL else None
            var = ex.fn.vars.get(key_of(ref)) if ref is not None and ex.fn is not None \
                else None
            if passed is not None and var is not None and not var.modified \
                    and not var.writes:
                # a ``dim3`` parameter the caller passes a bounded set of shapes
                memo[cap] = describe(passed, cap, where)
                return memo[cap]
            try:
                memo[cap] = launch_set(self, ex, block, cap, where)
            except RecursionError:
                memo[cap] = None
        return memo[cap]

    @staticmethod
    def _through_pointer(site: Site) -> bool:
        """Whether a launch starts the kernel a function-pointer variable or parameter
        holds."""
        ref = site.kernel.referenced if site.kernel is not None else None
        return ref is not None and ref.kind in (K.VAR_DECL, K.PARM_DECL)

    def _declared_kernel(self, site: Site) -> str | None:
        """The name of the kernel a launch starts when this file only declares it
        (``extern "C" __global__ void k(float*);`` in ``main.cu``, defined in ``k.cu``):
        a plain ``__global__`` function, not a template (whose arguments the defining
        file would label its own way), with no definition here."""
        ref = site.kernel.referenced if site.kernel is not None else None
        if ref is None or ref.kind != K.FUNCTION_DECL or ref.is_definition():
            return None
        if ref.spelling in self.w.kernels_by_name:
            return None
        spec = ci.conf.lib.clang_getSpecializedCursorTemplate(ref)
        if spec is not None and spec._kind_id == K.FUNCTION_TEMPLATE.value:
            return None  # ``k<1><<<...>>>`` of a declared template
        definition = ref.get_definition()
        if definition is not None and definition.is_definition():
            return None
        if not any(ch.kind == K.CUDAGLOBAL_ATTR for ch in ref.get_children()):
            return None
        return str(ref.spelling) or None

    def _parameter_values(self, ex: _HostExecutor, site: Site, kernel: Function
                          ) -> tuple[tuple[str, int | str], ...]:
        """The kernel's integer parameters this launch passes as constants in its context
        (``const int Bc = 32``, a ``#define``, a literal, a known host parameter), or as
        a component of the launch's own block shape, by that component's name
        (``k<<<g, block>>>(..., block.x)``: ``blockDim.x``; NVIDIA's dwtHaar1D passes
        ``block_size.x`` as ``bdim``)."""
        out: list[tuple[str, int | str]] = []
        block = site.block
        for a, p in zip(self.kernel_arguments(ex, site), Executor.params(kernel),
                        strict=False):
            if a is None or node_int_type(p) is None or not p.spelling:
                continue
            v = ex.known(a)
            if v is not None:
                out.append((p.spelling, v))
                continue
            dim = _block_component(a, block) if block is not None else None
            if dim is not None:
                out.append((p.spelling, dim))
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
                envs[label] = Env(label, dict(env.values), dict(env.types), bound,
                                  dict(env.functions))
            self.launches[i] = replace(self.launches[i], instantiation=label)
        return list(envs.values()), symbolic

    def _cap(self, kernel: Function, env: Env | None = None) -> int:
        hit = self._max_threads.get(kernel.name)
        if hit is None:
            try:
                hit = self.w.kernel_record(kernel).max_threads or MAX_THREADS
            except Exception:  # an attribute the walker cannot read: the hardware limit
                hit = MAX_THREADS
            self._max_threads[kernel.name] = hit
        if hit < MAX_THREADS or env is None or not env.values or env.label is None:
            return hit
        # ``__launch_bounds__(N)`` of a kernel template: N in this instantiation
        key = f"{kernel.name}<{env.label}>"
        got = self._max_threads.get(key)
        if got is None:
            got = MAX_THREADS
            for ch in kernel.node.children:
                if ch.kind != N.UNEXPOSED_ATTR:
                    continue
                m = re.match(r"\s*(?:__launch_bounds__|launch_bounds)\s*\((.*)\)\s*$",
                             self.w.slice(ch.extent), re.S)
                args = split_top_level(m.group(1)) if m else []
                v = cexpr.evaluate(args[0], {**self.w.named_consts(), **env.values},
                                   self.w.macro_types) if args else None
                if v is not None and 0 < v < MAX_THREADS:
                    got = v
            self._max_threads[key] = got
        return got

    def kernel_arguments(self, ex: _HostExecutor, site: Site) -> list[Node | None]:
        """The expressions a launch passes the kernel, by position: the call's own, or
        the objects a ``void *args[] = {&a, (void *)&b}`` array points to (None where an
        element is another expression); [] when they are not known (an array that is
        written after its initializer, a parameter)."""
        if site.args is not None:
            return list(site.args)
        if site.arg_array is None or ex.fn is None:
            return []
        got = self._argument_array(ex.fn, site.arg_array)
        return [] if got is None else list(got)

    def _argument_array(self, fn: Function, n: Node) -> list[Node | None] | None:
        a = strip(n)
        ref = a.referenced if a.kind == N.DECL_REF else None
        var = fn.vars.get(key_of(ref)) if ref is not None else None
        init = self._array_init(fn, key_of(ref)) if ref is not None else None
        if var is None or init is None or var.modified or var.writes:
            return None
        out: list[Node | None] = []
        for e in init.expr_children():
            x = strip(e)
            while x.kind in CASTS and x.expr_children():
                x = strip(x.expr_children()[-1])
            if x.kind == N.UNARY and len(x.children) == 1 \
                    and unary_operator_kind(x.cursor) == UO_ADDR_OF:
                out.append(x.children[0])
            else:
                out.append(None)
        return out

    def kernels_of(self, ex: _HostExecutor, site: Site) -> list[tuple[Function, Env | None]]:
        """The kernels a launch may start, each with its template arguments if known."""
        if site.function is not None:
            return self._module_kernels(ex, site.function)
        callee = site.kernel
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
        return [(kernel, self.template_env(ex, callee, kernel, site.args) if kernel.template_params
                 else None)]

    def _module_kernels(self, ex: _HostExecutor, f: Node) -> list[tuple[Function, Env | None]]:
        """The kernels of this unit a driver launch's ``CUfunction`` local may hold: each
        ``cuModuleGetFunction(&f, module, "name")`` sets it, with a literal name that is
        a (non-template) kernel's symbol. [] when anything else may set it (another
        write, its address taken elsewhere, a name that is not a literal or not one of
        this unit's kernels: a module built from other sources)."""
        fn = ex.fn
        ref = f.referenced if f.kind == N.DECL_REF else None
        if fn is None or fn.body is None or ref is None or ref.kind != K.VAR_DECL:
            return []
        k = key_of(ref)
        var = fn.vars.get(k)
        null = var is not None and var.init is not None and strip(var.init).kind in (
            K.CXX_NULL_PTR_LITERAL_EXPR.value, K.GNU_NULL_EXPR.value, N.INTEGER_LITERAL)
        if var is None or var.assigned or var.writes or (var.init is not None and not null):
            return []  # (``CUfunction f = nullptr;``: a null the launch cannot start)
        parents = self._parent_map(fn)
        names: list[str] = []
        for n in subtree(fn.body):
            if n.kind != N.DECL_REF or n.referenced is None or key_of(n.referenced) != k:
                continue
            up = enclosing(parents, n)
            if up is None or up.kind != N.UNARY \
                    or unary_operator_kind(up.cursor) != UO_ADDR_OF:
                continue  # read: ``f`` passed by value
            call = enclosing(parents, up)
            cargs = arguments(call) if call is not None and call.kind == N.CALL else []
            if call is None or call.spelling != MODULE_GET_FUNCTION or len(cargs) != 3 \
                    or unwrap(cargs[0]) is not n:
                return []  # its address handed to something else
            name = string_literal(cargs[2])
            if name is None:
                return []
            names.append(name)
        out: list[tuple[Function, Env | None]] = []
        for name in dict.fromkeys(names):
            kernel = next((kn for kn in self.w.functions
                           if kn.is_kernel and not kn.template_params and kn.body is not None
                           and mangled_name(kn.node.cursor) == name), None)
            if kernel is None:
                return []
            out.append((kernel, None))
        return out

    def _pointer_targets(self, ex: _HostExecutor, ref: ci.Cursor
                         ) -> list[tuple[Function, Env | None]]:
        """Kernels a function-pointer variable may hold: its initializer and every value
        assigned to it, when each is a kernel of this file."""
        return self._pointer_values(ex, ref, 0) or []

    def _pointer_values(self, ex: _HostExecutor, ref: ci.Cursor, depth: int
                        ) -> list[tuple[Function, Env | None]] | None:
        """``_pointer_targets``, None when some value is not a known kernel: a
        parameter's are those its call sites pass (``_Context.kernels``), a local's its
        initializer and every value assigned to it (a kernel, another such pointer)."""
        fn = ex.fn
        k = key_of(ref)
        if ref.kind == K.PARM_DECL:
            got = ex.kernels.get(k)
            return list(got) if got else None
        var = fn.vars.get(k) if fn is not None else None
        if var is None or var.address_taken or var.is_param:
            return None
        sources = ([var.init] if var.init is not None else []) + list(var.writes)
        out: list[tuple[Function, Env | None]] = []
        for s in sources:
            targets = self._function_refs(ex, s, depth + 1)
            if targets is None:
                return None
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
        if n.kind in CASTS and n.expr_children():
            # ``const void *kp = (const void *)k;``
            return self._function_refs(ex, n.expr_children()[-1], depth + 1)
        if n.kind == N.DECL_REF:
            ref = n.referenced
            if ref is not None and ref.kind in (K.VAR_DECL, K.PARM_DECL):
                return self._pointer_values(ex, ref, depth + 1)  # ``auto k2 = k1;``
            name = n.spelling or (ref.spelling if ref is not None else "")
            if ref is None or ref.kind == K.OVERLOADED_DECL_REF:
                # ``k<S>`` in a host template's body: unresolved until instantiated
                name = self._overloaded_name(n) or name
            elif ref.kind != K.FUNCTION_DECL:
                return None
            kernel = self.w.kernels_by_name.get(name)
            if kernel is None:
                return None
            if not kernel.template_params:
                return [(kernel, None)]
            # its template arguments read where the pointer takes it: a local named
            # there is the one in scope at the assignment (``constexpr bool softcap =
            # true;`` in each branch of ggml's ``if``), not at the launch
            saved, ex.site = ex.site, n
            try:
                return [(kernel, self.template_env(ex, n, kernel))]
            finally:
                ex.site = saved
        return None

    # --- template arguments -----------------------------------------------------------

    def template_env(self, ex: _HostExecutor, callee: Node, target: Function,
                     call_args: Sequence[Node] | None = None) -> Env | None:
        """Template arguments a reference names: from the specialization clang resolved,
        else from the text between the angle brackets evaluated in the context, else
        (``kern<<<g, b>>>(x, out)`` in a host template, a call with none written)
        deduced from the types of the call's arguments."""
        env = self.w.spec_env(callee, target)
        if env is not None:
            return env
        text = self.w.slice(callee.extent)
        m = re.search(r"<(.*)>\s*$", text, re.S)
        if not m:
            env = self._ast_template_env(ex, callee, target)
            if env is None and call_args is not None:
                env = self._deduced_env(ex, call_args, target)
            return env
        args = split_top_level(m.group(1))
        params = target.template_params
        if len(args) < len(params) and all(p.default is not None for p in params[len(args):]):
            if any(p.name in self.w.deducible(target) for p in params[len(args):]):
                return None  # deduced from the call's arguments, not the default
            args += [str(p.default) for p in params[len(args):]]  # default arguments
        if len(args) != len(params):
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
                    # a class the host template's arguments decide (``using Ktraits =
                    # traits<kNThreads, kIsEvenLen, input_t>; k<Ktraits>``): the kernel
                    # reads its members (``Ktraits::kNThreads``) from that class
                    cls = ex.dependent_type(spelled)
                    if not isinstance(cls, DependentClass):
                        return None
                    env.classes[p.name] = cls
                    parts.append(f"{p.name}={cls.name}")
                    continue
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
            value = cexpr.evaluate(arg, names, self.w.macro_types)
            if value is None:
                # ``k<f>`` where ``f`` names a device function, or the host template's
                # own parameter bound to one (``trimul_launcher<matmul_tri4>``)
                own = ex.fn is not None and any(q.name == spelled and spelled not in
                                                ex.env.functions for q in ex.fn.template_params)
                fname = None if own else self.w.function_argument(arg, ex.env)
                if fname is None:
                    return None
                env.functions[p.name] = fname
                parts.append(f"{p.name}={fname}")
                continue
            env.values[p.name] = value
            parts.append(f"{p.name}={value}")
        env.label = ", ".join(parts)
        return env

    def _deduced_env(self, ex: _HostExecutor, args: Sequence[Node], target: Function
                     ) -> Env | None:
        """Type template arguments deduced as C++ does from the call's arguments, where a
        parameter's type is ``T``, ``T*``, ``const T&``, ... and the argument's type is
        the host context's (``const T *`` with the host's ``T`` bound to ``float``) or a
        concrete one. Every type parameter must be deduced, the same way at each
        argument; non-type parameters only take their defaults."""
        params = target.template_params
        named = self.w.deducible(target)
        if any(not p.is_type and (p.default is None or p.name in named) for p in params):
            return None  # a non-type parameter is its default only where none is deduced
        names = {p.name for p in params if p.is_type}
        bound: dict[str, str] = {}
        for parm, arg in zip(Executor.params(target), args, strict=False):
            pat = _type_shape(ty.spelling(parm.type))
            if pat is None or not any(t in names for t in pat[1]):
                continue
            got = _type_shape(ty.spelling(arg.type))
            if got is None or got[0] < pat[0]:
                return None
            # a parameter ``T`` takes a pointer argument whole: ``T`` = ``float *``
            if len(pat[1]) == 1 and pat[1][0] in names and pat[0] == 0 and got[0] > 0:
                return None  # pointer-typed bindings are left to the written form
            if pat[0] != got[0] or len(pat[1]) != 1 or pat[1][0] not in names:
                return None  # ``Foo<T>*``, ``T**`` against another depth: not deduced here
            spelled = " ".join(got[1])
            if bound.setdefault(pat[1][0], spelled) != spelled:
                return None
        if set(bound) != names:
            return None
        env = Env()
        parts: list[str] = []
        for p in params:
            if p.is_type:
                spelled = bound[p.name]
                held = ex.env.types.get(spelled)
                size = held[1] if held is not None else self.w.type_size(spelled)
                if size is None or size <= 0:
                    return None
                shown = held[0] if held is not None else spelled
                env.types[p.name] = (shown, size)
                parts.append(f"{p.name}={shown}")
            else:
                assert p.default is not None
                env.values[p.name] = p.default
                parts.append(f"{p.name}={p.default}")
        env.label = ", ".join(parts)
        return env

    def _ast_template_env(self, ex: _HostExecutor, callee: Node, target: Function
                          ) -> Env | None:
        """Template arguments from the reference's children, where its text is not at
        hand (a launch written inside a macro: the extent is the macro's invocation). In
        a template body clang keeps them after the overloaded name: ``MMA_M``,
        ``(stages)``, ``true``. Non-type arguments only."""
        kids = list(callee.children)
        if not kids or kids[0].kind not in (K.OVERLOADED_DECL_REF.value, K.TEMPLATE_REF.value):
            return None
        args = kids[1:]
        params = target.template_params
        if len(args) > len(params) or any(p.is_type for p in params) or any(
                p.default is None for p in params[len(args):]):
            return None
        env = Env()
        parts: list[str] = []
        for i, p in enumerate(params):
            value = ex.known(args[i]) if i < len(args) else p.default
            if value is None:
                named = function_reference(args[i]) if i < len(args) else None
                fname = None
                if named is not None:  # ``k<f>``: a function, or the caller's parameter
                    fname = (ex.env.functions.get(named[0]) if named[1]
                             else self.w.function_argument(named[0], ex.env))
                if fname is None:
                    return None
                env.functions[p.name] = fname
                parts.append(f"{p.name}={fname}")
                continue
            env.values[p.name] = value
            parts.append(f"{p.name}={value}")
        env.label = ", ".join(parts)
        return env

    def _in_scope(self, fn: Function, site: Node | None, name: str) -> int | None:
        """The key of the local ``name`` that the site sees: declared before it in the
        innermost enclosing block that declares one (a declaration in a sibling block
        is out of scope)."""
        if site is None or fn.body is None:
            return None
        parents = self._parent_map(fn)
        at = site.extent.start.offset
        cur = parents.get(id(site))
        while cur is not None:
            if cur.kind == N.COMPOUND_STMT:
                found = None
                for st in cur.children:
                    if st.extent.start.offset >= at:
                        break
                    if st.kind == N.DECL_STMT:
                        for d in st.children:
                            if d.kind == N.VAR_DECL and d.spelling == name:
                                found = key_of(d.cursor)
                if found is not None:
                    return found
            cur = parents.get(id(cur))
        return None

    def alias_in_scope(self, fn: Function, site: Node, name: str) -> ci.Cursor | None:
        """The local ``using``/``typedef`` named ``name`` that ``site`` sees: declared
        before it in the innermost enclosing block that declares one."""
        if fn.body is None:
            return None
        parents = self._parent_map(fn)
        at = site.extent.start.offset
        cur = parents.get(id(site))
        while cur is not None:
            if cur.kind == N.COMPOUND_STMT:
                found = None
                for st in cur.children:
                    if st.extent.start.offset > at or st is site:
                        break
                    if st.kind == N.DECL_STMT:
                        for d in st.children:
                            if d.kind in (K.TYPE_ALIAS_DECL.value, K.TYPEDEF_DECL.value) \
                                    and d.spelling == name:
                                found = d.cursor
                if found is not None:
                    return found
            cur = parents.get(id(cur))
        return None

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
                decls = [n for n in subtree(cur) if n.kind == N.VAR_DECL and n.spelling == name
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
        if len(keys) > 1:
            # one name declared in several blocks (ggml's ``constexpr int cols_per_block
            # = 1;`` in each branch): the declaration in scope at the site
            scoped = ex.host._in_scope(fn, ex.site, name)
            keys = [scoped] if scoped is not None and scoped in fn.vars else []
            ex.scoped = True
        if len(keys) != 1:
            return None
        k = keys[0]
        if k in ex.unknown:
            return None
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


def _symbols(e: object, out: set[str], seen: set[int] | None = None) -> None:
    """Names of the symbols an expression reads (into ``out``). An expression shares
    subexpressions (a helper's value used twice): each object is visited once
    (``seen``: their ids, while ``e`` keeps them alive)."""
    if seen is None:
        seen = set()
    elif id(e) in seen:
        return
    seen.add(id(e))
    if isinstance(e, Sym):
        out.add(e.name)
    if is_dataclass(e) and not isinstance(e, type):
        for f in fields(e):
            v = getattr(e, f.name)
            if isinstance(v, tuple):
                for x in v:
                    _symbols(x, out, seen)
            elif is_dataclass(v):
                _symbols(v, out, seen)


_QUALIFIERS = frozenset(("const", "volatile", "__restrict__", "__restrict", "restrict",
                         "struct", "class", "&", "&&"))


def _type_shape(spelled: str) -> tuple[int, tuple[str, ...]] | None:
    """A type's pointer depth and its base as tokens, qualifiers and references dropped:
    ``const T *__restrict__`` → (1, ('T',)), ``c10::Half &`` → (0, ('c10::Half',)).
    None for arrays, function types and what clang leaves dependent."""
    if any(c in spelled for c in "[]()") or "<dependent" in spelled:
        return None
    toks = re.findall(r"[A-Za-z_][\w:]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?(?:::\w+)*|\*|&&?",
                      spelled)
    depth = toks.count("*")
    if depth and any(t != "*" for t in toks[toks.index("*"):] if t not in _QUALIFIERS):
        return None  # ``T * U``: not a plain pointer type
    base = tuple(t for t in toks if t != "*" and t not in _QUALIFIERS)
    if not base:
        return None
    return depth, (" ".join(base),) if len(base) > 1 else base

