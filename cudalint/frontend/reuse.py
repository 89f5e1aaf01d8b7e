"""The walker's results kept between versions of one document (issue 15, the editor).

The language server's worker reparses a document's translation unit on every edit
(``cudalint.frontend.parse.ParsedDocument``) and walks it again. Most edits change one
function body; :class:`WalkReuse` keeps, from the last walk of the document,

- the host-launch evaluation (``HostLaunches.run``: launches, the constants they pass,
  kernels' template instantiations), before any kernel relabels them; and
- each function's run through the executor: its accesses (and those of the runs with
  parameters bound by launches), the shared arrays and notes it added, the functions it
  inlined.

Both are keyed by the walk's **context**: a digest of everything the walk reads except
the bodies of kernels that launch nothing (``Walker._plan_reuse``): the main file with
those bodies reduced to their line structure (newlines, the column after the body) and
the preprocessor definitions and explicit instantiations in them (which the walker scans
as text), the project headers' text, the functions found and their places, clang's
diagnostics outside those bodies, the ``-D`` defines and the target. Host code, device
functions, constants, types and macros are all inside the context: when any of them
changes, nothing is reused. A kernel's run is reused when the context is the same, its
own body text is the same, its template instantiations are the same, and the notes the
walk added before it are the same (the executor drops a note it finds already there). A
host evaluation never reads the body of a kernel that launches nothing (a kernel that
does launch stays in the context). The stored results are plain IR (frozen dataclasses,
no libclang cursor: the unit they came from is gone after a reparse); functions are
named across versions by their name and where they start. A walk that reuses builds a
function's body and scans it only when something asks for it (``walker._LazyFunction``),
so unchanged kernels and, with the host evaluation reused, host code are not built at
all; a scan that fails then makes the walk start again without reuse.

Everything here is an optimisation: the IR is the same as a walk from scratch (the
language-server benchmark's ``--check`` and ``tests/test_incremental_walk.py`` compare).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from cudalint.frontend.cursors import Env
from cudalint.ir import Access, Launch, Note, SharedArray

__all__ = ["FunctionRun", "HostSnapshot", "StableId", "WalkReuse"]

#: A function across versions of a document: its name, and the file, line and column
#: where its declaration starts.
StableId = tuple[str, str, int, int]


def env_signature(env: Env) -> tuple[object, ...]:
    """Everything an ``Env`` holds, comparable."""
    return (env.label, tuple(sorted(env.values.items())), tuple(sorted(env.types.items())),
            tuple(sorted(env.params.items())), tuple(sorted(env.functions.items())))


@dataclass(frozen=True)
class HostSnapshot:
    """``HostLaunches`` right after ``run`` (before ``bind_parameters`` relabels)."""

    launches: tuple[Launch, ...]
    launch_params: tuple[tuple[tuple[str, int | str], ...], ...]
    instantiations: dict[str, dict[str, Env]]
    #: The shared arrays (``Walker.add_array``) and notes its executor added, in order.
    arrays: tuple[SharedArray, ...] = ()
    notes: tuple[Note, ...] = ()

    def instantiations_copy(self) -> dict[str, dict[str, Env]]:
        return copy.deepcopy(self.instantiations)


@dataclass(frozen=True)
class FunctionRun:
    """What running one function through the executor added to the walk."""

    #: The function's body when it is not part of the context (a kernel), else b"".
    body: bytes
    #: The notes the walk had added before this run (not clang's diagnostics).
    notes_before: tuple[Note, ...]
    #: The template environments it ran in (``env_signature``), in order.
    envs: tuple[tuple[object, ...], ...]
    #: Per environment of a kernel: the accesses handed to ``bind_parameters``.
    binds: tuple[tuple[Access, ...], ...]
    accesses: tuple[Access, ...]
    arrays: tuple[SharedArray, ...]
    notes: tuple[Note, ...]
    inlined: frozenset[StableId]


class WalkReuse:
    """One document's reusable walk results (see the module docstring)."""

    def __init__(self) -> None:
        self.context: str | None = None
        self.host: HostSnapshot | None = None
        self.runs: dict[StableId, FunctionRun] = {}
        #: Counters for tests and benchmarks: functions run again and reused, host
        #: evaluations done and reused.
        self.runs_done = 0
        self.runs_reused = 0
        self.host_done = 0
        self.host_reused = 0

    def begin(self, context: str) -> bool:
        """A walk with this context starts: results of another context are dropped.
        Whether there are results of this context."""
        if context != self.context:
            self.context = context
            self.host = None
            self.runs = {}
            return False
        return True

    def run_of(self, sid: StableId, body: bytes, notes_before: tuple[Note, ...]
               ) -> FunctionRun | None:
        hit = self.runs.get(sid)
        if hit is None or hit.body != body or hit.notes_before != notes_before:
            return None
        return hit

    def clear(self) -> None:
        self.context, self.host, self.runs = None, None, {}
