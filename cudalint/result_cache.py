"""A cache of whole per-file results between runs (``--cache-dir DIR``, issue 15).

The parse cache (:mod:`cudalint.frontend.cache`) skips libclang on an unchanged file;
this one skips everything: the frontend, the model, the rules and the fix planning, and
the imports they need. The pre-commit hook re-runs on unchanged files (``pre-commit run
--all-files``, a second ``git commit`` after another hook failed, CI with a restored
cache); a hit costs a hash of the file and of the headers it read, and one read.

An entry is a file's :class:`~cudalint.checker.FileReport` before the run's cross-file
steps (the unit, every access result, every diagnostic with its fix, the suppressions),
pickled. JSON decoded into these ~20k objects per file cost more than the analysis of a
small file; a pickle reads in milliseconds. It is read by an unpickler that finds no
global but the dataclasses and enumerations of :mod:`cudalint.ir`,
:mod:`cudalint.model.results`, :mod:`cudalint.diagnostics` and
:mod:`cudalint.suppressions` (the standard library's "restricting globals"): an entry
planted in a repository's cache directory can build only those plain values, and runs no
code. An entry is read back once before it is written, so one that would be refused is
never written. The report read back equals the one the analysis gives, field for field
(those left out of comparisons too), so every output format prints the same bytes.

An entry is used only when all of these are as they were:

- the task: the path as given and its absolute path, the working directory, the
  file's bytes, every field of its options (arch, bank mode, block shape, ``-I``,
  ``-D``, ``-std``, extra flags, ``--cuda-path``, the CPU budget) and of its rule
  selection, and any other field a :class:`~cudalint.checker.FileTask` has;
- cudalint: its version, the size and modification time of every file of the installed
  package, and of libclang's bindings and library; the Python version; and the
  environment variables clang reads (``CPATH``, ``C_INCLUDE_PATH``,
  ``CPLUS_INCLUDE_PATH``, ``LIBCLANG_*``);
- the bytes of every header the parse read, and the modification times of the
  directories a new header could appear in (the parse cache's rules:
  :func:`cudalint.frontend.cache.dependencies`).

Only complete results are kept: a file with an error (unreadable, not parsed, out of
CPU time, a crashed worker) or read from stdin is analysed every time, and so is one
whose bytes or headers changed while it was analysed, and one whose flags name headers
outside the project (``--cuda-path``, ``-isystem`` and the other flags the parse cache
does not cache: :func:`cudalint.frontend.cache.cacheable`). The entries live in
``DIR/results/<key>.pickle`` beside the parse cache's ``DIR/ir``, written atomically; a
cache that cannot be read or written is no cache. Remove ``DIR`` to clear it.

The API is two calls around the analysis of a task: :func:`get` gives the cached report
or a :class:`Pending` miss, :func:`put` stores the report the analysis gave for it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import importlib
import io
import json
import os
import pickle
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cudalint.fingerprint import RESULT_SCHEMA

if TYPE_CHECKING:
    from cudalint.checker import FileReport, FileTask
    from cudalint.options import Options

#: The layout of an entry; a new one makes every old entry a miss (kept in the front
#: door, which needs it without importing this module).
SCHEMA = RESULT_SCHEMA
#: The modules whose classes an entry may name.
_MODULES = ("cudalint.ir", "cudalint.model.results", "cudalint.diagnostics",
            "cudalint.suppressions")
#: Environment variables that change what clang reads.
_ENV_PREFIXES = ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "LIBCLANG")

#: While the front door records a run (:mod:`cudalint.frontdoor`): for each task path,
#: ``[entry name, source digest, headers, dirs]`` of the entry this run read (a hit) or
#: wrote (a miss stored); None otherwise.
journal: dict[str, list[Any]] | None = None


@dataclass(frozen=True)
class Pending:
    """A miss: where the report of this task is stored once it is known."""

    root: str
    name: str
    #: The bytes the key was made of (the report must have been made from them).
    source: bytes = dataclasses.field(repr=False)
    #: ``time.time_ns()`` before the analysis started.
    started_ns: int
    #: The task's options (its include directories say where a header could appear).
    options: Options


def fingerprint() -> str:
    """cudalint's version and files, libclang's bindings and library, Python's version
    and clang's environment, hashed (without importing libclang):
    :func:`cudalint.fingerprint.package_fingerprint`, which the front door's run
    entries share."""
    from cudalint.fingerprint import package_fingerprint

    return package_fingerprint(SCHEMA)


def _canonical(value: object) -> Any:
    """``value`` as JSON that does not depend on the process (sets sorted)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, bytes):
        return {"b": hashlib.sha256(value).hexdigest()}
    if isinstance(value, (tuple, list)):
        return [_canonical(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return {"s": sorted(json.dumps(_canonical(v), sort_keys=True) for v in value)}
    if isinstance(value, dict):
        return {"d": sorted([json.dumps(_canonical(k), sort_keys=True), _canonical(v)]
                            for k, v in value.items())}
    if isinstance(value, enum.Enum):
        return {"e": f"{type(value).__module__}.{type(value).__qualname__}",
                "v": _canonical(value.value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"c": f"{type(value).__module__}.{type(value).__qualname__}",
                "v": {f.name: _canonical(getattr(value, f.name))
                      for f in dataclasses.fields(value)}}
    raise TypeError(f"cannot key a {type(value).__name__}")


def key(task: FileTask, source: bytes) -> str:
    """The entry's name: everything the report depends on but the headers it reads."""
    fields = {f.name: getattr(task, f.name) for f in dataclasses.fields(task)
              if f.name not in ("contents", "error")}
    doc = [fingerprint(), os.getcwd(), os.path.abspath(task.path),
           hashlib.sha256(source).hexdigest(), _canonical(fields)]
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode("utf-8", "surrogateescape")
                          ).hexdigest()


def directory() -> str | None:
    """The cache directory of this run (``--cache-dir``, ``$CUDALINT_CACHE_DIR``), or None."""
    from cudalint.frontend.cache import directory as cache_directory

    return cache_directory()


def _prepare(root: str) -> None:
    """Create ``root`` as the parse cache does (with its ``.gitignore`` and
    ``CACHEDIR.TAG``) and ``root/results``; silently nothing when it cannot."""
    from cudalint.frontend.cache import prepare

    prepare(root)
    with contextlib.suppress(OSError):
        os.makedirs(os.path.join(root, "results"), exist_ok=True)


def _entry_path(root: str, name: str) -> str:
    return os.path.join(root, "results", name + ".pickle")


# --- entries: a pickle that may name only the classes of _MODULES ---------------------


class _Unpickler(pickle.Unpickler):
    """Reads an entry, finding no global but the dataclasses and enumerations of
    :data:`_MODULES` (the standard library's "restricting globals"): reading one
    constructs those plain values and runs no other code."""

    def find_class(self, module: str, name: str) -> Any:
        if module in _MODULES:
            found = getattr(sys.modules.get(module) or importlib.import_module(module),
                            name, None)
            if (isinstance(found, type) and found.__module__ == module
                    and (dataclasses.is_dataclass(found) or issubclass(found, enum.Enum))):
                return found
        raise pickle.UnpicklingError(f"an entry may not name {module}.{name}")


def get(task: FileTask, root: str | None = None) -> tuple[FileReport | None, Pending | None]:
    """``(report, None)`` on a hit; ``(None, pending)`` on a miss that :func:`put` can
    store once the task is analysed; ``(None, None)`` when the task is not cached (no
    cache directory, stdin, an error known before, an unreadable file). Never raises."""
    root = directory() if root is None else root
    if root is None or task.contents is not None or task.error is not None:
        return None, None
    from cudalint.frontend.cache import cacheable

    if not cacheable(task.options):
        # --cuda-path, -isystem and the like: headers outside the project, whose changes
        # the entry would not see (the parse cache's rule)
        return None, None
    try:
        from cudalint.budget import read_regular

        started = time.time_ns()
        source = read_regular(task.path)
        name = key(task, source)
    except Exception:  # unreadable, a directory, no working directory: not cached
        return None, None
    pending = Pending(root, name, source, started, task.options)
    try:
        with open(_entry_path(root, name), "rb") as f:
            doc = _Unpickler(f).load()
    except Exception:  # no entry, unreadable, malformed: a miss
        return None, pending
    try:
        from cudalint.frontend.cache import unchanged

        if doc.get("schema") != SCHEMA or not unchanged(doc["headers"], doc["dirs"]):
            return None, pending
        from cudalint.checker import FileReport

        report = FileReport(**doc["report"], source=source)
    except Exception:  # too deep, from another layout: a miss, never a failure
        return None, pending
    if journal is not None:
        journal[task.path] = [name, hashlib.sha256(source).hexdigest(), doc["headers"],
                              doc["dirs"]]
    return report, None


def put(pending: Pending, report: FileReport) -> None:
    """Store ``report``, the analysis of the task ``pending`` was made for; nothing when
    it is not a complete result of the bytes the key was made of, when a header it read
    changed since the analysis started, or when the entry cannot be written."""
    if report.error is not None or report.unit is None or report.source != pending.source:
        return
    try:
        from cudalint.frontend.cache import dependencies
        from cudalint.fsutil import WriteError, write_file

        deps = dependencies(report.unit, report.path, pending.options, pending.started_ns)
        if deps is None:
            return
        fields = {f.name: getattr(report, f.name)
                  for f in dataclasses.fields(report) if f.name != "source"}
        doc = {"schema": SCHEMA, "headers": deps[0], "dirs": deps[1], "report": fields}
        data = pickle.dumps(doc, pickle.HIGHEST_PROTOCOL)
        _Unpickler(io.BytesIO(data)).load()  # no entry that reading would refuse
        _prepare(pending.root)
        try:
            write_file(_entry_path(pending.root, pending.name), data)
        except (OSError, WriteError):
            return
        if journal is not None:
            journal[report.path] = [pending.name, hashlib.sha256(pending.source).hexdigest(),
                                    deps[0], deps[1]]
    except Exception:  # a report too deep to write, a cache that fails: no cache
        return



def lookup(tasks: Sequence[FileTask], todo: Sequence[int],
           reports: list[FileReport | None]) -> dict[int, Pending]:
    """For ``run_tasks``: put the cached report of each ``tasks[i]`` (``i`` in ``todo``)
    into ``reports[i]``; the misses to :func:`store` once they are analysed."""
    root = directory()
    if root is None:
        return {}
    # Made before any analysis starts: made later, the cache directory (say
    # ``.cudalint_cache`` beside the files) would change the modification time of a
    # directory the entries record, and the first run would store nothing.
    _prepare(root)
    misses: dict[int, Pending] = {}
    for i in todo:
        report, pending = get(tasks[i], root)
        if report is not None:
            reports[i] = report
        elif pending is not None:
            misses[i] = pending
    return misses


def store(misses: Mapping[int, Pending], reports: Sequence[FileReport | None]) -> None:
    """For ``run_tasks``: :func:`put` the report of every miss :func:`lookup` gave."""
    for i, pending in misses.items():
        report = reports[i]
        if report is not None:
            put(pending, report)
