"""Walk a clang AST and build the IR: kernels, shared arrays, accesses and launches.

The walker collects the file's functions and ``__shared__`` declarations, scans each
function body once for its variables (and every write to them), its shared declarations
and its ``<<<>>>`` launches, works out the template instantiations the file shows, and
then runs each kernel body through the executor (``execute.py``) once per instantiation.
The executor follows values, guards and regions in statement order and inlines calls to
``__device__`` functions; a device function that no kernel here calls is run on its own
with unknown parameters.
"""

from __future__ import annotations

import contextlib
import copy
import ctypes
import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import clang.cindex as ci

from cudalint.budget import check as check_budget
from cudalint.budget import collector_paused
from cudalint.frontend import cexpr
from cudalint.frontend import types as ty
from cudalint.frontend.consteval import (
    UO_ADDR_OF,
    UO_POST_DEC,
    UO_POST_INC,
    UO_PRE_DEC,
    UO_PRE_INC,
    evaluate_int,
    is_from_project,
    unary_operator_kind,
)
from cudalint.frontend.cursors import (
    BLOCK_DIM_ANNOTATION,
    BUILTIN_TYPE_SIZES,
    DEFINE,
    EXPLICIT_INSTANTIATION,
    LOOPS,
    TOP_LEVEL_KINDS,
    ArrayDecl,
    Env,
    Function,
    K,
    N,
    TemplateParam,
    Var,
    arguments,
    function_reference,
    key_of,
    node_int_type,
    operator_function,
    split_top_level,
    strip,
)
from cudalint.frontend.execute import (
    DependentClass,
    Executor,
    asm_outputs,
    call_name,
    fn_key,
    overload_candidates,
)
from cudalint.frontend.host import (
    CONFIG_FUNCTIONS,
    MAX_POINTER_INSTANTIATIONS,
    CallValue,
    HostLaunches,
    _Context,
)
from cudalint.frontend.inert import shared_inert
from cudalint.frontend.launch_api import api_launch, launches_text, site_of
from cudalint.frontend.reuse import (
    CALLS_KEPT,
    CONTEXTS_KEPT,
    FunctionRun,
    HostRun,
    StableId,
    WalkReuse,
    env_signature,
    line_range,
)
from cudalint.frontend.tree import Node, build, build_under, top_level
from cudalint.frontend.types import alignment, template_int_argument, type_size
from cudalint.ir import (
    Access,
    Const,
    IntType,
    Kernel,
    Launch,
    Note,
    SharedArray,
    Span,
    TranslationUnit,
)
from cudalint.model.arch import DEFAULT_ARCH

# --- the walker ----------------------------------------------------------------------------

_ALIGN_ATTR = re.compile(r"\b(__align__|alignas|aligned)\s*\(\s*([^()]*(?:\([^()]*\)[^()]*)*)\)")


#: What in a host function's text lets device code or the compiler read its body: a
#: device lambda, a local class's device member, a constexpr function (the value of a
#: call in a kernel's array extent or template argument).
_NOT_HOST_ONLY = re.compile(rb"__device__|__global__|__host__|constexpr|consteval|__forceinline__")


def _plain_host(text: bytes) -> bool:
    """Whether only the host evaluation reads the body of the host function ``text``."""
    return _NOT_HOST_ONLY.search(text) is None


def _squeeze(text: bytes) -> bytes:
    """``text`` without its blank lines (those inside it, not at its ends): the same code
    but for where its lines are. A blank line that ends a macro (after a line ending in a
    backslash) stays."""
    if b"\n\n" not in text and not re.search(rb"\n[ \t\r\f\v]+\n", text):
        return text
    lines = text.split(b"\n")
    kept = [lines[0]]
    for i in range(1, len(lines) - 1):
        line = lines[i]
        if line.strip() or lines[i - 1].rstrip().endswith(b"\\"):
            kept.append(line)
    if len(lines) > 1:
        kept.append(lines[-1])
    return b"\n".join(kept)


class SourceFile:
    """One file of the translation unit: its path as shown and its bytes."""

    __slots__ = ("_lines", "_text", "path", "source")

    def __init__(self, path: str, source: bytes) -> None:
        self.path = path
        self.source = source
        self._text: str | None = None
        self._lines: list[str] | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.source.decode("utf-8", errors="replace")
        return self._text

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines


#: cooperative groups' scratch type, ``cg::block_tile_memory<N>`` (any namespace alias).
_CG_SCRATCH = re.compile(r"(?:^|::|\s)block_tile_memory\s*<")


def display_path(name: str, main: str) -> str:
    """How a header clang names ``name`` is shown, as the main file ``main`` is: relative
    to the working directory when the main file's path is relative and the header lies
    under the working directory (or no further up than the main file), else absolute."""
    try:
        absolute = os.path.normpath(os.path.abspath(name))
        if os.path.isabs(main):
            return absolute
        rel = os.path.relpath(absolute)
    except ValueError:  # another drive (Windows)
        return name

    def ups(p: str) -> int:
        parts = os.path.normpath(p).split(os.sep)
        n = 0
        while n < len(parts) and parts[n] == "..":
            n += 1
        return n

    if ups(rel) <= ups(main):
        return rel
    try:
        # the working directory reached through a symbolic link (``cd link`` with
        # ``-I /abs/link/inc``): ``getcwd`` names its target, so compare the targets, or
        # one header would be shown two ways, its accesses reported twice
        real = os.path.relpath(os.path.realpath(name), os.path.realpath(os.getcwd()))
    except ValueError:
        return absolute
    return real if ups(real) <= ups(main) else absolute


_file_contents_ready: list[bool] = []
_file_location_ready: list[bool] = []


def _file_offset(loc: ci.SourceLocation) -> tuple[str, int] | None:
    """The file and offset where the characters at ``loc`` are in a file: for a token of
    a macro's argument, where the argument is written (``clang_getFileLocation``; the
    Python bindings give only the expansion)."""
    lib = ci.conf.lib
    try:
        if not _file_location_ready:
            lib.clang_getFileLocation.argtypes = [
                ci.SourceLocation, ctypes.POINTER(ci.c_object_p),
                ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
                ctypes.POINTER(ctypes.c_uint)]
            lib.clang_getFileLocation.restype = None
            _file_location_ready.append(True)
        f, line, col, off = ci.c_object_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        lib.clang_getFileLocation(loc, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col),
                                  ctypes.byref(off))
    except (AttributeError, ctypes.ArgumentError):  # an older libclang
        return None
    if not f:
        return None
    return str(ci.File(f).name), int(off.value)


def _file_range(start: ci.SourceLocation, end: ci.SourceLocation
                ) -> tuple[str, int, int] | None:
    """``_file_offset`` of both ends, where they are in one file and in order."""
    a, b = _file_offset(start), _file_offset(end)
    if a is None or b is None or a[0] != b[0] or b[1] <= a[1]:
        return None
    return a[0], a[1], b[1]


def _read_or_empty(name: str) -> bytes:
    try:
        with open(name, "rb") as f:
            return f.read()
    except OSError:
        return b""


@dataclass
class _Recorder:
    """What one function's run adds besides accesses (see ``Walker.run``'s ``run_fn``)."""

    arrays: list[SharedArray] = field(default_factory=list)
    binds: list[tuple[Access, ...]] = field(default_factory=list)
    bound: list[tuple[tuple[tuple[object, ...], ...], bool]] = field(default_factory=list)
    inlined: set[int] = field(default_factory=set)


@dataclass
class _ReusePlan:
    """This walk's functions as the reuse cache names them (``Walker._plan_reuse``)."""

    #: fn_key -> the function's name and place; only functions named uniquely so.
    sids: dict[int, StableId]
    keys: dict[StableId, int]
    #: fn_key -> the body of a kernel left out of the context.
    bodies: dict[int, bytes]
    #: Whether the context is the previous walk's (its results are there to reuse).
    kept: bool
    #: The digest of the context (``WalkReuse.begin``).
    context: str
    #: fn_key -> the body of a host function of the main file left out of the context
    #: (``_plain_host``); ``wide``: the context with those bodies.
    host_bodies: dict[int, bytes] = field(default_factory=dict)
    wide: str = ""
    #: Whether blank lines are left out of digests (``_squeeze``).
    squeeze: bool = True
    words: _Words | None = None
    #: The main file's macros only left-out bodies read, and their replacement texts
    #: (``Walker._local_macros``): each run's key holds those its text names.
    local: dict[str, bytes] = field(default_factory=dict)

    def macros(self, fn: Function) -> tuple[tuple[str, bytes], ...]:
        """The local macros ``fn``'s text names, with their values."""
        if not self.local or self.words is None:
            return ()
        return tuple(sorted((n, self.local[n]) for n in self.words.words(fn)
                            if n in self.local))


#: A macro's name and its replacement text (continuation lines included; a function-like
#: macro's parameters with it).
_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)((?:[^\n]*\\\r?\n)*[^\n]*)", re.M)
_WORD = re.compile(r"[A-Za-z_]\w*")
_INCLUDE_LINE = re.compile(rb"^[ \t]*#[ \t]*include", re.M)
#: A ``#define`` in bytes: the directive up to the name, the name, the rest.
#: A preprocessor directive with its continuation lines: every one in a body left out of
#: the context stays in it (a ``#define`` of any form, ``#undef``, ``#if``: the rest of
#: the file reads them).
_DIRECTIVE = re.compile(rb"(?m)^[ \t]*#(?:.*\\\r?\n)*.*")

_MACRO_LINE = re.compile(
    rb"^([ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*))((?:[^\n]*\\\r?\n)*[^\n]*)", re.M)


