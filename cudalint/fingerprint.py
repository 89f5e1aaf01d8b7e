"""What a cached result depends on beyond its own inputs: cudalint, libclang, Python.

Shared by the result cache (:mod:`cudalint.result_cache`) and the console entry point's
front door (:mod:`cudalint.frontdoor`), which must not import that module: this one
imports only the standard library's lightest modules (no ``hashlib``: its OpenSSL costs
~2 ms to load; the builtin SHA-256 gives the same digests).
"""

from __future__ import annotations

import os
import sys

try:
    from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - Python 3.12 renamed it
    try:
        from _sha2 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
    except ImportError:
        from hashlib import sha256  # type: ignore[assignment,unused-ignore]

#: The layout of a result-cache entry (:data:`cudalint.result_cache.SCHEMA`); a new one
#: makes every old entry (and every run entry of the front door) a miss.
RESULT_SCHEMA = "cudalint-results-1"

_fingerprints: dict[str, str] = {}


def digest(data: bytes) -> str:
    """The SHA-256 of ``data``, in hex (as ``hashlib.sha256(data).hexdigest()``)."""
    return str(sha256(data).hexdigest())


def _stat_entries(root: str, recursive: bool) -> list[str]:
    out: list[str] = []
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__") if recursive else []
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(base, name)
            try:
                st = os.stat(path)
            except OSError:
                out.append(f"{os.path.relpath(path, root)}:-")
                continue
            out.append(f"{os.path.relpath(path, root)}:{st.st_size}:{st.st_mtime_ns}")
    return out


def package_fingerprint(schema: str) -> str:
    """``schema``, cudalint's version and files, libclang's bindings and library,
    Python's version and clang's environment, hashed (without importing libclang)."""
    found = _fingerprints.get(schema)
    if found is not None:
        return found
    import importlib.util

    import cudalint

    parts = [schema, cudalint.__version__, f"{sys.version_info[:3]}"]
    parts += _stat_entries(os.path.dirname(os.path.abspath(cudalint.__file__)), True)
    spec = importlib.util.find_spec("clang")
    for where in (spec.submodule_search_locations or []) if spec is not None else []:
        parts.append(where)
        parts += _stat_entries(where, False)
        parts += _stat_entries(os.path.join(where, "native"), False)
    parts += sorted(f"{k}={v}" for k, v in os.environ.items()
                    if k.startswith(("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
                                     "LIBCLANG")))
    found = digest("\0".join(parts).encode("utf-8", "surrogateescape"))
    _fingerprints[schema] = found
    return found


