"""``cudalint [options] PATH...``: the command line.

Exit status: 2 when usage or configuration is invalid, any path could not be read or
analyzed (the other files are still analyzed and reported), or more of the run's shared
accesses are unknown than ``--max-unknown`` allows (the analysis did not see most of the
code); otherwise 1 when a warning survives rule selection, suppressions and the baseline
(unless ``--exit-zero``); else 0. Never prints a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from cudalint import __version__, frontdoor
from cudalint.api import (
    FileReport,
    FileTask,
    dedupe_reports,
    expand_paths,
    is_header,
    run_tasks,
)
from cudalint.baseline import BaselineError, apply_baseline, load_baseline, write_baseline
from cudalint.budget import DEFAULT_TIMEOUT, MAX_INPUT_BYTES
from cudalint.compdb import CompdbError, CompileDatabase
from cudalint.config import ConfigError, ConfigFinder, parse_block_dim, parse_timeout
from cudalint.diagnostics import Fix
from cudalint.frontend.cache import ENV as PARSE_CACHE_ENV
from cudalint.fsutil import WriteError, write_file
from cudalint.model.arch import DEFAULT_ARCH, Arch, ArchError, parse_arch
from cudalint.model.results import AccessResult
from cudalint.options import BankModeOption, Options
from cudalint.output import FORMATS, RenderOptions, render
from cudalint.output import statistics as stats
from cudalint.output.text import printable
from cudalint.output.text import summary as text_summary
from cudalint.rules import RULES, RuleSelection, UnknownSelectorError, explain, get_rule
from cudalint.settings import CliSettings, Resolver, SettingsError
from cudalint.suppressions import UNUSED_CODE, add_ignore_edits, apply_edits

#: The progress bar shows only when at least this many files are analyzed.
PROGRESS_MIN_FILES = 8
#: The name a source read from stdin gets without ``--stdin-filename``.
STDIN_NAME = "<stdin>"

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2


class UsageError(Exception):
    """Invalid command line or configuration: exit 2 with the message."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise UsageError(message)


