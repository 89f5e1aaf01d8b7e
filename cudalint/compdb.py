"""Compilation databases (``compile_commands.json``): the flags each file is built with.

The JSON is parsed here (libclang's reader only takes a directory and does not expand
response files). Each entry's command is split like a POSIX shell, ``@file`` and nvcc's
``--options-file FILE`` response files are expanded (relative to the entry's
``directory``), and nvcc's flags are translated to what the analysis needs:

- kept: ``-D``, ``-U``, ``-I``, ``-isystem``, ``-include``, ``-std`` (every spelling:
  ``-DX``/``-D X``/``--define-macro X``, ``-std=c++17``/``-std c++17``/``--std c++17``);
  relative directories and files are made absolute against the entry's ``directory``;
- mapped to the analysis architecture: ``-arch``/``--gpu-architecture``, ``-code``/
  ``--gpu-code``, ``-gencode``/``--generate-code`` (``arch=compute_80,code=[sm_80]``)
  and clang's ``--cuda-gpu-arch``/``--offload-arch``. With several architectures the
  newest one is analyzed (``native``, ``all`` and ``all-major`` name none);
- dropped: everything else (host-compiler flags, ``-Xcompiler ...``, ``-o``, ``-x cu``,
  optimization and code-generation flags), each with its value.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from cudalint.budget import read_regular
from cudalint.model.arch import ArchError, parse_arch

__all__ = ["CompdbError", "CompileDatabase", "CompileFlags", "translate"]

#: Response files nest at most this deep (a file that includes itself stops here).
MAX_RESPONSE_DEPTH = 16

# nvcc (and clang/gcc) flags whose value is the next argument when not joined with '='.
_TAKES_VALUE = frozenset({
    "-o", "--output-file", "-x", "--x", "-ccbin", "--compiler-bindir",
    "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options",
    "-Xnvlink", "--nvlink-options", "-Xlinker", "--linker-options",
    "-Xarchive", "--archive-options", "-Xfatbin", "--fatbin-options", "-Xcudafe",
    "-l", "--library", "-L", "--library-path", "-odir", "--output-directory",
    "-MF", "--dependency-output", "-MT", "-MQ", "-maxrregcount", "--maxrregcount",
    "-t", "--threads", "-rdc", "--relocatable-device-code", "-m", "--machine",
    "-cudart", "--cudart", "-cudadevrt", "--cudadevrt", "-keep-dir", "--keep-dir",
    "-default-stream", "--default-stream", "-diag-suppress", "--diag-suppress",
    "-ftz", "--ftz", "-prec-div", "--prec-div", "-prec-sqrt", "--prec-sqrt",
    "-fmad", "--fmad", "-Xclang", "-target", "-arch-ls", "-ldir", "--libdevice-directory",
    "-time", "--time", "-split-compile", "--split-compile", "-dopt", "--dopt",
    "-Werror", "--Werror", "-gen-opt-lto", "-run-args", "--run-args",
    "-idirafter", "-iquote", "-imacros", "-isysroot", "--sysroot",
})
_ARCH_FLAGS = ("-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode",
               "--generate-code", "--cuda-gpu-arch", "--offload-arch")
_RESPONSE_FLAGS = ("--options-file", "-optf")
_ARCH_NUMBER = re.compile(r"(?:sm|compute|lto)_([0-9]{2,3})[af]?")


class CompdbError(Exception):
    """An unreadable or malformed compilation database (exit 2)."""


@dataclass(frozen=True)
class CompileFlags:
    """What cudalint takes from one file's compile command."""

    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    #: Further clang arguments kept as they are: -U, -isystem, -include.
    extra_args: tuple[str, ...] = ()
    std: str | None = None
    arch: str | None = None
    #: Flags dropped because the analysis has no use for them (for ``-v``).
    dropped: tuple[str, ...] = ()
    #: Architectures named but not analyzed (``native``, or older ones of several).
    notes: tuple[str, ...] = field(default=())


def _split(command: str) -> list[str]:
    try:
        return shlex.split(command, posix=True)
    except ValueError as exc:
        raise CompdbError(f"cannot split command {command!r}: {exc}") from None


