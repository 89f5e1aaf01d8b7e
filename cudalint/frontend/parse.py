"""Parse one file with libclang-ng and hand out IR.

This module builds the clang arguments, runs the parse with the in-memory shim, turns
clang's diagnostics into ``Note``s and hands the AST to the walker. Nothing clang-typed
leaves the package.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import re
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import NamedTuple, cast

import clang.cindex as ci

from cudalint.frontend import cache as _cache
from cudalint.frontend import shim
from cudalint.frontend.reuse import WalkReuse
from cudalint.frontend.walker import display_path, walk_translation_unit
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
#: cudalint's own C and C++ standard library and host-library stubs (a real directory, shipped
#: as package data). Parsing uses it instead of whatever the machine has (glibc, libstdc++,
#: libclang-ng's bundled libc++): the same answers on every machine, and device code sees
#: the sizes nvcc gives (``clock_t`` is 8 bytes).
STDINC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stdinc")
#: No system include directories (clang's resource directory stays: stddef.h, stdint.h,
#: limits.h, float.h, stdarg.h and the CUDA wrappers are the compiler's own), no C++
#: standard library directories.
HERMETIC = ("-nostdlibinc", "-nostdinc++")
# libclang-ng appends ``-isystem <its libc++>`` to every parse that has no ``-isystem``;
# that libc++ does not parse in CUDA device mode (``unknown type name 'ldiv_t'``).
ci.Config.libcxx_dir = None

#: No limit on errors: after 20 (clang's default) clang emits a fatal "too many errors"
#: and, fatal, stops instantiating templates, so that every later
#: ``tile.thread_rank()``-like call on a template class comes out unresolved (seen on
#: llm.c, whose libc includes produce a score of errors through libc++). Errors are
#: reported as CL004 and the analysis goes on; they must not silently change the AST.
ERROR_LIMIT = "-ferror-limit=0"
#: Relocatable device code, as nvcc's ``-rdc=true``: without it clang rejects a kernel
#: launch in device code (dynamic parallelism: cuda-samples' cdp* samples, whose build
#: passes -rdc) and drops the statement. Only for a file that needs it (a unit with
#: that error is parsed again with it): it also changes which instantiations clang
#: makes of generic lambdas in host code (``fixtures/launch_generic_lambda.cu``).
RDC = "-fgpu-rdc"
#: clang's error for a launch in device code without ``RDC``.
_RDC_ERROR = "requires relocatable device code"


def _needs_rdc(tu: ci.TranslationUnit) -> bool:
    """Whether ``tu`` launches a kernel from device code, which needs ``RDC``."""
    try:
        return any(d.severity >= _SEVERITY_ERROR and _RDC_ERROR in _safe(lambda d=d: d.spelling)
                   for d in tu.diagnostics)
    except Exception:  # a diagnostic libclang cannot describe: parse as it is
        return False


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


def _toolkit_version(include: str) -> str | None:
    """``MAJOR.MINOR`` from a toolkit's ``cuda.h`` (``#define CUDA_VERSION 12040``)."""
    try:
        with open(os.path.join(include, "cuda.h"), "rb") as f:
            text = f.read(65536).decode("latin-1")
    except OSError:
        return None
    m = re.search(r"^\s*#\s*define\s+CUDA_VERSION\s+(\d+)", text, re.M)
    if m is None:
        return None
    n = int(m.group(1))
    return f"{n // 1000}.{n % 1000 // 10}"


#: Flags after which a header outside the project (a user's ``-isystem`` library, the
#: toolkit's) or the command line can define a macro the code expands.
_OUTSIDE_MACROS = ("-isystem", "-idirafter", "-include", "-imacros", "-D", "-U",
                   "--system-header-prefix", "-iprefix", "-iwithprefix", "-iwithsysroot",
                   "-cxx-isystem", "-isysroot", "--sysroot", "-F", "-iframework")