def _comma_list(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def _jobs(value: str) -> int:
    if value == "auto":
        return 0
    if not re.fullmatch(r"[0-9]+", value):
        raise argparse.ArgumentTypeError(f"invalid job count '{value}' (a number or 'auto')")
    return int(value)


def _seconds(value: str) -> float:
    try:
        return parse_timeout(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"invalid --timeout '{value}': {exc}") from None


def _percent(value: str) -> float:
    try:
        number = float(value.rstrip("%"))
    except ValueError:
        number = -1.0
    if not 0 <= number <= 100:  # also rejects nan
        raise argparse.ArgumentTypeError(
            f"invalid --max-unknown '{value}' (a percentage from 0 to 100)"
        )
    return number


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="cudalint",
        description="Prove shared-memory bank conflicts in CUDA sources, statically.",
        epilog=(
            "Exit status: 0 clean, 1 a warning was reported, 2 a path could not be "
            "analyzed, more accesses are unknown than --max-unknown allows, or the usage "
            "or configuration is invalid."
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help=".cu/.cuh files or directories; '-' reads the source from stdin")
    p.add_argument("--version", action="version", version=f"cudalint {__version__}")

    a = p.add_argument_group("analysis")
    a.add_argument(
        "--arch", default=None, metavar="sm_XX",
        help=f"target architecture (default {DEFAULT_ARCH})",
    )
    a.add_argument(
        "--bank-mode", choices=("4", "8", "both"), default=None,
        help="Kepler (sm_3x) bank mode(s) to analyze (default: both on sm_3x, 4 elsewhere)",
    )
    a.add_argument(
        "--block-dim", metavar="X[,Y[,Z]]", default=None,
        help="block shape to assume for every kernel (overrides launch sites)",
    )
    a.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N",
                   help="analyze N files in parallel (0 or 'auto': one per CPU; default 1)")
    a.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                   help=f"time budget per file; a file that needs longer is reported as "
                        f"not fully analyzed (exit 2). 0: no limit (default "
                        f"{DEFAULT_TIMEOUT:g})")
    a.add_argument("--cache-dir", metavar="DIR", default=None,
                   help="keep each file's parse in DIR and reuse it while the file, its "
                        "headers and the flags are unchanged (e.g. .cudalint_cache)")
    a.add_argument("--no-cache", action="store_true",
                   help="parse every file (over --cache-dir and $CUDALINT_CACHE_DIR)")

    f = p.add_argument_group("parsing")
    f.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="add an include directory")
    f.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]",
                   help="define a macro")
    f.add_argument("--std", default=None, help="C++ standard (default c++17)")
    f.add_argument("--cuda-path", metavar="DIR", default=None,
                   help="parse against this CUDA toolkit's headers (default: cudalint's shim)")
    f.add_argument("-p", dest="build_dir", metavar="BUILD_DIR", default=None,
                   help="read BUILD_DIR/compile_commands.json for each file's flags "
                        "(over the configuration's 'compile-commands' and the "
                        "compile_commands.json found in the project or its build*/)")
    f.add_argument("--compile-commands", metavar="FILE", default=None,
                   help="read this compile_commands.json for each file's flags")

    c = p.add_argument_group("files and configuration")
    c.add_argument("--config", metavar="FILE", default=None,
                   help="use this configuration file (pyproject.toml or cudalint.toml) "
                        "instead of looking for one")
    c.add_argument("--isolated", action="store_true",
                   help="ignore every configuration file")
    c.add_argument("--exclude", type=_comma_list, action="append", default=[],
                   metavar="GLOBS", help="skip files and directories matching these globs")
    c.add_argument("--stdin-filename", metavar="PATH", default=None,
                   help="the name of the file read from stdin ('-'), for messages, "
                        "configuration, excludes and the compilation database")
    c.add_argument("--respect-gitignore", dest="respect_gitignore", action="store_const",
                   const=True, default=None,
                   help="skip files that .gitignore/.ignore files ignore when walking "
                        "directories (the default; 'respect-gitignore' in the "
                        "configuration)")
    c.add_argument("--no-respect-gitignore", dest="respect_gitignore",
                   action="store_const", const=False,
                   help="walk directories without reading .gitignore/.ignore files")

    r = p.add_argument_group("rules")
    r.add_argument("--select", type=_comma_list, default=None, metavar="CODES",
                   help="rules to enable instead of the defaults (codes, prefixes, names, ALL)")
    r.add_argument("--extend-select", type=_comma_list, action="append", default=[],
                   metavar="CODES", help="rules to enable in addition")
    r.add_argument("--ignore", type=_comma_list, action="append", default=[],
                   metavar="CODES", help="rules to disable")
    r.add_argument("--explain", metavar="CODE", default=None,
                   help="print a rule's documentation and exit")
    r.add_argument("--list-rules", action="store_true", help="list the rules and exit")
    r.add_argument("--warn-unused-ignores", action="store_true",
                   help=f"report 'cudalint: ignore' comments that suppress nothing "
                        f"({UNUSED_CODE})")

    b = p.add_argument_group("adopting on a code base with findings")
    b.add_argument("--add-ignores", action="store_true",
                   help="append '// cudalint: ignore[CODE]' to every line with a finding")
    b.add_argument("--baseline", metavar="FILE", default=None,
                   help="report only findings not recorded in FILE (an error when FILE "
                        "does not exist; --update-baseline writes it)")
    b.add_argument("--update-baseline", action="store_true",
                   help="with --baseline FILE: write FILE (create or replace it) with this "
                        "run's findings, then report only those not in it (none)")

    o = p.add_argument_group("output")
    o.add_argument("--format", choices=FORMATS, default="text",
                   help="output format: text (compiler-style, with source and notes), "
                        "concise (one 'path:line:col: CODE message' line per finding, for "
                        "hooks and CI), json, sarif (2.1.0) or github (Actions annotations)")
    o.add_argument("--show-all", action="store_true",
                   help="JSON: list every analyzed access, not only those behind diagnostics")
    o.add_argument("--statistics", action="store_true",
                   help="print how many diagnostics each rule reported instead of them")
    o.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text output (auto: on a terminal, unless NO_COLOR is set)")
    o.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when warnings are reported (errors still exit 2)")
    o.add_argument("--max-unknown", type=_percent, default=stats.DEFAULT_MAX_UNKNOWN,
                   metavar="PERCENT",
                   help=f"exit 2 with an error when more than PERCENT of the shared "
                        f"accesses are unknown: the analysis did not see most of the code "
                        f"(default {stats.DEFAULT_MAX_UNKNOWN:g}; 100: never)")
    o.add_argument("-q", "--quiet", action="store_true", help="print diagnostics only")
    o.add_argument("-v", "--verbose", action="store_true",
                   help="print to stderr the configuration files and compilation "
                        "databases used, the files skipped and why, and per file the "
                        "settings in effect and the exact clang command line")
    _fix_arguments(p)
    _bank_map_arguments(p)
    return p


# --- validation ---------------------------------------------------------------------------


def check_arch(text: str) -> Arch:
    try:
        return parse_arch(text)
    except ArchError as exc:
        raise UsageError(f"invalid --arch: {exc}") from None


def check_block_dim(text: str) -> tuple[int, int, int]:
    try:
        return parse_block_dim(text)
    except ValueError as exc:
        raise UsageError(f"invalid --block-dim '{text}': {exc}") from None


