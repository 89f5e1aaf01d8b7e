"""Parse one file with libclang-ng and hand out IR.

This module builds the clang arguments, runs the parse with the in-memory shim, turns
clang's diagnostics into ``Note``s and hands the AST to the walker. Nothing clang-typed
leaves the package.
"""

from __future__ import annotations

import os
import tempfile
import threading

import clang.cindex as ci

from cudalint.frontend import shim
from cudalint.frontend.walker import walk_translation_unit
from cudalint.ir import Note, Span, TranslationUnit
from cudalint.options import Options

#: CXTranslationUnit_KeepGoing: a missing #include must not drop the rest of the AST.
PARSE_KEEP_GOING = 0x200

_SEVERITY_ERROR = 3  # CXDiagnostic_Error (Fatal is 4)

# libclang runs each parse on a thread of its own with an 8 MiB stack unless this is set
# (it reads it at every parse). A few thousand nesting levels of source (``- - - x``,
# ``if (c) if (c) ...``) overflow that stack and kill the whole process. Without the
# thread, the parse runs on the caller's: the analysis thread's large stack (see
# cudalint.budget), and a crash in the parse is caught by libclang's crash recovery and
# becomes a TranslationUnitLoadError.
os.environ.setdefault("LIBCLANG_NOTHREADS", "1")
#: clang's documented default; libclang-ng's build accepts far deeper nesting, which
#: recurses as deep in the parser. Given first, so that a user's own flag wins.
BRACKET_DEPTH = "-fbracket-depth=256"
#: No limit on errors: after 20 (clang's default) clang emits a fatal "too many errors"
#: and, fatal, stops instantiating templates, so that every later
#: ``tile.thread_rank()``-like call on a template class comes out unresolved (seen on
#: llm.c, whose libc includes produce a score of errors through libc++). Errors are
#: reported as CL004 and the analysis goes on; they must not silently change the AST.
ERROR_LIMIT = "-ferror-limit=0"


class FrontendError(Exception):
    """The file cannot be analyzed at all (unreadable, not a file, libclang failed)."""


_lock = threading.Lock()
_empty_cuda_dir: tempfile.TemporaryDirectory[str] | None = None
_index: ci.Index | None = None


def _empty_cuda_path() -> str:
    """An empty directory for ``--cuda-path`` (clang finds an installed toolkit otherwise)."""
    global _empty_cuda_dir
    with _lock:
        if _empty_cuda_dir is None:
            _empty_cuda_dir = tempfile.TemporaryDirectory(prefix="cudalint-nocuda-")
        return _empty_cuda_dir.name


def _get_index() -> ci.Index:
    global _index
    with _lock:
        if _index is None:
            try:
                _index = ci.Index.create()
            except Exception as exc:  # libclang missing or unloadable
                raise FrontendError(f"cannot load libclang: {exc}") from exc
        return _index


def clang_args(options: Options) -> list[str]:
    """The clang command line (without the file) for ``options``.

    Without ``--cuda-path`` clang sees no CUDA headers at all (``-nocudainc`` and an empty
    ``--cuda-path``) and the in-memory shim stands in for them. With it, clang's own CUDA
    wrapper includes the toolkit's real headers and the shim is left out; libclang-ng's
    bundled libc++ (added only when no ``-isystem`` is given) clashes with the libstdc++
    those headers expect, so an ``-isystem`` for the toolkit turns it off.
    """
    if options.cuda_path is not None:
        include = os.path.join(options.cuda_path, "include")
        cccl = os.path.join(include, "cccl")  # CUDA 13 keeps cuda/std/... here
        args = [
            "-x", "cuda",
            BRACKET_DEPTH,
            ERROR_LIMIT,
            "--cuda-device-only",
            "-nocudalib",
            f"--cuda-gpu-arch={options.arch}",
            f"--cuda-path={options.cuda_path}",
            f"-std={options.std}",
            "-isystem", cccl if os.path.isdir(cccl) else include,
        ]
        args += [f"-I{d}" for d in options.include_dirs]
        args += [f"-D{d}" for d in options.defines]
        args += list(options.extra_args)
        # Headers clang's wrapper names that a toolkit may lack (curand is separate).
        args += ["-idirafter", shim.STUB_DIR]
        return args
    args = [
        "-x", "cuda",
        BRACKET_DEPTH,
        ERROR_LIMIT,
        "--cuda-device-only",
        "-nocudainc",
        "-nocudalib",
        f"--cuda-gpu-arch={options.arch}",
        f"--cuda-path={_empty_cuda_path()}",
        f"-std={options.std}",
    ]
    args += [f"-I{d}" for d in options.include_dirs]
    args += [f"-D{d}" for d in options.defines]
    args += list(options.extra_args)
    args += ["-include", shim.SHIM_PATH]
    # Searched after every user directory, so the user's own headers win.
    args += ["-idirafter", shim.INCLUDE_DIR]
    return args