class _Words:
    """The names each function's text uses (through the macros it expands), and from
    them which functions may call which: what the host evaluation of a function's
    launches may read (``Walker._host_launches``). Text, not the AST: a name that only
    looks like a call keeps a function in, which costs a reuse, never a result."""

    def __init__(self, walker: Walker, cache: dict[bytes, frozenset[str]],
                 macro_cache: dict[str, list[tuple[str, frozenset[str], bool]]] | None = None
                 ) -> None:
        self.w = walker
        #: words by text, kept from walk to walk (``WalkReuse.words``)
        self.cache = cache
        self._new_cache: dict[bytes, frozenset[str]] = {}
        self._by_key: dict[int, frozenset[str]] = {}
        macros: dict[str, set[str]] = {}
        #: macros whose replacement launches a kernel (``<<<``)
        self.launching: set[str] = set()
        #: each project text's macros (name, words, whether it launches), for the next walk
        self.macro_cache: dict[str, list[tuple[str, frozenset[str], bool]]] = {}
        for text in walker.project_texts():
            found = (macro_cache or {}).get(text)
            if found is None:
                found = [(m.group(1), frozenset(_WORD.findall(m.group(2))),
                          launches_text(m.group(2)))
                         for m in _MACRO.finditer(text)]
            self.macro_cache[text] = found
            for name, used, launches in found:
                macros.setdefault(name, set()).update(used)
                if launches:
                    self.launching.add(name)
        self.macros = macros
        self.by_name: dict[str, list[Function]] = {}
        for fn in walker.functions:
            self.by_name.setdefault(fn.name, []).append(fn)
        self._callees: dict[int, list[Function]] = {}
        #: name -> the host functions whose text uses it
        self._users: dict[str, list[Function]] | None = None
        #: fn_key -> ``contexts_key`` ("" where not known: a cycle, a template)
        self._contexts_keys: dict[int, str] = {}

    def words(self, fn: Function) -> frozenset[str]:
        k = fn_key(fn)
        got = self._by_key.get(k)
        if got is not None:
            return got
        ext = fn.node.extent
        src = self.w.bytes_at(ext.start)
        raw = src[int(ext.start.offset):int(ext.end.offset)]
        got = self._new_cache.get(raw)
        if got is None:
            got = self.cache.get(raw)
            if got is None:
                got = self._words(raw.decode("utf-8", "replace"))
            self._new_cache[raw] = got
        self._by_key[k] = got
        return got

    def may_launch(self, fn: Function) -> bool:
        """Whether ``fn``'s text can hold a launch: ``<<<`` or a launch function's name
        (``launch_api.LAUNCH_TEXT``), in it or in a macro it expands
        (``Walker.scan_function`` finds launches by the call ``<<<`` makes, and the calls
        of the launch functions)."""
        ext = fn.node.extent
        raw = self.w.bytes_at(ext.start)[int(ext.start.offset):int(ext.end.offset)]
        return launches_text(raw) or not self.launching.isdisjoint(self.words(fn))

    def kept(self) -> dict[bytes, frozenset[str]]:
        """The words of this walk's functions, for the next walk."""
        return self._new_cache

    def _words(self, text: str) -> frozenset[str]:
        found = set(_WORD.findall(text))
        todo = [w for w in found if w in self.macros]
        while todo:
            for v in self.macros[todo.pop()]:
                if v not in found:
                    found.add(v)
                    if v in self.macros:
                        todo.append(v)
        return frozenset(found)

    def callees(self, fn: Function) -> list[Function]:
        k = fn_key(fn)
        got = self._callees.get(k)
        if got is None:
            got = [g for w in self.words(fn) & self.by_name.keys() for g in self.by_name[w]]
            self._callees[k] = got
        return got

    def callers(self, fns: list[Function]) -> set[int]:
        """``fns`` and the host functions that call them, directly or not."""
        if self._users is None:
            users: dict[str, list[Function]] = {}
            for f in self.w.functions:
                if f.body is not None and not f.is_kernel and not f.is_device:
                    for g in self.callees(f):
                        users.setdefault(g.name, []).append(f)
            self._users = users
        inside = {fn_key(f) for f in fns}
        todo = list(fns)
        while todo:
            for f in self._users.get(todo.pop().name, ()):
                if fn_key(f) not in inside:
                    inside.add(fn_key(f))
                    todo.append(f)
        return inside

    def inner(self, fn: Function, plan: _ReusePlan, contexts: object) -> str:
        """The digest of what evaluating ``fn``'s launches reads given its contexts
        (``Walker._contexts_signature``): the context, the contexts, and the bodies of
        the main file's host functions it calls, directly or not, and its own."""
        closure = {fn_key(fn)}
        todo = [fn]
        while todo:
            for g in self.callees(todo.pop()):
                if fn_key(g) not in closure:
                    closure.add(fn_key(g))
                    todo.append(g)
        h = hashlib.sha256(b"inner:" + plan.context.encode())
        h.update(repr(contexts).encode("utf-8", "surrogatepass"))
        self._bodies(h, closure, set(), plan)
        return h.hexdigest()

    def _bodies(self, h: hashlib._Hash, closure: set[int], up: set[int],
                plan: _ReusePlan) -> None:
        """The bodies of the main file's host functions in ``closure`` into ``h``, and
        the values of the local macros they name (``Walker._local_macros``)."""
        for f in self.w.functions:
            body = plan.host_bodies.get(fn_key(f))
            if body is not None and fn_key(f) in closure:
                squeezed = _squeeze(body) if plan.squeeze else body
                h.update(b"%d:%s%d:" % (fn_key(f) in up, f.name.encode(), len(squeezed)))
                h.update(squeezed)
                h.update(repr(plan.macros(f)).encode("utf-8", "surrogatepass"))

    def _value_closure(self, fn: Function) -> set[int]:
        """``fn`` and the functions it may call for a value, directly or not: what a
        flow of ``fn``'s statements can read of other functions' bodies (the host
        evaluation reads a callee's body only for the value a call returns:
        ``_HostExecutor.returned_value``, ``HostLaunches.call_value``; a free function
        returning ``void`` has none). Methods, constructors and operators are always in."""
        closure = {fn_key(fn)}
        todo = [fn]
        while todo:
            for g in self.callees(todo.pop()):
                if fn_key(g) not in closure and _may_return(g):
                    closure.add(fn_key(g))
                    todo.append(g)
        closure.update(fn_key(g) for name, gs in self.by_name.items()
                       if name.startswith("operator") for g in gs)
        return closure

    def contexts_key(self, fn: Function, plan: _ReusePlan,
                     contexts_of: Callable[[Function], tuple[object, ...] | None]) -> str:
        """The digest of what ``HostLaunches.contexts(fn)`` reads: the context; for each
        host function whose text names ``fn`` (its callers, by text), its name, its own
        contexts (``contexts_of``: ``Walker._contexts_signature``, kept or computed) and
        the bodies it may read for a value (``_value_closure``: its own, not those of the
        functions it only calls for their effects, such as ``fn``'s siblings called one
        after the other). "" where not known: ``fn`` is reached through a cycle of
        calls, a caller's contexts are not comparable, or ``fn`` is a template (whose
        contexts also come from explicit instantiations anywhere in the text)."""
        k = fn_key(fn)
        hit = self._contexts_keys.get(k)
        if hit is not None:
            return hit
        self._contexts_keys[k] = ""  # while looking: a cycle is not known
        if fn.template_params:
            return ""
        if self._users is None:
            self.callers([])
        assert self._users is not None
        h = hashlib.sha256(b"contexts:" + plan.context.encode())
        ext = fn.node.extent  # which function: its declaration up to its body
        end = fn.body.extent.start if fn.body is not None else ext.end
        h.update(self.w.bytes_at(ext.start)[int(ext.start.offset):int(end.offset)])
        seen: set[int] = set()
        for g in self._users.get(fn.name, ()):
            if fn_key(g) in seen or fn_key(g) == k:
                continue  # (its own text names it: a call to itself gives no context)
            seen.add(fn_key(g))
            up = contexts_of(g)
            if up is None:
                return ""
            h.update(b"%s:" % g.name.encode())
            h.update(repr(up).encode("utf-8", "surrogatepass"))
            self._bodies(h, self._value_closure(g), set(), plan)
        got = self._contexts_keys[k] = h.hexdigest()
        return got

    def key(self, fn: Function, plan: _ReusePlan) -> str:
        """The digest of what evaluating ``fn``'s launches reads: the context and the
        bodies of the main file's host functions among its callers and their callees."""
        up = self.callers([fn])
        closure = set(up)
        todo = [f for f in self.w.functions if fn_key(f) in up]
        while todo:
            for g in self.callees(todo.pop()):
                if fn_key(g) not in closure:
                    closure.add(fn_key(g))
                    todo.append(g)
        h = hashlib.sha256(plan.context.encode())
        self._bodies(h, closure, up, plan)
        return h.hexdigest()


class _CallKeeper:
    """``HostLaunches.keeper`` for a walk that keeps results (``WalkReuse.calls``): a
    function is named by its ``StableId``; what a call of it may read is the context,
    its declaration, and the bodies of the main file's host functions it may call for a
    value (``_Words._value_closure``, as ``_Words.contexts_key`` reads a caller's), the
    values of the local macros they name included. A header's function is in the
    context with its text."""

    def __init__(self, words: _Words, plan: _ReusePlan,
                 kept: dict[tuple[str, tuple[tuple[int, int], ...]], list[CallValue]]) -> None:
        self.words, self.plan, self.kept = words, plan, kept
        self._keys: dict[int, str | None] = {}

    def name(self, fn: Function) -> object | None:
        return self.plan.sids.get(fn_key(fn))

    def named(self, name: object) -> bool:
        return name in self.plan.keys

    def key(self, fn: Function) -> str | None:
        k = fn_key(fn)
        if k in self._keys:
            return self._keys[k]
        sid = self.plan.sids.get(k)
        got: str | None = None
        if sid is not None and self.words.w.functions_by_key.get(k) is fn:
            h = hashlib.sha256(b"call:" + self.plan.context.encode())
            h.update(repr(sid).encode("utf-8", "surrogatepass"))
            ext = fn.node.extent  # its declaration up to its body
            end = fn.body.extent.start if fn.body is not None else ext.end
            h.update(self.words.w.bytes_at(ext.start)[int(ext.start.offset):int(end.offset)])
            self.words._bodies(h, self.words._value_closure(fn), set(), self.plan)
            got = h.hexdigest()
        self._keys[k] = got
        return got


def _may_return(fn: Function) -> bool:
    """Whether a call of ``fn`` can have a value: all but a free function (or function
    template) declared to return ``void`` with no non-const reference parameter (one
    that sets its caller's locals through one, ``cfg(n, block)`` doing ``block.x = 64``,
    gives them values: ``HostLaunches`` follows it, ``_Flow._out_call``)."""
    c = fn.node.cursor
    if c.kind not in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE) or not ty.is_void(c.result_type):
        return True
    return any(ty.is_reference_to_mutable(p.cursor.type) for p in Executor.params(fn))


class _LazyBody(Node):
    """A function body whose subtree is built on first use: a walk that reuses the
    previous walk's results leaves the bodies it does not run unbuilt."""

    __slots__ = ("_kids", "_owner", "_walker")

    def __init__(self, cursor: ci.Cursor, kind: int, owner: ci.Cursor, walker: Walker) -> None:
        self._kids: list[Node] | None = None
        #: The function whose child this body is.
        self._owner = owner
        self._walker = walker
        super().__init__(cursor, kind)

    @property
    def children(self) -> list[Node]:
        if self._kids is None:
            self._kids = self._build()
        return self._kids

    @children.setter
    def children(self, value: list[Node]) -> None:
        if value or self._kids is not None:  # Node.__init__'s empty list: left unbuilt
            self._kids = value

    def _build(self) -> list[Node]:
        """The subtree as ``build`` of the function builds it (``tree.build_under``)."""
        kids = build_under(self._owner, self.cursor)
        if kids is None:  # cannot happen; if it does, the walk is done again
            self._walker.redo = True
            return []
        return kids


class _LazyFunction(Function):
    """A function of a walk that reuses results: scanned (``Walker.scan_function``) the
    first time its variables, arrays or launches are asked for, which builds its body. A
    scan that fails then makes the walk start again without reuse (``Walker.redo``): a
    walk from scratch leaves such a function out, with a note."""

    def __init__(self, walker: Walker, node: Node, name: str, is_kernel: bool,
                 is_device: bool, params: list[TemplateParam], body: Node | None) -> None:
        self._walker = walker
        self._scanned = False
        self._error: Exception | None = None
        super().__init__(node, name, is_kernel, is_device, params, body)

    __eq__ = object.__eq__  # the dataclass's reads every field

    def _scan(self) -> None:
        if not self._scanned:
            self._scanned = True
            try:
                self._walker.scan_function(self)
            except Exception as exc:  # the walk is done again without reuse
                self._error = exc
                self._walker.redo = True

    def scan_now(self) -> None:
        """Scan now (if not yet), raising what the scan raised."""
        if not self._scanned:
            self._scanned = True
            self._walker.scan_function(self)
        elif self._error is not None:
            raise self._error

    @property
    def vars(self) -> dict[int, Var]:
        self._scan()
        return self._vars

    @vars.setter
    def vars(self, value: dict[int, Var]) -> None:
        self._vars = value

    @property
    def arrays(self) -> dict[int, ArrayDecl]:
        self._scan()
        return self._arrays

    @arrays.setter
    def arrays(self, value: dict[int, ArrayDecl]) -> None:
        self._arrays = value

    @property
    def launches(self) -> list[Node]:
        self._scan()
        return self._launches

    @launches.setter
    def launches(self, value: list[Node]) -> None:
        self._launches = value