def cli_settings(args: argparse.Namespace) -> CliSettings:
    arch = check_arch(args.arch).name if args.arch is not None else None
    bank_mode: BankModeOption | None = args.bank_mode
    if (
        bank_mode in ("8", "both")
        and arch is not None
        and parse_arch(arch).family != "kepler"
    ):
        raise UsageError(
            f"--bank-mode {bank_mode} needs a Kepler arch (sm_30 to sm_37), not {arch}"
        )
    if args.std is not None and not re.fullmatch(r"(?:c|gnu)\+\+\w+", args.std):
        raise UsageError(f"invalid --std '{args.std}' (expected e.g. c++17)")
    if args.cuda_path is not None and not os.path.isdir(args.cuda_path):
        raise UsageError(f"--cuda-path '{args.cuda_path}' is not a directory")
    _check_parse_flags(args.include_dirs, args.defines)
    select = args.select
    extend = [c for group in args.extend_select for c in group]
    ignore = [c for group in args.ignore for c in group]
    try:
        RuleSelection.build(select=select, extend_select=extend, ignore=ignore)
    except UnknownSelectorError as exc:
        raise UsageError(f"{exc} (rules: {', '.join(RULES)})") from None
    return CliSettings(
        arch=arch,
        bank_mode=bank_mode,
        block_dim=check_block_dim(args.block_dim) if args.block_dim is not None else None,
        include_dirs=tuple(args.include_dirs),
        defines=tuple(args.defines),
        std=args.std,
        cuda_path=args.cuda_path,
        select=tuple(select) if select is not None else None,
        extend_select=tuple(extend),
        ignore=tuple(ignore),
        warn_unused_ignores=args.warn_unused_ignores,
        exclude=tuple(p for group in args.exclude for p in group),
        timeout=args.timeout,
        respect_gitignore=args.respect_gitignore,
    )


#: ``-D NAME``, ``-D NAME=VALUE``, ``-D 'F(x)=VALUE'``: what clang takes as a macro.
_DEFINE = re.compile(r"[A-Za-z_]\w*(?:\([\w\s,.]*\))?(?:=.*)?", re.S)


def _check_parse_flags(include_dirs: Sequence[str], defines: Sequence[str]) -> None:
    """Refuse ``-I ''`` and ``-D ''`` (and macro names clang cannot define), as gcc does:
    passed on, clang would take the next argument as their value and silently analyse
    less (``-I`` swallowed cudalint's shim: every file came out with 0 accesses)."""
    for d in include_dirs:
        if not d:
            raise UsageError("-I needs a directory (got an empty argument)")
        if "\0" in d:
            raise UsageError(f"-I {d!r}: a directory name cannot contain a NUL character")
    for d in defines:
        if not _DEFINE.fullmatch(d) or "\0" in d:
            what = "an empty argument" if not d else repr(d)
            raise UsageError(f"-D needs NAME or NAME=VALUE with NAME an identifier "
                             f"(got {what})")


def use_color(choice: str, stream: TextIO) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def exit_status(
    reports: Sequence[FileReport], exit_zero: bool,
    max_unknown: float = stats.DEFAULT_MAX_UNKNOWN,
) -> int:
    if any(report.error is not None for report in reports):
        return EXIT_ERROR
    if stats.totals(reports).too_unknown(max_unknown):
        return EXIT_ERROR
    if not exit_zero and any(
        d.severity in ("warning", "error") for report in reports for d in report.diagnostics
    ):
        return EXIT_FINDINGS
    return EXIT_OK


def _error_line(report: FileReport) -> str:
    message = report.error or ""
    if report.path not in message:
        message = f"{report.path}: {message}"
    return f"cudalint: error: {printable(message, newlines=True)}"


def _list_rules() -> str:
    lines = []
    for rule in RULES.values():
        state = "" if rule.default_enabled else " (off by default)"
        lines.append(f"{rule.code}  {rule.name:<24} {rule.severity:<8} {rule.summary}{state}")
    return "\n".join(lines) + "\n"


def _say(message: str) -> None:
    sys.stderr.write(f"cudalint: {printable(message, newlines=True)}\n")


class ProgressBar:
    """``[#####     ] 12/40 files`` on stderr, redrawn in place; cleared at the end."""

    WIDTH = 30

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // max(total, 1)
        bar = "#" * filled + " " * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} files")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _load_compdb(args: argparse.Namespace) -> CompileDatabase | None:
    if args.compile_commands and args.build_dir:
        raise UsageError("give -p or --compile-commands, not both")
    where = args.compile_commands
    if args.build_dir is not None:
        where = args.build_dir
        if not where.endswith(".json"):
            where = os.path.join(where, "compile_commands.json")
    if where is None:
        return None
    try:
        return CompileDatabase.load(where)
    except CompdbError as exc:
        raise UsageError(str(exc)) from None