def lazy_walk(options: Options) -> bool:
    """Whether the walk may build host functions lazily (``walker.LAZY_HOSTS``): its
    choice of host functions reads the macros of the project's own files and of
    ``-D``, so no other header may define one: the hermetic headers only (cudalint's
    own, which define no launch and name no project function), no toolkit, no flag
    that adds a system header or a macro."""
    return options.cuda_path is None and not any(
        a.startswith(_OUTSIDE_MACROS) for a in options.extra_args)


def clang_args(options: Options, rdc: bool = False) -> list[str]:
    """The clang command line (without the file) for ``options`` (with ``RDC`` where
    ``rdc``: a file that launches kernels from device code)."""
    args = _clang_args(options)
    if rdc:
        args.insert(args.index("--cuda-device-only") + 1, RDC)
    return args


def _clang_args(options: Options) -> list[str]:
    """The clang command line (without the file) for ``options``.

    Without ``--cuda-path`` clang sees no CUDA headers at all (``-nocudainc`` and an empty
    ``--cuda-path``) and the in-memory shim stands in for them. With it, clang's own CUDA
    wrapper includes the toolkit's real headers and the shim is left out; that mode uses the
    machine's C/C++ headers, as the toolkit's headers and clang's CUDA wrapper need a
    complete standard library (the ``-isystem`` for the toolkit turns libclang-ng's libc++
    off). Without it the machine's headers are never searched (``HERMETIC``): cudalint's
    standard library (``STDINC_DIR``) is, after every directory the user gives.
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
        args += ["-idirafter", STDINC_DIR]
        # In --cuda-device-only mode the driver does not tell clang the toolkit's version,
        # so clang lowers ``<<<>>>`` to ``cudaConfigureCall``, which CUDA >= 12 no longer
        # declares: every launch is an error and drops out of the AST. With the version
        # it uses ``__cudaPushCallConfiguration`` as nvcc's headers expect.
        version = _toolkit_version(include)
        if version is not None:
            args += ["-Xclang", f"-target-sdk-version={version}"]
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
        *HERMETIC,
    ]
    args += [f"-I{d}" for d in options.include_dirs]
    args += [f"-D{d}" for d in options.defines]
    args += list(options.extra_args)
    args += ["-include", shim.SHIM_PATH]
    # Searched after every user directory (-I, -isystem), so the user's own headers win:
    # first the shim's CUDA headers, then the standard library and host-library stubs.
    args += ["-idirafter", shim.INCLUDE_DIR]
    args += ["-idirafter", STDINC_DIR]
    return args


_pch_cache: dict[tuple[str, ...], str | None] = {}
_pch_dir: tempfile.TemporaryDirectory[str] | None = None


def _pch_directory() -> str:
    """This run's directory of precompiled shims, made on first use."""
    global _pch_dir
    with _lock:
        if _pch_dir is None:
            _pch_dir = tempfile.TemporaryDirectory(prefix="cudalint-pch-")
        return _pch_dir.name


def _pch_path() -> str:
    """A new file name for a precompiled shim, in this run's directory.

    Unique across processes: the children forked per file share the directory and
    inherit the same ``_pch_cache``, so a name made from what they share (it once was
    the cache's length) let two children that each build a shim for new flags write
    one file, and a parse loaded the other's shim ("Error parsing translation unit",
    under load only).
    """
    fd, path = tempfile.mkstemp(prefix="shim-", suffix=".pch", dir=_pch_directory())
    os.close(fd)
    return path

#: Room a precompiled shim (about 1.2 MB) must find before it is written (issue 17).
PCH_ROOM = 16 << 20


