"""The walker's results kept between versions of one document (issue 15, the editor).

The language server's worker reparses a document's translation unit on every edit
(``cudalint.frontend.parse.ParsedDocument``) and walks it again. :class:`WalkReuse` keeps,
from the last walk of the document,

- each function's host-launch evaluation (``HostLaunches.launches_of``: its launches, the
  constants they pass, the kernels' template instantiations it found), before any kernel
  relabels them (:class:`HostRun`); and
- each kernel's and device function's run through the executor: its accesses (and those
  of the runs with parameters bound by launches), the shared arrays and notes it added,
  the functions it inlined (:class:`FunctionRun`).

**Positions.** Kept results name lines: spans, and symbols such as ``k@L12:i`` (a loop's
iteration count, named by the line the loop starts on). Before a walk, :meth:`WalkReuse.
follow` moves them to where their lines now are (``line_map``: the lines before the first
changed line stay, those after the last changed line move by the difference; a result
naming a changed line is dropped). A symbol's line may be a header's (a loop in a helper
the run inlined): a name inside the lines of an inlined function of another file is moved
only where it keeps its number (``FunctionRun.foreign``). Functions are named across
versions by their name and where they start, moved the same way.

**Context.** What a walk reads but for the bodies it leaves out is digested into its
*context* (``Walker._plan``): the main file without its line numbers and blank lines
(``_squeeze``) and without the bodies of the kernels that launch nothing and of the host
functions only the host evaluation reads (``_plain_host``: no ``__device__``,
``__global__``, ``__host__``, ``constexpr``; not named by device code), whose ``#define``
lines and explicit instantiations stay in; the project headers' text; the functions
found; clang's diagnostics outside those bodies (without their lines); ``-D`` and target.
A kernel's run is reused when the context is the same, its own body is, its template
instantiations are, the launches bind its parameters as before
(``Walker._binds_as_before``), and the notes the walk added before it are the same (the
executor drops a note it finds already there). A run that read a host function's body (it
inlined one, or a lambda's call operator) keeps the context with those bodies (``wide``).
A ``#define`` of the main file whose name appears nowhere else outside those bodies
(``Walker._local_macros``) is in the context without its value: each run's key holds the
values of such macros its text names (``FunctionRun.macros``), as do the host
evaluation's keys; the document's parse from scratch that a changed directive causes
keeps the walker's results (``ParsedDocument``, same clang arguments).

**Host evaluation.** A function's launches are reused when the context and the bodies of
the main file's host functions that call it (directly or not) and that those call are the
same (``walker._Words.key``; names found in the text, macros expanded), or else when its
contexts (``HostLaunches.contexts``: the values its callers pass) and the bodies it calls
are (``walker._Words.inner``). The contexts themselves are kept too
(``WalkReuse.contexts``), by a digest of what they are computed from
(``walker._Words.contexts_key``): for each host function whose text names the function,
its own contexts and the bodies its flows may read for a value (its own and those of the
functions it calls that return one, not of those it only calls for their effects, such
as the function's siblings); so a statement added to ``main`` computes again only the
contexts of the functions ``main`` calls, and a constant changed in one launch wrapper
none, and kept contexts are installed for the evaluations that run
(``Walker._seed_contexts``). The contexts compare with the kernels a function-pointer
parameter holds, ``dim3`` members of struct parameters and whether they are limited
(``Walker._contexts_signature``). Only the callers (by text) of the functions whose
contexts are computed have their calls followed (``HostLaunches.find_calls``), in the
functions' order as from scratch. A walk whose evaluation added notes or arrays keeps
none (their repeats are dropped, so each depends on the others). The values host calls
return (``HostLaunches.call_value``: helper_cuda's ``findCudaDevice``, run for its
value by every flow of ``main``) are kept too (``WalkReuse.calls``), by a digest of the
context, the function's name and declaration and the bodies of the main file's host
functions it may call for a value (``walker._CallKeeper``), and the arguments; each
with the stacks it holds for (``host.CallValue``: a call nested past the depth limit or
recursive has no value). A value whose run added a note is not kept.

The stored results are plain IR (frozen dataclasses, no libclang cursor: the unit they
came from is gone after a reparse). A walk that reuses builds a function's body and scans
it only when something asks for it (``walker._LazyFunction``); a scan that fails then
makes the walk start again without reuse.

Everything here is an optimisation: the IR is the same as a walk from scratch (the
language-server benchmark's ``--check``, ``bench/walk_reuse.py`` and
``tests/test_incremental_walk.py`` compare).
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass

from cudalint.frontend.cursors import Env
from cudalint.frontend.host import CallValue
from cudalint.ir import Access, Launch, Note, SharedArray, Span

__all__ = [
    "CALLS_KEPT", "CONTEXTS_KEPT", "HISTORY", "FunctionRun", "HostRun", "LineMap", "StableId",
    "WalkReuse", "line_map", "line_range",
]

#: A function across versions of a document: its name, and the file, line and column
#: where its declaration starts.
StableId = tuple[str, str, int, int]

#: Earlier versions' host evaluations and runs kept per function
#: (``WalkReuse.older_hosts``, ``WalkReuse.older_runs``), and host contexts kept in all
#: (``WalkReuse.contexts``).
HISTORY = 3
CONTEXTS_KEPT = 256
#: Host calls' values kept (``WalkReuse.calls``), keys.
CALLS_KEPT = 512


def env_signature(env: Env) -> tuple[object, ...]:
    """Everything an ``Env`` holds, comparable."""
    return (env.label, tuple(sorted(env.values.items())), tuple(sorted(env.types.items())),
            tuple(sorted(env.params.items())), tuple(sorted(env.functions.items())))


class LineMap:
    """Where the lines of a document's previous version are in the new one: lines before
    the first changed line stay, lines after the last changed one move by ``delta``, the
    changed lines have no place (``line`` gives None)."""

    __slots__ = ("delta", "first", "last")

    def __init__(self, first: int, last: int, delta: int) -> None:
        #: The previous version's changed lines, 1-based, inclusive (``last`` is
        #: ``first - 1`` where lines were only inserted).
        self.first, self.last, self.delta = first, last, delta

    @property
    def identity(self) -> bool:
        return self.delta == 0 and self.last < self.first

    def line(self, n: int) -> int | None:
        if n < self.first:
            return n
        if n > self.last:
            return n + self.delta
        return None


def line_map(old: bytes, new: bytes) -> LineMap:
    """The lines ``old`` and ``new`` share at their start and their end, as a map."""
    a, b = old.split(b"\n"), new.split(b"\n")
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return LineMap(p + 1, len(a) - s, len(b) - len(a))


#: A line number in a symbol's name (``k@L12:i``, ``v@L40``; execute.py names loop
#: counters and values a loop leaves behind by the line the loop starts on).
_AT_LINE = re.compile(r"@L(\d+)")


def line_range(x: object, path: str) -> tuple[int, int]:
    """The first and last line of ``path`` that a kept result names, in a span or in a
    symbol's name (another file's line counted too: never narrower than the truth)."""
    first, last = 1 << 30, 0
    seen: set[int] = set()
    stack = [x]
    while stack:
        y = stack.pop()
        if y is None or isinstance(y, (bool, int, float, bytes)):
            continue
        if isinstance(y, str):
            if "@L" in y:
                named = [int(n) for n in _AT_LINE.findall(y)]
                first, last = min([first, *named]), max([last, *named])
            continue
        if id(y) in seen:
            continue
        seen.add(id(y))
        if isinstance(y, Span):
            if y.file == path:
                first, last = min(first, y.line), max(last, y.end_line, y.line)
        elif isinstance(y, (tuple, frozenset)):
            stack.extend(y)
        elif dataclasses.is_dataclass(y) and not isinstance(y, type):
            stack.extend(getattr(y, f.name) for f in dataclasses.fields(y))
    return min(first, last), last


class _Moved(Exception):
    """A kept result names a line that the edit changed: it cannot be moved."""


class _Rebase:
    """A kept result as the new version's walk gives it: the spans in the main file
    (``path``) and the line numbers in symbol names moved by a ``LineMap``. Lines an
    edit changed raise ``_Moved``. A symbol's line may be another file's (a loop in a
    header's helper): ``moved_names`` says whether a name changed, ``foreign`` whether
    the result holds a span in another file (the caller decides)."""

    def __init__(self, lines: LineMap, path: str,
                 foreign: tuple[tuple[int, int], ...] | None = ()) -> None:
        self.lines, self.path = lines, path
        #: where a line in a name may be another file's (None: anywhere)
        self.foreign = foreign
        self._memo: dict[int, object] = {}

    def line(self, n: int) -> int:
        to = self.lines.line(n)
        if to is None:
            raise _Moved
        return to

    def text(self, s: str) -> str:
        base = os.path.basename(self.path)
        if base and f"{base}:" in s:
            # a place in the main file a note names (``the launch at f.cu:87``,
            # ``launch_sets.where_text``)
            def place(m: re.Match[str]) -> str:
                return f"{m.group(1)}:{self.line(int(m.group(2)))}"

            s = re.sub(r"(?<![\w.-])(" + re.escape(base) + r"):(\d+)", place, s)
        if "@L" not in s:
            return s

        def sub(m: re.Match[str]) -> str:
            n = int(m.group(1))
            to = self.line(n)
            if to != n and (self.foreign is None
                            or any(a <= n <= b for a, b in self.foreign)):
                raise _Moved  # maybe another file's line, which did not move
            return f"@L{to}"

        return _AT_LINE.sub(sub, s)

    def __call__(self, x: object) -> object:
        if x is None or isinstance(x, (bool, int, float, bytes)):
            return x
        if isinstance(x, str):
            return self.text(x)
        got = self._memo.get(id(x))
        if got is not None:
            return got
        out: object
        if isinstance(x, Span):
            if x.file != self.path:
                out = x
            else:
                line, end = self.line(x.line), self.line(x.end_line)
                out = x if (line, end) == (x.line, x.end_line) else dataclasses.replace(
                    x, line=line, end_line=end)
        elif isinstance(x, tuple):
            items = tuple(self(v) for v in x)
            out = x if all(a is b for a, b in zip(items, x, strict=True)) else items
        elif isinstance(x, frozenset):
            items2 = frozenset(self(v) for v in x)
            out = x if items2 == x else items2
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            changed = {}
            for f in dataclasses.fields(x):
                if not f.init:
                    continue
                v = getattr(x, f.name)
                w = self(v)
                if w is not v:
                    changed[f.name] = w
            out = dataclasses.replace(x, **changed) if changed else x
        else:
            out = x  # enums and the like: no position in them
        self._memo[id(x)] = out
        return out


#: The constants a launch passes to a kernel's parameters (``HostLaunches.launch_params``).
Params = tuple[tuple[str, int | str], ...]


@dataclass(frozen=True)
class HostRun:
    """One function's launches as the host evaluation found them
    (``HostLaunches.launches_of``) and the kernels' template instantiations it added."""

    #: The digest of what the evaluation reads (``Walker._host_key``): the context, and
    #: the bodies of the host functions that call the function, directly or not, and of
    #: those they call.
    key: str
    launches: tuple[tuple[Launch, Params], ...]
    #: (kernel, label, arguments) in the order the evaluation added them.
    instantiations: tuple[tuple[str, str, Env], ...]
    #: The digest of what the evaluation reads given the function's contexts
    #: (``Walker._contexts_signature``): used where a caller's body changed ("": none).
    inner: str = ""


@dataclass(frozen=True)
class FunctionRun:
    """What running one function through the executor added to the walk."""

    #: The context it ran in (``WalkReuse.context``, or ``WalkReuse.wide`` for a run
    #: that read a host function's body: it inlined one, or a function the cache
    #: cannot name, such as a lambda's call operator).
    context: str
    #: The function's body when it is not part of the context (a kernel), else b"".
    body: bytes
    #: The main file's macros left out of the context that its text names, with their
    #: values (``walker._ReusePlan.macros``).
    macros: tuple[tuple[str, bytes], ...]
    #: The notes the walk had added before this run (not clang's diagnostics).
    notes_before: tuple[Note, ...]
    #: The template environments it ran in (``env_signature``), in order.
    envs: tuple[tuple[object, ...], ...]
    #: Per environment of a kernel: the accesses handed to ``bind_parameters``.
    binds: tuple[tuple[Access, ...], ...]
    #: Per environment of a kernel: what ``bind_parameters`` answered (the environments,
    #: ``env_signature``, and whether the symbolic run was kept): the launches decide it.
    bound: tuple[tuple[tuple[tuple[object, ...], ...], bool], ...]
    accesses: tuple[Access, ...]
    arrays: tuple[SharedArray, ...]
    notes: tuple[Note, ...]
    inlined: frozenset[StableId]
    #: The lines of the functions of other files the run inlined: a line in a symbol's
    #: name (``k@L12:i``) inside them may be that file's, so it is moved only where it
    #: keeps its number. None: it inlined a function the cache cannot name (a member
    #: function, a lambda), and no name is moved.
    foreign: tuple[tuple[int, int], ...] | None = ()
    #: The first and last line of the main file it names (``line_range``): an edit
    #: below it moves nothing in it, nor one above it that adds or removes no line.
    first: int = 0
    last: int = 1 << 30


class WalkReuse:
    """One document's reusable walk results (see the module docstring)."""

    def __init__(self) -> None:
        #: The context of the last walk (``Walker._plan``), and that context with the
        #: bodies of the main file's host functions (``wide``).
        self.context: str | None = None
        self.wide: str | None = None
        self.hosts: dict[StableId, HostRun] = {}
        #: Host functions' contexts (``Walker._contexts_signature``) by the digest of
        #: what they are computed from (``walker._Words.contexts_key``: the callers'
        #: contexts and the bodies their flows may read): a statement added to ``main``
        #: or a constant changed in one launch wrapper computes again only the contexts
        #: it can change (issue 15).
        self.contexts: dict[str, tuple[object, ...] | None] = {}
        self.runs: dict[StableId, FunctionRun] = {}
        #: Earlier versions' host evaluations and runs of each function, newest first
        #: (at most ``HISTORY``): a value changed and changed back (an undo, a block size
        #: tried and reverted) finds the launches and the kernels' runs of the value it
        #: returns to. Checked and moved as the latest are.
        self.older_hosts: dict[StableId, tuple[HostRun, ...]] = {}
        self.older_runs: dict[StableId, tuple[FunctionRun, ...]] = {}
        #: The names each function's text uses, by the text, and each project text's
        #: macros (``walker._Words``).
        self.words: dict[bytes, frozenset[str]] = {}
        self.macros: dict[str, list[tuple[str, frozenset[str], bool]]] = {}
        #: The main file's text and its path as shown, of the walk the results are of.
        self.source: bytes | None = None
        self.path: str | None = None
        #: Counters for tests and benchmarks: functions run again and reused, host
        #: evaluations done and reused.
        self.runs_done = 0
        self.runs_reused = 0
        self.host_done = 0
        self.host_reused = 0
        #: host functions whose contexts were kept (``contexts``)
        self.contexts_reused = 0
        #: Host calls' values (``HostLaunches.call_value``) by a digest of what the
        #: function may read and the arguments (``walker._CallKeeper``), any version's
        #: in this context: a statement added to ``main`` runs again none of the helpers
        #: whose value it asks for (issue 15). At most ``CALLS_KEPT`` keys.
        self.calls: dict[tuple[str, tuple[tuple[int, int], ...]], list[CallValue]] = {}
        #: host calls run for their value, and answered from ``calls``
        self.calls_done = 0
        self.calls_reused = 0

    def begin(self, context: str, wide: str) -> bool:
        """A walk with this context starts: runs of another context are dropped.
        Whether the context is the last walk's."""
        same = context == self.context
        self.context, self.wide = context, wide
        if not same:
            self.hosts, self.contexts, self.older_hosts, self.calls = {}, {}, {}, {}
        self.runs = {sid: run for sid, run in self.runs.items()
                     if run.context in (context, wide)}
        older = {sid: tuple(r for r in runs if r.context in (context, wide))
                 for sid, runs in self.older_runs.items()}
        self.older_runs = {sid: runs for sid, runs in older.items() if runs}
        return same

    def runs_of(self, sid: StableId, body: bytes, notes_before: tuple[Note, ...],
                macros: tuple[tuple[str, bytes], ...] = ()) -> list[FunctionRun]:
        """The kept runs of ``sid`` (the latest first, then ``older_runs``) of this
        body, with these notes before them and these macros' values, in this walk's
        context (or its ``wide`` one)."""
        return [run for run in (self.runs.get(sid), *self.older_runs.get(sid, ()))
                if run is not None and run.body == body and run.notes_before == notes_before
                and run.macros == macros and run.context in (self.context, self.wide)]

    def keep_run(self, sid: StableId, run: FunctionRun) -> None:
        """``run`` is now the latest run of ``sid``; the one it replaces is kept in
        ``older_runs``."""
        was = self.runs.get(sid)
        self.runs[sid] = run
        if was is not None and was is not run:
            older = (was, *(r for r in self.older_runs.get(sid, ()) if r is not run))
            self.older_runs[sid] = older[:HISTORY]

    def keep_hosts(self, hosts: dict[StableId, HostRun]) -> None:
        """``hosts`` are the latest host evaluations; those they replace are kept in
        ``older_hosts``."""
        older: dict[StableId, tuple[HostRun, ...]] = {}
        for sid, host in hosts.items():
            was = self.hosts.get(sid)
            kept = tuple(h for h in (was, *self.older_hosts.get(sid, ()))
                         if h is not None and h is not host)
            if kept:
                older[sid] = kept[:HISTORY]
        self.hosts, self.older_hosts = hosts, older

    def follow(self, source: bytes, path: str) -> None:
        """The document's text is now ``source``: the kept results are moved to where
        the lines they name now are (``line_map``; the context leaves line numbers
        out). A result naming a line the edit changed is dropped."""
        old, self.source = self.source, source
        if old is None or self.path != path:
            self.path = path
            self.clear()
            self.source, self.path = source, path
            return
        lines = line_map(old, source)
        if lines.identity:
            return
        runs: dict[StableId, FunctionRun] = {}
        for sid, run in self.runs.items():
            got = _move_run(sid, run, lines, path)
            if got is not None:
                runs[got[0]] = got[1]
        self.runs = runs
        older_runs: dict[StableId, tuple[FunctionRun, ...]] = {}
        for sid, kept in self.older_runs.items():
            moved_runs = [got for got in (_move_run(sid, run, lines, path) for run in kept)
                          if got is not None]
            if moved_runs:
                older_runs[moved_runs[0][0]] = tuple(r for _, r in moved_runs)
        self.older_runs = older_runs
        hosts: dict[StableId, HostRun] = {}
        for sid, host in self.hosts.items():
            got_host = _move_host(sid, host, lines, path)
            if got_host is not None:
                hosts[got_host[0]] = got_host[1]
        self.hosts = hosts
        older_hosts: dict[StableId, tuple[HostRun, ...]] = {}
        for sid, kept_hosts in self.older_hosts.items():
            moved_hosts = [got for got in (_move_host(sid, h, lines, path) for h in kept_hosts)
                           if got is not None]
            if moved_hosts:
                older_hosts[moved_hosts[0][0]] = tuple(h for _, h in moved_hosts)
        self.older_hosts = older_hosts

    def clear(self) -> None:
        self.context = self.wide = None
        self.hosts, self.runs, self.words, self.macros = {}, {}, {}, {}
        self.contexts, self.older_hosts, self.older_runs, self.calls = {}, {}, {}, {}
        self.source = self.path = None


def _move_run(sid: StableId, run: FunctionRun, lines: LineMap, path: str
              ) -> tuple[StableId, FunctionRun] | None:
    """``run`` of function ``sid`` moved to the new version's lines (``WalkReuse.
    follow``), or None where it names a changed line."""
    name, file, line, column = sid
    to = lines.line(line) if file == path else line
    if to is None:
        return None
    if (run.last < lines.first or (lines.delta == 0 and run.first > lines.last)) \
            and all(f != path or lines.line(ln) == ln for _, f, ln, _ in run.inlined):
        return (name, file, to, column), run  # nothing in it moves
    r = _Rebase(lines, path, run.foreign)
    try:
        moved = r(run)
        inlined = frozenset((n, f, r.line(ln) if f == path else ln, c)
                            for n, f, ln, c in run.inlined)
    except _Moved:
        return None
    assert isinstance(moved, FunctionRun)
    # (never inside the lines it names: those after the edit moved by delta)
    last = run.last + max(0, lines.delta) if run.last >= lines.first else run.last
    first = run.first + min(0, lines.delta) if run.first > lines.last else run.first
    return (name, file, to, column), dataclasses.replace(
        moved, inlined=inlined, first=max(0, first), last=last)


def _move_host(sid: StableId, host: HostRun, lines: LineMap, path: str
               ) -> tuple[StableId, HostRun] | None:
    """``host`` of function ``sid`` moved to the new version's lines, or None."""
    name, file, line, column = sid
    to = lines.line(line) if file == path else line
    # a host evaluation can run helpers of any file: no symbol is moved
    r = _Rebase(lines, path, None)
    try:
        moved_host = r(host)
    except _Moved:
        return None
    if to is None or not isinstance(moved_host, HostRun):
        return None
    return (name, file, to, column), moved_host
