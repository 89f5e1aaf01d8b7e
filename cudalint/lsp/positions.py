"""Positions between cudalint (1-based lines, 1-based UTF-8 byte columns) and LSP.

LSP positions are 0-based lines and characters counted in the negotiated position
encoding: UTF-16 code units unless client and server agree on UTF-8 or UTF-32. The
conversion reads the line's text (the document as the client holds it).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["character_to_column", "column_to_character", "lines_of", "units"]

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"


def lines_of(text: str) -> list[str]:
    """The document's lines as cudalint counts them (split at ``\\n``; a ``\\r`` before it
    belongs to no line)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def units(text: str, encoding: str = UTF16) -> int:
    """The length of ``text`` in code units of ``encoding``."""
    if encoding == UTF8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    if encoding == UTF32:
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def column_to_character(lines: Sequence[str], line: int, column: int,
                        encoding: str = UTF16) -> tuple[int, int]:
    """cudalint's (line, column) as LSP's (line, character), clamped to the document."""
    if not lines:
        return 0, 0
    index = min(max(line - 1, 0), len(lines) - 1)
    raw = lines[index].encode("utf-8", errors="surrogatepass")
    prefix = raw[: max(column - 1, 0)].decode("utf-8", errors="ignore")
    return index, units(prefix, encoding)


def character_to_column(lines: Sequence[str], line: int, character: int,
                        encoding: str = UTF16) -> tuple[int, int]:
    """LSP's (line, character) as cudalint's 1-based (line, byte column)."""
    if not lines:
        return 1, 1
    index = min(max(line, 0), len(lines) - 1)
    text = lines[index]
    count = 0
    end = len(text)
    for i, ch in enumerate(text):
        if count >= character:
            end = i
            break
        count += units(ch, encoding)
    return index + 1, len(text[:end].encode("utf-8", errors="surrogatepass")) + 1