def _room_for_pch(directory: str) -> bool:
    """Whether ``PCH_ROOM`` bytes can be written in ``directory`` now.

    libclang ``abort()``s the whole process when writing a precompiled header fails (a
    full ``$TMPDIR``, a quota, ``ulimit -f``: "IO failure on output stream"), so the
    space is reserved first: a file of that size is allocated (disk, quota and file-size
    limit all answer) and removed again. Without room the shim is parsed as text.
    """
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
        if soft != resource.RLIM_INFINITY and soft < PCH_ROOM:
            return False
    except (ImportError, OSError, ValueError):  # no resource module (Windows)
        pass
    try:
        fd, probe = tempfile.mkstemp(prefix=".room-", dir=directory)
    except OSError:
        return False
    try:
        allocate = getattr(os, "posix_fallocate", None)
        try:
            if allocate is None:
                raise OSError("no posix_fallocate")
            allocate(fd, 0, PCH_ROOM)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                return False
            # a file system that cannot allocate ahead: ask it how much is free
            st = os.statvfs(directory)
            return st.f_bavail * st.f_frsize >= PCH_ROOM
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(probe)


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
                if _room_for_pch(os.path.dirname(candidate)):
                    tu.save(candidate)
                    path = candidate
                else:
                    with contextlib.suppress(OSError):
                        os.unlink(candidate)
        except Exception:  # libclang refused: parse the shim as text
            path = None
        with _lock:
            _pch_cache[key] = path
    if path is None:
        return args
    return [*rest, "-include-pch", path]


# --- analyses in forked processes (``cudalint.api``: one child per file, issue 17) ----------


def prepare_fork() -> None:
    """In the process that forks one child per file, before the first fork: load
    libclang, and create the temporary directories the children write in (the empty
    toolkit, the precompiled shims), so that they belong to this process, which
    removes them at its exit (a child ends with ``os._exit``). Never raises: a child
    that cannot load libclang reports that itself."""
    with contextlib.suppress(Exception):
        _get_index()
        _empty_cuda_path()
        _pch_directory()
    # the parse cache's key of the package (hashing its files), once here, not per child
    with contextlib.suppress(Exception):
        from cudalint.frontend import cache

        fingerprint = getattr(cache, "_package_fingerprint", None)
        if cache.directory() is not None and fingerprint is not None:
            fingerprint()


def temporary_dirs() -> list[str]:
    """The temporary directories this process made (the empty toolkit, the precompiled
    shims): a worker forked from it removes them when it finds it gone (killed, it
    could not)."""
    with _lock:
        return [d.name for d in (_empty_cuda_dir, _pch_dir) if d is not None]


def precompiled_shims() -> dict[tuple[str, ...], str | None]:
    """The precompiled shims known so far (by clang arguments): a child compares them
    with what it inherited and hands the new ones to :func:`adopt_precompiled_shims` in
    the parent, so that the next children load the shim the first one built."""
    with _lock:
        return dict(_pch_cache)


def precompile_shims(options: Iterable[Options]) -> dict[tuple[str, ...], str | None]:
    """Build here the precompiled shim of each of ``options`` (those that use the shim;
    each set of clang arguments once) and return them as :func:`precompiled_shims`
    does: a pool's workers are given them (:func:`adopt_precompiled_shims`), so that the
    shim is built once per run, not once per worker. Never raises: a shim that cannot
    be built is recorded as None (the workers then parse it as text, as they would)."""
    keys: list[tuple[str, ...]] = []
    with contextlib.suppress(Exception):
        for opts in options:
            if opts.cuda_path is not None:
                continue
            args = clang_args(opts)
            _with_precompiled_shim(args)
            i = args.index("-include")
            keys.append(tuple(args[:i] + args[i + 2:]))
    with _lock:
        return {k: _pch_cache[k] for k in keys if k in _pch_cache}


def adopt_precompiled_shims(shims: Mapping[tuple[str, ...], str | None]) -> None:
    """Record shims a child built, or failed to build (None), as it would have recorded
    them in-process (see :func:`precompiled_shims`); a file no longer there is not."""
    with _lock:
        for key, path in shims.items():
            if key not in _pch_cache and (path is None or os.path.isfile(path)):
                _pch_cache[key] = path


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


#: clang's error for a member of a library template used with a type that has no
#: linkage (a local struct) when the library only declares it.
_DECLARED_ONLY = "is used but not defined in this translation unit"
#: cudalint's own headers (its standard library and the CUDA shim).
_OWN_HEADERS = (os.path.join(STDINC_DIR, ""), shim.SHIM_DIR + "/")

#: Where clang says a header is missing.
_NOT_FOUND = re.compile(r"^'(?P<name>[^']+)' file not found")
#: An identifier clang did not know that reads like a macro the build would define.
_UNDECLARED_MACRO = re.compile(r"^use of undeclared identifier '(?P<name>[A-Z][A-Z0-9_]*)'$")


