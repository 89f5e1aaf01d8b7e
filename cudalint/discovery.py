"""Finding a project's files and build: the files a run analyses (``expand_paths``:
directories walked in sorted order, ``--exclude`` globs, headers with device code),
``.gitignore``/``.ignore`` files, and the ``compile_commands.json`` a file is built with
(found as clangd finds it). flake8 calls the first part ``discover_files``.

Ignore files (``respect-gitignore``, on by default; ``--no-respect-gitignore``):

- ``.gitignore`` files, and the repository's ``.git/info/exclude``, apply inside a git
  repository (a directory holding ``.git``), from its top down, as git reads them;
- ``.ignore`` files (ripgrep's and ruff's) apply anywhere, and win over a
  ``.gitignore`` in the same directory;
- a deeper file wins over one above it (a ``!pattern`` there re-includes); patterns
  are matched with ``pathspec``'s git semantics (``build/`` matches directories only).

They decide what a directory walk finds, not what is named: a file or directory given
on the command line (or by pre-commit, or opened in an editor) is analysed even when it
is ignored, and a directory given that is itself ignored is walked without them.

Compilation databases: from a file's directory upwards, each directory's own
``compile_commands.json``, then those in its ``build*/`` directories (``build`` first,
then the others in name order); the first found wins. The search stops at the top of the
git repository (the directory holding ``.git``), or at the file system's root outside one.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

__all__ = [
    "CUDA_SUFFIXES",
    "HEADER_SUFFIXES",
    "ExcludeMatcher",
    "IgnoreFiles",
    "discovered_headers",
    "expand_paths",
    "find_compile_commands",
    "is_header",
    "path_key",
]

IGNORE_NAMES = (".ignore", ".gitignore")
COMPDB_NAME = "compile_commands.json"


def repository_root(directory: str) -> str | None:
    """The top of the git work tree ``directory`` is in (where ``.git`` is), or None."""
    current = os.path.abspath(directory)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _build_dirs(directory: str) -> list[str]:
    try:
        names = [e.name for e in os.scandir(directory)
                 if e.name.startswith("build") and e.is_dir()]
    except OSError:
        return []
    return sorted(names, key=lambda n: (n != "build", n))


def find_compile_commands(directory: str) -> tuple[str | None, list[str]]:
    """The ``compile_commands.json`` that applies to files in ``directory`` (None: none),
    and the others found in the same directory's ``build*/`` folders, which lost."""
    top = repository_root(directory)
    current = os.path.abspath(directory)
    while True:
        found = []
        own = os.path.join(current, COMPDB_NAME)
        if os.path.isfile(own):
            found.append(own)
        for name in _build_dirs(current):
            candidate = os.path.join(current, name, COMPDB_NAME)
            if os.path.isfile(candidate):
                found.append(candidate)
        if found:
            return found[0], found[1:]
        parent = os.path.dirname(current)
        if current == top or parent == current:
            return None, []
        current = parent


@dataclass(frozen=True)
class _IgnoreFile:
    path: str
    base: str
    spec: pathspec.GitIgnoreSpec


def _read_spec(path: str) -> pathspec.GitIgnoreSpec | None:
    import pathspec  # only where a directory is walked (not for files given by name)

    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:  # unreadable, a directory, gone: as git, ignore it
        return None
    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except Exception:  # a pattern pathspec cannot compile: keep the others
        good = []
        for line in lines:
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except Exception:
                continue
            good.append(line)
        return pathspec.GitIgnoreSpec.from_lines(good)