_pch_cache: dict[tuple[str, ...], str | None] = {}
_pch_dir: tempfile.TemporaryDirectory[str] | None = None


def _pch_path() -> str:
    global _pch_dir
    with _lock:
        if _pch_dir is None:
            _pch_dir = tempfile.TemporaryDirectory(prefix="cudalint-pch-")
        return os.path.join(_pch_dir.name, f"shim-{len(_pch_cache)}.pch")

#: CXTranslationUnit_Incomplete | CXTranslationUnit_DetailedPreprocessingRecord: a header
#: built on its own for a precompiled header.
_PCH_OPTIONS = 0x2 | 0x1 | PARSE_KEEP_GOING


def _with_precompiled_shim(args: list[str]) -> list[str]:
    """``args`` with the shim as a precompiled header (built once per set of flags).

    Parsing the shim's few thousand declarations costs several times more than a typical
    kernel file; loading them from a PCH does not. Any failure keeps ``-include``.
    """
    try:
        i = args.index("-include")
    except ValueError:
        return args
    if args[i + 1] != shim.SHIM_PATH:
        return args
    rest = args[:i] + args[i + 2:]
    key = tuple(rest)
    with _lock:
        path = _pch_cache.get(key, "")
    if path == "":
        path = None
        try:
            tu = _get_index().parse(
                shim.SHIM_PATH, args=rest, unsaved_files=shim.unsaved_files(),
                options=_PCH_OPTIONS,
            )
            if not any(d.severity >= _SEVERITY_ERROR for d in tu.diagnostics):
                candidate = _pch_path()
                tu.save(candidate)
                path = candidate
        except Exception:  # libclang refused: parse the shim as text
            path = None
        with _lock:
            _pch_cache[key] = path
    if path is None:
        return args
    return [*rest, "-include-pch", path]


def _read(path: str) -> bytes:
    if os.path.isdir(path):
        raise FrontendError(f"{path}: is a directory")
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise FrontendError(f"{path}: cannot read: {reason}") from exc


def _safe(get: object) -> str:
    """A libclang string property that may hold bytes that are not UTF-8."""
    try:
        value = get() if callable(get) else get
    except UnicodeDecodeError:
        return "<text that is not UTF-8>"
    return str(value)


def _diagnostic_notes(tu: ci.TranslationUnit, path: str) -> list[Note]:
    notes: list[Note] = []
    for diag in tu.diagnostics:
        if diag.severity < _SEVERITY_ERROR:
            continue
        message = _safe(lambda d=diag: d.spelling)
        loc = diag.location
        span: Span | None = None
        if loc.file is not None:
            fname = _safe(lambda lc=loc: lc.file.name)
            shown = path if fname == tu.spelling else fname
            span = Span(shown, loc.line, loc.column, loc.line, loc.column)
        severity = "note" if "file not found" in message else "error"
        notes.append(Note(severity, message, span))  # type: ignore[arg-type]
    return notes


def parse_file(path: str, options: Options, contents: bytes | None = None) -> TranslationUnit:
    """Parse ``path`` (or ``contents`` under that name, for stdin) and return its IR.

    Raises FrontendError when the file cannot be read or parsed at all; clang errors in
    a file that still parses become ``Note``s on the returned unit.
    """
    source = _read(path) if contents is None else contents
    index = _get_index()
    unsaved: list[tuple[str, str | bytes]] = [(path, source)]
    unsaved.extend(shim.unsaved_files())
    args = clang_args(options)
    if options.cuda_path is None:
        args = _with_precompiled_shim(args)
    try:
        tu = index.parse(path, args=args, unsaved_files=unsaved, options=PARSE_KEEP_GOING)
    except ci.TranslationUnitLoadError as exc:
        raise FrontendError(f"{path}: libclang could not parse the file: {exc}") from exc
    notes = _diagnostic_notes(tu, path)
    return walk_translation_unit(tu, path, source, notes, options.defines)