def _system_dirs(options: Options) -> tuple[str, ...]:
    """Directories whose files are not the user's code: cudalint's own headers, clang's,
    the toolkit's, the machine's, and every ``-isystem`` directory."""
    dirs = [STDINC_DIR, shim.SHIM_DIR, "/usr/include", "/usr/local/include"]
    resource = ci.Config.resource_dir
    if resource:
        dirs.append(resource)
    if options.cuda_path is not None:
        dirs.append(options.cuda_path)
    extra = list(options.extra_args)
    for i, arg in enumerate(extra):
        if arg == "-isystem" and i + 1 < len(extra):
            dirs.append(extra[i + 1])
        elif arg.startswith("-isystem") and len(arg) > len("-isystem"):
            dirs.append(arg[len("-isystem"):])
    return tuple(os.path.join(os.path.abspath(d), "") if not d.startswith(shim.SHIM_DIR)
                 else d.rstrip("/") + "/" for d in dirs)


def _include_sites(tu: ci.TranslationUnit) -> dict[str, tuple[str, int, int]]:
    """For each included file, the ``#include`` that first brought it in: (file, line, col)."""
    sites: dict[str, tuple[str, int, int]] = {}
    try:
        for inc in tu.get_includes():
            name = _safe(lambda i=inc: i.include.name)
            if name in sites or inc.location.file is None:
                continue
            src = _safe(lambda i=inc: i.location.file.name)
            sites[name] = (src, inc.location.line, inc.location.column)
    except Exception:  # an include libclang cannot describe: no mapping, not a crash
        return sites
    return sites


def _hint(message: str) -> str:
    """``message`` with the flag that would help, where one would."""
    m = _NOT_FOUND.match(message)
    if m is not None:
        return (f"'{m.group('name')}' file not found; add the directory that holds it with "
                "-I DIR (or give the build's compile_commands.json with -p)")
    m = _UNDECLARED_MACRO.match(message)
    if m is not None:
        return (f"{message}; if the build defines it, pass -D {m.group('name')}=VALUE "
                "(or the build's compile_commands.json with -p)")
    return message


def _diagnostic_notes(tu: ci.TranslationUnit, path: str,
                      options: Options | None = None) -> list[Note]:
    """clang's errors as notes, each placed in the user's own code.

    An error inside a header that is not the user's (cudalint's standard library or CUDA
    shim, clang's resource headers, a toolkit, an ``-isystem`` directory) is reported at
    the ``#include`` line in user code that leads to it, naming the header.
    """
    system = _system_dirs(options or Options())
    sites: dict[str, tuple[str, int, int]] | None = None
    notes: list[Note] = []
    for diag in tu.diagnostics:
        if diag.severity < _SEVERITY_ERROR:
            continue
        message = _safe(lambda d=diag: d.spelling)
        loc = diag.location
        if _ASM_ESCAPE in message and _nvcc_passes(tu, loc):
            continue  # ``%globaltimer`` in an asm with operands: nvcc passes it to ptxas
        span: Span | None = None
        if loc.file is not None:
            fname = _safe(lambda lc=loc: lc.file.name)
            if _DECLARED_ONLY in message and fname.startswith(_OWN_HEADERS):
                # cudalint's standard library declares members without bodies; a local
                # type in a container (ggml's `unordered_map<cache_key, ...>` in a
                # function) makes clang want them here, where nvcc's library has them
                continue
            line, col = loc.line, loc.column
            inside: str | None = None
            seen: set[str] = set()
            while fname != tu.spelling and fname.startswith(system) and fname not in seen:
                seen.add(fname)
                if sites is None:
                    sites = _include_sites(tu)
                site = sites.get(fname)
                inside = fname
                if site is None:  # force-included (the shim) or unknown: the file's start
                    fname, line, col = tu.spelling, 1, 1
                    break
                fname, line, col = site
            if inside is not None:
                message = f"in {_header_name(inside, system)}: {message}"
            # a header reached through ``../`` is shown as the walker shows its accesses
            # (``sub/../h.cuh`` is ``h.cuh``), so that one run reports it once
            shown = path if fname == tu.spelling else display_path(fname, path)
            span = Span(shown, line, col, line, col)
        severity = "note" if "file not found" in message else "error"
        notes.append(Note(severity, _hint(message), span))  # type: ignore[arg-type]
    return notes


