"""``cudalint [options] PATH...``: the command line.

Exit status: 2 when usage or configuration is invalid or any path could not be read or
analyzed (the other files are still analyzed and reported); otherwise 1 when a warning
survives rule selection (unless ``--exit-zero``); else 0. Never prints a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from cudalint import __version__
from cudalint.api import FileReport, check_paths
from cudalint.model.arch import Arch, ArchError, parse_arch
from cudalint.options import BankModeOption, Options
from cudalint.output import FORMATS, RenderOptions, render
from cudalint.rules import RULES, RuleSelection, UnknownSelectorError, explain, get_rule

DEFAULT_ARCH = "sm_90"
MAX_THREADS_PER_BLOCK = 1024

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


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="cudalint",
        description="Prove shared-memory bank conflicts in CUDA sources, statically.",
        epilog=(
            "Exit status: 0 clean, 1 a warning was reported, 2 a path could not be "
            "analyzed or the usage is invalid."
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help=".cu/.cuh files or directories")
    p.add_argument("--version", action="version", version=f"cudalint {__version__}")

    a = p.add_argument_group("analysis")
    a.add_argument(
        "--arch", default=DEFAULT_ARCH, metavar="sm_XX",
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

    f = p.add_argument_group("parsing")
    f.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="add an include directory")
    f.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]",
                   help="define a macro")
    f.add_argument("--std", default="c++17", help="C++ standard (default c++17)")
    f.add_argument("--cuda-path", metavar="DIR", default=None,
                   help="parse against this CUDA toolkit's headers (default: cudalint's shim)")

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

    o = p.add_argument_group("output")
    o.add_argument("--format", choices=FORMATS, default="text", help="output format")
    o.add_argument("--show-all", action="store_true",
                   help="JSON: list every analyzed access, not only those behind diagnostics")
    o.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text output (auto: on a terminal, unless NO_COLOR is set)")
    o.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when warnings are reported (errors still exit 2)")
    o.add_argument("-q", "--quiet", action="store_true", help="print diagnostics only")
    return p


# --- validation ---------------------------------------------------------------------------


def check_arch(text: str) -> Arch:
    try:
        return parse_arch(text)
    except ArchError as exc:
        raise UsageError(f"invalid --arch: {exc}") from None


def parse_block_dim(text: str) -> tuple[int, int, int]:
    parts = [s.strip() for s in text.split(",")]
    if not 1 <= len(parts) <= 3 or not all(re.fullmatch(r"\d+", s) for s in parts):
        raise UsageError(f"invalid --block-dim '{text}' (expected X[,Y[,Z]], e.g. 32,8)")
    dims = [int(s) for s in parts] + [1] * (3 - len(parts))
    if any(d <= 0 for d in dims):
        raise UsageError(f"invalid --block-dim '{text}': every extent must be positive")
    x, y, z = dims
    if x * y * z > MAX_THREADS_PER_BLOCK:
        raise UsageError(
            f"invalid --block-dim '{text}': {x * y * z} threads per block "
            f"(at most {MAX_THREADS_PER_BLOCK})"
        )
    return x, y, z


def build_options(args: argparse.Namespace) -> Options:
    arch = check_arch(args.arch)
    bank_mode: BankModeOption | None = args.bank_mode
    if bank_mode in ("8", "both") and arch.family != "kepler":
        raise UsageError(
            f"--bank-mode {bank_mode} needs a Kepler arch (sm_30 to sm_37), not {arch.name}"
        )
    if not re.fullmatch(r"(?:c|gnu)\+\+\w+", args.std):
        raise UsageError(f"invalid --std '{args.std}' (expected e.g. c++17)")
    if args.cuda_path is not None and not os.path.isdir(args.cuda_path):
        raise UsageError(f"--cuda-path '{args.cuda_path}' is not a directory")
    return Options(
        arch=arch.name,
        bank_mode=bank_mode,
        block_dim=parse_block_dim(args.block_dim) if args.block_dim is not None else None,
        block_dim_source="cli",
        include_dirs=tuple(args.include_dirs),
        defines=tuple(args.defines),
        std=args.std,
        cuda_path=args.cuda_path,
    )


def build_selection(args: argparse.Namespace) -> RuleSelection:
    try:
        return RuleSelection.build(
            select=args.select,
            extend_select=[c for group in args.extend_select for c in group],
            ignore=[c for group in args.ignore for c in group],
        )
    except UnknownSelectorError as exc:
        known = ", ".join(RULES)
        raise UsageError(f"{exc} (rules: {known})") from None


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


def exit_status(reports: Sequence[FileReport], exit_zero: bool) -> int:
    if any(report.error is not None for report in reports):
        return EXIT_ERROR
    if not exit_zero and any(
        d.severity in ("warning", "error") for report in reports for d in report.diagnostics
    ):
        return EXIT_FINDINGS
    return EXIT_OK


def _error_line(report: FileReport) -> str:
    message = report.error or ""
    if report.path in message:
        return f"cudalint: error: {message}"
    return f"cudalint: error: {report.path}: {message}"


def _list_rules() -> str:
    lines = []
    for rule in RULES.values():
        state = "" if rule.default_enabled else " (off by default)"
        lines.append(f"{rule.code}  {rule.name:<24} {rule.severity:<8} {rule.summary}{state}")
    return "\n".join(lines) + "\n"


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK

    if args.list_rules:
        sys.stdout.write(_list_rules())
        return EXIT_OK
    if args.explain is not None:
        rule = get_rule(args.explain)
        if rule is None:
            raise UsageError(f"unknown rule '{args.explain}' (rules: {', '.join(RULES)})")
        sys.stdout.write(explain(rule))
        return EXIT_OK

    options = build_options(args)
    selection = build_selection(args)
    if not args.paths:
        parser.print_usage(sys.stderr)
        raise UsageError("no paths given")

    reports = check_paths(args.paths, options, selection=selection)
    render_options = RenderOptions(
        color=use_color(args.color, sys.stdout),
        quiet=args.quiet,
        show_all=args.show_all,
    )
    sys.stdout.write(render(args.format, reports, render_options))
    if args.format == "text":
        for report in reports:
            if report.error is not None:
                sys.stderr.write(_error_line(report) + "\n")
    sys.stdout.flush()
    return exit_status(reports, args.exit_zero)


def _tolerant(stream: TextIO) -> None:
    # A terminal or pipe that cannot encode '…' must not turn into a traceback.
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # detached or closed stream
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant(sys.stdout)
    _tolerant(sys.stderr)
    try:
        return _run(argv)
    except UsageError as exc:
        sys.stderr.write(f"cudalint: error: {exc}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("cudalint: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (``cudalint ... | head``): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_ERROR
    except Exception as exc:  # never a traceback
        sys.stderr.write(
            f"cudalint: internal error: {type(exc).__name__}: {exc}; please report\n"
        )
        return EXIT_ERROR