class Walker:
    """Walks one translation unit. It is the :class:`~cudalint.frontend.program.Program`
    that the executor and the host-launch evaluator see (mypy checks the match where it
    hands itself to them)."""

    def __init__(
        self, tu: ci.TranslationUnit, path: str, source: bytes, notes: list[Note],
        defines: tuple[str, ...], arch: str = DEFAULT_ARCH, reuse: WalkReuse | None = None,
        lazy: bool = False,
    ) -> None:
        self.tu = tu
        #: Results of the document's previous walk (the language server), see ``reuse.py``.
        self.reuse = reuse
        #: Without ``reuse``: host functions are built and scanned only when something
        #: asks for them (``_LazyFunction``), and the host-launch evaluation follows only
        #: the functions whose text can launch and their callers (``_host_scope``); a
        #: scan that fails on first use makes the caller walk again without (``redo``).
        self.lazy = lazy and reuse is None
        #: How many of ``notes`` are clang's diagnostics (the walk appends its own).
        self._initial_notes = len(notes)
        #: While a function runs for the reuse cache: the arrays it adds, in order.
        self._recording: list[SharedArray] | None = None
        #: Set when a function scanned on first use failed: the caller walks again
        #: without reuse (``walk_translation_unit``).
        self.redo = False
        #: The target (``sm_XX``): how nvcc lowers wmma fragment accesses depends on it.
        self.arch = arch
        self.path = path
        self.main = tu.spelling
        self.source = source
        self.text = source.decode("utf-8", errors="replace")
        self.lines = self.text.splitlines()
        self._files: dict[str, SourceFile] = {self.main: SourceFile(path, source)}
        self._project_texts: list[str] | None = None
        self.notes = notes
        self.defines = defines
        self.file_arrays: dict[int, ArrayDecl] = {}
        self.functions: list[Function] = []
        self.kernels_by_name: dict[str, Function] = {}
        self._shared_names: set[str] | None = None
        self.file_consts: dict[str, int] = {}
        self._named_consts: dict[str, int] | None = None
        self.macro_types: dict[str, IntType] = {}  # the C types of evaluated macros
        self._type_sizes: dict[str, int] | None = None
        self._type_aligns: dict[str, int] | None = None
        #: ``member_type``'s answers, by spelling (each is a walk of the top level)
        self._member_types: dict[str, ci.Type | None] = {}
        #: Sizes and alignments of types the executor named by their canonical spelling
        #: (``note_type``).
        self._noted_types: dict[str, tuple[int, int]] = {}
        self._qualified: dict[str, ci.Type | None] = {}
        self.arrays: dict[str, SharedArray] = {}
        self.functions_by_key: dict[int, Function] = {}
        self.functions_by_name: dict[str, list[Function]] = {}
        self.envs: dict[str, list[Env]] = {}
        #: Member functions the executor runs for their value (conversion operators).
        self.member_functions: dict[int, Function | None] = {}
        #: A class template's explicit and partial specializations (by key_of the template).
        self.class_specializations: dict[int, list[ci.Cursor]] = {}
        #: Canonical spellings of the file-scope typedefs (``uint`` → ``unsigned int``).
        self.typedef_canon: dict[str, str] | None = None
        #: ``reference_parameters`` by declaration.
        self._reference_parameters: dict[int, frozenset[int]] = {}
        #: ``_from_project`` by file (libclang's file handle), past the main file and
        #: system headers.
        self._project_files: dict[int | None, bool] = {}

    # spans and text: code may be in the main file or in a project header it includes

    def source_file(self, loc: ci.SourceLocation) -> SourceFile:
        """The file a location (its expansion) is in; the main file when it has none."""
        f = loc.file
        name = self.main if f is None else str(f.name)
        sf = self._files.get(name)
        if sf is None:
            assert f is not None
            sf = SourceFile(display_path(name, self.path), self._contents(f, name))
            self._files[name] = sf
        return sf

    def _contents(self, f: ci.File, name: str) -> bytes:
        """The bytes clang parsed for ``f`` (an unsaved buffer when one stood in for the
        file on disk, as when a fix is re-checked), else the file's bytes on disk."""
        lib = ci.conf.lib
        if not _file_contents_ready:
            lib.clang_getFileContents.argtypes = [
                ci.TranslationUnit, ci.File, ctypes.POINTER(ctypes.c_size_t)]
            lib.clang_getFileContents.restype = ctypes.c_void_p
            _file_contents_ready.append(True)
        try:
            size = ctypes.c_size_t()
            ptr = lib.clang_getFileContents(self.tu, f, ctypes.byref(size))
            if ptr:
                return ctypes.string_at(ptr, size.value)
        except (AttributeError, ctypes.ArgumentError):  # an older libclang
            pass
        return _read_or_empty(name)

    def span(self, extent: ci.SourceRange) -> Span:
        s, e = extent.start, extent.end
        line, column = s.line, s.column
        return Span(self.source_file(s).path, line, column, e.line, e.column)

    def slice(self, extent: ci.SourceRange) -> str:
        s = extent.start
        a, b = s.offset, extent.end.offset
        if b == a and s.file is not None:
            # an expression written in a macro's argument (``BOOL_SWITCH(c, B, [&] {
            # k<T><<<g, T::kN>>>(); })``): its expansion is the invocation, where it
            # has no text; the argument's own text is where clang spelled it
            spelled = _file_range(s, extent.end)
            if spelled is not None:
                name, a, b = spelled
                if name == str(s.file.name):
                    return self.source_file(s).source[a:b].decode("utf-8", errors="replace")
        if b < a:
            return ""
        return self.source_file(s).source[a:b].decode("utf-8", errors="replace")

    def bytes_at(self, loc: ci.SourceLocation) -> bytes:
        """The bytes of the file ``loc`` is in (offsets of locations index them)."""
        return self.source_file(loc).source

    def line_text(self, loc: ci.SourceLocation, line: int) -> str | None:
        """Line ``line`` (1-based) of the file ``loc`` is in, or None."""
        lines = self.source_file(loc).lines
        return lines[line - 1] if 1 <= line <= len(lines) else None

    def project_texts(self) -> list[str]:
        """The text of the main file and of every project header the unit includes
        (system headers left out), main file first: for text-level scans such as
        ``#define``s and explicit instantiations."""
        if self._project_texts is None:
            texts = [self.text]
            seen = {self.main}
            try:
                includes = list(self.tu.get_includes())
            except Exception:  # libclang refused: the main file alone
                includes = []
            for inc in includes:
                f = inc.include
                if f is None:
                    continue
                name = str(f.name)
                if name in seen:
                    continue
                seen.add(name)
                loc = ci.SourceLocation.from_offset(self.tu, f, 0)
                if loc.is_in_system_header:
                    continue
                texts.append(self.source_file(loc).text)
            self._project_texts = texts
        return self._project_texts

    def project_includes(self) -> tuple[str, ...]:
        """The files (absolute, normalized) that the unit includes outside system headers
        and cudalint's shim, in the order clang entered them."""
        out: dict[str, None] = {}
        try:
            includes = list(self.tu.get_includes())
        except Exception:  # libclang refused: none known
            return ()
        for inc in includes:
            try:
                f = inc.include
                if f is None:
                    continue
                name = str(f.name)
                if ci.SourceLocation.from_offset(self.tu, f, 0).is_in_system_header:
                    continue
            except Exception:  # an include libclang cannot describe
                continue
            out[os.path.normpath(os.path.abspath(name))] = None
        return tuple(out)

    # top level

    def run(self) -> TranslationUnit:
        self._collect(self.tu.cursor)
        plan = self._plan_reuse() if self.reuse is not None else None
        if plan is None or not plan.kept:
            # nothing to reuse: every function scanned now, in order, as without reuse
            for fn in list(self.functions):
                check_budget()
                try:
                    if self.lazy and isinstance(fn, _LazyFunction):
                        continue  # a host function: scanned when something asks for it
                    if isinstance(fn, _LazyFunction):
                        fn.scan_now()
                    else:
                        self.scan_function(fn)
                except Exception as exc:  # a construct the walker does not expect: skip it
                    self._internal_error(fn, exc)
                    self.functions.remove(fn)
            self.redo = False
            if plan is not None:
                plan = self._plan_reuse()  # the context of the functions kept
        if plan is not None and self.reuse is not None:
            self.reuse.begin(plan.context, plan.wide)
        envs = self._instantiations(plan)
        self.envs = envs
        kernels: list[Kernel] = []
        accesses: list[Access] = []
        launches: list[Launch] = []
        for a in self.file_arrays.values():
            Executor(self, None, Env()).array_record(a)
        inlined: set[int] = set()  # definitions inlined at a call (overloads apart)

        def execute(fn: Function, rec: _Recorder | None = None) -> None:
            fn_envs = envs.get(fn.name, [Env()]) if fn.template_params else [Env()]

            def run_in(env: Env) -> list[Access]:
                ex = Executor(self, fn, env)
                if SHARE_BODY_FACTS:
                    ex.lane_event_lists = self.host.lane_event_lists
                    ex.body_facts = self.host.body_facts
                if KEEP_RETURNED:
                    ex.returned_values = {}
                for a in fn.arrays.values():
                    ex.array_record(a)
                got = ex.run()
                inlined.update(ex.inlined)
                if rec is not None:
                    rec.inlined.update(ex.inlined)
                return got

            for env in fn_envs:
                got = run_in(env)
                if fn.is_kernel:
                    # launches that pass the parameters these accesses read as constants
                    bound, symbolic = self.host.bind_parameters(fn, env, got)
                    if rec is not None:
                        rec.binds.append(tuple(got))
                        rec.bound.append((tuple(env_signature(b) for b in bound), symbolic))
                    for b in bound:
                        accesses.extend(run_in(b))
                    if not symbolic:
                        continue
                accesses.extend(got)

        own = {fn_key(f) for f in self.functions} if plan is not None else set()

        def run_fn(fn: Function) -> None:
            """``execute(fn)``, or its result from the document's previous walk."""
            if plan is None or self.reuse is None or fn_key(fn) not in plan.sids:
                execute(fn)
                return
            sid = plan.sids[fn_key(fn)]
            body = plan.bodies.get(fn_key(fn), b"")
            before = tuple(self.notes[self._initial_notes:])
            fn_envs = envs.get(fn.name, [Env()]) if fn.template_params else [Env()]
            signature = tuple(env_signature(e) for e in fn_envs)
            macros = plan.macros(fn)
            # the latest run, or an earlier version's (a value changed back)
            hit = next((run for run in self.reuse.runs_of(sid, body, before, macros)
                        if run.envs == signature
                        and (not fn.is_kernel or len(run.binds) == len(fn_envs))
                        and (not fn.is_kernel or self._binds_as_before(fn, fn_envs, run))),
                       None)
            if hit is not None:
                self.reuse.keep_run(sid, hit)
                for a in hit.arrays:
                    self.add_array(a)
                self.notes.extend(hit.notes)
                accesses.extend(hit.accesses)
                inlined.update(plan.keys[s] for s in hit.inlined if s in plan.keys)
                self.reuse.runs_reused += 1
                return
            rec = _Recorder()
            start, notes_at = len(accesses), len(self.notes)
            self._recording = rec.arrays
            try:
                execute(fn, rec)
            finally:
                self._recording = None
            self.reuse.runs_done += 1
            if any(k in own and k not in plan.sids for k in rec.inlined):
                return  # it inlined a function the cache cannot name: not kept
            # a run that read a host function's body (a lambda's, one it inlined) is
            # kept for the context with those bodies
            wide = any(self._in_host_body(k, plan) for k in rec.inlined)
            run = FunctionRun(
                context=plan.wide if wide else plan.context,
                body=body, macros=macros, notes_before=before, envs=signature,
                binds=tuple(rec.binds),
                bound=tuple(rec.bound),
                accesses=tuple(accesses[start:]), arrays=tuple(rec.arrays),
                notes=tuple(self.notes[notes_at:]),
                inlined=frozenset(plan.sids[k] for k in rec.inlined if k in plan.sids),
                # a function of another file: the lines its names hold are that file's
                foreign=self._foreign_lines(rec.inlined, plan)
                if self.source_file(fn.node.extent.start).path == self.path else None,
            )
            first, last = line_range(run, self.path)
            self.reuse.keep_run(sid, replace(run, first=first, last=last))

        for fn in self.functions:
            try:
                if fn.is_kernel:
                    kernels.append(self.kernel_record(fn))
                    run_fn(fn)
            except Exception as exc:  # a construct the walker does not expect: skip it
                self._internal_error(fn, exc)
        # Device functions no kernel here calls, run on their own (parameters unknown). A
        # helper defined before its caller (``blockReduce`` in a header, called from a
        # ``__device__`` function of the .cu) is only known to be inlined once that caller
        # has run: its own run is dropped then, so it is not reported twice.
        standalone: list[tuple[int, list[Access]]] = []
        for fn in self.functions:
            if not fn.is_device or fn_key(fn) in inlined:
                continue
            if SKIP_INERT_STANDALONE and shared_inert(self, fn):
                continue  # running it finds nothing, as where a call skips it (inert.py)
            start, noted = len(accesses), len(self.notes)
            try:
                run_fn(fn)
            except Exception as exc:  # a construct the walker does not expect: skip it
                self._internal_error(fn, exc)
            self.notes[noted:] = [replace(n, standalone=True) for n in self.notes[noted:]]
            standalone.append((fn_key(fn), accesses[start:]))
            del accesses[start:]
        for key, got in standalone:
            if key not in inlined:
                accesses.extend(got)
        shared = self.shared_kernel_names()
        launches.extend(dict.fromkeys(
            replace(launch, block=None, partial=None, bound=None, instantiation=None)
            if launch.kernel in shared else launch for launch in self.host.launches))
        return TranslationUnit(
            file=self.path,
            kernels=tuple(kernels),
            arrays=tuple(self.arrays.values()),
            accesses=tuple(accesses),
            launches=tuple(launches),
            notes=tuple(self.notes),
            includes=self.project_includes(),
        )

    def _plan_reuse(self) -> _ReusePlan | None:
        """Name this walk's functions for the reuse cache and digest the context (see
        ``cudalint.frontend.reuse``): the bodies of the main file's kernels that launch
        nothing are left out of it, each kept as the key of its own run. None: no reuse."""
        reuse = self.reuse
        if reuse is None:
            return None
        try:
            return self._plan(reuse)
        except Exception:  # a cursor libclang cannot describe: walk from scratch
            reuse.clear()
            return None

    def _plan(self, reuse: WalkReuse) -> _ReusePlan:
        h = hashlib.sha256()

        def put(*parts: object) -> None:
            for part in parts:  # each tagged with its kind and length: no two read alike
                if isinstance(part, bytes):
                    tag, data = b"b", part
                elif isinstance(part, str):
                    tag, data = b"s", part.encode("utf-8", "surrogatepass")
                else:
                    tag, data = b"r", repr(part).encode("utf-8", "surrogatepass")
                h.update(b"%s%d:" % (tag, len(data)))
                h.update(data)

        # the kept results, moved to where their lines are now: the context leaves the
        # main file's line numbers out (an added or removed line moves, but changes, no
        # result), and with them its blank lines (``_squeeze``)
        reuse.follow(self.source, self.path)
        squeeze = b'R"' not in self.source  # a raw string may hold blank lines
        put("walk-reuse-2", self.path, self.main, self.defines, self.arch)
        sids: dict[int, StableId] = {}
        counts: dict[StableId, int] = {}
        # body start, end, fn_key, lines, whether a host function's
        cut: list[tuple[int, int, int, int, int, bool]] = []
        words = _Words(self, reuse.words, reuse.macros)
        # what device code names: a host function it names (a call clang refuses, a
        # function read for its value) keeps its body in the context
        device_words = {w for fn in self.functions if fn.is_kernel or fn.is_device
                        for w in words.words(fn)}
        # a value that depends on where its line is (``__LINE__`` written in the file,
        # or in a macro device code expands; a header's error-checking macro around
        # host calls does not count): the functions' lines stay in the context, so that
        # a line added or removed above one re-runs it rather than move its results (an
        # edit that adds no line still reuses them)
        lined = b"__LINE__" in self.source or b"__builtin_LINE" in self.source \
            or bool({"__LINE__", "__builtin_LINE"} & device_words)
        for fn in self.functions:
            start = fn.node.extent.start
            sid = (fn.name, self.source_file(start).path, start.line, start.column)
            sids[fn_key(fn)] = sid
            counts[sid] = counts.get(sid, 0) + 1
            put(sid if sid[1] != self.path or lined else sid[:2] + sid[3:], fn.is_kernel,
                fn.is_device)
            host_fn = not fn.is_kernel and not fn.is_device
            if fn.body is None or not (fn.is_kernel or host_fn):
                continue
            ext = fn.body.extent
            s, e = ext.start, ext.end
            if s.file is None or e.file is None or str(s.file.name) != self.main \
                    or str(e.file.name) != self.main:
                continue
            a, b = int(s.offset), int(e.offset)
            if not (0 <= a < b <= len(self.source) and self.source[a:a + 1] == b"{"
                    and self.source[b - 1:b] == b"}"):
                continue
            if host_fn:
                # a host function's body, which only the host evaluation reads
                # (``_host_launches`` keys it by the bodies it reads), unless device code
                # can read it too
                if start.file is not None and str(start.file.name) == self.main \
                        and 0 <= int(start.offset) <= a and fn.name not in device_words \
                        and _plain_host(self.source[int(start.offset):b]):
                    cut.append((a, b, fn_key(fn), int(s.line), int(e.line), True))
                continue
            # a kernel that launches nothing (dynamic parallelism is host code's kind):
            # known without a scan when the previous walk left this same body out
            hit = reuse.runs.get(sid)
            unscanned = isinstance(fn, _LazyFunction) and not fn._scanned
            if (hit is None or hit.body != self.source[a:b] or not unscanned) and fn.launches:
                continue
            cut.append((a, b, fn_key(fn), int(s.line), int(e.line), False))
        cut.sort()
        bodies: dict[int, bytes] = {}
        host_bodies: dict[int, bytes] = {}
        lines: list[tuple[int, int]] = []
        pieces: list[bytes | tuple[object, ...]] = []
        at = 0
        for a, b, k, first, last, is_host in cut:
            if a < at:
                continue  # overlapping extents (cannot happen): that body stays in
            body = self.source[a:b]
            (host_bodies if is_host else bodies)[k] = body
            lines.append((first, last))
            pieces.append(self.source[at:a])
            # what of the body the rest of the walk sees: the column the text after it
            # starts in (its lines are the line map's), and the #defines and explicit
            # instantiations the walker finds as text
            text = body.decode("utf-8", errors="replace")
            tail = len(body) - body.rfind(b"\n") - 1 if b"\n" in body else len(body)
            pieces.append((tail,
                           [m.group(0) for m in _DIRECTIVE.finditer(body)],
                           [m.group(0) for m in EXPLICIT_INSTANTIATION.finditer(text)]))
            at = b
        pieces.append(self.source[at:])
        outside = [p for p in pieces if isinstance(p, bytes)]
        local = self._local_macros(outside, lines)
        for piece in pieces:
            if isinstance(piece, tuple):
                put(*piece)
                continue
            if local:  # their values are keys of the runs that read them, not context
                piece = _MACRO_LINE.sub(
                    lambda m: m.group(1) if m.group(2).decode() in local else m.group(0), piece)
            put(_squeeze(piece) if squeeze else piece)
        for text in self.project_texts()[1:]:
            put(text)
        for note in self.notes[:self._initial_notes]:
            span = note.span
            inside = span is not None and span.file == self.path and any(
                first <= span.line <= last for first, last in lines)
            if not inside:  # the main file's lines left out, as above
                put(note if span is None or span.file != self.path else
                    (note.severity, note.message, span.column, span.end_line - span.line,
                     span.end_column))
        unique = {k: sid for k, sid in sids.items() if counts[sid] == 1}
        context = h.hexdigest()
        put(context, sorted(local.items()))
        for body in host_bodies.values():
            put(_squeeze(body) if squeeze else body)
        return _ReusePlan(unique, {sid: k for k, sid in unique.items()}, bodies,
                          context == reuse.context, context, host_bodies, h.hexdigest(),
                          squeeze, words, local)

    def _local_macros(self, outside: list[bytes], lines: list[tuple[int, int]]
                      ) -> dict[str, bytes]:
        """The main file's macros that only the bodies left out of the context read (by
        name: one ``#define`` outside them, the name nowhere else outside them, nor in
        a project header, a ``-D`` or a diagnostic), and their replacement texts: a
        changed value then changes only the runs whose text names the macro."""
        found: dict[str, bytes] = {}
        twice: set[str] = set()
        texts = [*outside, *(t.encode("utf-8", "surrogatepass") for t in self.project_texts())]
        if any(b"##" in t for t in texts):
            return {}  # a pasted name (``BX_##n``) names a macro nowhere as a word
        for piece in outside:
            for m in _MACRO_LINE.finditer(piece):
                name = m.group(2).decode()
                if name in found:
                    twice.add(name)
                found[name] = m.group(3)
        if not found:
            return {}
        rest = b"\n".join(outside)
        others = [t.encode("utf-8", "surrogatepass") for t in self.project_texts()[1:]]
        others.extend(d.encode() for d in self.defines)
        others.extend(n.message.encode() for n in self.notes[:self._initial_notes])
        local: dict[str, bytes] = {}
        for name, value in found.items():
            word = re.compile(rb"\b%s\b" % re.escape(name.encode()))
            if name not in twice and len(word.findall(rest)) == 1 \
                    and not word.search(value) and not any(word.search(t) for t in others):
                local[name] = value
        return local

    def _host_scope(self) -> tuple[Callable[[Function], bool],
                                   Callable[[Function], bool]] | None:
        """A lazy walk's arguments of ``HostLaunches.run``: the functions that can hold
        a launch (every kernel and device function, scanned already, and the host
        functions whose text holds ``<<<`` or a macro whose replacement does,
        ``_Words.may_launch``) and the host functions whose calls the launches' contexts
        follow (those host functions and the ones whose text names them, directly or
        not, ``_Words.callers``: a caller, its call spelled in its text, cannot be
        missed). No other host function is built. None (all of them, as an eager walk
        does) where the text cannot tell: a ``-D`` value with a name in it or a project
        macro that pastes tokens (``##``) can make a call whose name no text holds, and
        an ``#include`` inside a function brings text its extent does not hold."""
        if any(_WORD.search(d.partition("=")[2]) for d in self.defines):
            return None
        if any("##" in m.group(2) for text in self.project_texts()
               for m in _MACRO.finditer(text)):
            return None
        words = _Words(self, {})
        launching: list[Function] = []
        for fn in self.functions:
            if not isinstance(fn, _LazyFunction):
                continue  # a kernel or device function: ``contexts`` needs no caller
            ext = fn.node.extent
            raw = self.bytes_at(ext.start)[int(ext.start.offset):int(ext.end.offset)]
            if b"include" in raw and _INCLUDE_LINE.search(raw):
                return None
            if words.may_launch(fn):
                launching.append(fn)
        keys = {fn_key(fn) for fn in launching}
        up = words.callers(launching) if launching else set()
        for fn in self.functions:
            if isinstance(fn, _LazyFunction) and fn_key(fn) in up:
                # scanned now, as an eager walk does: one whose scan fails is no caller
                # there (it is dropped, with a note), so the unit is walked again eagerly
                fn._scan()
        return ((lambda fn: not isinstance(fn, _LazyFunction) or fn_key(fn) in keys),
                (lambda fn: fn_key(fn) in up))

    def _host_launches(self, plan: _ReusePlan, reuse: WalkReuse) -> None:
        """``HostLaunches.run``, each function's launches taken from the previous walk
        where what their evaluation reads is unchanged (``_Words.key``: the context and
        the bodies of the host functions that call the function, directly or not, and of
        those they call), or else where its contexts and the bodies it calls are
        (``_Words.inner``). Only the callers of the functions evaluated again have their
        calls followed (``HostLaunches.find_calls``)."""
        host = self.host
        words = plan.words if plan.words is not None else _Words(self, {})
        host.keeper = _CallKeeper(words, plan, reuse.calls)
        keys: dict[int, str] = {}
        replay: dict[int, HostRun] = {}
        again: list[Function] = []
        for fn in self.functions:
            k = fn_key(fn)
            if k in plan.bodies or not words.may_launch(fn):
                continue  # no launch in it (a kernel whose body is left out launches none)
            sid = plan.sids.get(k)
            if sid is not None:
                keys[k] = words.key(fn, plan)
                # the latest evaluation, or an earlier version's
                hit = next((h for h in (reuse.hosts.get(sid), *reuse.older_hosts.get(sid, ()))
                            if h is not None and h.key == keys[k]), None)
                if hit is not None:
                    replay[k] = hit
                    continue
            again.append(fn)
        calls_found: set[int] = set()
        order = {fn_key(fn): i for i, fn in enumerate(self.functions)}

        def find_calls(fn: Function) -> None:
            # the calls ``HostLaunches.contexts(fn)`` follows: those of ``fn``'s callers
            # (by text, directly or not), found only where contexts are computed and
            # each once; each callee's callers then put in the order a walk from scratch
            # finds them (the functions' order), which is the contexts' order
            todo = [f for f in self.functions if fn_key(f) in words.callers([fn])
                    and fn_key(f) not in calls_found]
            if not todo:
                return
            calls_found.update(fn_key(f) for f in todo)
            host.find_calls(todo)
            for table in (host._callers, host._named):
                for calls in table.values():
                    calls.sort(key=lambda call: order.get(fn_key(call[0]), -1))

        again_keys = {fn_key(fn) for fn in again}
        contexts_kept: dict[str, tuple[object, ...] | None] = {}
        sigs: dict[int, tuple[object, ...] | None] = {}

        def contexts_of(fn: Function) -> tuple[object, ...] | None:
            # ``_contexts_signature(fn)``, kept from the last walk where what it is
            # computed from is unchanged (``_Words.contexts_key``): a statement added to
            # ``main`` computes the contexts of the functions ``main`` calls, and those
            # of the functions they call only where theirs changed
            k = fn_key(fn)
            if k in sigs:
                return sigs[k]
            sigs[k] = None  # while looking
            ckey = words.contexts_key(fn, plan, contexts_of)
            if ckey and ckey in reuse.contexts:
                sig = reuse.contexts[ckey]
                reuse.contexts_reused += 1
                if sig is not None:
                    self._seed_contexts(fn, sig)  # for its own evaluation, its callees'
            else:
                find_calls(fn)
                sig = self._contexts_signature(fn)
            if ckey:
                contexts_kept[ckey] = sig
            sigs[k] = sig
            return sig
        seen: set[tuple[object, ...]] = set()
        hosts: dict[StableId, HostRun] = {}
        keep = True  # no evaluation added notes or arrays (whose repeats are dropped)
        for fn in self.functions:
            k = fn_key(fn)
            if k in plan.bodies or (k not in replay and k not in again_keys):
                continue
            hit = replay.get(k)
            if hit is not None:
                for kernel, label, env in hit.instantiations:
                    host.instantiations.setdefault(kernel, {}).setdefault(
                        label, copy.deepcopy(env))
                host.add(list(hit.launches), seen)
                hosts[plan.sids[k]] = hit
                reuse.host_reused += 1
                continue
            found: list[tuple[Launch, tuple[tuple[str, int | str], ...]]] = []
            added: list[tuple[str, str, Env]] = []
            inner = ""
            if fn.launches:
                before = {(name, label) for name, envs in host.instantiations.items()
                          for label in envs}
                notes_at, self._recording = len(self.notes), []
                try:
                    # where the callers' bodies changed: the same contexts (the values
                    # the callers pass) give the same launches
                    sid = plan.sids[k] if k in keys else None
                    kept = [h for h in (reuse.hosts.get(sid), *reuse.older_hosts.get(sid, ()))
                            if h is not None] if sid is not None else []
                    sig = contexts_of(fn) if kept else None
                    inner = words.inner(fn, plan, sig) if sig is not None else ""
                    was = next((h for h in kept if inner and h.inner == inner), None)
                    if was is not None:
                        found, added = list(was.launches), list(was.instantiations)
                        for kernel, label, env in added:
                            host.instantiations.setdefault(kernel, {}).setdefault(
                                label, copy.deepcopy(env))
                        reuse.host_reused += 1
                    else:
                        find_calls(fn)
                        found = host.launches_of(fn)
                        added = [(name, label, copy.deepcopy(env))
                                 for name, envs in host.instantiations.items()
                                 for label, env in envs.items() if (name, label) not in before]
                        reuse.host_done += 1
                        if k in keys and not inner:
                            sig = contexts_of(fn)  # known now: no more work
                            inner = words.inner(fn, plan, sig) if sig is not None else ""
                    keep = keep and not self._recording and len(self.notes) == notes_at
                finally:
                    self._recording = None
                host.add(found, seen)
            if k in keys:
                hosts[plan.sids[k]] = HostRun(keys[k], tuple(found), tuple(added), inner)
        if keep:
            reuse.keep_hosts(hosts)
            for ckey, sig in reuse.contexts.items():  # earlier versions', newest first
                if len(contexts_kept) >= CONTEXTS_KEPT:
                    break
                contexts_kept.setdefault(ckey, sig)
            reuse.contexts = contexts_kept
        else:
            reuse.hosts, reuse.older_hosts, reuse.contexts = {}, {}, {}
        if len(reuse.calls) > CALLS_KEPT:  # the oldest keys go first
            reuse.calls = dict(list(reuse.calls.items())[-CALLS_KEPT:])
        reuse.calls_done += host.calls_done
        reuse.calls_reused += host.calls_kept
        reuse.words, reuse.macros = words.kept(), words.macro_cache

    def _seed_contexts(self, fn: Function, sig: tuple[object, ...]) -> None:
        """``HostLaunches.contexts(fn)`` set to the contexts ``sig`` describes
        (``_contexts_signature``, kept from the last walk), where they are not computed
        yet and every part names something of this walk."""
        if id(fn) in self.host._contexts:
            return
        keys = [key_of(p.cursor) for p in Executor.params(fn)]
        kernels = {(f.name, ty.spelling(f.node.cursor.type)): f
                   for f in self.functions if f.is_kernel}
        out: list[_Context] = []
        for entry in sig:
            parts: Any = entry
            env_sig, values, dims, pointed, fields, dim_sets, limited = parts
            label, env_values, types, params, functions = env_sig
            ctx = _Context(Env(label, dict(env_values), dict(types), dict(params),
                               dict(functions)), limited=limited)
            for i, v, t in values:
                ctx.values[keys[i]] = Const(v, t)
            for i, d in dims:
                ctx.dims[keys[i]] = d
            for i, held in pointed:
                found: list[tuple[Function, Env | None]] = []
                for name, spelled, held_env in held:
                    f = kernels.get((name, spelled))
                    if f is None:
                        return  # computed instead
                    found.append((f, None if held_env is None else Env(
                        held_env[0], dict(held_env[1]), dict(held_env[2]), dict(held_env[3]),
                        dict(held_env[4]))))
                ctx.kernels[keys[i]] = tuple(found)
            for (i, member), d in fields:
                ctx.fields[(keys[i], member)] = d
            for i, d in dim_sets:
                ctx.dim_sets[keys[i]] = d
            out.append(ctx)
        self.host._contexts[id(fn)] = out

    def _contexts_signature(self, fn: Function) -> tuple[object, ...] | None:
        """``HostLaunches.contexts(fn)`` as values that compare across versions (the
        parameters by position), or None."""
        try:
            contexts = self.host.contexts(fn)
        except RecursionError:
            return None
        where = {key_of(p.cursor): i for i, p in enumerate(Executor.params(fn))}
        out: list[tuple[object, ...]] = []
        for ctx in contexts:
            if ctx.env.classes:
                return None  # resolved classes: not comparable across versions
            if not where.keys() >= ctx.values.keys() | ctx.dims.keys() | ctx.kernels.keys() \
                    | ctx.dim_sets.keys() | {k for k, _ in ctx.fields}:
                return None
            # the kernels a function-pointer parameter holds and a struct's dim3 members
            # are inputs too (``launch(ka, ...)`` edited to ``launch(kb, ...)``)
            out.append((env_signature(ctx.env),
                        tuple(sorted((where[k], c.value, c.type) for k, c in ctx.values.items())),
                        tuple(sorted((where[k], d) for k, d in ctx.dims.items())),
                        tuple(sorted((where[k], tuple(
                            (f.name, ty.spelling(f.node.cursor.type),
                             env_signature(e) if e is not None else None) for f, e in v))
                            for k, v in ctx.kernels.items())),
                        tuple(sorted(((where[k], m), d) for (k, m), d in ctx.fields.items())),
                        # the shape sets a dim3 parameter is passed (``launch_sets``)
                        tuple(sorted((where[k], d) for k, d in ctx.dim_sets.items())),
                        ctx.limited))
        return tuple(out)

    def _foreign_lines(self, inlined: set[int], plan: _ReusePlan
                       ) -> tuple[tuple[int, int], ...] | None:
        """The lines of the functions of other files that a run inlined (a symbol named
        by a line in them, ``k@L12:i``, names that file's line), None where it inlined
        one the cache cannot name (whose lines are not known)."""
        out: list[tuple[int, int]] = []
        for k in inlined:
            fn = self.functions_by_key.get(k) or self.member_functions.get(k)
            if fn is None:
                return None
            ext = fn.node.extent
            if ext.start.file is None or str(ext.start.file.name) != self.main:
                out.append((int(ext.start.line), int(ext.end.line)))
        return tuple(sorted(out))

    def _in_host_body(self, k: int, plan: _ReusePlan) -> bool:
        """Whether the function ``k`` a run inlined is a host function whose body the
        context leaves out, or lies in one (a lambda's call operator); True where that is
        not known."""
        if k in plan.host_bodies:
            return True
        if k in self.functions_by_key:
            return False
        fn = self.member_functions.get(k)
        if fn is None:
            return True
        ext = fn.node.extent
        if ext.start.file is None or str(ext.start.file.name) != self.main:
            return False  # a header's member function: its text is in the context
        at = int(ext.start.offset)
        return any(host_fn in plan.host_bodies and self._body_holds(host_fn, at)
                   for host_fn in plan.host_bodies)

    def _body_holds(self, k: int, offset: int) -> bool:
        fn = self.functions_by_key.get(k)
        if fn is None or fn.body is None:
            return True
        ext = fn.body.extent
        return int(ext.start.offset) <= offset <= int(ext.end.offset)

    def _binds_as_before(self, fn: Function, envs: list[Env], hit: FunctionRun) -> bool:
        """Whether the launches bind ``fn``'s parameters as they did when ``hit`` ran
        (``HostLaunches.bind_parameters`` on the accesses it handed over, which relabels
        the launches: undone where they differ)."""
        saved = list(self.host.launches)
        for env, got, was in zip(envs, hit.binds, hit.bound, strict=True):
            bound, symbolic = self.host.bind_parameters(fn, env, list(got))
            if (tuple(env_signature(b) for b in bound), symbolic) != was:
                self.host.launches[:] = saved
                return False
        return True

    def reference_parameters(self, callee: ci.Cursor) -> frozenset[int]:
        """The positions of ``callee``'s parameters that are references to non-const
        (through which a call may change the caller's variables); computed once per
        declaration (most calls, ``printf`` or ``cudaMalloc``, have none)."""
        k = key_of(callee)
        hit = self._reference_parameters.get(k)
        if hit is None:
            hit = frozenset(
                i for i, p in enumerate(callee.get_arguments() or ())
                if p is not None and ty.is_reference_to_mutable(p.type)
            )
            self._reference_parameters[k] = hit
        return hit

    def add_array(self, rec: SharedArray) -> None:
        if self._recording is not None:
            self._recording.append(rec)
        self.arrays.setdefault(rec.key, rec)

    def function_for(self, ref: ci.Cursor | None, name: str, nargs: int) -> Function | None:
        """The function with a body in this file that a call resolves to, if any."""
        if ref is None:
            return None
        fn = self.functions_by_key.get(key_of(ref))
        if fn is not None:
            return fn
        if not is_from_project(ref):
            return None
        candidates = [f for f in self.functions_by_name.get(name, ())
                      if len(Executor.params(f)) == nargs]
        return candidates[0] if len(candidates) == 1 else None

    def call_env(self, call: Node, target: Function, caller: Env) -> Env:
        """Template arguments of a call to a template device function.

        A resolved call names its specialization. In a template body the call is
        unresolved (``put<S>(s, v)``): explicit arguments are read with the caller's
        template arguments (``S`` → 2, ``T`` → float), and type parameters left out are
        deduced from the arguments' types (``T *p`` given a ``T *``). Parameters that stay
        unknown are left out of the environment (symbolic, never guessed).
        """
        if not target.template_params:
            return Env()
        callee = None
        for ch in call.children:
            s = strip(ch)
            if s.kind == N.DECL_REF or s.kind == N.MEMBER_REF:
                callee = s
                break
        explicit: list[str] = []
        if callee is not None:
            env = self.spec_env(callee, target)
            if env is not None:
                return env
            m = re.search(r"<(.*)>\s*$", self.slice(callee.extent), re.S)
            if m:
                explicit = split_top_level(m.group(1))
        deduced = self._deduce_types(call, target, caller)
        env = Env()
        parts: list[str] = []
        saved = self._named_consts
        table = dict(self.named_consts())
        table.update(caller.values)
        self._named_consts = table
        try:
            for i, p in enumerate(target.template_params):
                text = explicit[i] if i < len(explicit) else None
                if p.is_type:
                    bound = deduced.get(p.name)
                    if text is not None:
                        spelled = " ".join(text.split())
                        bound = caller.types.get(spelled)
                        if bound is None:
                            size = self.type_size(spelled)
                            bound = (spelled, size) if size is not None else None
                    if bound is not None:
                        env.types[p.name] = bound
                        parts.append(f"{p.name}={bound[0]}")
                elif text is not None:
                    v = self.eval_text(text)
                    if v is None:  # ``sizeof(tmp)`` of a local array (Executor.target_env)
                        v = caller.values.get(" ".join(text.split()))
                    if v is not None:
                        env.values[p.name] = v
                        parts.append(f"{p.name}={v}")
                        continue
                    fname = self.function_argument(text, caller)
                    if fname is not None:
                        env.functions[p.name] = fname
                        parts.append(f"{p.name}={fname}")
                elif p.default is not None and len(explicit) == i \
                        and p.name not in deduced and p.name not in self.deducible(target):
                    # ``ggml_cuda_memcpy_1<16>(...)`` of ``template <int nbytes, int
                    # alignment = 0>``: a parameter after the written ones takes its
                    # default argument
                    env.values[p.name] = p.default
                    parts.append(f"{p.name}={p.default}")
                    explicit.append(str(p.default))
        finally:
            self._named_consts = saved
        if len(parts) == len(target.template_params):
            env.label = ", ".join(parts)
        return env

    def function_argument(self, text: str, caller: Env) -> str | None:
        """The device function a template argument names (``warpReduceSum``,
        ``&ns::f``, or the caller's own parameter bound to one), if it has a body here."""
        name = " ".join(text.split()).lstrip("&").strip()
        name = caller.functions.get(name, name).rsplit("::", 1)[-1]
        fns = self.functions_by_name.get(name, ())
        return name if fns and all(not f.is_kernel for f in fns) else None

    def deducible(self, target: Function) -> set[str]:
        """The identifiers the types of ``target``'s parameters name: a template parameter
        among them may be deduced from the call's arguments (``Tag<N>``, ``float (&)[N]``,
        ``U *``), and then its default argument does not apply."""
        return {w for ch in target.node.children if ch.kind == N.PARM_DECL
                for w in re.findall(r"[A-Za-z_]\w*", ty.spelling(ch.type))}

    def _deduce_types(self, call: Node, target: Function, caller: Env,
                      ) -> dict[str, tuple[str, int]]:
        """Type parameters that a parameter spelled ``T``, ``T *`` or ``T &`` takes from
        its argument's type (the caller's own parameters mapped through ``caller``)."""
        names = {p.name for p in target.template_params if p.is_type}
        out: dict[str, tuple[str, int]] = {}
        if not names:
            return out
        params = [ch for ch in target.node.children if ch.kind == N.PARM_DECL]
        for p, a in zip(params, arguments(call), strict=False):
            # qualifiers anywhere: ``T_vec_dot * const Q_tmp`` is spelled ``T_vec_dot *const``
            ptext = re.sub(r"\b(?:const|volatile|__restrict__|__restrict)\b", "",
                           ty.spelling(p.type))
            by_value = "&" not in ptext
            ptext = ptext.replace("&", "").strip()
            stars = ptext.count("*")
            pname = ptext.replace("*", "").strip()
            if pname not in names or pname in out:
                continue
            t = strip(a).type
            for _ in range(stars):
                to = ty.pointee_of_pointer(t)
                if to is not None:
                    t = to
                elif ty.is_array(t) or ty.is_array_kind(ty.canonical_kind(t)):
                    t = ty.array_element(t)
                else:
                    break
            else:
                spelled = " ".join(re.sub(r"\b(?:const|volatile)\b", "",
                                          ty.spelling(t)).replace("&", "").split())
                bound = caller.types.get(spelled)
                if by_value and (ty.is_array(t) or ty.is_array_kind(ty.canonical_kind(t))):
                    # ``T p`` given an array: it decays, T is a pointer to its element
                    element = " ".join(re.sub(r"\b(?:const|volatile)\b", "", ty.spelling(
                        ty.array_element(t))).split())
                    bound = (f"{element} *", 8)
                elif bound is None:
                    size = type_size(t)
                    bound = (spelled, size) if size > 0 else None
                if bound is not None:
                    out[pname] = bound
        return out

    def _internal_error(self, fn: Function, exc: Exception) -> None:
        self.notes.append(Note(
            "warning",
            f"cudalint could not analyze '{fn.name}' ({type(exc).__name__}: {exc});"
            " its shared accesses are not reported",
            self.span(fn.node.extent),
        ))

    def _collect(self, parent: ci.Cursor) -> None:
        for c in top_level(parent):
            kind = c._kind_id
            if kind not in TOP_LEVEL_KINDS or not self._from_project(c):
                continue
            if kind in (N.NAMESPACE, N.LINKAGE_SPEC, N.UNEXPOSED_DECL):
                self._collect(c)
                continue
            check_budget()
            if (self.reuse is not None or self.lazy) and kind not in (N.VAR_DECL, N.ENUM_DECL):
                node = self._build_head(c)  # the body built when it is needed
            else:
                node = build(c)
            if kind == N.VAR_DECL:
                self._file_var(node)
            elif kind == N.ENUM_DECL:
                for e in node.children:
                    if e.kind == N.ENUM_CONSTANT_DECL:
                        self.file_consts.setdefault(e.spelling, int(e.cursor.enum_value))
            else:
                self._function(node)

    def _from_project(self, c: ci.Cursor) -> bool:
        """``is_from_project(c)``, the file's part asked once per file: the top level
        holds every declaration of the precompiled shim (thousands), each of which cost
        a file object and its name."""
        lib = ci.conf.lib
        loc = lib.clang_getCursorLocation(c)
        if lib.clang_Location_isFromMainFile(loc):
            return True
        if lib.clang_Location_isInSystemHeader(loc):
            return False
        f = ci.c_object_p()
        lib.clang_getInstantiationLocation(loc, ctypes.byref(f), None, None, None)
        if not f:
            return False  # predefined and builtin declarations
        key = ctypes.cast(f, ctypes.c_void_p).value
        got = self._project_files.get(key)
        if got is None:
            got = self._project_files[key] = is_from_project(c)
        return got

    def _build_head(self, c: ci.Cursor) -> Node:
        """``build(c)`` of a function, its body (a compound statement) left unbuilt."""
        return build(c, lambda child: _LazyBody(child, N.COMPOUND_STMT, c, self)
                     if child._kind_id == N.COMPOUND_STMT else None)

    def _file_var(self, c: Node) -> None:
        if any(ch.kind == N.CUDASHARED for ch in c.children):
            a = self._array_decl(c, None)
            if a is not None:
                self.file_arrays[key_of(c.cursor)] = a
            return
        if node_int_type(c) is not None:
            v = evaluate_int(c.cursor) if ty.is_const(c.type) else None
            if v is not None:
                self.file_consts.setdefault(c.spelling, v)

    def _param_default(self, param: Node) -> int | None:
        """The constant default argument of a non-type template parameter, if any."""
        exprs = [ch for ch in param.children if ch.is_expr]
        if len(exprs) != 1:
            return None
        text = self.slice(exprs[0].extent).strip()
        if text in ("true", "false"):
            return int(text == "true")
        return self.eval_text(text)

    def _function(self, c: Node) -> None:
        is_kernel = is_device = False
        body = None
        params: list[TemplateParam] = []
        for ch in c.children:
            k = ch.kind
            if k == N.CUDAGLOBAL:
                is_kernel = True
            elif k == N.CUDADEVICE:
                is_device = True
            elif k == N.COMPOUND_STMT:
                body = ch
            elif k == N.TEMPLATE_NON_TYPE:
                params.append(TemplateParam(ch.spelling, False, self._param_default(ch),
                                            ty.canonical_kind(ch.type)))
            elif k in (N.TEMPLATE_TYPE, N.TEMPLATE_TEMPLATE):
                params.append(TemplateParam(ch.spelling, True))
        fn = (Function(c, c.spelling, is_kernel, is_device and not is_kernel, params, body)
              if self.reuse is None and not (self.lazy and not is_kernel and not is_device)
              else _LazyFunction(self, c, c.spelling, is_kernel, is_device and not is_kernel,
                                 params, body))
        if body is None:
            return
        self.functions.append(fn)
        self.functions_by_key[key_of(c.cursor)] = fn
        self.functions_by_name.setdefault(fn.name, []).append(fn)
        if is_kernel:
            self.kernels_by_name.setdefault(fn.name, fn)

    # arrays

    def _array_decl(self, c: Node, kernel: str | None) -> ArrayDecl | None:
        t = c.type
        if _CG_SCRATCH.search(ty.spelling(t)):
            # cooperative groups' scratch for tiles wider than a warp
            # (``__shared__ cg::block_tile_memory<N> scratch``): the library's, never
            # indexed by user code
            return None
        span = self.span(c.extent)
        canon = ty.canonical(t)
        align = self._declared_alignment(c)
        if ty.is_incomplete_array(canon) or (
            not ty.is_array(canon) and ty.is_incomplete_array(t)
        ):
            # extern __shared__ T s[]: the dynamic window, extent unknown.
            elem = ty.element(canon if ty.is_incomplete_array(canon) else t)
            return ArrayDecl(
                c.cursor, c.spelling, kernel, 1, [0], [None], elem, type_size(elem) < 0,
                span, (), (), dynamic=True, declared_alignment=align,
            )
        dims: list[int | None] = []
        dependent = False
        cur = t if ty.is_array(t) else canon
        while ty.is_array(cur):
            if ty.is_constant_array(cur):
                dims.append(ty.array_length(cur))
            elif ty.is_incomplete_array(cur):
                return None  # an inner dimension without extent: not valid C++
            else:
                dims.append(None)
                dependent = True
            cur = ty.element(cur)
            if not ty.is_array(cur):
                cc = ty.canonical(cur)
                if ty.is_array(cc):
                    cur = cc
        elem = cur
        if type_size(elem) < 0:
            dependent = True
        extents = sorted(
            (
                ch for ch in c.children
                if ch.is_expr and ch.kind not in (N.CALL, N.INIT_LIST)
                and not ty.is_array_kind(ch.ckind)
            ),
            key=lambda ch: int(ch.extent.start.offset),
        )
        ext_list: list[Node | None]
        if len(extents) == len(dims):
            ext_list = list(extents)
            dim_spans = tuple(self.span(e.extent) for e in extents)
            dim_texts = tuple(self.slice(e.extent) for e in extents)
        else:
            ext_list = [None] * len(dims)
            dim_spans = ()
            dim_texts = tuple(str(d) for d in dims) if None not in dims else ()
        return ArrayDecl(
            c.cursor, c.spelling, kernel, len(dims), dims, ext_list, elem, dependent, span,
            dim_spans, dim_texts, declared_alignment=align,
        )

    def _declared_alignment(self, c: Node) -> int:
        """``__align__(n)`` / ``alignas(n)`` / ``aligned(n)`` on a declaration, else 0."""
        if not any(ch.kind == N.ALIGNED_ATTR for ch in c.children):
            return 0
        text = self.slice(c.extent)
        # The attribute may stand before the declaration's extent (``alignas`` first).
        start = c.cursor.extent.start
        line_text = self.line_text(start, start.line)
        if line_text is not None:
            text = line_text + " " + text
        best = 0
        for m in _ALIGN_ATTR.finditer(text):
            v = self.eval_text(m.group(2))
            if v is not None and v > best:
                best = v
        if best == 0:
            best = 16  # ``__attribute__((aligned))`` alone: the largest useful alignment
        return best

    # the scan

    def scan_function(self, fn: Function) -> None:
        for ch in fn.node.children:
            if ch.kind == N.PARM_DECL:
                fn.vars[key_of(ch.cursor)] = Var(ch.spelling, None, is_param=True)
        assert fn.body is not None
        _Scanner(self, fn).visit(fn.body, 0)

    # template instantiations

    def _instantiations(self, plan: _ReusePlan | None = None) -> dict[str, list[Env]]:
        # Launch sites, evaluated in their host contexts (cudalint.frontend.host), give the
        # launches and the template arguments kernels are launched with.
        self.host = HostLaunches(self)
        if plan is None or self.reuse is None:
            scope = self._host_scope() if self.lazy else None
            if scope is None:
                self.host.run()
            else:
                self.host.run(*scope)
        else:
            self._host_launches(plan, self.reuse)
        found: dict[str, dict[str, Env]] = {
            name: dict(envs) for name, envs in self.host.instantiations.items()
        }
        for name, dropped in sorted(self.host.capped.items()):
            kernel = self.kernels_by_name.get(name)
            if kernel is not None and dropped:
                # said, not silently dropped: those instantiations' accesses are absent
                self.notes.append(Note(
                    "warning",
                    f"kernel '{name}' is launched with {dropped} more template "
                    f"instantiation(s) through function pointers or macro-instantiated host "
                    f"templates than cudalint analyses in one file ({MAX_POINTER_INSTANTIATIONS});"
                    " those are not analyzed",
                    self.span(kernel.node.extent)))
        for m in (m for text in self.project_texts()
                  for m in EXPLICIT_INSTANTIATION.finditer(text)):
            kernel = self.kernels_by_name.get(m.group(1))
            if kernel is None or not kernel.template_params:
                continue
            env = self.text_env(kernel, split_top_level(m.group(2)))
            if env is not None and env.label is not None:
                found.setdefault(kernel.name, {}).setdefault(env.label, env)
        # ``template <> __global__ void k<float>(float *)``: nvcc runs that body for
        # k<float>, never the primary template's; the specialization is walked as a
        # kernel of its own
        for fn in self.functions:
            primary = self.kernels_by_name.get(fn.name)
            if not fn.is_kernel or fn.template_params or primary is None \
                    or primary is fn or not primary.template_params \
                    or fn.node.cursor.get_num_template_arguments() <= 0:
                continue
            spec = self.spec_env(fn.node, primary)
            if spec is not None and spec.label is not None:
                found.get(fn.name, {}).pop(spec.label, None)
        for name in self.shared_kernel_names():
            found.pop(name, None)
        for launch in self.host.launches:
            # a launch whose template arguments are not known (not deduced, through an
            # unknown pointer) runs an instantiation none of the known ones may be: the
            # kernel is also analysed with its parameters symbolic, never left out
            kernel = self.kernels_by_name.get(launch.kernel)
            if launch.instantiation is None and kernel is not None \
                    and kernel.template_params and found.get(launch.kernel):
                found[launch.kernel].setdefault("", Env())
        return {k: list(v.values()) for k, v in found.items()}

    def shared_kernel_names(self) -> set[str]:
        """Names that two kernels defined here share (overloads ``k(float *)`` and ``k(T *,
        float *)``, ``a::k`` and ``b::k``; an explicit specialization is its template's)
        where one of them is named by no launch. Launches and accesses are tied to a
        kernel by name, so a launch of one would give the other its shape and template
        arguments: such launches count as shapes not known, their arguments as no
        instantiation. Kept: overloads that launches each name (DeepSpeed's
        ``dropout_kernel`` for float and __half), resolved, or unresolved in a host
        template with as many arguments as the overload has parameters; each is then
        analysed under the shapes of all (the worst of a superset, proved only where
        they agree)."""
        if self._shared_names is not None:
            return self._shared_names
        kernels: dict[str, list[Function]] = {}
        for fn in self.functions:
            if fn.is_kernel and (fn.template_params
                                 or fn.node.cursor.get_num_template_arguments() <= 0):
                kernels.setdefault(fn.name, []).append(fn)
        shared = {name for name, fns in kernels.items() if len(fns) > 1}
        if shared:
            named: set[str] = set()
            for fn in self.functions:
                if fn.is_kernel or fn.is_device or fn.body is None:
                    continue
                for call in fn.launches:
                    site = site_of(call)
                    callee = site.kernel if site is not None else None
                    if site is None or callee is None:
                        continue
                    ref = callee.referenced
                    if ref is not None and ref.kind == ci.CursorKind.FUNCTION_DECL:
                        if ref.spelling not in shared:
                            continue
                        if ref.get_num_template_arguments() > 0:
                            tmpl = ci.conf.lib.clang_getSpecializedCursorTemplate(ref)
                            ref = tmpl if tmpl is not None else ref
                        named.add(str(ref.get_usr()))
                        continue
                    name = callee.spelling
                    if ref is None or ref.kind == ci.CursorKind.OVERLOADED_DECL_REF:
                        name = next((ch.spelling for ch in callee.children
                                     if ch.kind == K.OVERLOADED_DECL_REF.value), name)
                    elif ref.kind != ci.CursorKind.FUNCTION_TEMPLATE:
                        continue
                    if name not in shared:
                        continue
                    for k in kernels[name]:
                        count = sum(1 for ch in k.node.children if ch.kind == N.PARM_DECL)
                        if site.args is None or len(site.args) == count:
                            named.add(str(k.node.cursor.get_usr()))
            shared = {name for name in shared
                      if any(str(fn.node.cursor.get_usr()) not in named for fn in kernels[name])}
        self._shared_names = shared
        return shared

    def spec_env(self, callee: Node, kernel: Function) -> Env | None:
        """Template arguments of the specialization a reference names."""
        spec = callee.referenced
        if spec is None:
            return None
        n = spec.get_num_template_arguments()
        if n <= 0 or n != len(kernel.template_params):
            return None
        env = Env()
        parts: list[str] = []
        named: list[str] | None = None
        for i, p in enumerate(kernel.template_params):
            kind = spec.get_template_argument_kind(i)
            if kind == ci.TemplateArgumentKind.INTEGRAL:
                v = template_int_argument(spec, i, p.type_kind)
                env.values[p.name] = v
                parts.append(f"{p.name}={v}")
            elif kind == ci.TemplateArgumentKind.TYPE:
                at = ty.template_type_argument(spec, i)
                size = type_size(at)
                if size <= 0:
                    return None
                env.types[p.name] = (ty.spelling(at), size)
                parts.append(f"{p.name}={ty.spelling(at)}")
            elif kind == ci.TemplateArgumentKind.DECLARATION and not p.is_type:
                # ``k<matmul_tri4>``, ``k<&f>``: libclang has no query for a declaration
                # argument; the reference keeps the argument expressions as children,
                # the functions among them in order (also inside a macro's expansion)
                if named is None:
                    named = [r[0] for r in map(function_reference, callee.expr_children())
                             if r is not None and not r[1]]
                fname = (self.function_argument(named[len(env.functions)], Env())
                         if len(env.functions) < len(named) else None)
                if fname is None:
                    return None
                env.functions[p.name] = fname
                parts.append(f"{p.name}={fname}")
            else:
                return None
        env.label = ", ".join(parts)
        return env

    def text_env(self, kernel: Function, args: list[str]) -> Env | None:
        if len(args) != len(kernel.template_params):
            return None
        env = Env()
        parts: list[str] = []
        for p, text in zip(kernel.template_params, args, strict=True):
            if p.is_type:
                size = self.type_size(text)
                if size is None:
                    # a class template's instance (``template __global__ void
                    # k<S<4>>(float *);``): the class the arguments select, whose
                    # members the kernel reads
                    cls = Executor(self, None, Env()).dependent_type(text)
                    if not isinstance(cls, DependentClass):
                        return None
                    env.classes[p.name] = cls
                    parts.append(f"{p.name}={cls.name}")
                    continue
                spelled = " ".join(text.split())
                env.types[p.name] = (spelled, size)
                parts.append(f"{p.name}={spelled}")
            else:
                v = self.eval_text(text)
                if v is not None:
                    env.values[p.name] = v
                    parts.append(f"{p.name}={v}")
                    continue
                fname = self.function_argument(text, Env())  # ``k<rows16>``
                if fname is None:
                    return None
                env.functions[p.name] = fname
                parts.append(f"{p.name}={fname}")
        env.label = ", ".join(parts)
        return env

    # constants named in text (explicit instantiations, __launch_bounds__)

    def named_consts(self) -> dict[str, int]:
        if self._named_consts is None:
            table: dict[str, int] = {}
            self._named_consts = table
            # The main file's own #defines win over its headers'.
            macros: dict[str, str] = {}
            for text in reversed(self.project_texts()):
                macros.update((m.group(1), m.group(2)) for m in DEFINE.finditer(text))
            for d in self.defines:
                name, _, value = d.partition("=")
                macros[name.strip()] = value or "1"
            table.update(self.file_consts)
            for _ in range(4):  # macros naming macros
                for name, value in macros.items():
                    if name not in table:
                        r = cexpr.evaluate_typed(value, table, self.macro_types)
                        if r is not None:
                            table[name], self.macro_types[name] = r
        return self._named_consts

    def constant_call(self, text: str) -> int | None:
        """``f()`` where ``f`` takes no argument and its body, as preprocessed, is one
        ``return`` of a constant (ggml's ``__launch_bounds__(
        ggml_cuda_get_physical_warp_size(), 1)``: ``return 32;`` outside HIP); else None."""
        m = re.fullmatch(r"\s*(?:::)?([A-Za-z_]\w*)\s*\(\s*\)\s*", text)
        if m is None:
            return None
        values: set[int] = set()
        for fn in self.functions_by_name.get(m.group(1), ()):
            body = fn.body
            stmts = body.children if body is not None else []
            if len(stmts) != 1 or stmts[0].kind != N.RETURN:
                return None
            exprs = [ch for ch in stmts[0].children if ch.is_expr]
            v = evaluate_int(exprs[0].cursor) if len(exprs) == 1 else None
            if v is None:
                return None
            values.add(v)
        return values.pop() if len(values) == 1 else None

    def eval_text(self, text: str) -> int | None:
        """The value of the C constant expression ``text`` (a template or
        ``__launch_bounds__`` argument) with the file's constants and macros."""
        return cexpr.evaluate(text, self.named_consts(), self.macro_types)

    def note_type(self, name: str, t: ci.Type) -> None:
        size, align = type_size(t), alignment(t)
        if size > 0 and align > 0:
            self._noted_types[" ".join(name.split())] = (int(size), int(align))

    def type_size(self, text: str) -> int | None:
        spelled = " ".join(text.replace("const", " ").split())
        if spelled in BUILTIN_TYPE_SIZES:
            return BUILTIN_TYPE_SIZES[spelled]
        if spelled in self._noted_types:
            return self._noted_types[spelled][0]
        if self._type_sizes is None:
            self._type_sizes = self._top_level_types(type_size)
        got = self._type_sizes.get(spelled)
        if got is None and "::" in spelled:
            got = self._member_type_size(spelled)
        if got is None and "::" in spelled:
            t = self.qualified_type(spelled)
            size = type_size(t) if t is not None else -1
            got = int(size) if size > 0 else None
        return got

    def qualified_type(self, spelled: str) -> ci.Type | None:
        """The type a namespace-qualified name names (``at::Half``: the ``using
        c10::Half;`` in namespace ``at``; ``c10::BFloat16``), looked up through the unit's
        namespaces as C++ does for a qualified name: a class, a typedef, or a
        using-declaration of one. None for a template-id or a name not found once."""
        names = [p.strip() for p in spelled.removeprefix("::").split("::")]
        if len(names) < 2 or not all(n.isidentifier() for n in names):
            return None
        if spelled in self._qualified:
            return self._qualified[spelled]
        scopes = [self.tu.cursor]
        for name in names[:-1]:
            scopes = [c for sc in scopes for c in top_level(sc)
                      if c.kind == K.NAMESPACE and c.spelling == name]
        found: list[ci.Type] = []
        for sc in scopes:
            for c in top_level(sc):
                if c.spelling != names[-1]:
                    continue
                decls = [c]
                if c.kind == K.USING_DECLARATION:
                    ref = c.referenced
                    decls = [] if ref is None else overload_candidates(ref) \
                        if ref.kind == K.OVERLOADED_DECL_REF else [ref]
                for d in decls:
                    if d.kind in (K.STRUCT_DECL, K.CLASS_DECL, K.UNION_DECL,
                                  K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL):
                        found.append(d.type)
        t = found[0] if found and all(ty.canonical_spelling(f) == ty.canonical_spelling(
            found[0]) for f in found) else None
        self._qualified[spelled] = t
        return t

    def _top_level_types(self, measure: Callable[[ci.Type], int]) -> dict[str, int]:
        """``measure`` (a size or an alignment) of each class and typedef declared at the
        unit's top level, by name; the first of a name, and only where it is known."""
        out: dict[str, int] = {}
        for c in top_level(self.tu.cursor):
            if c.kind in (K.STRUCT_DECL, K.CLASS_DECL, K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL,
                          K.UNION_DECL):
                got = measure(c.type)
                if got > 0:
                    out.setdefault(c.spelling, int(got))
        return out

    def type_align(self, text: str) -> int | None:
        """The alignment in bytes of the type named ``text`` (as :meth:`type_size`
        finds it: a builtin, a class or typedef of the file, a member type of a class
        template specialization)."""
        spelled = " ".join(text.replace("const", " ").split())
        if spelled in BUILTIN_TYPE_SIZES:
            return BUILTIN_TYPE_SIZES[spelled]  # a scalar is aligned to its size
        if spelled in self._noted_types:
            return self._noted_types[spelled][1]
        if self._type_aligns is None:
            self._type_aligns = self._top_level_types(alignment)
        got = self._type_aligns.get(spelled)
        if got is None and "::" in spelled:
            t = self.member_type(spelled) or self.qualified_type(spelled)
            a = alignment(t) if t is not None else -1
            got = int(a) if a > 0 else None
        return got

    def _member_type_size(self, spelled: str) -> int | None:
        t = self.member_type(spelled)
        size = type_size(t) if t is not None else -1
        return int(size) if size > 0 else None

    def member_type(self, spelled: str) -> ci.Type | None:
        """``typename vec4<float>::Type``: a member type of a class template
        specialization the file declares (``template <> struct vec4<float> { typedef
        float4 Type; };``, NVIDIA's nbody sample)."""
        if spelled not in self._member_types:
            self._member_types[spelled] = self._find_member_type(spelled)
        return self._member_types[spelled]

    def _find_member_type(self, spelled: str) -> ci.Type | None:
        m = re.fullmatch(r"(?:typename\s+)?(\w+\s*<.*>)\s*::\s*(\w+)", spelled)
        if m is None:
            return None
        owner = "".join(m.group(1).split())
        name = owner.partition("<")[0]
        primary: ci.Type | None = None
        for c in top_level(self.tu.cursor):
            # an explicit specialization for exactly these arguments, else the primary
            # template's member where it does not depend on the arguments
            special = c.kind in (K.STRUCT_DECL, K.CLASS_DECL) \
                and "".join(ty.spelling(c.type).split()) == owner
            if not special and not (c.kind == K.CLASS_TEMPLATE and c.spelling == name):
                continue
            for ch in c.get_children():
                if ch.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL) and ch.spelling == m.group(2):
                    t = ch.underlying_typedef_type if ch.kind == K.TYPEDEF_DECL \
                        else ty.canonical(ch.type)
                    if special:
                        return t
                    if type_size(t) > 0:
                        primary = t
        return primary

    # kernels

    def kernel_record(self, fn: Function) -> Kernel:
        c = fn.node.cursor
        loc = c.location
        span = Span(self.source_file(loc).path, loc.line, loc.column, loc.line,
                    loc.column + len(fn.name))
        max_threads = None
        for ch in fn.node.children:
            if ch.kind == N.UNEXPOSED_ATTR:
                text = self.slice(ch.extent)
                m = re.match(r"\s*(?:__launch_bounds__|launch_bounds)\s*\((.*)\)\s*$", text, re.S)
                if m:
                    args = split_top_level(m.group(1))
                    if args:
                        max_threads = self.eval_text(args[0])
                        if max_threads is None:
                            max_threads = self.constant_call(args[0])
        annotated = None
        start = c.extent.start
        above = self.line_text(start, start.line - 1)
        if above is not None:
            m2 = BLOCK_DIM_ANNOTATION.search(above)
            if m2:
                # Each extent is a C constant expression: 256, 32 * 8, TILE (a macro).
                dims = [self.eval_text(a) for a in split_top_level(m2.group(1))]
                if 1 <= len(dims) <= 3 and all(d is not None and d > 0 for d in dims):
                    x, y, z = [d or 1 for d in dims] + [1] * (3 - len(dims))
                    annotated = (x, y, z)
        return Kernel(
            name=fn.name, span=span, max_threads=max_threads, annotated_block=annotated,
            template_params=tuple(p.name for p in fn.template_params),
        )