def _tasks(
    args: argparse.Namespace, resolver: Resolver
) -> tuple[list[FileTask], dict[str, frozenset[str]]]:
    """The files to analyze, each with its options; and the rules enabled per file."""
    tasks: list[FileTask] = []
    codes: dict[str, frozenset[str]] = {}
    if "-" in args.paths:
        if len(args.paths) != 1:
            raise UsageError("'-' (stdin) cannot be combined with other paths")
        name = args.stdin_filename or STDIN_NAME
        if args.stdin_filename in ("-", ""):
            # clang reads a file named '-' from its own stdin: nothing would be analysed
            raise UsageError(f"--stdin-filename {args.stdin_filename!r}: give the path "
                             "the source would have (e.g. src/kernel.cu)")
        contents = _read_stdin()
        why = resolver.excluded(name) if args.stdin_filename is not None else None
        if why is not None:
            # as for the file itself (named by pre-commit, opened in an editor): nothing
            resolver.say(f"{name}: skipped ({why})")
            return [], codes
        task, codes[name] = resolver.task(name, contents=contents)
        return [task], codes
    if args.stdin_filename is not None:
        raise UsageError("--stdin-filename needs '-' as the path")
    # A header a directory gives, and not named itself, is analysed on its own only when
    # no file of the run includes it (api.run_tasks).
    named = {os.path.normcase(os.path.normpath(os.path.abspath(p)))
             for p in args.paths if not os.path.isdir(p)}
    for path in args.paths:
        walked = os.path.isdir(path)
        for file, error in expand_paths([path], resolver.excluder(path)):
            if file in codes:
                continue
            task, codes[file] = resolver.task(file, error=error)
            if walked and is_header(file) and os.path.normcase(
                    os.path.normpath(os.path.abspath(file))) not in named:
                task = dataclasses.replace(task, discovered=True)
            tasks.append(task)
    # The same file given twice (or inside a given directory, or reached again through a
    # symbolic link) is analyzed once, under the path that named it first; of the paths
    # a directory walk found, one that goes through no symbolic link.
    unique: list[FileTask] = []
    seen: dict[str, int] = {}
    for task in tasks:
        key = os.path.normcase(os.path.realpath(task.path))
        if key not in seen:
            seen[key] = len(unique)
            unique.append(task)
            continue
        kept = unique[seen[key]]
        if (_abs(kept.path) not in named and _abs(kept.path) != key
                and _abs(task.path) == key):
            unique[seen[key]] = task
    return unique, codes


def _abs(path: str) -> str:
    return os.path.normcase(os.path.normpath(os.path.abspath(path)))


def _read_stdin() -> bytes:
    """The source piped to ``cudalint -``; UsageError when there is no stdin to read
    (``cudalint - <&-``) or it cannot be read (a directory, a closed descriptor)."""
    stream = getattr(sys.stdin, "buffer", None) if sys.stdin is not None else None
    if stream is None:
        raise UsageError("'-' reads the source from stdin, but stdin is closed")
    try:
        _stdin_readable(stream)
        # bounded: ``cat /dev/zero | cudalint -`` must not read until memory runs out
        data: bytes = stream.read(MAX_INPUT_BYTES + 1)
    except (OSError, ValueError) as exc:  # EISDIR, EBADF; ValueError: a closed file
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"'-': cannot read the source from stdin: {reason}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"'-': the source on stdin is larger than {MAX_INPUT_BYTES >> 20} "
                         "MiB")
    return data


def _stdin_readable(stream: object) -> None:
    """OSError when stdin is a device other than a terminal or ``/dev/null``
    (``cudalint - < /dev/zero`` would never end): refused before it is read."""
    fileno = getattr(stream, "fileno", None)
    try:
        fd = fileno() if callable(fileno) else None
        st = os.fstat(fd) if isinstance(fd, int) else None
    except (OSError, ValueError):  # not a real descriptor (a test's stream)
        return
    if st is None or not (stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)):
        return
    if isinstance(fd, int) and os.isatty(fd):
        return
    with contextlib.suppress(OSError):
        if st.st_rdev == os.stat(os.devnull).st_rdev:
            return
    raise OSError(errno.EINVAL, "stdin is a device, not a file or a pipe")


def _shim_copy() -> str | None:
    """A copy of the in-memory shim on disk, so that ``-v``'s clang line runs as is."""
    from cudalint.frontend.parse import write_shim

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    directory = os.path.join(base, "cudalint", f"shim-{__version__}")
    try:
        write_shim(directory)
    except OSError:
        return None
    return directory


def _log_tasks(log: Callable[[str], None], tasks: Sequence[FileTask],
               codes: dict[str, frozenset[str]]) -> None:
    """``-v``, before the analysis: per file, the settings in effect."""
    for task in tasks:
        if task.error is not None:
            continue
        o = task.options
        if o.block_dim is not None:
            shape = f"{','.join(map(str, o.block_dim))} (from --block-dim or configuration)"
        else:
            shape = "from launch sites, else assumed"
        modes = "+".join(str(m) for m in _bank_modes(o))
        timeout = f"{o.timeout:g} s" if o.timeout else "none"
        rules = ",".join(sorted(codes.get(task.path, frozenset()))) or "none"
        log(f"{task.path}: arch {o.arch}, bank mode {modes}, block shape {shape}, "
            f"std {o.std}, timeout {timeout}, rules {rules}")


def _log_commands(log: Callable[[str], None], tasks: Sequence[FileTask],
                  reports: Sequence[FileReport]) -> None:
    """``-v``, after the analysis: per file, the exact clang command line it was parsed
    with (with ``-fgpu-rdc`` where the file launches kernels from device code, which
    only its parse tells: ``TranslationUnit.rdc``)."""
    import shlex

    from cudalint.frontend.parse import command_line

    rdc = {r.path for r in reports if r.unit is not None and r.unit.rdc}
    shim_dir: str | None = None
    shim_said = False
    for task in tasks:
        if task.error is not None:
            continue
        if not shim_said:
            shim_said = True
            shim_dir = _shim_copy()
            if shim_dir is not None:
                log(f"cudalint's shim headers (in memory when analyzing) copied to {shim_dir}")
        argv = command_line(task.path, task.options, shim_dir, rdc=task.path in rdc)
        log(f"{task.path}: {shlex.join(argv)}")


