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

This is the one settings resolution of every surface: the command line (files, walked
directories and ``--stdin-filename``), pre-commit (which runs the command line) and the
language server (``cudalint.lsp.server``) each build a ``Resolver`` and ask it for a
path's ``task`` and whether the path is ``excluded``, so a file gets the same
configuration, compilation database and rules wherever it is analysed.

The compilation database of a file, first that applies: ``-p``/``--compile-commands``;
the ``compile-commands`` key of its configuration (``false``: none); the
``compile_commands.json`` found from its directory up (``cudalint.discovery``, as
clangd looks: each directory, then its ``build*/`` folders). ``--isolated`` looks for
neither configuration files nor databases.

A path is excluded when ``--exclude`` matches it, or the ``exclude`` of the
configuration of its directory, or of any configuration above that one, does (so a file
named on the command line, by pre-commit or by the editor is skipped exactly when a
directory walk would skip it or a directory above it). A walk also skips what
``.gitignore``/``.ignore`` files ignore (``respect-gitignore``); a path named is
analysed even when it is ignored.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cudalint.api import ExcludeMatcher, FileTask
from cudalint.budget import DEFAULT_TIMEOUT
from cudalint.compdb import CompdbError, CompileDatabase, CompileFlags
from cudalint.config import Config, ConfigFinder, shown_path
from cudalint.discovery import IgnoreFiles, find_compile_commands
from cudalint.model.arch import DEFAULT_ARCH, parse_arch
from cudalint.options import BankModeOption, Options
from cudalint.rules import RULES, RuleSelection
from cudalint.suppressions import UNUSED_CODE

__all__ = ["CliSettings", "Resolver", "SettingsError", "read_database"]

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
    #: ``--respect-gitignore``/``--no-respect-gitignore``.
    respect_gitignore: bool | None = None


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
    codes = defaults
    for select, extend_select, ignore in config.base_rule_layers:
        codes = _layer(codes, select, extend_select, ignore)
    codes = _layer(codes, config.select, extend, config.ignore)
    cli_extend = [*cli.extend_select, *([UNUSED_CODE] if cli.warn_unused_ignores else [])]
    return _layer(codes, cli.select, cli_extend, cli.ignore)


def _timeout(cli: float | None, config: float | None) -> float | None:
    """The file's time budget: the flag's, else the configuration's, else the default;
    0 means none (None)."""
    seconds = cli if cli is not None else config if config is not None else DEFAULT_TIMEOUT
    return seconds or None


#: Databases read by this process, by path, with the (mtime, size) they were read at:
#: the language server resolves every analysis afresh, and a large database is not
#: read again until it changes.
_DATABASES: dict[str, tuple[tuple[int, int], CompileDatabase]] = {}
_DATABASES_KEPT = 8


def read_database(path: str) -> CompileDatabase:
    """``CompileDatabase.load(path)``, kept while the file is unchanged (CompdbError)."""
    try:
        st = os.stat(path)
        stamp: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    cached = _DATABASES.get(path)
    if stamp is not None and cached is not None and cached[0] == stamp:
        return cached[1].fresh()
    db = CompileDatabase.load(shown_path(path))
    if stamp is not None:
        _DATABASES.pop(path, None)
        while len(_DATABASES) >= _DATABASES_KEPT:
            _DATABASES.pop(next(iter(_DATABASES)))
        _DATABASES[path] = (stamp, db)
    return db