class IgnoreFiles:
    """Answers "is this path ignored?" from the ignore files above it (cached)."""

    def __init__(self) -> None:
        self._by_dir: dict[str, list[_IgnoreFile]] = {}
        self._roots: dict[str, str | None] = {}

    def _root(self, directory: str) -> str | None:
        if directory not in self._roots:
            self._roots[directory] = repository_root(directory)
        return self._roots[directory]

    def _files(self, directory: str) -> list[_IgnoreFile]:
        """The ignore files that apply in ``directory`` itself, the strongest first."""
        cached = self._by_dir.get(directory)
        if cached is not None:
            return cached
        root = self._root(directory)
        files: list[_IgnoreFile] = []
        for name in IGNORE_NAMES:
            if name == ".gitignore" and root is None:
                continue
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                spec = _read_spec(path)
                if spec is not None:
                    files.append(_IgnoreFile(path, directory, spec))
        if root == directory:
            exclude = os.path.join(directory, ".git", "info", "exclude")
            if os.path.isfile(exclude):
                spec = _read_spec(exclude)
                if spec is not None:
                    files.append(_IgnoreFile(exclude, directory, spec))
        self._by_dir[directory] = files
        return files

    def ignored_by(self, path: str, is_dir: bool) -> str | None:
        """The ignore file that ignores ``path`` (None: not ignored)."""
        absolute = os.path.abspath(path)
        directory = os.path.dirname(absolute)
        root = self._root(directory)
        while True:
            for f in self._files(directory):
                rel = os.path.relpath(absolute, f.base).replace(os.sep, "/")
                if is_dir:
                    rel += "/"
                result = f.spec.check_file(rel)
                if result.include is not None:
                    return f.path if result.include else None
            parent = os.path.dirname(directory)
            if directory == root or parent == directory:
                # above the repository only .ignore files apply
                if directory == root and parent != directory:
                    return self._above(absolute, parent, is_dir)
                return None
            directory = parent

    def _above(self, absolute: str, directory: str, is_dir: bool) -> str | None:
        while True:
            for f in self._files(directory):
                if os.path.basename(f.path) != ".ignore":
                    continue
                rel = os.path.relpath(absolute, f.base).replace(os.sep, "/")
                result = f.spec.check_file(rel + ("/" if is_dir else ""))
                if result.include is not None:
                    return f.path if result.include else None
            parent = os.path.dirname(directory)
            if parent == directory:
                return None
            directory = parent


# --- the files a run analyses ---------------------------------------------------------

#: File name endings picked up when a directory is given.
CUDA_SUFFIXES = (".cu", ".cuh")
#: Header endings picked up in a directory only when the file holds device code that can
#: be analysed on its own (a ``__global__`` kernel or a ``__shared__`` declaration).
HEADER_SUFFIXES = (".h", ".hpp", ".inl")
_DEVICE_CODE_MARKERS = (b"__global__", b"__shared__")
#: How much of a header the discovery check reads.
_DEVICE_CODE_SCAN_BYTES = 4 << 20


class ExcludeMatcher:
    """``--exclude``/``exclude`` globs, each relative to a base directory.

    A pattern excludes a path when it matches the path relative to its base, or the
    name of the path or of any directory above it (below the base): ``build`` excludes
    every directory called build, ``*.gen.cu`` every such file, ``third_party/*`` the
    directory at the base. ``*`` also matches ``/``, as in ruff's and flake8's globs.
    """

    def __init__(self, patterns: Iterable[tuple[str, str]] = ()) -> None:
        self.patterns = [
            (p.rstrip("/").replace(os.sep, "/"), os.path.abspath(base)) for p, base in patterns
        ]

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def __call__(self, path: str) -> bool:
        absolute = os.path.abspath(path)
        for pattern, base in self.patterns:
            try:
                rel = os.path.relpath(absolute, base).replace(os.sep, "/")
            except ValueError:  # another drive
                rel = absolute.replace(os.sep, "/")
            parts = [p for p in rel.split("/") if p not in ("", ".")]
            if parts and parts[0] == "..":
                # Outside the base: only names can match.
                parts = [os.path.basename(absolute)]
                if fnmatch.fnmatchcase(parts[0], pattern):
                    return True
                continue
            for k in range(1, len(parts) + 1):
                if fnmatch.fnmatchcase(parts[k - 1], pattern) or fnmatch.fnmatchcase(
                    "/".join(parts[:k]), pattern
                ):
                    return True
        return False