class _Scanner:
    """Pass 1 over one function body: variables, writes, shared declarations, launches."""

    def __init__(self, walker: Walker, fn: Function) -> None:
        self.w = walker
        self.fn = fn

    def mark_write(self, target: Node, rhs: Node | None, loop: int,
                   address: bool = False, asm: bool = False) -> None:
        t = strip(target)
        if t.kind == N.CONDITIONAL and len(t.children) == 3:
            # ``(c ? x : y) = v`` writes one of the two
            for arm in t.children[1:]:
                self.mark_write(arm, rhs, loop, address, asm)
            return
        while t.kind in (N.MEMBER_REF, N.ARRAY_SUBSCRIPT):
            children = t.children
            if not children:
                return
            base = strip(children[0])
            if ty.is_pointer_kind(base.ckind):
                return  # a write through a pointer leaves the pointer as it is
            t = base
        if t.kind != N.DECL_REF:
            return
        ref = t.referenced
        if ref is None:
            return
        var = self.fn.vars.get(key_of(ref))
        if var is None:
            return
        if address:
            var.address_taken = True
        elif asm:
            var.asm_written = True
        else:
            var.assigned = True
        if rhs is not None:
            var.writes.append(rhs)

    def visit(self, c: Node, loop: int) -> None:
        kind = c.kind
        children = c.children
        if (kind == N.BINARY and len(children) == 2 and c.spelling == "=") or (
                kind == N.COMPOUND_ASSIGN and len(children) == 2):
            self.mark_write(children[0], children[1], loop)
        elif kind == N.UNARY and len(children) == 1:
            uo = unary_operator_kind(c.cursor)
            if uo in (UO_POST_INC, UO_POST_DEC, UO_PRE_INC, UO_PRE_DEC):
                self.mark_write(children[0], None, loop)
            elif uo == UO_ADDR_OF:
                self.mark_write(children[0], None, loop, address=True)
        elif kind == N.CALL:
            name = call_name(c)
            oper = operator_function(name)
            if oper is not None and children:
                if oper.op == "=":
                    self.mark_write(children[0], children[-1], loop)
                elif oper.writes:
                    self.mark_write(children[0], children[-1] if len(children) > 2 else None,
                                    loop)
            elif any(ch.kind == N.CALL and ch.spelling in CONFIG_FUNCTIONS
                     for ch in children) or api_launch(c) is not None:
                self.fn.launches.append(c)
            else:
                ref = c.referenced
                if ref is not None and ref.kind == K.CXX_METHOD and children \
                        and children[0].kind == N.MEMBER_REF and children[0].children \
                        and not ref.is_const_method() and not ref.is_static_method():
                    # ``params.advance()``: a method that may change its object
                    self.mark_write(children[0].children[0], None, loop)
                if ref is not None:
                    # A reference parameter lets the callee change a local.
                    by_ref = self.w.reference_parameters(ref)
                    if by_ref:
                        for i, a in enumerate(arguments(c)):
                            if i in by_ref:
                                self.mark_write(a, None, loop, address=True)
        elif kind == N.VAR_DECL:
            self.var_decl(c, children, loop)
            return
        elif kind == N.ASM:
            for out in asm_outputs(c):
                self.mark_write(out, None, loop, asm=True)
        elif kind in LOOPS:
            for ch in children:
                if kind == N.FOR and ch.kind == N.DECL_STMT:
                    for d in ch.children:
                        if d.kind == N.VAR_DECL:
                            self.var_decl(d, d.children, loop + 1, loop_var=True)
                    continue
                self.visit(ch, loop + 1)
            return
        for ch in children:
            self.visit(ch, loop)

    def var_decl(self, c: Node, children: list[Node], loop: int,
                 loop_var: bool = False) -> None:
        if any(ch.kind == N.CUDASHARED for ch in children):
            a = self.w._array_decl(c, self.fn.name)
            if a is not None:
                self.fn.arrays[key_of(c.cursor)] = a
            return
        init = None
        if not ty.is_array_kind(c.ckind):
            exprs = [ch for ch in children if ch.is_expr]
            init = exprs[-1] if exprs else None
        var = Var(c.spelling, init, loop_var=loop_var)
        self.fn.vars[key_of(c.cursor)] = var
        if init is not None and ty.is_reference_kind(c.ckind) and (
                node_int_type(init) is not None or ty.is_pointer_kind(strip(init).ckind)):
            # ``unsigned &r = i;``: r and i are one variable; a write to either changes
            # both, which the values kept per name do not follow
            var.address_taken = True
            self.mark_write(init, None, loop, address=True)
        for ch in children:
            self.visit(ch, loop)


