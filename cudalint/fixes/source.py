"""The source text a fix edits: tokens, the uses of an array, subscripts and extents.

The frontend records loads and stores; a fix also needs every other place the array's
name appears (``&tile[0][0]``, ``reinterpret_cast<float4 *>(tile[r])``, ``sizeof tile``),
because code there sees the layout directly. A small C lexer finds them: identifiers
outside comments, string and character literals, with 1-based line and byte columns as
in :class:`cudalint.ir.Span`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from cudalint.ir import Access, SharedArray, Span

_TOKEN = re.compile(
    rb"""
    (?P<space>[ \t\r\f\v]+|\\\r?\n)
  | (?P<newline>\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9a-zA-Z_.'])*)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct><<=|>>=|->\*|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%^&|]=|.)
    """,
    re.X | re.S,
)


@dataclass(frozen=True)
class Token:
    kind: Literal["number", "ident", "punct"]
    text: str
    #: Byte offset in the file.
    start: int
    end: int
    line: int
    column: int
    #: On a preprocessor line (``#define``, ``#if``...).
    directive: bool


def tokenize(source: bytes) -> list[Token]:
    """Tokens of ``source`` with comments, literals and whitespace dropped.

    One pass of :data:`_TOKEN` (its last alternative matches any byte, so the matches
    tile the source). Only a ``newline`` match ends a directive line, and only a ``#``
    first on a line starts one; a newline byte inside another match (an escaped newline,
    a comment, a string) counts for the line numbers only. ASCII text (the usual case)
    is matched as ``str``, whose offsets are its byte offsets, to skip decoding each
    token; other text as its Latin-1 reading (one character per byte, so the same
    matches and offsets), each token decoded as UTF-8 from its bytes.
    """
    out: list[Token] = []
    append = out.append
    new = Token.__new__
    line, line_start = 1, 0
    directive = False
    at_line_start = True
    ascii_text = source.isascii()
    matches = _TOKEN_STR.finditer(source.decode("latin-1"))
    for m in matches:
        kind = m.lastgroup
        if kind == "newline":
            line += 1
            line_start = m.end()
            directive = False
            at_line_start = True
            continue
        if kind == "space" or kind == "comment" or kind == "string":
            text = m.group()
            if "\n" in text:  # an escaped newline; a comment or string across lines
                line += text.count("\n")
                line_start = m.start() + text.rfind("\n") + 1
            continue
        text = m.group()
        start = m.start()
        if at_line_start and text == "#":
            directive = True
        at_line_start = False
        token = new(Token)
        # the fields of a frozen dataclass, set as its generated __init__ sets them
        d = token.__dict__
        d["kind"] = kind
        d["text"] = text if ascii_text else text.encode("latin-1").decode("utf-8", "replace")
        d["start"] = start
        d["end"] = m.end()
        d["line"] = line
        d["column"] = start - line_start + 1
        d["directive"] = directive
        append(token)
    return out


#: :data:`_TOKEN` on ``str``: the same matches on ASCII or Latin-1 decoded text (its
#: classes name ASCII characters only; every other character matches where its byte did).
_TOKEN_STR = re.compile(_TOKEN.pattern.decode("ascii"), _TOKEN.flags & ~re.ASCII)


def offset_of(source: bytes, line: int, column: int) -> int:
    """Byte offset of a 1-based (line, byte column) position."""
    pos = 0
    for _ in range(line - 1):
        nl = source.find(b"\n", pos)
        if nl < 0:
            return len(source)
        pos = nl + 1
    return min(pos + column - 1, len(source))


def position_of(source: bytes, offset: int) -> tuple[int, int]:
    """The 1-based (line, byte column) of a byte offset."""
    line = source.count(b"\n", 0, offset) + 1
    start = source.rfind(b"\n", 0, offset) + 1
    return line, offset - start + 1


# --- uses of an array ----------------------------------------------------------------------

UseKind = Literal["access", "subscript", "pointer", "sizeof", "macro", "declaration"]

#: Vector types a pointer cast may read a scalar tile as, with their size in bytes.
VECTOR_BYTES = {
    "float2": 8, "int2": 8, "uint2": 8, "double": 8, "long2": 16, "double2": 16,
    "float4": 16, "int4": 16, "uint4": 16, "longlong2": 16, "ulonglong2": 16,
    "short2": 4, "ushort2": 4, "half2": 4, "__half2": 4, "__nv_bfloat162": 4,
    "char4": 4, "uchar4": 4, "short4": 8, "ushort4": 8, "long long": 8,
    "unsigned long long": 8,
}


@dataclass(frozen=True)
class Use:
    """One appearance of the array's name."""

    kind: UseKind
    line: int
    column: int
    #: For ``pointer`` uses read through a cast to a wider type: that type's size.
    vector_bytes: int = 0
    vector_type: str = ""

    def where(self) -> str:
        return f"line {self.line}"


def _match_close(tokens: list[Token], i: int, open_: str, close: str) -> int:
    """Index of the token closing the bracket at ``i`` (or len(tokens))."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].text == open_:
            depth += 1
        elif tokens[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens)


def _enclosing_block(tokens: list[Token], at: int) -> tuple[int, int]:
    """Token index range (exclusive of braces) of the innermost ``{...}`` around ``at``."""
    stack: list[int] = []
    for i, t in enumerate(tokens):
        if t.start >= at:
            break
        if t.text == "{":
            stack.append(i)
        elif t.text == "}" and stack:
            stack.pop()
    if not stack:
        return 0, len(tokens)
    opening = stack[-1]
    return opening + 1, _match_close(tokens, opening, "{", "}")


def _cast_before(tokens: list[Token], i: int) -> str | None:
    """The pointee type of a pointer cast applied to the expression starting at ``i``.

    Recognizes ``reinterpret_cast<T *>(`` / ``(T *)`` / ``(T*)&`` just before it.
    """
    j = i - 1
    if j >= 0 and tokens[j].text == "&":
        j -= 1
    if j >= 0 and tokens[j].text == "(":
        # reinterpret_cast<T *>( ...
        k = j - 1
        if k >= 0 and tokens[k].text == ">":
            k -= 1
            parts: list[str] = []
            while k >= 0 and tokens[k].text != "<":
                parts.append(tokens[k].text)
                k -= 1
            if k >= 1 and tokens[k - 1].text in ("reinterpret_cast", "static_cast"):
                return " ".join(p for p in reversed(parts) if p not in ("*", "const"))
        return None
    if j >= 0 and tokens[j].text == ")":
        parts = []
        k = j - 1
        while k >= 0 and tokens[k].text != "(":
            parts.append(tokens[k].text)
            k -= 1
        if parts and parts[0] == "*":
            return " ".join(p for p in reversed(parts) if p not in ("*", "const"))
    return None


def array_uses(source: bytes, array: SharedArray, accesses: list[Access],
               tokens: list[Token] | None = None) -> list[Use]:
    """Every appearance of ``array``'s name in its scope, classified.

    ``access``: the start of a recorded subscript access. ``subscript``: a complete
    subscript chain the frontend did not record (e.g. under ``&``, which makes it a
    pointer: reported as ``pointer``). ``pointer``: the array (or an element's address)
    used as a pointer. ``sizeof``: under ``sizeof``. ``macro``: in a preprocessor line.
    """
    toks = tokens if tokens is not None else tokenize(source)
    decl_start = offset_of(source, array.span.line, array.span.column)
    decl_end = offset_of(source, array.span.end_line, array.span.end_column)
    if array.kernel is not None:
        lo, hi = _enclosing_block(toks, decl_start)
    else:
        lo, hi = 0, len(toks)
    starts = {(a.span.line, a.span.column) for a in accesses}
    uses: list[Use] = []
    for i in range(lo, min(hi, len(toks))):
        t = toks[i]
        if t.kind != "ident" or t.text != array.name:
            continue
        if i + 1 < len(toks) and toks[i + 1].text in ("(",):
            continue  # a call of something with the same name
        if i > 0 and toks[i - 1].text in (".", "->", "::"):
            continue  # a member of something else
        if decl_start <= t.start < decl_end:
            uses.append(Use("declaration", t.line, t.column))
            continue
        if t.directive:
            uses.append(Use("macro", t.line, t.column))
            continue
        if (t.line, t.column) in starts:
            uses.append(Use("access", t.line, t.column))
            continue
        prev = toks[i - 1].text if i > 0 else ""
        if prev == "sizeof" or (prev == "(" and i > 1 and toks[i - 2].text == "sizeof"):
            uses.append(Use("sizeof", t.line, t.column))
            continue
        cast = _cast_before(toks, i)
        width = VECTOR_BYTES.get(cast or "", 0)
        uses.append(Use("pointer", t.line, t.column, width, cast or ""))
    return uses


# --- subscripts and extents ------------------------------------------------------------------


@dataclass(frozen=True)
class Subscript:
    """One ``[...]`` of an access in the source: the byte range of its contents."""

    start: int
    end: int
    text: str


def access_subscripts(source: bytes, access: Access, tokens: list[Token]) -> list[Subscript]:
    """The subscripts of ``access`` as written (outermost first); [] when not plain."""
    start = offset_of(source, access.span.line, access.span.column)
    end = offset_of(source, access.span.end_line, access.span.end_column)
    idx = next((i for i, t in enumerate(tokens) if t.start == start), None)
    if idx is None or tokens[idx].kind != "ident":
        return []
    out: list[Subscript] = []
    i = idx + 1
    while i < len(tokens) and tokens[i].text == "[" and tokens[i].start < end:
        close = _match_close(tokens, i, "[", "]")
        if close >= len(tokens):
            return []
        a, b = tokens[i].end, tokens[close].start
        out.append(Subscript(a, b, source[a:b].decode("utf-8", "replace")))
        i = close + 1
    return out


def tokens_between(tokens: list[Token], start: int, end: int) -> list[Token]:
    return [t for t in tokens if start <= t.start and t.end <= end]


_SIDE_EFFECTS = {"++", "--", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}


def is_pure(tokens: list[Token]) -> bool:
    """No assignment, increment or call: the expression may be evaluated twice."""
    for i, t in enumerate(tokens):
        if t.text in _SIDE_EFFECTS:
            return False
        if t.text == "(" and i > 0 and tokens[i - 1].kind == "ident":
            return False
    return True


def is_simple(text: str) -> bool:
    """An identifier, member chain or number: needs no parentheses."""
    return re.fullmatch(r"\s*[A-Za-z_0-9.]+\s*", text) is not None


def parenthesize(text: str) -> str:
    text = text.strip()
    return text if is_simple(text) else f"({text})"


def span_edit_range(source: bytes, span: Span) -> tuple[int, int]:
    return (offset_of(source, span.line, span.column),
            offset_of(source, span.end_line, span.end_column))
