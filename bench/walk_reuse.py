"""The walker's reuse against walks from scratch, on random edits of real files.

For each file: a ``ParsedDocument`` (the language server's kept document, with the
walker's reuse, ``cudalint.frontend.reuse``) parses it, then N random edits follow, each
walked by the kept document and by a fresh one; the two IRs must be equal. The edits: a
comment or a character typed at the end of a line, a character deleted, a digit changed,
an empty line added, a line duplicated or removed; ``--kernel-share`` of them land on
lines that look like kernel code (``threadIdx``, ``__shared__``, ``__syncthreads``, ``+=``,
``blockDim``). And edits outside kernel bodies: an empty line above a kernel, a statement
added at the start of a host or ``__device__`` function, a digit changed in a
``#define`` or constant (``outside``). Fixed seed; prints each file's counts of reused
and re-run functions and the mismatches (exit 1 when there are any).

Example::

    python bench/walk_reuse.py --seed 6 --edits 8 \\
        /work/repos/llm.c/dev/cuda/layernorm_forward.cu:/work/repos/llm.c,/work/repos/llm.c/dev/cuda

(``FILE:DIR,DIR`` gives the file's include directories.)
"""

from __future__ import annotations

import argparse
import random
import re
import sys

from cudalint.frontend import FrontendError
from cudalint.frontend import parse as frontend_parse
from cudalint.ir import TranslationUnit
from cudalint.options import Options

HOT = (b"threadIdx", b"__shared__", b"__syncthreads", b"+=", b"blockDim")
KINDS = ("comment", "digit", "char", "newline", "dup", "delete",
         "above", "host", "constant", "device")

_HOST_FUNCTION = re.compile(rb"^(?!.*__(?:global|device)__)[A-Za-z_][\w:<>,* &]*\s[\w:]+\s*\(")
_DEVICE_FUNCTION = re.compile(rb"^(?!.*__global__).*\b__device__\b.*\w+\s*\(")
_CONSTANT = re.compile(rb"^\s*#\s*define\s+\w+\s+.*\d|\b(?:const|constexpr)\b[^;(]*=[^;]*\d")


def outside(lines: list[bytes], rnd: random.Random, kind: str) -> list[bytes] | None:
    """An edit outside kernel bodies: an empty line above a kernel (``above``), a
    statement added at the start of a host (``host``) or ``__device__`` (``device``)
    function, a digit changed in a ``#define`` or constant (``constant``)."""
    out = list(lines)
    if kind == "above":
        at = [i for i, line in enumerate(lines) if b"__global__" in line]
        if not at:
            return None
        out.insert(rnd.choice(at), b"")
        return out
    if kind == "constant":
        at = [i for i, line in enumerate(lines) if _CONSTANT.search(line)]
        if not at:
            return None
        i = rnd.choice(at)
        line = lines[i]
        j = rnd.choice([j for j, c in enumerate(line) if 48 <= c <= 57])
        out[i] = line[:j] + bytes([48 + (line[j] - 47) % 10]) + line[j + 1:]
        return out
    pattern = _HOST_FUNCTION if kind == "host" else _DEVICE_FUNCTION
    starts = [i for i, line in enumerate(lines) if pattern.match(line)]
    braces = [j for j in (next((j for j in range(i, min(i + 4, len(lines)))
                                if lines[j].rstrip().endswith(b"{")), None)
                          for i in starts) if j is not None]
    if not braces:
        return None
    out.insert(rnd.choice(braces) + 1, b"    int cudalint_edit = %d;" % rnd.randrange(100))
    return out


def edit(lines: list[bytes], rnd: random.Random, share: float, kinds: list[str]
         ) -> list[bytes] | None:
    hot = [i for i, line in enumerate(lines) if any(t in line for t in HOT)]
    i = rnd.choice(hot) if hot and rnd.random() < share else rnd.randrange(len(lines))
    kind = rnd.choice(kinds)
    line = lines[i]
    out = list(lines)
    if kind in ("above", "host", "constant", "device"):
        return outside(lines, rnd, kind)
    if kind == "comment":
        out[i] = line + (b" //e" if b"//" not in line and b'"' not in line else b"x")
    elif kind == "digit":
        digits = [j for j, c in enumerate(line) if 48 <= c <= 57]
        if not digits:
            return None
        j = rnd.choice(digits)
        out[i] = line[:j] + bytes([48 + (line[j] - 47) % 10]) + line[j + 1:]
    elif kind == "char":
        if not line:
            return None
        j = rnd.randrange(len(line))
        out[i] = line[:j] + line[j + 1:]
    elif kind == "newline":
        out.insert(i, b"")
    elif kind == "dup":
        out.insert(i, line)
    else:
        del out[i]
    return out


def walk(doc: frontend_parse.ParsedDocument, options: Options, text: bytes
         ) -> TranslationUnit | str:
    try:
        return doc.parse(options, text)
    except FrontendError as exc:
        return str(exc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE[:DIR,DIR]")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--edits", type=int, default=8, help="edits per file")
    parser.add_argument("--kernel-share", type=float, default=0.85)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args(argv)
    rnd = random.Random(args.seed)
    kinds = args.kinds.split(",")
    total = bad = 0
    for spec in args.files:
        path, _, dirs = spec.partition(":")
        options = Options(include_dirs=tuple(d for d in dirs.split(",") if d))
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        doc = frontend_parse.ParsedDocument(path)
        walk(doc, options, b"\n".join(lines))
        for _ in range(args.edits):
            new = edit(lines, rnd, args.kernel_share, kinds)
            if new is None:
                continue
            lines = new
            text = b"\n".join(lines)
            total += 1
            kept = walk(doc, options, text)
            fresh_doc = frontend_parse.ParsedDocument(path)
            fresh = walk(fresh_doc, options, text)
            fresh_doc.close()
            if kept != fresh:
                bad += 1
                print(f"MISMATCH {path} after edit {total}", flush=True)
        w = doc.walks
        print(f"{path}: function runs reused {w.runs_reused}, run {w.runs_done}; "
              f"host evaluations reused {w.host_reused}, done {w.host_done}; "
              f"host calls' values kept {w.calls_reused}, run {w.calls_done}", flush=True)
        doc.close()
    print(f"edits {total}, mismatches {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
