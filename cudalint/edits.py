"""Applying edits to a file's bytes: the one applier behind every command that changes
a file (``--fix`` and the language server's fix-all through
:func:`cudalint.fixes.apply.apply_fixes`, ``--add-ignores`` through
:func:`cudalint.suppressions.apply_edits`). They differ only in how a position becomes
a byte offset (a fix's lines end at ``\\n``; a suppression's are clang's lines, where a
lone ``\\r`` ends one too); the edits themselves are applied here, once. Writing the
result goes through :func:`cudalint.fsutil.write_file`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

__all__ = ["splice"]


def splice(source: bytes, replacements: Iterable[tuple[int, int, bytes]]) -> bytes:
    """``source`` with each ``(start, end, text)`` applied: the bytes from offset
    ``start`` up to ``end`` replaced by ``text``. Replacements must not overlap
    (ValueError); an insertion (``start == end``) may touch a replacement's ends."""
    ordered = sorted(replacements, key=lambda r: (r[0], r[1]))
    for (a0, a1, _), (b0, b1, _) in itertools.pairwise(ordered):
        if b0 < a1 or (a0 == a1 == b0 == b1):
            raise ValueError(f"overlapping edits at bytes {a0}-{a1} and {b0}-{b1}")
    out = source
    for start, end, text in reversed(ordered):
        out = out[:start] + text + out[end:]
    return out