#: clang's error for a ``%`` in an asm string (with operands) that is no operand or
#: ``%%``; nvcc passes ``%NAME`` through to ptxas as written, where a special register
#: (``%globaltimer``, ``%laneid``, ``%clock64``, ``%smid``) is valid PTX.
_ASM_ESCAPE = "invalid % escape in inline assembly string"
_PTX_NAME = re.compile(r"%[A-Za-z_][\w.]*")


def _nvcc_passes(tu: ci.TranslationUnit, loc: ci.SourceLocation) -> bool:
    """Whether clang's "invalid % escape" at ``loc`` is a ``%NAME`` that nvcc accepts (the
    walk reads such a statement's template from its strings: ``execute._nvcc_template``)."""
    try:
        # from the line's start: a token starts there, not inside the string
        start = ci.SourceLocation.from_position(tu, loc.file, loc.line, 1)
        for tok in tu.get_tokens(extent=ci.SourceRange.from_locations(start, loc)):
            text = tok.spelling
            at = int(loc.offset) - int(tok.extent.start.offset)
            if tok.kind != ci.TokenKind.LITERAL or not 0 <= at < len(text):
                continue
            start = text.rfind("%", 0, at + 1)
            return start >= 0 and at - start <= 2 and _PTX_NAME.match(text, start) is not None
    except Exception:  # a location libclang cannot tokenize: the error stands
        return False
    return False


def _header_name(fname: str, system: tuple[str, ...]) -> str:
    """``<vector>`` for a header under one of ``system``, the path otherwise."""
    for d in system:
        if fname.startswith(d):
            return f"<{fname[len(d):]}>"
    return fname


def parse_file(path: str, options: Options, contents: bytes | None = None,
               headers: Mapping[str, bytes] | None = None) -> TranslationUnit:
    """Parse ``path`` (or ``contents`` under that name, for stdin) and return its IR.

    ``headers`` stand in for the files of those paths on disk (a fix to a header,
    re-checked before it is written).

    Raises FrontendError when the file cannot be read or parsed at all; clang errors in
    a file that still parses become ``Note``s on the returned unit.
    """
    source = _read(path) if contents is None else contents
    documents = _documents
    if documents is not None and not headers:
        # a long-lived process that keeps each document's translation unit (the language
        # server's worker, see keep_documents): reparse it instead of parsing from scratch
        return documents.parse(path, options, source)
    # The IR of an unchanged file from an earlier run (``--cache-dir``; see
    # cudalint.frontend.cache for what is compared). Not with headers overlaid.
    cache_dir = _cache.directory() if not headers and _cache.cacheable(options) else None
    entry, started = "", time.time_ns()
    if cache_dir is not None:
        try:
            entry = _cache.key(path, source, options, clang_args(options))
        except (OSError, ValueError):  # no working directory, say: no cache
            cache_dir = None
        else:
            cached = _cache.load(cache_dir, entry)
            if cached is not None:
                return cached
            # made before the parse starts: it may lie in a directory the entry records
            _cache.prepare(cache_dir)
            started = time.time_ns()
    index = _get_index()
    unsaved: list[tuple[str, str | bytes]] = [(path, source)]
    unsaved.extend((os.path.abspath(h), text) for h, text in (headers or {}).items())
    unsaved.extend(shim.unsaved_files())
    args = clang_args(options)
    if options.cuda_path is None:
        args = _with_precompiled_shim(args)
    rdc = False
    try:
        tu = index.parse(path, args=args, unsaved_files=unsaved, options=PARSE_KEEP_GOING)
        if _needs_rdc(tu):
            rdc = True
            args = clang_args(options, rdc=True)
            if options.cuda_path is None:
                args = _with_precompiled_shim(args)
            tu = index.parse(path, args=args, unsaved_files=unsaved, options=PARSE_KEEP_GOING)
    except ci.TranslationUnitLoadError as exc:
        raise FrontendError(f"{path}: libclang could not parse the file: {exc}") from exc
    notes = _diagnostic_notes(tu, path, options)
    unit = walk_translation_unit(tu, path, source, notes, options.defines, options.arch,
                                 lazy=lazy_walk(options))
    if rdc:
        unit = dataclasses.replace(unit, rdc=True)
    if cache_dir is not None:
        with contextlib.suppress(Exception):  # a cache that fails is no cache
            _cache.store(cache_dir, entry, unit, path, options, started)
    return unit