#: Build and scan a host function only when the walk needs it (``Walker.lazy``): most
#: of a unit's host code (``helper_*.h``, ``main``'s argument parsing) launches nothing
#: and calls nothing that does. False: every function built and scanned first.
LAZY_HOSTS = True

#: A walk's kernel and device-function executors share the host evaluation's stores
#: of what is worked out per body (``Executor.body_facts``: the locals a lambda writes,
#: loops' spans, ``asm`` and ``const_cast`` lists; ``lane_event_lists``), instead of each
#: walking the body again: ``lambda_written`` walked a helper's whole body once per run
#: that inlined it (595 walks in a ggml ``mmq`` instance). False: each its own.
SHARE_BODY_FACTS = True

#: A device function no kernel here calls is not run on its own where nothing it does
#: can reach shared memory or a barrier (``inert.shared_inert``: no ``__shared__``
#: array, scalars only, no ``asm``, and only such calls), as a call of it is skipped:
#: ggml's ``mmq-config-*.cuh`` tables, a few hundred ``if (type == X && J == 16 ...)
#: return config(...);`` run with unknown arguments (0.1 s each, seven per ``mmq``
#: file), found nothing. False: run.
SKIP_INERT_STANDALONE = True

#: Each run keeps the values of the helpers it evaluates (``Executor._returned_kept``:
#: ``get_config(DKQ, DV, ncols).nbatch_fa`` in an unrolled kernel). False: none kept.
KEEP_RETURNED = True


