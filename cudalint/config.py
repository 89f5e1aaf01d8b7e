"""Configuration files: ``[tool.cudalint]`` in ``pyproject.toml``, or ``cudalint.toml`` /
``.cudalint.toml``.

A file's configuration is the nearest one found by walking up from the file's directory
(in each directory ``.cudalint.toml``, then ``cudalint.toml``, then a ``pyproject.toml``
that has a ``[tool.cudalint]`` table, as ruff does), unless ``--config FILE`` names one
for every file. Relative paths in a configuration (``include-dirs``, ``exclude``,
``per-file-ignores``, ``compile-commands``) are relative to the directory of the file
that holds it.

``extend = "../pyproject.toml"`` builds a configuration on another one, as ruff's
``extend`` does: the extended file's settings apply where this file is silent, this
file's keys win, and each relative path stays relative to the file that names it. The
rule selectors (``select``, ``extend-select``, ``ignore``) of both files are layered,
the extended file's first. A chain of ``extend`` that comes back to a file it has
already read is an error.

This module only reads and validates; the CLI merges the result with its flags
(flags win) into ``Options``.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

from cudalint.model.arch import MAX_THREADS_PER_BLOCK, ArchError, parse_arch

__all__ = [
    "CONFIG_NAMES",
    "KEYS",
    "Config",
    "ConfigError",
    "ConfigFinder",
    "load_config",
]

#: Looked for in each directory, in this order.
CONFIG_NAMES = (".cudalint.toml", "cudalint.toml", "pyproject.toml")


class ConfigError(Exception):
    """An unreadable or invalid configuration file: exit 2 with the message."""


@dataclass(frozen=True)
class Config:
    """One configuration file's settings, validated; None/empty where the file is silent."""

    #: The file it came from; None for the empty configuration (no file found).
    path: str | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: (glob, codes), globs relative to ``root``.
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    arch: str | None = None
    bank_mode: str | None = None
    block_dim: tuple[int, int, int] | None = None
    #: Absolute directories (relative entries are resolved against ``root``).
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    std: str | None = None
    #: Globs, relative to ``root``.
    exclude: tuple[str, ...] = ()
    warn_unused_ignores: bool | None = None
    cuda_path: str | None = None
    #: Seconds per file (0: no limit); None where the file is silent.
    timeout: float | None = None
    #: The directory the file is in (the base of its relative paths).
    root: str = field(default_factory=os.getcwd)
    #: ``compile-commands``: an absolute path (a ``compile_commands.json`` or a directory
    #: holding one), False to look for none, None where the file is silent (look for one).
    compile_commands: str | bool | None = None
    #: ``respect-gitignore``; None where the file is silent (true).
    respect_gitignore: bool | None = None
    #: The files ``extend`` pulled in, nearest first (absolute or as found).
    extends: tuple[str, ...] = ()
    #: The base of ``exclude``'s globs (the directory of the file that set them);
    #: ``root`` when empty.
    exclude_root: str = ""
    #: The base of ``per-file-ignores``' globs; ``root`` when empty.
    per_file_ignores_root: str = ""
    #: The file that set ``exclude`` (this one, or one it extends), for messages.
    exclude_from: str | None = None
    #: The rule selectors of the extended files, (select, extend-select, ignore) each,
    #: applied before this file's own, the farthest first.
    base_rule_layers: tuple[
        tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]], ...
    ] = ()

    @property
    def exclude_base(self) -> str:
        return self.exclude_root or self.root

    @property
    def per_file_ignores_base(self) -> str:
        return self.per_file_ignores_root or self.root

    @property
    def where(self) -> str:
        return self.path or "<defaults>"


# --- validation of single values ---------------------------------------------------------


def _fail(path: str, key: str, value: object, allowed: str) -> ConfigError:
    return ConfigError(
        f"{path}: invalid value for '{key}': {value!r} (allowed: {allowed})"
    )


def _string_list(path: str, key: str, value: object, what: str = "strings") -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(path, key, value, f"a list of {what}")
    if any("\0" in v for v in value):  # clang would cut the argument short there
        raise _fail(path, key, value, f"a list of {what} without NUL characters")
    return tuple(v.strip() for v in value if v.strip())


