"""Finding a project's files and build: ``.gitignore``/``.ignore`` files, and the
``compile_commands.json`` a file is built with (found as clangd finds it).

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

import os
from dataclasses import dataclass

import pathspec

__all__ = ["IgnoreFiles", "find_compile_commands"]

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