def _walk(
    directory: str, errors: list[tuple[str, str]], exclude: Callable[[str], bool] | None
) -> list[str]:
    def onerror(exc: OSError) -> None:
        errors.append((str(exc.filename or directory), exc.strerror or str(exc)))

    found: list[str] = []
    for root, dirs, files in os.walk(directory, onerror=onerror):
        dirs[:] = sorted(
            d for d in dirs
            if not d.startswith(".") and not (exclude and exclude(os.path.join(root, d)))
        )
        found.extend(
            path
            for path in (
                _joined(root, f)
                for f in files
                if f.endswith(CUDA_SUFFIXES + HEADER_SUFFIXES) and not f.startswith(".")
            )
            if not (exclude and exclude(path))
            and (path.endswith(CUDA_SUFFIXES) or _has_device_code(path))
        )
    return sorted(found)


def _joined(root: str, name: str) -> str:
    # ``cudalint .`` shows ``src/a.cu``, not ``./src/a.cu``: the spelling the headers that
    # files include are shown in (see cudalint.frontend.walker.display_path).
    path = os.path.join(root, name)
    if path.startswith("." + os.sep):
        path = path[2:]
    return path


def _has_device_code(path: str) -> bool:
    """A cheap text check that a header found in a directory holds a kernel or a shared
    array (a plain C/C++ header analysed on its own gives nothing but noise)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return False
            data = f.read(_DEVICE_CODE_SCAN_BYTES)
    except OSError:
        return False
    return any(m in data for m in _DEVICE_CODE_MARKERS)


def expand_paths(
    paths: Iterable[str], exclude: Callable[[str], bool] | None = None
) -> list[tuple[str, str | None]]:
    """Files to analyze, each with an error when it cannot even be listed.

    Given files are kept as given (even when missing, so that ``check_file`` reports
    them) unless ``exclude`` matches them; directories are recursed into for
    ``.cu``/``.cuh`` files, and ``.h``/``.hpp``/``.inl`` files that contain
    ``__global__`` or ``__shared__``, in sorted order, skipping hidden (``.name``) and
    excluded files and directories.
    """
    seen: set[str] = set()
    out: list[tuple[str, str | None]] = []
    for path in paths:
        candidates: list[tuple[str, str | None]]
        if exclude is not None and path not in ("-", "") and exclude(path):
            continue
        if os.path.isdir(path):
            errors: list[tuple[str, str]] = []
            files = _walk(path, errors, exclude)
            candidates = [(f, None) for f in files]
            candidates += [(p, f"cannot read directory: {why}") for p, why in errors]
        else:
            candidates = [(path, None)]
        for candidate, error in candidates:
            key = os.path.normpath(os.path.abspath(candidate))
            if key not in seen:
                seen.add(key)
                out.append((candidate, error))
    return out



def is_header(path: str) -> bool:
    """A header by its name (``.cuh``, ``.h``, ``.hpp``, ``.inl``), not a ``.cu`` file."""
    return path.endswith((".cuh", *HEADER_SUFFIXES))


def discovered_headers(paths: Iterable[str], exclude: Callable[[str], bool] | None = None
                       ) -> set[str]:
    """The headers (absolute paths) that directories in ``paths`` give and that are not
    themselves named in ``paths``: each is analysed on its own only when no file of the
    run includes it (see ``run_tasks``)."""
    paths = list(paths)
    named = {path_key(p) for p in paths if p not in ("-", "") and not os.path.isdir(p)}
    found: set[str] = set()
    for p in paths:
        if p in ("-", "") or not os.path.isdir(p):
            continue
        for file, error in expand_paths([p], exclude):
            if error is None and is_header(file) and path_key(file) not in named:
                found.add(path_key(file))
    return found


def path_key(path: str) -> str:
    """``path`` absolute, normalized and case-folded where the file system folds case:
    the key under which one run knows a file."""
    try:
        return os.path.normcase(os.path.normpath(os.path.abspath(path)))
    except ValueError:  # pragma: no cover - odd characters in a path
        return path
