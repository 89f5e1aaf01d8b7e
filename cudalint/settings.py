"""Each file's settings: command-line flags over its compile command over its configuration.

Precedence, most important first: command-line flags; the file's entry in the
compilation database (``-p``); the configuration file that applies to it; the
defaults. Lists add up instead: include directories are searched in the order
command line, compile command, configuration; macros are defined in the order
configuration, compile command, command line (a later ``-D`` wins).

Rules are chosen in layers, as ruff does: the configuration's ``select`` (or the
defaults), ``extend-select`` and ``ignore`` first; then the command line's: a
``--select`` there starts afresh, ``--extend-select``/``--ignore`` change only the
rules they name. ``per-file-ignores`` then removes rules for matching files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cudalint.api import ExcludeMatcher, FileTask
from cudalint.budget import DEFAULT_TIMEOUT
from cudalint.compdb import CompdbError, CompileDatabase, CompileFlags
from cudalint.config import Config, ConfigFinder, shown_path
from cudalint.model.arch import parse_arch
from cudalint.options import BankModeOption, Options
from cudalint.rules import RULES, RuleSelection
from cudalint.suppressions import UNUSED_CODE

__all__ = ["CliSettings", "Resolver", "SettingsError"]

DEFAULT_ARCH = "sm_90"
DEFAULT_STD = "c++17"


class SettingsError(Exception):
    """Settings that contradict each other (exit 2)."""


@dataclass(frozen=True)
class CliSettings:
    """What the command line says; None or empty where it is silent."""

    arch: str | None = None
    bank_mode: BankModeOption | None = None
    block_dim: tuple[int, int, int] | None = None
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    std: str | None = None
    cuda_path: str | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    warn_unused_ignores: bool = False
    exclude: tuple[str, ...] = ()
    timeout: float | None = None


def _layer(
    base: frozenset[str],
    select: Sequence[str] | None,
    extend_select: Sequence[str],
    ignore: Sequence[str],
) -> frozenset[str]:
    """The codes enabled after one layer of selectors on top of ``base``."""
    if select is not None:
        chosen = RuleSelection.build(select=select, extend_select=extend_select, ignore=ignore)
        return frozenset(r.code for r in chosen.rules())
    if not extend_select and not ignore:
        return base
    named = RuleSelection.build(select=[*extend_select, *ignore])
    verdict = RuleSelection.build(select=extend_select, ignore=ignore)
    out = set(base)
    for rule in RULES.values():
        if named.enabled(rule):
            if verdict.enabled(rule):
                out.add(rule.code)
            else:
                out.discard(rule.code)
    return frozenset(out)


def enabled_codes(config: Config, cli: CliSettings) -> frozenset[str]:
    defaults = frozenset(r.code for r in RULES.values() if r.default_enabled)
    extend = list(config.extend_select)
    if config.warn_unused_ignores:
        extend.append(UNUSED_CODE)
    codes = _layer(defaults, config.select, extend, config.ignore)
    cli_extend = [*cli.extend_select, *([UNUSED_CODE] if cli.warn_unused_ignores else [])]
    return _layer(codes, cli.select, cli_extend, cli.ignore)


def _timeout(cli: float | None, config: float | None) -> float | None:
    """The file's time budget: the flag's, else the configuration's, else the default;
    0 means none (None)."""
    seconds = cli if cli is not None else config if config is not None else DEFAULT_TIMEOUT
    return seconds or None


@dataclass
class Resolver:
    """Builds the ``FileTask`` of each file from the flags, its configuration and compdb."""

    cli: CliSettings
    finder: ConfigFinder
    compdb: CompileDatabase | None = None
    #: Receives ``-v`` messages (None: quiet).
    log: Callable[[str], None] | None = None
    _options: dict[tuple[str | None, CompileFlags | None], Options] = field(
        default_factory=dict
    )
    _codes: dict[str | None, frozenset[str]] = field(default_factory=dict)
    _logged_configs: set[str | None] = field(default_factory=set)

    def _say(self, message: str) -> None:
        if self.log is not None:
            self.log(message)

    def config(self, path: str) -> Config:
        config = self.finder.for_path(path)
        if config.path not in self._logged_configs:
            self._logged_configs.add(config.path)
            if config.path is not None:
                self._say(f"configuration: {config.path}")
        return config

    def excluder(self, path: str) -> ExcludeMatcher:
        """The exclude globs for one path argument: the command line's and its config's."""
        config = self.config(path if path != "-" else os.getcwd())
        cwd = os.getcwd()
        return ExcludeMatcher(
            [(p, cwd) for p in self.cli.exclude] + [(p, config.root) for p in config.exclude]
        )

    def codes(self, config: Config) -> frozenset[str]:
        codes = self._codes.get(config.path)
        if codes is None:
            codes = self._codes[config.path] = enabled_codes(config, self.cli)
        return codes

    def file_codes(self, path: str, config: Config) -> frozenset[str]:
        codes = self.codes(config)
        if not config.per_file_ignores:
            return codes
        removed: set[str] = set()
        for glob, selectors in config.per_file_ignores:
            if ExcludeMatcher([(glob, config.root)])(path):
                chosen = RuleSelection.build(select=selectors)
                removed.update(r.code for r in chosen.rules())
        return codes - removed

    def options(self, config: Config, flags: CompileFlags | None) -> Options:
        key = (config.path, flags)
        cached = self._options.get(key)
        if cached is not None:
            return cached
        cli = self.cli
        arch = cli.arch or (flags.arch if flags else None) or config.arch or DEFAULT_ARCH
        bank_mode = cli.bank_mode or config.bank_mode
        if bank_mode in ("8", "both") and parse_arch(arch).family != "kepler":
            where = "--bank-mode" if cli.bank_mode else f"'bank-mode' in {config.where}"
            raise SettingsError(
                f"{where} {bank_mode} needs a Kepler arch (sm_30 to sm_37), not {arch}"
            )
        if not cli.cuda_path and config.cuda_path and not os.path.isdir(config.cuda_path):
            # as --cuda-path: a toolkit that is not there leaves every CUDA header missing
            # and the analysis silently seeing less (checked here, when a file uses it)
            raise SettingsError(f"'cuda-path' in {config.where}: '{config.cuda_path}' is "
                                "not a directory")
        if cli.block_dim is not None:
            block_dim, source = cli.block_dim, "cli"
        elif config.block_dim is not None:
            block_dim, source = config.block_dim, "config"
        else:
            block_dim, source = None, "cli"
        options = Options(
            arch=arch,
            bank_mode=bank_mode,  # type: ignore[arg-type]
            block_dim=block_dim,
            block_dim_source=source,  # type: ignore[arg-type]
            include_dirs=(
                *cli.include_dirs, *(flags.include_dirs if flags else ()), *config.include_dirs
            ),
            defines=(*config.defines, *(flags.defines if flags else ()), *cli.defines),
            std=cli.std or (flags.std if flags else None) or config.std or DEFAULT_STD,
            cuda_path=cli.cuda_path or config.cuda_path,
            extra_args=flags.extra_args if flags else (),
            timeout=_timeout(cli.timeout, config.timeout),
        )
        self._options[key] = options
        return options

    def flags(self, path: str) -> CompileFlags | None:
        if self.compdb is None:
            return None
        flags = self.compdb.flags(path)
        if flags is None:
            self._say(
                f"{path}: not in {shown_path(self.compdb.path)}; using the default options"
            )
        else:
            for note in flags.notes:
                self._say(f"{path}: compile command: {note}")
        return flags

    def task(self, path: str, contents: bytes | None = None, error: str | None = None
             ) -> tuple[FileTask, frozenset[str]]:
        """The task of one file and the codes enabled for it."""
        config = self.config(path)
        codes = self.file_codes(path, config)
        selection = RuleSelection.build(select=sorted(codes))
        if error is not None:
            return FileTask(path, Options(), selection, error=error), codes
        try:
            flags = self.flags(path)
        except CompdbError as exc:
            return FileTask(path, Options(), selection, error=str(exc)), codes
        return FileTask(path, self.options(config, flags), selection, contents), codes
