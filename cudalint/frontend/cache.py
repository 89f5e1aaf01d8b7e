"""A cache of the frontend's IR between runs (``--cache-dir DIR``, issue 15).

Parsing and walking a file is most of what a run costs; the model and rules after it
are cheap on most files. The cache keeps, per file, the :class:`~cudalint.ir.
TranslationUnit` the frontend made (as JSON of the frozen dataclasses of
:mod:`cudalint.ir`, read back by their own constructors: an entry can name no other
class, so reading one never runs other code), so that a second run over unchanged
files (pre-commit on every commit, CI re-runs) skips libclang altogether. A hit gives
the very unit a parse would give: the entry is used only when all of these are as they
were:

- cudalint itself: its version and every file of the installed package (the frontend's
  code, its standard library headers, the IR's classes), and libclang's version;
- the clang command line (``-I``, ``-D``, ``--arch``, ``-std``, the extra flags), the
  path as given and the working directory (spans and shown paths depend on both);
- the file's bytes, and the bytes of every project header the parse read (the unit's
  ``includes``);
- the modification times of the directories a new header could appear in and change
  what an ``#include`` finds: every ``-I`` directory, the file's own directory, the
  directory of every header it read, and for an ``#include`` clang did not find, each
  directory on the way to where it could appear (``DIR/arpa`` for ``<arpa/inet.h>``).

Never cached (parsed every time): a parse with ``--cuda-path`` (the toolkit's headers
are not followed), with extra flags that name files or search directories
(``-isystem``, ``-include``, ...), and with headers given in memory (a fix re-checked).
The language server never caches (an editor's buffer changes at every keystroke).
A header that changes while it is parsed is not recorded (the entry is not written).

An entry is one file, ``DIR/ir/<key>.json``, written atomically
(:func:`cudalint.fsutil.write_file`); ``DIR`` holds a ``.gitignore`` that ignores it
all (as ``.ruff_cache`` does) and a ``CACHEDIR.TAG``. A cache that cannot be read or
written is no cache: the file is parsed, nothing is reported. Remove ``DIR`` to clear it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import json
import os
import re
import threading
from collections.abc import Sequence
from typing import Any

from cudalint import ir
from cudalint.ir import TranslationUnit
from cudalint.options import Options

#: The environment variable that names the cache directory (set by the CLI's
#: ``--cache-dir`` for the run, so that ``-j`` workers see it too).
ENV = "CUDALINT_CACHE_DIR"
#: The missing-include note of the frontend (see :mod:`cudalint.frontend.parse`).
_NOT_FOUND = "file not found"
#: Extra clang flags that cannot change which files a parse reads.
_SAFE_EXTRA = re.compile(r"-(?:[DU].*|W.*|w|std=.*|O.*|pedantic.*|ferror-limit=.*|"
                         r"fno-.*|fbracket-depth=.*|Xcuda-.*)\Z")
#: The header a missing-include note names.
_MISSING = re.compile(r"(?:^|: )'(?P<name>[^']+)' " + _NOT_FOUND)
_GITIGNORE = b"# Automatically created by cudalint.\n*\n"
_TAG = (b"Signature: 8a477f597d28d172789f06886806bc55\n"
        b"# This file is a cache directory tag created by cudalint.\n")

_lock = threading.Lock()
_fingerprint: str | None = None


def directory() -> str | None:
    """The cache directory of this run, or None (no cache)."""
    d = os.environ.get(ENV)
    return d if d else None


def _package_fingerprint() -> str:
    """A hash of cudalint's version, every file of its package and libclang's version."""
    global _fingerprint
    with _lock:
        if _fingerprint is not None:
            return _fingerprint
    import clang.cindex as ci

    import cudalint

    h = hashlib.sha256()
    h.update(cudalint.__version__.encode())
    try:
        version = ci.conf.lib.clang_getClangVersion()
        h.update(str(ci._CXString.from_result(version)).encode())
    except Exception:  # an older binding: the package's own version below still counts
        h.update(b"?")
    root = os.path.dirname(os.path.abspath(cudalint.__file__))
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(base, name)
            h.update(os.path.relpath(path, root).encode() + b"\0")
            try:
                with open(path, "rb") as f:
                    h.update(hashlib.sha256(f.read()).digest())
            except OSError:
                h.update(b"-")
    value = h.hexdigest()
    with _lock:
        _fingerprint = value
    return value


def cacheable(options: Options) -> bool:
    """Whether a parse with ``options`` may be cached (see the module's documentation)."""
    if options.cuda_path is not None:
        return False
    return all(_SAFE_EXTRA.match(a) for a in options.extra_args)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def key(path: str, source: bytes, options: Options, args: Sequence[str]) -> str:
    """The entry's name: everything the unit depends on but the headers it reads."""
    h = hashlib.sha256()
    # The stand-in toolkit is an empty temporary directory, named anew by each process.
    args = [a for a in args if not a.startswith("--cuda-path=")]
    parts = [_package_fingerprint(), os.getcwd(), path, os.path.abspath(path),
             options.arch, _sha(source), *args]
    for p in parts:
        h.update(p.encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def _file_sha(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return _sha(f.read())
    except OSError:
        return None


def _entry_path(root: str, name: str) -> str:
    return os.path.join(root, "ir", name + ".json")


# --- the IR as JSON: frozen dataclasses of cudalint.ir only, read back by their own
# constructors (an entry can name no other class: reading one never runs other code);
# an enumeration of cudalint.ir (OpaqueKind) is its class's name and its member's value ---


def _encode(value: object) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, enum.Enum):  # ir.OpaqueKind: its class and value
        enum_cls = type(value)
        if getattr(ir, enum_cls.__name__, None) is not enum_cls:
            raise TypeError(f"not an IR enumeration: {enum_cls.__name__}")
        return {"e": enum_cls.__name__, "v": value.value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        if getattr(ir, cls.__name__, None) is not cls:
            raise TypeError(f"not an IR class: {cls.__name__}")
        return {"c": cls.__name__,
                "v": [_encode(getattr(value, f.name)) for f in dataclasses.fields(value)]}
    if isinstance(value, frozenset):
        return {"s": [_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, list):
        return {"l": [_encode(v) for v in value]}
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if not isinstance(value, dict):
        return value
    if "c" in value:
        cls = getattr(ir, value["c"], None)
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)
                and cls.__module__ == ir.__name__):
            raise ValueError(f"not an IR class: {value['c']!r}")
        return cls(*(_decode(v) for v in value["v"]))
    if "e" in value:
        enum_cls = getattr(ir, value["e"], None)
        if not (isinstance(enum_cls, type) and issubclass(enum_cls, enum.Enum)
                and enum_cls.__module__ == ir.__name__):
            raise ValueError(f"not an IR enumeration: {value['e']!r}")
        return enum_cls(value["v"])
    if "s" in value:
        return frozenset(_decode(v) for v in value["s"])
    if "d" in value:
        return {_decode(k): _decode(v) for k, v in value["d"]}
    if "l" in value:
        return [_decode(v) for v in value["l"]]
    raise ValueError("malformed entry")


def load(root: str, name: str) -> TranslationUnit | None:
    """The cached unit of entry ``name`` when every header and directory it recorded is
    unchanged, else None."""
    try:
        with open(_entry_path(root, name), "rb") as f:
            doc = json.loads(f.read())
        if not unchanged(doc["headers"], doc["dirs"]):
            return None
        unit = _decode(doc["unit"])
        return unit if isinstance(unit, TranslationUnit) else None
    except Exception:  # unreadable, malformed, too deep: a miss, never a failure
        return None


def unchanged(headers: Sequence[Sequence[Any]], dirs: Sequence[Sequence[Any]]) -> bool:
    """Whether every header still has its digest and every directory its modification
    time, as :func:`dependencies` recorded them."""
    return (all(_file_sha(path) == digest for path, digest in headers)
            and all(_mtime(path) == mtime for path, mtime in dirs))


def dependencies(unit: TranslationUnit, path: str, options: Options, started_ns: int
                 ) -> tuple[list[list[str]], list[list[object]]] | None:
    """What ``unit`` (of ``path``, parsed from ``started_ns`` on) depends on beyond its
    own bytes and flags: each header it read with its digest, and each directory a new
    header could appear in with its modification time; None when it must not be cached
    (a header or directory changed since the parse started, a missing include that
    cannot be located). Also used by :mod:`cudalint.result_cache`."""
    headers: list[list[str]] = []
    main_dir = os.path.dirname(os.path.abspath(path))
    search = [main_dir, *(os.path.abspath(d) for d in options.include_dirs)]
    dirs: dict[str, None] = dict.fromkeys(search)
    for note in unit.notes:
        m = _MISSING.search(note.message)
        if m is None:
            if _NOT_FOUND in note.message:
                return None  # a missing file this cannot name
            continue
        # Where the header could appear and be found next time: under the directory of
        # the file that includes it or any -I directory. Creating it there changes the
        # modification time of the deepest of its parent directories that exists now.
        roots = list(search)
        if note.span is not None:
            roots.append(os.path.dirname(os.path.abspath(note.span.file)))
        missing = m.group("name")
        if os.path.isabs(missing):
            return None
        parts = missing.split("/")[:-1]
        for base in roots:
            d = base
            dirs[d] = None
            for part in parts:
                d = os.path.join(d, part)
                dirs[os.path.normpath(d)] = None
    for h in unit.includes:
        mtime = _mtime(h)
        digest = _file_sha(h)
        if digest is None or mtime is None or mtime >= started_ns:
            return None
        headers.append([h, digest])
        dirs[os.path.dirname(h)] = None
    stamped: list[list[object]] = []
    for d in dirs:
        mtime = _mtime(d)
        if mtime is not None and mtime >= started_ns:
            return None
        stamped.append([d, mtime])
    return headers, stamped


def store(root: str, name: str, unit: TranslationUnit, path: str, options: Options,
          started_ns: int) -> None:
    """Write the entry of ``unit``, parsed from ``started_ns`` (``time.time_ns()``) on;
    silently nothing when it cannot be written or must not be cached: a header or a
    recorded directory that changed since the parse started (the unit may hold the old
    or the new text) is not recorded as the unit's."""
    from cudalint.fsutil import WriteError, write_file

    deps = dependencies(unit, path, options, started_ns)
    if deps is None:
        return
    headers, stamped = deps
    try:
        doc = {"headers": headers, "dirs": stamped, "unit": _encode(unit)}
        data = json.dumps(doc, separators=(",", ":")).encode()
    except Exception:  # a unit too deep to write: not cached
        return
    with contextlib.suppress(OSError, WriteError):
        write_file(_entry_path(root, name), data)


def prepare(root: str) -> None:
    """Create ``root`` with its ``.gitignore`` and ``CACHEDIR.TAG``, and ``root/ir``
    (silently nothing when it cannot)."""
    try:
        os.makedirs(os.path.join(root, "ir"), exist_ok=True)
    except OSError:
        return
    for name, data in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _TAG)):
        target = os.path.join(root, name)
        if not os.path.exists(target):
            with contextlib.suppress(OSError), open(target, "xb") as f:
                f.write(data)