def walk_translation_unit(
    tu: ci.TranslationUnit, path: str, source: bytes, notes: list[Note],
    defines: tuple[str, ...] = (), arch: str = DEFAULT_ARCH, reuse: WalkReuse | None = None,
    lazy: bool = False,
) -> TranslationUnit:
    """The IR of a parsed translation unit (``path`` names its main file in spans).

    ``lazy`` (without ``reuse``): host functions built only as the walk needs them
    (``Walker.lazy``, ``LAZY_HOSTS``), where every header that can define a macro the
    code expands is in the text the walk reads: the caller's to tell.

    ``reuse``: the results of the previous walk of the same document (a language-server
    worker's kept unit, reparsed), reused where their inputs did not change and replaced
    by this walk's; the IR is the same as without it.

    Without ``reuse``, Python's cyclic garbage collector is paused meanwhile
    (``_collector_paused``; the language server's walks keep it on: a walk abandoned in
    libclang would leave it off in a process that lives on)."""
    if reuse is not None:
        return _walk(tu, path, source, notes, defines, arch, reuse, lazy)
    with _collector_paused():
        return _walk(tu, path, source, notes, defines, arch, reuse, lazy)


def _collector_paused() -> contextlib.AbstractContextManager[None]:
    """Python's automatic cyclic collections off, and back on after (where they were
    on; ``checker.check_source`` holds them off through the model and the rules too:
    ``budget.collector_held``). A walk makes hundreds of thousands of objects that live
    as long as it does (the cursor trees: 210k nodes for one ggml ``mmq`` instance), and
    each automatic collection of the older generations visits them all again: one ggml
    file's trees took 0.9 s to build with the collector on and 0.24 s with it off; the
    walks of ggml's three ``mmq-instance-q4*`` files 7.4-7.8 s against 4.6 s. The walk's
    own reference cycles wait for the next collection (``budget.release_memory``'s after
    each file, or Python's own)."""
    return collector_paused()