def _bank_modes(options: Options) -> tuple[int, ...]:
    try:
        return options.bank_modes()
    except ArchError:
        return (4,)


def _write_roots(args: argparse.Namespace) -> list[str]:
    """The trees being linted, which a symbolic link that --fix or --add-ignores writes
    through must lead into: the current directory, each directory given, and the
    directory of each file given."""
    roots = [os.getcwd()]
    for path in args.paths:
        roots.append(path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path)))
    return roots


def _write_edited(path: str, before: bytes, after: bytes, roots: Sequence[str] | None) -> bool:
    """Write the edited text of a file (``--fix``, ``--add-ignores``): atomically, only
    if the file still holds ``before`` and a symbolic link leads into ``roots``
    (:func:`cudalint.fsutil.write_file`). False, with the error said, when it was not."""
    try:
        write_file(path, after, expected=before, within=roots)
    except WriteError as exc:
        _say(f"error: {exc}")
        return False
    return True


def _add_ignores(reports: Sequence[FileReport], stdin: bool,
                 roots: Sequence[str] | None = None) -> int:
    """Write suppression comments for every remaining finding; returns the exit status."""
    if stdin:
        raise UsageError("--add-ignores cannot write to stdin")
    added = files = 0
    status = EXIT_OK
    for report in reports:
        if report.error is not None:
            sys.stderr.write(_error_line(report) + "\n")
            status = EXIT_ERROR
            continue
        by_line: dict[int, set[str]] = {}
        for d in report.diagnostics:
            if d.file == report.path and d.code != UNUSED_CODE:
                by_line.setdefault(d.line, set()).add(d.code)
        if not by_line or report.source is None:
            continue
        edits, skipped = add_ignore_edits(report.source, report.path, by_line)
        for line in skipped:
            _say(f"{report.path}:{line}: no place for a suppression comment (a macro "
                 "continuation, or a line inside a /* */ comment); add it by hand")
        if not edits:
            continue
        if not _write_edited(report.path, report.source, apply_edits(report.source, edits),
                             roots):
            status = EXIT_ERROR
            continue
        added += sum(len(by_line[e.line]) for e in edits)
        files += 1
    _say(f"added {added} suppression{'s' if added != 1 else ''} to "
         f"{files} file{'s' if files != 1 else ''}")
    return status


def _baseline(path: str, reports: Sequence[FileReport], *, update: bool = False) -> None:
    """Apply the baseline ``path`` to ``reports``; with ``update`` (``--update-baseline``)
    first (re)write it with their findings. A missing baseline is an error otherwise: a
    mistyped name would pass every run."""
    record = f"'cudalint --baseline {path} --update-baseline DIR...'"
    if os.environ.get("PRE_COMMIT") == "1" and (update or not os.path.lexists(path)):
        # pre-commit (which sets PRE_COMMIT=1) may run a hook on several batches of
        # files: each would record only its own batch.
        raise UsageError(f"--baseline {path} {'cannot be updated' if update else 'does not exist'}"
                         ": under pre-commit each batch of files would record only its "
                         f"own findings; record it once with {record} over your sources "
                         "and commit it")
    if not update and not os.path.exists(path):
        what = "is a symbolic link to nothing" if os.path.lexists(path) else "does not exist"
        raise UsageError(f"--baseline {path} {what}; to record this run's findings in it, "
                         f"run {record} once")
    try:
        if update:
            count = write_baseline(path, reports, create=not os.path.lexists(path))
            _say(f"recorded {count} finding{'s' if count != 1 else ''} in {path}")
        apply_baseline(path, load_baseline(path), reports)
    except BaselineError as exc:
        raise UsageError(str(exc)) from None


def _file_words(words: list[str], parser: argparse.ArgumentParser
                ) -> tuple[list[str], list[str]]:
    """The words that name files whatever they look like: every word after ``--``, and
    a word before it that starts with ``-`` but is no option and names an existing file
    (pre-commit passes a ``-x.cu`` at the top of the repository as is, with no ``--``);
    such a file is analysed and reported as ``./-x.cu``.
    argparse alone would take ``-x.cu`` for an option and fail the whole batch (and
    cannot read paths after ``--`` once paths came before it)."""
    options = set(parser._option_string_actions)
    kept: list[str] = []
    files: list[str] = []
    for i, word in enumerate(words):
        if word == "--":
            files += [_dashless(w) for w in words[i + 1:]]
            break
        if (word.startswith("-") and word != "-" and word.split("=", 1)[0] not in options
                and os.path.lexists(word)):
            files.append(_dashless(word))
        else:
            kept.append(word)
    return kept, files


def _dashless(path: str) -> str:
    """``-x.cu`` as ``./-x.cu``: clang, too, would take it for an option."""
    return os.path.join(os.curdir, path) if path.startswith("-") and path != "-" else path