# --- documents kept between edits (the language server, issue 15) -------------------------

#: CXTranslationUnit_PrecompiledPreamble: from the first reparse on, the lines before the
#: first line of code (the ``#include``s) are a precompiled preamble that every reparse
#: loads, until a file it read changes. (Not CreatePreambleOnFirstParse: the first parse
#: must list every include, see ``ParsedDocument``.)
PARSE_PRECOMPILED_PREAMBLE = 0x04
#: The options of a document's parses and reparses.
DOCUMENT_OPTIONS = PARSE_KEEP_GOING | PARSE_PRECOMPILED_PREAMBLE

#: A line of the main file that is a preprocessor directive (with its continuation lines).
_DIRECTIVE = re.compile(rb"^[ \t]*#(?:[^\n]*\\\r?\n)*[^\n]*", re.MULTILINE)


class _Inclusion(NamedTuple):
    """What the walker and :func:`_include_sites` read of a ``ci.FileInclusion``."""

    source: ci.File | None
    include: ci.File
    location: ci.SourceLocation
    depth: int


class _ReparsedUnit:
    """A reparsed translation unit, as the walker reads it, with the includes of the
    document's first parse: libclang's ``clang_getInclusions`` leaves out (and reorders)
    what lies in a precompiled preamble, and the walker scans the project headers it
    lists. Everything else is the unit's own (``_as_parameter_`` lets it stand for the
    unit in libclang calls)."""

    def __init__(self, tu: ci.TranslationUnit,
                 includes: list[tuple[str, str | None, int, int, int]]) -> None:
        self._tu = tu
        self._as_parameter_ = tu._as_parameter_
        self._includes = includes

    def __getattr__(self, name: str) -> object:
        return getattr(self._tu, name)

    def get_includes(self) -> list[_Inclusion]:
        out = []
        for name, source, line, column, depth in self._includes:
            include = self._tu.get_file(name)
            if source is None:
                out.append(_Inclusion(None, include, ci.SourceLocation.from_offset(
                    self._tu, include, 0), depth))
                continue
            where = self._tu.get_file(source)
            out.append(_Inclusion(where, include, ci.SourceLocation.from_position(
                self._tu, where, line, column), depth))
        return out


def _inclusions(tu: ci.TranslationUnit) -> list[tuple[str, str | None, int, int, int]]:
    """``tu``'s includes as plain data: (file, including file, line, column, depth)."""
    out: list[tuple[str, str | None, int, int, int]] = []
    for inc in tu.get_includes():
        loc = inc.location
        source = str(loc.file.name) if loc.file is not None else None
        out.append((str(inc.include.name), source, loc.line, loc.column, inc.depth))
    return out


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_mtime_ns, st.st_size