def _codes(path: str, key: str, value: object) -> tuple[str, ...]:
    from cudalint.rules import RuleSelection, UnknownSelectorError

    codes = _string_list(path, key, value, "rule codes, prefixes or names")
    try:
        RuleSelection.build(select=codes)
    except UnknownSelectorError as exc:
        raise _fail(path, key, value, _rule_list()) from exc
    return codes


def _rule_list() -> str:
    from cudalint.rules import RULES

    return "rule codes, prefixes or names: ALL, " + ", ".join(
        f"{r.code} ({r.name})" for r in RULES.values()
    )


def _arch(path: str, key: str, value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = f"sm_{value}"
    if not isinstance(value, str):
        raise _fail(path, key, value, "an architecture such as \"sm_90\"")
    try:
        return parse_arch(value).name
    except ArchError as exc:
        raise ConfigError(f"{path}: invalid value for '{key}': {exc}") from None


def _bank_mode(path: str, key: str, value: object) -> str:
    text = str(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else None
    if text not in ("4", "8", "both"):
        raise _fail(path, key, value, '4, 8 or "both"')
    return text


def parse_block_dim(text: str) -> tuple[int, int, int]:
    """``"32,8"`` → (32, 8, 1); ValueError with the reason otherwise."""
    parts = [s.strip() for s in text.split(",")]
    if not 1 <= len(parts) <= 3 or not all(re.fullmatch(r"[0-9]+", s) for s in parts):
        raise ValueError("expected X[,Y[,Z]], e.g. 32,8")
    return _dims([int(s) for s in parts])


def _dims(values: list[int]) -> tuple[int, int, int]:
    dims = values + [1] * (3 - len(values))
    if any(d <= 0 for d in dims):
        raise ValueError("every extent must be positive")
    x, y, z = dims
    if x * y * z > MAX_THREADS_PER_BLOCK:
        raise ValueError(f"{x * y * z} threads per block (at most {MAX_THREADS_PER_BLOCK})")
    return x, y, z


def _block_dim(path: str, key: str, value: object) -> tuple[int, int, int]:
    allowed = "a list of 1 to 3 positive integers, e.g. [32, 8], at most 1024 threads"
    try:
        if isinstance(value, str):
            return parse_block_dim(value)
        if (
            isinstance(value, list)
            and 1 <= len(value) <= 3
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            return _dims(list(value))
    except ValueError:
        pass
    raise _fail(path, key, value, allowed)


def _std(path: str, key: str, value: object) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"(?:c|gnu)\+\+\w+", value):
        raise _fail(path, key, value, 'a C++ standard such as "c++17"')
    return value


def _defines(path: str, key: str, value: object) -> tuple[str, ...]:
    allowed = 'a list of "NAME" or "NAME=VALUE" strings, or a table NAME = VALUE'
    if isinstance(value, dict):
        out = []
        for name, v in value.items():
            if not re.fullmatch(r"[A-Za-z_]\w*", name) or isinstance(v, (list, dict)):
                raise _fail(path, key, value, allowed)
            text = ("1" if v else "0") if isinstance(v, bool) else str(v)
            out.append(f"{name}={text}")
        return tuple(out)
    items = _string_list(path, key, value) if isinstance(value, (list, str)) else None
    if items is None or not all(re.fullmatch(r"[A-Za-z_]\w*(=.*)?", d) for d in items):
        raise _fail(path, key, value, allowed)
    return items


def _string(path: str, key: str, value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        raise _fail(path, key, value, what)
    return value.strip()


def _bool(path: str, key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, key, value, "true or false")
    return value


def parse_timeout(value: object) -> float:
    """A per-file time budget in seconds: a number >= 0 (0 turns the limit off)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError("expected a number of seconds")
    try:
        seconds = float(value)
    except (ValueError, OverflowError):  # OverflowError: an integer past float's range
        raise ValueError("expected a number of seconds") from None
    if not seconds >= 0 or seconds == float("inf"):
        raise ValueError("expected a number of seconds, 0 or more (0: no limit)")
    return seconds


def _timeout(path: str, key: str, value: object) -> float:
    if isinstance(value, str):
        raise _fail(path, key, value, "a number of seconds, 0 or more (0: no limit)")
    try:
        return parse_timeout(value)
    except ValueError:
        raise _fail(path, key, value, "a number of seconds, 0 or more (0: no limit)") from None


def _per_file_ignores(
    path: str, key: str, value: object
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise _fail(path, key, value, 'a table of glob = ["CL001", ...]')
    return tuple(
        (glob, _codes(path, f"{key}.{glob}", codes)) for glob, codes in value.items()
    )


def _compile_commands(path: str, key: str, value: object) -> str | bool:
    if value is False:
        return False
    return _string(path, key, value,
                   "a compile_commands.json, a directory holding one, or false")


#: Every key a configuration may hold, and how its value is checked.
KEYS: dict[str, Callable[[str, str, object], Any]] = {
    "select": _codes,
    "extend-select": _codes,
    "ignore": _codes,
    "per-file-ignores": _per_file_ignores,
    "arch": _arch,
    "bank-mode": _bank_mode,
    "block-dim": _block_dim,
    "include-dirs": lambda p, k, v: _string_list(p, k, v, "directories"),
    "defines": _defines,
    "std": _std,
    "exclude": lambda p, k, v: _string_list(p, k, v, "glob patterns"),
    "warn-unused-ignores": _bool,
    "cuda-path": lambda p, k, v: _string(p, k, v, "a directory"),
    "timeout": _timeout,
    "extend": lambda p, k, v: _string(p, k, v, "a configuration file"),
    "compile-commands": _compile_commands,
    "respect-gitignore": _bool,
}


def parse_config(table: Mapping[str, Any], path: str, where: str = "",
                 _chain: tuple[str, ...] = ()) -> Config:
    """Validate the ``[tool.cudalint]`` table (or a whole cudalint.toml) of ``path``,
    with the configuration it ``extend``s beneath it."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        check = KEYS.get(key)
        if check is None:
            allowed = ", ".join(KEYS)
            raise ConfigError(f"{path}: unknown key '{where}{key}' (allowed: {allowed})")
        values[key.replace("-", "_")] = check(path, key, value)
    root = os.path.dirname(os.path.abspath(path))
    if "include_dirs" in values:
        values["include_dirs"] = tuple(
            os.path.normpath(os.path.join(root, d)) for d in values["include_dirs"]
        )
    if values.get("cuda_path") is not None:
        values["cuda_path"] = os.path.normpath(os.path.join(root, values["cuda_path"]))
    if isinstance(values.get("compile_commands"), str):
        values["compile_commands"] = os.path.normpath(
            os.path.join(root, values["compile_commands"]))
    if "exclude" in values:
        values["exclude_root"] = root
        values["exclude_from"] = path
    if "per_file_ignores" in values:
        values["per_file_ignores_root"] = root
    if "bank_mode" in values and values["bank_mode"] != "4":
        arch = values.get("arch")
        if arch is not None and parse_arch(arch).family != "kepler":
            raise ConfigError(
                f"{path}: invalid value for 'bank-mode': {values['bank_mode']!r} needs a "
                f"Kepler 'arch' (sm_30 to sm_37), not {arch} (allowed here: 4)"
            )
    extend = values.pop("extend", None)
    own = Config(path=path, root=root, **values)
    if extend is None:
        return own
    return _extended(own, set(values), extend, (*_chain, os.path.realpath(path)))


#: Config fields an extending file inherits where it is silent (the rule selectors are
#: layered instead; the bookkeeping fields are set below).
_INHERITED = frozenset(
    name for name in (f.name for f in fields(Config))
    if name not in ("path", "root", "extends", "base_rule_layers", "select",
                    "extend_select", "ignore", "exclude_root", "per_file_ignores_root",
                    "exclude_from")
)
#: ``extend`` chains longer than this are refused (a cycle is caught before).
MAX_EXTEND_DEPTH = 32


def _extended(own: Config, keys: set[str], extend: str, chain: tuple[str, ...]) -> Config:
    """``own`` over the configuration its ``extend`` names (ruff's semantics)."""
    path = own.path or "<defaults>"
    target = os.path.normpath(os.path.join(own.root, extend))
    shown = shown_path(target)
    if os.path.realpath(target) in chain:
        files = [shown_path(p) for p in chain[chain.index(os.path.realpath(target)):]]
        raise ConfigError(f"{path}: 'extend' makes a cycle: "
                          f"{' -> '.join([*files, shown])}")
    if len(chain) > MAX_EXTEND_DEPTH:
        raise ConfigError(f"{path}: 'extend' chain longer than {MAX_EXTEND_DEPTH} files")
    if not os.path.isfile(target):
        raise ConfigError(f"{path}: invalid value for 'extend': {extend!r} "
                          f"({shown}: no such file)")
    base = _load(shown, chain)
    inherited: dict[str, Any] = {
        name: getattr(base, name) for name in _INHERITED if name not in keys
    }
    if "exclude" not in keys:
        inherited["exclude_root"] = base.exclude_base
        inherited["exclude_from"] = base.exclude_from
    if "per_file_ignores" not in keys:
        inherited["per_file_ignores_root"] = base.per_file_ignores_base
    layers = base.base_rule_layers
    if base.select is not None or base.extend_select or base.ignore:
        layers = (*layers, (base.select, base.extend_select, base.ignore))
    return replace(own, **inherited, base_rule_layers=layers,
                   extends=(base.path or shown, *base.extends))


def _read_toml(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            data: dict[str, Any] = tomllib.load(f)
            return data
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def _tool_table(data: dict[str, Any], path: str) -> dict[str, Any] | None:
    tool = data.get("tool")
    if not isinstance(tool, dict) or "cudalint" not in tool:
        return None
    table = tool["cudalint"]
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.cudalint] must be a table")
    return table


def load_config(path: str) -> Config:
    """Read one configuration file; a ``pyproject.toml`` without ``[tool.cudalint]`` is empty."""
    return _load(path, ())


def _load(path: str, chain: tuple[str, ...]) -> Config:
    data = _read_toml(path)
    if os.path.basename(path) == "pyproject.toml":
        table = _tool_table(data, path)
        return parse_config(table or {}, path, "tool.cudalint.", chain)
    return parse_config(data, path, "", chain)


def shown_path(path: str) -> str:
    """``path`` relative to the working directory when it is below it, else absolute."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive (Windows)
        return absolute
    return absolute if relative.startswith(os.pardir) else relative


class ConfigFinder:
    """The configuration of each file: ``--config`` for all, else the nearest one found."""

    def __init__(self, explicit: str | None = None, isolated: bool = False) -> None:
        self._explicit = load_config(explicit) if explicit is not None else None
        self._isolated = isolated
        self._by_dir: dict[str, Config] = {}

    def for_path(self, path: str) -> Config:
        """The configuration of the file or directory ``path``."""
        if self._explicit is not None:
            return self._explicit
        if self._isolated:
            return Config()
        start = os.path.abspath(path)
        if not os.path.isdir(start):
            start = os.path.dirname(start)
        return self._for_dir(start)

    @property
    def isolated(self) -> bool:
        """``--isolated``: no configuration file (and no compilation database) is
        looked for."""
        return self._isolated

    def for_directory(self, directory: str) -> Config:
        """The configuration of the files in ``directory`` (which need not exist)."""
        if self._explicit is not None:
            return self._explicit
        if self._isolated:
            return Config()
        return self._for_dir(os.path.abspath(directory))

    def _for_dir(self, directory: str) -> Config:
        seen: list[str] = []
        current = directory
        found: Config | None = None
        while True:
            cached = self._by_dir.get(current)
            if cached is not None:
                found = cached
                break
            seen.append(current)
            found = self._in_dir(current)
            if found is not None:
                break
            parent = os.path.dirname(current)
            if parent == current:
                found = Config()
                break
            current = parent
        for d in seen:
            self._by_dir[d] = found
        return found

    @staticmethod
    def _in_dir(directory: str) -> Config | None:
        for name in CONFIG_NAMES:
            candidate = shown_path(os.path.join(directory, name))
            if not os.path.isfile(candidate):
                continue
            if name == "pyproject.toml":
                table = _tool_table(_read_toml(candidate), candidate)
                if table is None:
                    continue
                return parse_config(table, candidate, "tool.cudalint.")
            return load_config(candidate)
        return None