def _run(argv: Sequence[str] | None) -> int:
    # ``cudalint lsp``: the language server
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["lsp"]:
        # no parse cache: an editor's buffer changes at every keystroke
        os.environ.pop(PARSE_CACHE_ENV, None)
        return _lsp(words[1:])
    parser = build_parser()
    words, files = _file_words(words, parser)
    try:
        args = parser.parse_args(words)
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    args.paths = [*args.paths, *files]
    # The parse cache (cudalint.frontend.cache), named in the environment so that -j
    # workers see it; main() puts the caller's value back.
    if args.no_cache:
        os.environ.pop(PARSE_CACHE_ENV, None)
    elif args.cache_dir is not None:
        os.environ[PARSE_CACHE_ENV] = os.path.abspath(args.cache_dir)

    if args.list_rules:
        sys.stdout.write(_list_rules())
        return EXIT_OK
    if args.explain is not None:
        rule = get_rule(args.explain)
        if rule is None:
            raise UsageError(f"unknown rule '{args.explain}' (rules: {', '.join(RULES)})")
        sys.stdout.write(explain(rule))
        return EXIT_OK
    if args.diff and args.add_ignores:
        raise UsageError("--diff writes nothing and --add-ignores writes files: give one")
    if args.update_baseline and args.baseline is None:
        raise UsageError("--update-baseline needs --baseline FILE (the file to write)")
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError("--statistics prints text or JSON; use --format text or json")

    settings = cli_settings(args)
    # --explain-access: the bank map of one access
    if args.explain_access is not None:
        return _explain_access(args, settings)
    if not args.paths:
        parser.print_usage(sys.stderr)
        raise UsageError("no paths given")
    tasks, reports = _analyse(args, settings)
    if args.baseline is not None:
        _baseline(args.baseline, reports, update=args.update_baseline)
    if args.add_ignores:
        # With --fix: the fixes first, then suppressions for what the fixes left.
        fixed = _apply_fixes(args, tasks, reports) if args.fix else EXIT_OK
        return max(fixed, _add_ignores(reports, stdin=args.paths == ["-"],
                                       roots=_write_roots(args)))
    # --fix / --unsafe-fixes / --diff
    fix_status = EXIT_OK
    if args.fix or args.diff:
        fix_status = _apply_fixes(args, tasks, reports)
        if args.diff:
            return fix_status

    with frontdoor.recording():  # what the output reads too (SARIF's repository root)
        _print_reports(args, reports)
    # a file --fix could not write is an error whatever --exit-zero says
    return max(exit_status(reports, args.exit_zero, args.max_unknown), fix_status)


def _analyse(args: argparse.Namespace, settings: CliSettings
             ) -> tuple[list[FileTask], list[FileReport]]:
    """The run's tasks (each file with its settings) and their reports, as the per-file
    pipeline gives them, merged across files (``api.run_tasks``)."""
    # the front door (cudalint.frontdoor) notes what the settings are made of, to replay
    # this run's output while none of it changes
    with frontdoor.recording():
        compdb = _load_compdb(args)
        log: Callable[[str], None] | None = _say if args.verbose else None
        try:
            finder = ConfigFinder(args.config, isolated=args.isolated)
            resolver = Resolver(settings, finder, compdb, log)
            tasks, codes = _tasks(args, resolver)
        except (ConfigError, SettingsError) as exc:
            raise UsageError(str(exc)) from None
    frontdoor.settings_made([t.path for t in tasks])
    if log is not None:
        _log_tasks(log, tasks, codes)

    jobs = args.jobs or (os.cpu_count() or 1)
    progress: ProgressBar | None = None
    if _isatty(sys.stderr) and len(tasks) >= PROGRESS_MIN_FILES and not args.quiet:
        progress = ProgressBar(sys.stderr)
    try:
        reports = run_tasks(tasks, jobs, progress,
                            note=None if args.quiet else lambda m: _say(f"warning: {m}"))
    finally:
        if progress is not None:
            progress.clear()
    if log is not None:
        _log_commands(log, tasks, reports)
        for report in reports:
            if report.covered_by is not None:
                log(f"{report.path}: analysed as part of {report.covered_by}, which includes "
                    "it (not on its own)")
    return tasks, reports


def _print_reports(args: argparse.Namespace, reports: Sequence[FileReport]) -> None:
    """``--bank-map-svg``, then the reports in the chosen format on stdout, and the
    files that could not be analysed on stderr."""
    # --bank-map-svg
    if args.bank_map_svg is not None:
        _write_bank_maps(
            args.bank_map_svg,
            [(result, d.fix) for r in reports for d in r.diagnostics
             for result in (d.bank_modes or ((d.result,) if d.result else ()))
             if result.has_conflict],
            args.quiet,
        )

    if args.statistics:
        if args.format == "json":
            sys.stdout.write(stats.render_json(reports))
        else:
            sys.stdout.write(stats.render_text(reports))
            if not args.quiet:
                sys.stdout.write(text_summary(reports) + "\n")
    else:
        render_options = RenderOptions(
            color=use_color(args.color, sys.stdout),
            quiet=args.quiet,
            show_all=args.show_all,
            max_unknown=args.max_unknown,
        )
        sys.stdout.write(render(args.format, reports, render_options))
    if args.format in ("text", "concise"):
        for report in reports:
            if report.error is not None:
                sys.stderr.write(_error_line(report) + "\n")
        run_totals = stats.totals(reports)
        if run_totals.too_unknown(args.max_unknown):
            sys.stderr.write(
                f"cudalint: error: {stats.unknown_message(run_totals, args.max_unknown)}\n"
            )
    sys.stdout.flush()