@dataclass
class Resolver:
    """Builds the ``FileTask`` of each file from the flags, its configuration and compdb."""

    cli: CliSettings
    finder: ConfigFinder
    #: The database of ``-p``/``--compile-commands``, for every file (None: each file's
    #: configured or discovered one).
    compdb: CompileDatabase | None = None
    #: Receives ``-v`` messages (None: quiet).
    log: Callable[[str], None] | None = None
    _options: dict[tuple[str | None, CompileFlags | None], Options] = field(
        default_factory=dict
    )
    _codes: dict[str | None, frozenset[str]] = field(default_factory=dict)
    _logged_configs: set[str | None] = field(default_factory=set)
    _databases: dict[str, CompileDatabase] = field(default_factory=dict)
    _discovered: dict[str, str | None] = field(default_factory=dict)
    _excluded: dict[str, str | None] = field(default_factory=dict)
    _matchers: dict[tuple[tuple[str, ...], str], ExcludeMatcher] = field(
        default_factory=dict
    )
    _ignores: IgnoreFiles = field(default_factory=IgnoreFiles)
    _cli_matcher: ExcludeMatcher = field(default_factory=ExcludeMatcher)

    def __post_init__(self) -> None:
        cwd = os.getcwd()
        self._cli_matcher = ExcludeMatcher([(p, cwd) for p in self.cli.exclude])

    def say(self, message: str) -> None:
        if self.log is not None:
            self.log(message)

    def config(self, path: str) -> Config:
        config = self.finder.for_path(path)
        if config.path not in self._logged_configs:
            self._logged_configs.add(config.path)
            if config.path is not None:
                extends = (f" (extends {', '.join(config.extends)})"
                           if config.extends else "")
                self.say(f"configuration: {config.path}{extends}")
        return config

    # -- which files ----------------------------------------------------------------------

    def excluded(self, path: str) -> str | None:
        """Why ``path`` is excluded (``--exclude``, or the ``exclude`` of a configuration
        that applies to it), or None when it is not."""
        if self._cli_matcher(path):
            return "--exclude"
        return self._config_excluded(os.path.abspath(path))

    def _matcher(self, config: Config) -> ExcludeMatcher:
        key = (config.exclude, config.exclude_base)
        matcher = self._matchers.get(key)
        if matcher is None:
            matcher = self._matchers[key] = ExcludeMatcher(
                [(p, config.exclude_base) for p in config.exclude])
        return matcher

    def _config_excluded(self, absolute: str) -> str | None:
        """The ``exclude`` of the configuration of the path's directory, then of the one
        above that configuration's directory, and so on up: a nested configuration does
        not lift the project's excludes. Each matches every directory of the path below
        its base, so a file is excluded exactly when a walk from above would have
        skipped it or a directory above it."""
        if absolute in self._excluded:
            return self._excluded[absolute]
        reason: str | None = None
        directory = os.path.dirname(absolute)
        seen: set[str] = set()
        while True:
            config = self.finder.for_directory(directory)
            if config.path is None or config.path in seen:
                break
            seen.add(config.path)
            if config.exclude and self._matcher(config)(absolute):
                where = config.exclude_from or config.where
                if where != config.where:
                    where += f", extended by {config.where}"
                reason = f"'exclude' in {where}"
                break
            parent = os.path.dirname(config.root)
            if parent == config.root:
                break
            directory = parent
        self._excluded[absolute] = reason
        return reason

    def respect_gitignore(self, path: str) -> bool:
        if self.cli.respect_gitignore is not None:
            return self.cli.respect_gitignore
        config = self.finder.for_directory(os.path.dirname(os.path.abspath(path)))
        return config.respect_gitignore is not False

    def excluder(self, path: str) -> Callable[[str], bool]:
        """Whether to skip a path of the argument ``path``: the argument itself when it
        is excluded; a file or directory its walk finds also when an ignore file ignores
        it (unless the argument itself is ignored: it was asked for)."""
        named = os.path.abspath(path)
        walk_ignores: list[bool] = []

        def ignores_apply() -> bool:
            if not walk_ignores:
                walk_ignores.append(
                    not self._ignores.ignored_by(named, os.path.isdir(named)))
            return walk_ignores[0]

        def skip(candidate: str) -> bool:
            why = self.excluded(candidate)
            if (why is None and os.path.abspath(candidate) != named
                    and self.respect_gitignore(candidate) and ignores_apply()):
                ignore_file = self._ignores.ignored_by(candidate, os.path.isdir(candidate))
                if ignore_file is not None:
                    why = f"ignored by {shown_path(ignore_file)}"
            if why is not None:
                shown = candidate[2:] if candidate.startswith("." + os.sep) else candidate
                self.say(f"{shown}: skipped ({why})")
            return why is not None

        return skip

    # -- compilation databases ------------------------------------------------------------

    def database(self, path: str, config: Config) -> CompileDatabase | None:
        """The compilation database for ``path``: ``-p``, else the configuration's
        ``compile-commands``, else the one found from its directory up (None: none).
        SettingsError when the one that applies cannot be read."""
        if self.compdb is not None:
            self._log_database(self.compdb, "from the command line")
            return self.compdb
        setting = config.compile_commands
        if setting is False:
            return None
        if isinstance(setting, str):
            return self._load_database(setting, f"'compile-commands' in {config.where}")
        if self.finder.isolated:
            return None
        directory = os.path.dirname(os.path.abspath(path))
        if directory not in self._discovered:
            found, others = find_compile_commands(directory)
            self._discovered[directory] = found
            if found is not None and others and found not in self._databases:
                self.say(f"{shown_path(found)} is used for {shown_path(directory)}; also "
                          f"found {', '.join(shown_path(o) for o in others)}")
        found = self._discovered[directory]
        if found is None:
            return None
        return self._load_database(
            found, f"found from {shown_path(directory)}",
            "; 'compile-commands' in the configuration, or -p, names another; "
            "compile-commands = false uses none")

    def _load_database(self, where: str, origin: str, hint: str = "") -> CompileDatabase:
        path = os.path.join(where, "compile_commands.json") if os.path.isdir(where) else where
        key = os.path.normpath(os.path.abspath(path))
        db = self._databases.get(key)
        if db is None:
            try:
                db = read_database(key)
            except CompdbError as exc:
                raise SettingsError(f"{exc} ({origin}{hint})") from None
            self._databases[key] = db
            self._log_database(db, origin)
        return db

    def _log_database(self, db: CompileDatabase, origin: str) -> None:
        key = "db:" + db.path
        if key not in self._logged_configs:
            self._logged_configs.add(key)
            self.say(f"compilation database: {db.path} ({len(db)} files), {origin}")

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
            if ExcludeMatcher([(glob, config.per_file_ignores_base)])(path):
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

    def flags(self, path: str, compdb: CompileDatabase | None = None) -> CompileFlags | None:
        if compdb is None:
            self.say(f"{path}: no compilation database")
            return None
        flags = compdb.flags(path)
        if flags is None:
            self.say(
                f"{path}: not in {shown_path(compdb.path)}; using the default options"
            )
        else:
            self.say(f"{path}: compile command from {shown_path(compdb.path)}")
            for note in flags.notes:
                self.say(f"{path}: compile command: {note}")
        return flags

    def task(self, path: str, contents: bytes | None = None, error: str | None = None
             ) -> tuple[FileTask, frozenset[str]]:
        """The task of one file and the codes enabled for it. SettingsError when the
        settings that apply to it contradict each other or its configured or discovered
        compilation database cannot be read."""
        config = self.config(path)
        codes = self.file_codes(path, config)
        selection = RuleSelection.build(select=sorted(codes))
        if error is not None:
            return FileTask(path, Options(), selection, error=error), codes
        compdb = self.database(path, config)
        try:
            flags = self.flags(path, compdb)
        except CompdbError as exc:
            return FileTask(path, Options(), selection, error=str(exc)), codes
        return FileTask(path, self.options(config, flags), selection, contents), codes