def expand_response_files(args: list[str], directory: str, depth: int = 0) -> list[str]:
    """Replace ``@file`` and ``--options-file file`` by the file's arguments."""
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        rsp: str | None = None
        if arg.startswith("@") and len(arg) > 1:
            rsp = arg[1:]
        elif arg in _RESPONSE_FLAGS and i + 1 < len(args):
            rsp = args[i + 1]
            i += 1
        elif arg.startswith(tuple(f + "=" for f in _RESPONSE_FLAGS)):
            rsp = arg.split("=", 1)[1]
        if rsp is None:
            out.append(arg)
            i += 1
            continue
        i += 1
        if depth >= MAX_RESPONSE_DEPTH:
            raise CompdbError(f"response files nested more than {MAX_RESPONSE_DEPTH} deep")
        path = os.path.join(directory, rsp)
        try:
            # a regular file only: a FIFO would block, /dev/zero never end
            text = read_regular(path, "response file").decode("utf-8", errors="replace")
        except OSError as exc:
            raise CompdbError(
                f"cannot read response file {path}: {exc.strerror or exc}"
            ) from None
        if "\0" in text:
            raise CompdbError(f"response file {path} contains a NUL character")
        out.extend(expand_response_files(_split(text), directory, depth + 1))
    return out


def _absolute(directory: str, path: str) -> str:
    return os.path.normpath(os.path.join(directory, path))


def _archs(value: str) -> list[int]:
    return [int(m.group(1)) for m in _ARCH_NUMBER.finditer(value)]


def translate(args: list[str], directory: str) -> CompileFlags:
    """Translate one expanded nvcc/clang argument list (without the compiler)."""
    include_dirs: list[str] = []
    defines: list[str] = []
    extra: list[str] = []
    dropped: list[str] = []
    notes: list[str] = []
    std: str | None = None
    archs: list[int] = []
    i = 0

    def value(flag: str) -> str | None:
        """The value of ``flag`` at args[i]: joined (``-DX``, ``--x=v``) or the next arg."""
        nonlocal i
        arg = args[i]
        if arg == flag:
            if i + 1 < len(args):
                i += 1
                return args[i]
            return None
        if arg.startswith(flag + "="):
            return arg[len(flag) + 1:]
        if not flag.startswith("--") and len(flag) == 2:
            return arg[len(flag):]  # -DX, -Ipath
        if flag in ("-isystem", "-include"):
            return arg[len(flag):]
        return None

    def startswith(arg: str, *flags: str) -> str | None:
        for flag in flags:
            if arg == flag or arg.startswith(flag + "="):
                return flag
            if len(flag) == 2 and arg.startswith(flag):
                return flag
            if flag in ("-isystem", "-include") and arg.startswith(flag):
                return flag
        return None

    while i < len(args):
        arg = args[i]
        if (flag := startswith(arg, "-D", "--define-macro")) is not None:
            v = value(flag)
            if v:
                defines.append(v)
        elif (flag := startswith(arg, "-U", "--undefine-macro")) is not None:
            v = value(flag)
            if v:
                extra += ["-U", v]
        elif (flag := startswith(arg, "-I", "--include-path")) is not None:
            v = value(flag)
            if v:
                include_dirs.append(_absolute(directory, v))
        elif (flag := startswith(arg, "-isystem", "--system-include")) is not None:
            v = value(flag)
            if v:
                extra += ["-isystem", _absolute(directory, v)]
        elif (flag := startswith(arg, "-include", "--pre-include")) is not None:
            v = value(flag)
            if v:
                extra += ["-include", _absolute(directory, v)]
        elif (flag := startswith(arg, "-std", "--std")) is not None and not arg.startswith(
            "-stdlib"
        ):
            v = value(flag)
            if v:
                std = v
        elif (flag := startswith(arg, *_ARCH_FLAGS)) is not None:
            v = value(flag) or ""
            found = _archs(v)
            if found:
                archs.extend(found)
            else:
                notes.append(f"{arg if v in arg else arg + ' ' + v}: names no sm_XX; ignored")
        elif arg in _TAKES_VALUE and i + 1 < len(args):
            dropped += [arg, args[i + 1]]
            i += 1
        elif arg.startswith("-"):
            dropped.append(arg)
        else:
            dropped.append(arg)  # the source file, an object file, a stray value
        i += 1

    arch: str | None = None
    known: list[str] = []
    for number in sorted(set(archs), reverse=True):
        try:
            known.append(parse_arch(str(number)).name)
        except ArchError:
            notes.append(f"sm_{number}: unknown architecture; ignored")
    if known:
        arch = known[0]
        if len(known) > 1:
            notes.append(f"several architectures ({', '.join(known)}); analyzing {arch}")
    return CompileFlags(
        include_dirs=tuple(include_dirs),
        defines=tuple(defines),
        extra_args=tuple(extra),
        std=std,
        arch=arch,
        dropped=tuple(dropped),
        notes=tuple(notes),
    )