# --- fixes: --fix, --unsafe-fixes, --diff ---------------------------------------------------


def _fix_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("fixes")
    g.add_argument("--fix", action="store_true",
                   help="apply the safe fixes to the files, then report what remains")
    g.add_argument("--unsafe-fixes", action="store_true",
                   help="with --fix or --diff: also apply fixes that change the memory "
                        "layout where code cudalint cannot see might depend on it")
    g.add_argument("--diff", action="store_true",
                   help="print the fixes as a unified diff and write nothing "
                        "(exit 1 when there would be changes)")


def _apply_fixes(args: argparse.Namespace, tasks: Sequence[FileTask],
                 reports: list[FileReport]) -> int:
    """--diff: print the diff and return the exit status. --fix: write the files and
    replace their reports by the re-analysis (the caller reports what remains); returns
    EXIT_ERROR when a file could not be written (or changed meanwhile), else EXIT_OK."""
    from cudalint.fixes.apply import fix_report, unified_diff, unified_diff_bytes

    if args.paths == ["-"] and not args.diff:
        raise UsageError("--fix cannot write to stdin; use --diff")

    status = EXIT_OK
    fixed_files = applied = 0
    edited: set[str] = set()
    for i, (task, report) in enumerate(zip(tasks, reports, strict=True)):
        if report.error is not None or report.source is None or report.unit is None:
            if report.error is not None and args.diff:
                sys.stderr.write(_error_line(report) + "\n")
                status = EXIT_ERROR
            continue
        # each round's re-analysis goes through the same per-file pipeline (suppression
        # comments included), so that a suppressed diagnostic's fix is never applied
        result = fix_report(report, task.options, unsafe=args.unsafe_fixes,
                            selection=task.selection)
        if result.error is not None:
            sys.stderr.write(f"cudalint: {report.path}: {result.error}\n")
            continue
        if not result.changed:
            continue
        # Code in a header is fixed from the first file (in task order) that includes
        # it: one diff, one write per file and run.
        files = [(report.path, result.original, result.fixed),
                 *((h, a, b) for h, (a, b) in sorted(result.headers.items()))]
        files = [f for f in files if f[1] != f[2] and os.path.realpath(f[0]) not in edited]
        edited.update(os.path.realpath(f[0]) for f in files)
        if args.diff:
            for path, before, after in files:
                # the files' own bytes (not UTF-8 ones: U+FFFD would make git apply fail)
                sys.stdout.flush()
                out = getattr(sys.stdout, "buffer", None)
                if out is not None:
                    out.write(unified_diff_bytes(path, before, after))
                else:
                    sys.stdout.write(unified_diff(path, before, after))
                status = max(status, EXIT_FINDINGS)
            continue
        if not all(_write_edited(path, before, after, _write_roots(args))
                   for path, before, after in files):
            status = EXIT_ERROR
            continue
        fixed_files += len(files)
        applied += result.applied
        if result.report is not None:
            reports[i] = result.report
    if args.diff:
        sys.stdout.flush()
        return status
    dedupe_reports(reports)  # the re-analyses repeat code in headers again
    if args.baseline is not None and os.path.exists(args.baseline):
        _baseline(args.baseline, reports)
    if not args.quiet:
        remaining = sum(
            1 for r in reports for d in r.diagnostics if d.severity in ("warning", "error")
        )
        _say(f"applied {applied} fix{'es' if applied != 1 else ''} in {fixed_files} "
             f"file{'s' if fixed_files != 1 else ''}; {remaining} warning"
             f"{'s remain' if remaining != 1 else ' remains'}")
    return status


# --- the bank map (--explain-access, --bank-map-svg) and ``cudalint lsp`` ------------------

_LOCATION = re.compile(r"(?P<file>.+?):(?P<line>[0-9]+)(?::(?P<column>[0-9]+))?")


def _bank_map_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("bank map (also: 'cudalint lsp' runs the language server)")
    g.add_argument("--explain-access", metavar="FILE:LINE[:COL]", default=None,
                   help="draw how the banks serve the access at FILE:LINE[:COL] in its "
                        "worst warp (32 banks across, wavefronts down), and exit")
    g.add_argument("--bank-map-svg", metavar="DIR", default=None,
                   help="write an SVG bank map of every conflicting access to DIR "
                        "(with --explain-access: of the accesses it draws)")