class ParsedDocument:
    """One document's libclang translation unit, kept from edit to edit.

    :meth:`parse` hands out the same IR as :func:`parse_file` on the same text and
    options, but reparses the unit it keeps (``clang_reparseTranslationUnit`` with the
    new text as an unsaved file) instead of building a new one: from the first reparse
    on, the ``#include`` block is a precompiled preamble, and clang reads only the code
    after it. The includes the walker sees are those of the first parse (see
    :class:`_ReparsedUnit`), valid while the main file's preprocessor directives and the
    included files are unchanged; when either changes, or the clang arguments do, or a
    reparse fails, the document is parsed from scratch. Header bodies are not skipped:
    project headers hold kernels and the helpers they call, which the walker needs.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._tu: ci.TranslationUnit | None = None
        self._args: list[str] | None = None
        self._includes: list[tuple[str, str | None, int, int, int]] = []
        self._signature: tuple[object, ...] = ()
        #: Whether the document launches kernels from device code (parsed with ``RDC``).
        self._rdc = False
        #: The previous walk's results, reused where their inputs did not change
        #: (``cudalint.frontend.reuse``); emptied with the unit.
        self.walks = WalkReuse()
        # one parse at a time: an analysis thread that outlived its time budget may still
        # be walking the unit (its worker ends soon after, see cudalint.manager)
        self._lock = threading.Lock()
        #: Parses from scratch and reparses done (for tests and benchmarks).
        self.parses = 0
        self.reparses = 0

    def _signature_of(self, source: bytes) -> tuple[object, ...]:
        """What decides the includes: the main file's directives, the included files."""
        directives = tuple(m.group(0) for m in _DIRECTIVE.finditer(source))
        files = tuple((name, _stat(name)) for name, *_ in self._includes
                      if not name.startswith(shim.SHIM_DIR))
        return directives, files

    def parse(self, options: Options, source: bytes) -> TranslationUnit:
        """The IR of ``source`` as the document's text under ``options``.

        Raises FrontendError as :func:`parse_file` does."""
        with self._lock:
            return self._parse(options, source)

    def _parse(self, options: Options, source: bytes) -> TranslationUnit:
        args = clang_args(options, rdc=self._rdc)
        if options.cuda_path is None:
            args = _with_precompiled_shim(args)
        unsaved: list[tuple[str, str | bytes]] = [(self.path, source)]
        unsaved.extend(shim.unsaved_files())
        tu = self._tu
        walked: ci.TranslationUnit | _ReparsedUnit | None = None
        if tu is not None and args == self._args and self._signature_of(source) == self._signature:
            try:
                tu.reparse(unsaved_files=unsaved, options=DOCUMENT_OPTIONS)
                walked = _ReparsedUnit(tu, self._includes)
                self.reparses += 1
            except ci.TranslationUnitLoadError:
                walked = None  # clang dropped the unit: parse it anew
        if walked is None:
            # the walker's results stay where only the text changed (a ``#define``, an
            # include): their keys say what they read (``cudalint.frontend.reuse``)
            walks, same_args, self.walks = self.walks, args == self._args, WalkReuse()
            self.close()
            if same_args:
                self.walks = walks
            try:
                tu = _get_index().parse(self.path, args=args, unsaved_files=unsaved,
                                        options=DOCUMENT_OPTIONS)
                if not self._rdc and _needs_rdc(tu):  # kept for the document's reparses
                    self._rdc = True
                    args = clang_args(options, rdc=True)
                    if options.cuda_path is None:
                        args = _with_precompiled_shim(args)
                    tu = _get_index().parse(self.path, args=args, unsaved_files=unsaved,
                                            options=DOCUMENT_OPTIONS)
            except ci.TranslationUnitLoadError as exc:
                raise FrontendError(
                    f"{self.path}: libclang could not parse the file: {exc}") from exc
            self.parses += 1
            try:
                self._includes = _inclusions(tu)
            except Exception:  # an include libclang cannot describe: never reparse
                self._includes = []
            else:
                self._tu, self._args = tu, args
                self._signature = self._signature_of(source)
            walked = tu
        unit_tu = cast(ci.TranslationUnit, walked)
        notes = _diagnostic_notes(unit_tu, self.path, options)
        unit = walk_translation_unit(unit_tu, self.path, source, notes, options.defines,
                                     options.arch, reuse=self.walks)
        return dataclasses.replace(unit, rdc=True) if self._rdc else unit

    def close(self) -> None:
        """Free the translation unit (the next :meth:`parse` parses from scratch)."""
        self._tu, self._args, self._includes, self._signature = None, None, [], ()
        self.walks.clear()