def _key(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


@dataclass
class _Entry:
    directory: str
    file: str
    args: list[str]


class CompileDatabase:
    """``compile_commands.json``, looked up by file."""

    def __init__(self, path: str, entries: list[_Entry]) -> None:
        self.path = path
        self._entries: dict[str, _Entry] = {}
        for entry in entries:
            self._entries.setdefault(_key(entry.file), entry)
        self._cache: dict[str, CompileFlags] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def fresh(self) -> CompileDatabase:
        """The same entries without the translated flags cached so far (response files
        are read again): for a database kept across runs (the language server)."""
        copy = CompileDatabase(self.path, [])
        copy._entries = self._entries
        return copy

    @classmethod
    def load(cls, where: str) -> CompileDatabase:
        """Read ``where`` (a ``compile_commands.json`` or a directory holding one)."""
        path = os.path.join(where, "compile_commands.json") if os.path.isdir(where) else where
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as exc:
            raise CompdbError(
                f"{path}: cannot read compilation database: {exc.strerror or exc}"
            ) from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CompdbError(f"{path}: invalid JSON: {exc}") from None
        except RecursionError:
            raise CompdbError(f"{path}: invalid JSON: nested too deeply") from None
        except ValueError as exc:  # an integer of more digits than Python converts
            raise CompdbError(f"{path}: invalid JSON: {exc}") from None
        if not isinstance(data, list):
            raise CompdbError(f"{path}: expected a JSON array of compile commands")
        return cls(path, [cls._entry(path, i, item) for i, item in enumerate(data)])

    @staticmethod
    def _entry(path: str, index: int, item: Any) -> _Entry:
        where = f"{path}: entry {index}"
        if not isinstance(item, dict):
            raise CompdbError(f"{where}: expected an object")
        directory, file = item.get("directory"), item.get("file")
        if not isinstance(directory, str) or not isinstance(file, str):
            raise CompdbError(f"{where}: needs string 'directory' and 'file'")
        arguments, command = item.get("arguments"), item.get("command")
        if isinstance(arguments, list) and all(isinstance(a, str) for a in arguments):
            args = list(arguments)
        elif isinstance(command, str):
            try:
                args = _split(command)
            except CompdbError as exc:
                raise CompdbError(f"{where}: {exc}") from None
        else:
            raise CompdbError(f"{where}: needs 'arguments' (strings) or 'command' (a string)")
        if any("\0" in text for text in (directory, file, *args)):
            # no path or argument holds one; clang would cut the argument short there
            raise CompdbError(f"{where}: contains a NUL character")
        directory = os.path.join(os.path.dirname(os.path.abspath(path)), directory)
        return _Entry(directory, os.path.join(directory, file), args)

    def flags(self, file: str) -> CompileFlags | None:
        """The translated flags of ``file``; None when the database has no entry for it.

        Raises CompdbError when the entry's response files cannot be read.
        """
        key = _key(file)
        entry = self._entries.get(key)
        if entry is None:
            return None
        cached = self._cache.get(key)
        if cached is None:
            args = expand_response_files(entry.args[1:], entry.directory)
            cached = self._cache[key] = translate(args, entry.directory)
        return cached