def _explain_access(args: argparse.Namespace, settings: CliSettings) -> int:
    from cudalint.model.explain import bank_map, results_at
    from cudalint.output.bankmap import describe, render_text

    where = args.explain_access
    match = _LOCATION.fullmatch(where)
    if match is None:
        raise UsageError(f"invalid --explain-access '{where}' (expected FILE:LINE[:COL])")
    if args.paths:
        raise UsageError("--explain-access names its file itself; give no other paths")
    path = match["file"]
    line = int(match["line"])
    column = int(match["column"]) if match["column"] else None
    if not os.path.isfile(path):
        raise UsageError(f"--explain-access: no such file '{path}'")
    compdb = _load_compdb(args)
    log: Callable[[str], None] | None = _say if args.verbose else None
    try:
        resolver = Resolver(settings, ConfigFinder(args.config, isolated=args.isolated),
                            compdb, log)
        task, _ = resolver.task(path)
    except (ConfigError, SettingsError) as exc:
        raise UsageError(str(exc)) from None
    report = run_tasks([task])[0]
    if report.error is not None:
        sys.stderr.write(_error_line(report) + "\n")
        return EXIT_ERROR
    found = results_at(report.results, line, column, file=path)
    if not found:
        lines = sorted({r.access.span.line for r in report.results
                        if results_at([r], r.access.span.line, file=path)})
        hint = (f"; its shared accesses are on line{'s' if len(lines) > 1 else ''} "
                + ", ".join(map(str, lines))) if lines else "; it has no shared access"
        raise UsageError(f"no shared-memory access at {where}{hint}")
    color = use_color(args.color, sys.stdout)
    blocks = []
    for result in found:
        picture = bank_map(result)
        if picture is None:
            blocks.append("\n".join(describe(result)) + "\n  (no warp was costed: "
                          "nothing to draw)\n")
        else:
            blocks.append(render_text(picture, color))
    sys.stdout.write("\n".join(blocks))
    sys.stdout.flush()
    if args.bank_map_svg is not None:
        # the fix a diagnostic of the access suggests, for the before/after pair
        fixes = {id(r): d.fix for d in report.diagnostics
                 for r in (d.bank_modes or (d.result,)) if r is not None}
        _write_bank_maps(args.bank_map_svg, [(r, fixes.get(id(r))) for r in found],
                         args.quiet)
    return EXIT_OK


def _write_bank_maps(directory: str, results: Sequence[tuple[AccessResult, Fix | None]],
                     quiet: bool) -> None:
    """One SVG per result (deterministic names; a result drawn once); where a fix is
    suggested and its re-check (``Fix.checked``) is of the result's bank mode, the map
    under the fix is drawn beside the current one."""
    from cudalint.model.explain import bank_map
    from cudalint.output.bankmap import render_svg, svg_file_name

    written: set[str] = set()
    for result, fix in results:
        picture = bank_map(result)
        name = svg_file_name(result)
        if picture is None or name in written:
            continue
        checked = fix.checked if fix is not None else None
        after = None
        if checked is not None and (checked.bank_mode == result.bank_mode
                                    or checked.access == result.access):
            # a layout fix: this mode under the new layout (its re-check of another mode
            # is not this picture's); Kepler's 8-byte mode: the same access in that mode
            after = bank_map(checked)
        target = os.path.join(directory, name)
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--bank-map-svg: cannot write {target}: "
                             f"{exc.strerror or exc}") from None
        try:
            svg = render_svg(picture, fix.title if after is not None and fix else None,
                             after)
            write_file(target, svg.encode("utf-8"))
        except WriteError as exc:
            raise UsageError(f"--bank-map-svg: {exc}") from None
        written.add(name)
    if not quiet:
        _say(f"wrote {len(written)} bank map{'s' if len(written) != 1 else ''} "
             f"to {directory}")


def _lsp(argv: Sequence[str]) -> int:
    try:
        from cudalint.lsp import server
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs"):
            raise
        sys.stderr.write(
            "cudalint: error: 'cudalint lsp' needs pygls 2, which is not installed; "
            f"install it into this environment with: {sys.executable} -m pip install "
            "'pygls>=2' (or, in a clone of cudalint: pip install '.[lsp]')\n"
        )
        return EXIT_ERROR
    return server.main(argv)


def _tolerant(stream: TextIO) -> None:
    # A terminal or pipe that cannot encode '…' must not turn into a traceback.
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # detached or closed stream
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant(sys.stdout)
    _tolerant(sys.stderr)
    saved_cache = os.environ.get(PARSE_CACHE_ENV)
    try:
        return _run(argv)
    except UsageError as exc:
        sys.stderr.write(f"cudalint: error: {printable(str(exc), newlines=True)}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("cudalint: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (``cudalint ... | head``): stop quietly.
        frontdoor.silence_stdout()
        return EXIT_ERROR
    except Exception as exc:  # never a traceback
        sys.stderr.write(
            f"cudalint: internal error: {type(exc).__name__}: {exc}; please report\n"
        )
        return EXIT_ERROR
    finally:
        if saved_cache is None:
            os.environ.pop(PARSE_CACHE_ENV, None)
        else:
            os.environ[PARSE_CACHE_ENV] = saved_cache