class DocumentStore:
    """The :class:`ParsedDocument` of each path, the ``limit`` most recently parsed."""

    def __init__(self, limit: int = 8) -> None:
        self.limit = max(1, limit)
        self._documents: OrderedDict[str, ParsedDocument] = OrderedDict()
        self._lock = threading.Lock()

    def document(self, path: str) -> ParsedDocument:
        with self._lock:
            doc = self._documents.pop(path, None) or ParsedDocument(path)
            self._documents[path] = doc
            while len(self._documents) > self.limit:
                _, old = self._documents.popitem(last=False)
                old.close()
            return doc

    def parse(self, path: str, options: Options, source: bytes) -> TranslationUnit:
        return self.document(path).parse(options, source)

    def forget(self, path: str) -> None:
        with self._lock:
            doc = self._documents.pop(path, None)
        if doc is not None:
            doc.close()


_documents: DocumentStore | None = None


def keep_documents(limit: int | None = 8) -> DocumentStore | None:
    """From now on, in this process, :func:`parse_file` keeps the translation unit of the
    ``limit`` most recent paths and reparses it when the path is parsed again (without
    ``headers``; the parse cache is not used then). ``None``: parse from scratch again.
    For a long-lived process that parses the same documents over and over (the language
    server's worker); the IR is the same as from a fresh parse."""
    global _documents
    old, _documents = _documents, (DocumentStore(limit) if limit is not None else None)
    if old is not None:
        for path in list(old._documents):
            old.forget(path)
    return _documents


# --- ``-v``: the command line a user can run (issue 13, item 5) ----------------------------


def command_line(path: str, options: Options, shim_dir: str | None = None,
                 rdc: bool = False) -> list[str]:
    """The clang command that parses ``path`` as :func:`parse_file` does, for ``-v``
    (``rdc``: the one with ``RDC``, which a file that launches kernels from device code is
    parsed with, ``TranslationUnit.rdc``).

    ``clang_args`` plus what libclang-ng appends by itself (its resource directory, and
    its bundled libc++ when no ``-isystem`` is given), then ``-fsyntax-only`` and the
    file. The shim is named as ``-include`` (``parse_file`` loads the same text as a
    precompiled header). The shim's files are virtual; with ``shim_dir`` (see
    :func:`write_shim`) they are named at their copies there, so the line runs as is.
    """
    args = clang_args(options, rdc=rdc)
    config = ci.Config
    resource_dir = getattr(config, "resource_dir", None)
    if (isinstance(resource_dir, str) and os.path.isdir(resource_dir)
            and "-resource-dir" not in args):
        args += ["-resource-dir", resource_dir]
    libcxx_dir = getattr(config, "libcxx_dir", None)
    if isinstance(libcxx_dir, str) and os.path.isdir(libcxx_dir) and "-isystem" not in args:
        args += ["-isystem", libcxx_dir]
    args = ["clang", *args, "-fsyntax-only", path]
    if shim_dir is not None:
        if options.cuda_path is None:  # the empty stand-in toolkit lives beside the shim
            nocuda = os.path.join(shim_dir, "nocuda")
            args = [f"--cuda-path={nocuda}" if a.startswith("--cuda-path=") else a
                    for a in args]
        prefix = shim.SHIM_DIR + "/"
        args = [
            a.replace(shim.SHIM_DIR, shim_dir, 1) if a.startswith(prefix) or (
                a.startswith(("-I", "-include")) and prefix in a
            ) else a
            for a in args
        ]
    return args


def write_shim(directory: str) -> None:
    """Write the shim's virtual files under ``directory`` (as under ``SHIM_DIR``), and
    the empty ``nocuda`` directory that stands in for a toolkit."""
    os.makedirs(os.path.join(directory, "nocuda"), exist_ok=True)
    for virtual, text in shim.unsaved_files():
        target = os.path.join(directory, os.path.relpath(virtual, shim.SHIM_DIR))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        data = text.encode("utf-8") if isinstance(text, str) else text
        try:
            with open(target, "rb") as f:
                if f.read() == data:
                    continue
        except OSError:
            pass
        with open(target, "wb") as f:
            f.write(data)