def _release(walker: Walker) -> None:
    """Drop what a finished walk (one that keeps nothing for the next: no ``reuse``)
    holds. The walker, its host-launch evaluator, executors and lazy bodies refer to one
    another, so that its cursor trees and the unit's cursors (about a million objects for
    a ggml ``mmq`` file) went only with a cyclic collection, which visits each of them:
    1.7 s for ``mmq.cu``'s, paid by whichever later file started it in one process, and
    after every file in a forked worker (``budget.release_memory``). With the walker's
    own references gone, reference counting frees them as the walk's caller lets go
    (0.15 s). Only the IR it returned is used after the walk."""
    walker.__dict__.clear()


def _walk(
    tu: ci.TranslationUnit, path: str, source: bytes, notes: list[Note],
    defines: tuple[str, ...], arch: str, reuse: WalkReuse | None, lazy: bool,
) -> TranslationUnit:
    if reuse is None:
        if not (lazy and LAZY_HOSTS):
            walker = Walker(tu, path, source, notes, defines, arch)
            unit = walker.run()
            _release(walker)
            return unit
        diagnostics = list(notes)
        walker = Walker(tu, path, source, notes, defines, arch, lazy=True)
        unit = walker.run()
        if walker.redo:  # a host function scanned on first use failed: every one scanned
            notes[:] = diagnostics
            again = Walker(tu, path, source, notes, defines, arch)
            unit = again.run()
            _release(again)
        _release(walker)
        return unit
    diagnostics = list(notes)
    walker = Walker(tu, path, source, notes, defines, arch, reuse)
    unit = walker.run()
    if walker.redo:  # a function scanned on first use failed: from scratch, as without reuse
        reuse.clear()
        notes[:] = diagnostics
        unit = Walker(tu, path, source, notes, defines, arch).run()
    return unit
