"""The language server (pygls 2): diagnostics, quick fixes and hover for .cu/.cuh files
and for .h/.hpp/.inl headers that hold a kernel or a shared array.

- Diagnostics: on open and save at once, on change after a short pause (debounced),
  always analyzing the buffer as the editor holds it (``check_file(contents=...)``),
  with the settings the command line resolves for the document's path
  (``cudalint.settings.Resolver``): its configuration (``extend``, per-file ignores),
  its compilation database (``-p``/``--compile-commands`` given to ``cudalint lsp``,
  else the configuration's ``compile-commands``, else the ``compile_commands.json``
  found in the project or its ``build*/``), suppression comments; a document that
  ``exclude`` (or ``--exclude``) excludes gets no diagnostics, as in ruff's server.
- Code actions: each diagnostic's fix as a quick fix with its workspace edit (safe fixes
  preferred; unsafe ones say so; display-only fixes are not offered); "Suppress CODE on
  this line" (the comment ``--add-ignores`` writes); and fix-all, kind
  ``source.fixAll.cudalint`` (every safe fix of the document, for
  ``editor.codeActionsOnSave``).
- Hover on a shared-memory access: wavefronts, ideal, status, block shape and arch.

Analyses run one at a time in a worker thread, so the server keeps answering; a result
for an outdated version of a document is dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from cudalint import __version__
from cudalint.api import (
    CUDA_SUFFIXES,
    HEADER_SUFFIXES,
    FileReport,
    IsolatedChecker,
    check_file,
    diagnostic_sort_key,
)
from cudalint.compdb import CompdbError
from cudalint.config import ConfigError, ConfigFinder
from cudalint.diagnostics import Diagnostic, Edit, Fix
from cudalint.lsp.positions import character_to_column, column_to_character, lines_of, units
from cudalint.lsp.worker import DocumentChecker
from cudalint.model.explain import results_at
from cudalint.model.results import AccessResult, shape_text
from cudalint.settings import CliSettings, Resolver, SettingsError, read_database
from cudalint.suppressions import UNUSED_CODE, add_ignore_edits

__all__ = ["CudalintServer", "analyze_text", "main"]

#: Seconds to wait after a change before analyzing (more changes restart the wait).
DEFAULT_DEBOUNCE = 0.3
SOURCE = "cudalint"
#: The code action kind of "fix all" (``editor.codeActionsOnSave``: ``source.fixAll``).
FIX_ALL = "source.fixAll.cudalint"

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
_BLOCK_SOURCE = {
    "launch": "from the launch",
    "annotation": "from the block-dim annotation",
    "cli": "from the command line",
    "config": "from the configuration",
    "assumed": "assumed",
}


@dataclass
class Analysis:
    """One analysis of one version of a document."""

    path: str
    version: int | None
    text: str
    report: FileReport
    #: The diagnostics shown: this document's, after suppressions.
    diagnostics: list[Diagnostic]
    #: Why the document could not be analyzed (configuration, parse failure).
    error: str | None = None
    #: The settings exclude the document: it was not analyzed and shows nothing.
    excluded: bool = False


@dataclass(frozen=True)
class LspSettings:
    """What ``cudalint lsp``'s command line says, as the same flags of ``cudalint``
    do: ``--config``, ``--isolated``, ``-p``/``--compile-commands``, ``--exclude``."""

    config: str | None = None
    isolated: bool = False
    compile_commands: str | None = None
    exclude: tuple[str, ...] = ()

    def with_options(self, options: object) -> tuple[LspSettings, list[str]]:
        """These settings with the editor's ``initializationOptions`` applied (they win
        over the command line): ``config`` (a path), ``isolated`` (bool),
        ``compileCommands`` (a path: ``-p``) and ``exclude`` (a list of globs, added to
        the command line's). Also the problems with values that were not applied."""
        if not isinstance(options, dict):
            return self, []
        out, problems = self, []
        for key in ("config", "compileCommands"):
            if key not in options:
                continue
            path = options[key]
            if path is None or (isinstance(path, str) and path):
                out = (dataclasses.replace(out, config=path) if key == "config"
                       else dataclasses.replace(out, compile_commands=path))
            else:
                problems.append(f"initializationOptions.{key}: expected a path, got {path!r}")
        if "isolated" in options:
            flag = options["isolated"]
            if isinstance(flag, bool):
                out = dataclasses.replace(out, isolated=flag)
            else:
                problems.append(f"initializationOptions.isolated: expected a boolean, "
                                f"got {flag!r}")
        if "exclude" in options:
            value = options["exclude"]
            if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
                out = dataclasses.replace(out, exclude=(*out.exclude, *value))
            else:
                problems.append(f"initializationOptions.exclude: expected a list of globs, "
                                f"got {value!r}")
        return out, problems

    def resolver(self) -> Resolver:
        """A fresh resolver (configuration files are read again: they may have changed).
        ConfigError or CompdbError when they cannot be read."""
        compdb = (read_database(self.compile_commands)
                  if self.compile_commands is not None else None)
        return Resolver(CliSettings(exclude=self.exclude),
                        ConfigFinder(self.config, isolated=self.isolated), compdb)


def analyze_text(path: str, text: str, version: int | None = None, *,
                 checker: IsolatedChecker | None = None,
                 settings: LspSettings | None = None) -> Analysis:
    """Analyze ``text`` as the file ``path``, with the settings ``cudalint PATH`` (with
    ``settings``, ``cudalint lsp``'s flags) resolves for it; a document they exclude is
    not analysed (``excluded``, nothing shown). In ``checker``'s worker process when
    given (the server's: a file spinning or allocating inside libclang is stopped by the
    worker's caps, not left running)."""
    contents = text.encode("utf-8", errors="surrogatepass")
    try:
        resolver = (settings or LspSettings()).resolver()
        if resolver.excluded(path) is not None:
            return Analysis(path, version, text, FileReport(path=path), [], excluded=True)
        task, _ = resolver.task(path, contents=contents)
    except (ConfigError, SettingsError, CompdbError) as exc:
        return Analysis(path, version, text, FileReport(path=path), [], str(exc))
    if task.error is not None:
        return Analysis(path, version, text, FileReport(path=path), [], task.error)
    if checker is not None:
        report = checker.check(dataclasses.replace(task, contents=contents))
    else:
        report = check_file(path, task.options, contents, selection=task.selection)
    if report.error is not None:
        return Analysis(path, version, text, report, [], report.error)
    # the per-file pipeline applied the suppression comments (cudalint.checker)
    mine = [d for d in report.diagnostics if d.file == path]
    return Analysis(path, version, text, report, sorted(mine, key=diagnostic_sort_key))


# --- conversions ---------------------------------------------------------------------------


def lsp_range(lines: Sequence[str], line: int, column: int, end_line: int, end_column: int,
              encoding: str) -> types.Range:
    sl, sc = column_to_character(lines, line, column, encoding)
    el, ec = column_to_character(lines, end_line, end_column, encoding)
    if (el, ec) < (sl, sc):
        el, ec = sl, sc
    return types.Range(types.Position(sl, sc), types.Position(el, ec))


def lsp_diagnostic(d: Diagnostic, lines: Sequence[str], encoding: str) -> types.Diagnostic:
    message = d.message
    if d.notes:
        message += "\n" + "\n".join(d.notes)
    if d.fix is not None:
        message += "\nhelp: " + d.fix.title
    return types.Diagnostic(
        range=lsp_range(lines, d.line, d.column, d.end_line, d.end_column, encoding),
        message=message,
        severity=_SEVERITY.get(d.severity, types.DiagnosticSeverity.Warning),
        code=d.code,
        source=SOURCE,
    )


def _error_diagnostic(message: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        message=f"cudalint could not analyze this file: {message}",
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
    )


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def hover_text(results: Sequence[AccessResult]) -> str:
    """Markdown for the results of one access (one per bank mode / instantiation)."""
    blocks = []
    for r in results:
        a = r.access
        name = a.array_name or a.array.rsplit("::", 1)[-1]
        width = r.merged_width or a.width
        if r.wavefronts is None:
            verdict = "cost unknown"
        elif r.has_conflict and r.ways is not None:
            ways = r.ways
            verdict = f"{int(ways) if ways.is_integer() else round(ways, 2)}-way bank conflict"
        else:
            verdict = "no bank conflict"
        title = f"**cudalint**: {width}-byte {a.kind} of `{name}`: {verdict}"
        if a.instantiation:
            title += f" ({a.instantiation})"
        if r.bank_mode != 4:
            title += f" ({r.bank_mode}-byte bank mode)"
        shape = (f"{shape_text(r.block_dim)} {_BLOCK_SOURCE.get(r.block_dim_source, '')}".rstrip()
                 if r.block_dim is not None
                 else "assumed (blockDim.x a multiple of 32)")
        status = r.status + (f": {r.reason}" if r.reason else "")
        lines = [
            title,
            "",
            f"- wavefronts: {r.wavefronts if r.wavefronts is not None else 'unknown'}",
            f"- ideal: {r.ideal_wavefronts if r.ideal_wavefronts is not None else 'unknown'}",
            f"- status: {status}",
            f"- block shape: {shape}",
            f"- arch: {r.arch}",
        ]
        if r.warp is not None:
            lines.append(f"- worst warp: {r.warp}")
        blocks.append("\n".join(lines))
    return "\n\n---\n\n".join(blocks)


# --- the server ----------------------------------------------------------------------------


class CudalintServer(LanguageServer):
    def __init__(self, debounce: float = DEFAULT_DEBOUNCE,
                 settings: LspSettings | None = None, *, incremental: bool = True) -> None:
        super().__init__("cudalint", __version__)
        self.debounce = debounce
        #: ``cudalint lsp``'s settings flags, applied to every document.
        self.settings = settings or LspSettings()
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cudalint")
        #: The worker process that analyses the documents (started by the first one); it
        #: keeps their parses and the analyses of unchanged kernels (cudalint.lsp.worker).
        self.checker: IsolatedChecker = DocumentChecker() if incremental else IsolatedChecker()

    def set_incremental(self, on: bool) -> None:
        """Keep parses and unchanged kernels' analyses between edits (the default), or
        (``on`` False) parse and analyse every version from scratch, as ``cudalint``
        does: the path to fall back on, and the benchmark's baseline."""
        if on != isinstance(self.checker, DocumentChecker):
            self.checker.close()
            self.checker = DocumentChecker() if on else IsolatedChecker()

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or "utf-16")

    def schedule(self, uri: str, delay: float) -> None:
        if not _is_cuda(uri, self.workspace.get_text_document(uri).source):
            return
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.pending[uri] = asyncio.ensure_future(self._analyze_later(uri, delay))

    async def _analyze_later(self, uri: str, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        doc = self.workspace.get_text_document(uri)
        text, version = doc.source, doc.version
        path = to_fs_path(uri) or uri
        loop = asyncio.get_running_loop()
        analysis = await loop.run_in_executor(
            self.executor, functools.partial(analyze_text, checker=self.checker,
                                             settings=self.settings), path, text,
            version)
        if self.workspace.get_text_document(uri).version != version:
            return  # the document changed meanwhile: a newer analysis is on its way
        self.analyses[uri] = analysis
        self.publish(uri, analysis)

    def publish(self, uri: str, analysis: Analysis) -> None:
        lines = lines_of(analysis.text)
        if analysis.error is not None:
            diagnostics = [_error_diagnostic(analysis.error)]
        else:
            diagnostics = [lsp_diagnostic(d, lines, self.encoding) for d in analysis.diagnostics]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics,
                                           version=analysis.version)
        )

    def forget(self, uri: str) -> None:
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.analyses.pop(uri, None)
        if _is_cuda(uri, None):
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def current(self, uri: str) -> Analysis | None:
        """The analysis of the document as the client holds it now, if there is one."""
        analysis = self.analyses.get(uri)
        if analysis is None:
            return None
        if analysis.version != self.workspace.get_text_document(uri).version:
            return None
        return analysis

    # -- code actions and hover -----------------------------------------------------------

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        """Quick fixes and suppress-on-this-line for the diagnostics in the range, and
        fix-all (``source.fixAll.cudalint``) for the document, as ``context.only`` asks."""
        only = params.context.only
        uri = params.text_document.uri
        analysis = self.current(uri)
        if analysis is None:
            return []
        actions: list[types.CodeAction] = []
        if _wanted(types.CodeActionKind.QuickFix, only):
            actions += self.quick_fixes(uri, analysis, params.range)
            actions += self.suppressions(uri, analysis, params.range)
        if _wanted(FIX_ALL, only):
            fix_all = self.fix_all(uri, analysis)
            if fix_all is not None:
                actions.append(fix_all)
        return actions

    def quick_fixes(self, uri: str, analysis: Analysis, where: types.Range
                    ) -> list[types.CodeAction]:
        """Each diagnostic's fix in ``where``, as a quick fix (display-only ones not)."""
        lines = lines_of(analysis.text)
        actions: list[types.CodeAction] = []
        for d in analysis.diagnostics:
            fix = d.fix
            if fix is None or fix.applicability == "display-only":
                continue
            diagnostic = lsp_diagnostic(d, lines, self.encoding)
            if not _overlaps(diagnostic.range, where):
                continue
            edit = self.workspace_edit(uri, analysis, fix)
            if edit is None:
                continue
            title = fix.title if fix.applicability == "safe" else f"{fix.title} (unsafe fix)"
            actions.append(types.CodeAction(
                title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                edit=edit, is_preferred=fix.applicability == "safe",
            ))
        return actions

    def suppressions(self, uri: str, analysis: Analysis, where: types.Range
                     ) -> list[types.CodeAction]:
        """"Suppress CODE on this line" for each code in ``where``: the comment that
        ``--add-ignores`` writes (``// cudalint: ignore[CODE]`` at the end of the line,
        merged into one already there; on a line of its own above a line that opens a
        ``/*`` comment; none on a macro continuation line)."""
        lines = lines_of(analysis.text)
        source = analysis.text.encode("utf-8", errors="surrogatepass")
        actions: list[types.CodeAction] = []
        seen: set[tuple[int, str]] = set()
        for d in analysis.diagnostics:
            if d.code == UNUSED_CODE or d.file != analysis.path or (d.line, d.code) in seen:
                continue
            diagnostic = lsp_diagnostic(d, lines, self.encoding)
            if not _overlaps(diagnostic.range, where):
                continue
            seen.add((d.line, d.code))
            edits, _ = add_ignore_edits(source, analysis.path, {d.line: {d.code}})
            if not edits:
                continue  # a macro continuation, or inside a /* */ comment
            text_edits = [
                types.TextEdit(range=lsp_range(lines, e.line, e.column, e.end_line,
                                               e.end_column, self.encoding),
                               new_text=e.content)
                for e in edits
            ]
            actions.append(types.CodeAction(
                title=f"Suppress {d.code} on this line", kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                edit=types.WorkspaceEdit(changes={uri: text_edits}),
            ))
        return actions

    def fix_all(self, uri: str, analysis: Analysis) -> types.CodeAction | None:
        """Every safe fix of the document that edits only the document, applied together
        as ``--fix`` applies one round (an edit shared by several fixes once; a fix whose
        edits overlap an accepted one's left out), as one edit of the changed lines."""
        from cudalint.fixes.apply import apply_fixes

        fixes: list[Fix] = []
        seen: set[tuple[Edit, ...]] = set()
        for d in analysis.diagnostics:
            fix = d.fix
            if fix is None or fix.applicability != "safe" or not fix.edits:
                continue
            if any(e.file != analysis.path for e in fix.edits):
                continue
            key = tuple(sorted(fix.edits, key=lambda e: (e.line, e.column, e.end_line,
                                                         e.end_column, e.content)))
            if key not in seen:
                seen.add(key)
                fixes.append(fix)
        if not fixes:
            return None
        source = analysis.text.encode("utf-8", errors="surrogatepass")
        fixed, count = apply_fixes(source, fixes)
        if count == 0 or fixed == source:
            return None
        edit = _lines_edit(analysis.text, fixed.decode("utf-8", errors="surrogatepass"),
                           self.encoding)
        return types.CodeAction(
            title=f"cudalint: fix all ({count} safe fix{'es' if count != 1 else ''})",
            kind=FIX_ALL, edit=types.WorkspaceEdit(changes={uri: [edit]}),
        )

    def workspace_edit(self, uri: str, analysis: Analysis, fix: Fix) -> types.WorkspaceEdit | None:
        changes: dict[str, list[types.TextEdit]] = {}
        for e in fix.edits:
            target, lines = self._lines_for(uri, analysis, e)
            if lines is None:
                return None
            rng = lsp_range(lines, e.line, e.column, e.end_line, e.end_column, self.encoding)
            changes.setdefault(target, []).append(types.TextEdit(range=rng, new_text=e.content))
        return types.WorkspaceEdit(changes=changes)

    def _lines_for(self, uri: str, analysis: Analysis, e: Edit
                   ) -> tuple[str, list[str] | None]:
        if e.file == analysis.path:
            return uri, lines_of(analysis.text)
        target = from_fs_path(e.file) or e.file
        doc = self.workspace.text_documents.get(target)
        if doc is not None:
            return target, lines_of(doc.source)
        try:
            with open(e.file, encoding="utf-8", errors="surrogateescape") as f:
                return target, lines_of(f.read())
        except OSError:
            return target, None

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        analysis = self.analyses.get(uri)
        if analysis is None or analysis.report.unit is None:
            return None
        lines = lines_of(self.workspace.get_text_document(uri).source)
        line, column = character_to_column(lines, params.position.line,
                                           params.position.character, self.encoding)
        found = results_at(analysis.report.results, line, column, file=analysis.path)
        if not found:
            return None
        span = found[0].access.span
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                         value=hover_text(found)),
            range=lsp_range(lines_of(analysis.text), span.line, span.column, span.end_line,
                            span.end_column, self.encoding),
        )


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether ``context.only`` asks for code actions of ``kind`` (kinds are
    hierarchical: ``source`` asks for ``source.fixAll.cudalint``)."""
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


def _line_pieces(text: str) -> list[str]:
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _lines_edit(old: str, new: str, encoding: str) -> types.TextEdit:
    """One edit that turns ``old`` into ``new``: the lines between their common first
    and last lines, replaced."""
    a, b = _line_pieces(old), _line_pieces(new)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    end = len(a) - tail
    if tail == 0 and a and not a[-1].endswith("\n"):  # up to the end of an open last line
        last = a[-1].removesuffix("\r")
        end_position = types.Position(len(a) - 1, units(last, encoding))
    else:
        end_position = types.Position(end, 0)
    return types.TextEdit(range=types.Range(types.Position(head, 0), end_position),
                          new_text="".join(b[head:len(b) - tail]))


def _is_cuda(uri: str, text: str | None) -> bool:
    """A .cu/.cuh document, or a C/C++ header that holds a kernel or a shared array (as
    directory discovery decides; ``text`` None: any header may have been one)."""
    path = uri.split("?", 1)[0].split("#", 1)[0]
    if path.endswith(CUDA_SUFFIXES):
        return True
    if not path.endswith(HEADER_SUFFIXES):
        return False
    return text is None or "__global__" in text or "__shared__" in text


def create_server(debounce: float = DEFAULT_DEBOUNCE,
                  settings: LspSettings | None = None, *,
                  incremental: bool = True) -> CudalintServer:
    server = CudalintServer(debounce, settings, incremental=incremental)

    @server.feature(types.INITIALIZE)
    def initialize(ls: CudalintServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounceMs"), int | float):
            ls.debounce = max(0.0, float(options["debounceMs"]) / 1000)
        if isinstance(options, dict) and isinstance(options.get("incremental"), bool):
            ls.set_incremental(options["incremental"])
        ls.settings, problems = ls.settings.with_options(options)
        for problem in problems:
            ls.window_log_message(types.LogMessageParams(
                type=types.MessageType.Warning, message=f"cudalint: {problem} (ignored)"))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CudalintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CudalintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: CudalintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CudalintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )
    def code_action(ls: CudalintServer, params: types.CodeActionParams
                    ) -> list[types.CodeAction]:
        return ls.code_actions(params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: CudalintServer, params: types.HoverParams) -> types.Hover | None:
        return ls.hover(params)

    return server


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(
        prog="cudalint lsp",
        description="Run cudalint's language server on stdin/stdout (LSP).",
    )
    parser.add_argument("--stdio", action="store_true",
                        help="talk over stdin/stdout (the default and only transport)")
    parser.add_argument("--debounce-ms", type=int, default=int(DEFAULT_DEBOUNCE * 1000),
                        metavar="MS", help="pause after a change before analyzing "
                        f"(default {int(DEFAULT_DEBOUNCE * 1000)})")
    parser.add_argument("--no-incremental", dest="incremental", action="store_false",
                        help="parse and analyse every version of a document from scratch "
                             "(default: reparse it and reuse the analyses of unchanged "
                             "kernels; the diagnostics are the same)")
    # the settings flags of ``cudalint`` that choose files and their settings, so that
    # an editor started with them resolves each document as ``cudalint`` with them does
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="use this configuration file for every document")
    parser.add_argument("--isolated", action="store_true",
                        help="ignore configuration files and found compilation databases")
    parser.add_argument("-p", dest="build_dir", metavar="BUILD_DIR", default=None,
                        help="read BUILD_DIR/compile_commands.json for each document")
    parser.add_argument("--compile-commands", metavar="FILE", default=None,
                        help="read this compile_commands.json for each document")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOBS",
                        help="documents matching these globs (relative to the server's "
                             "working directory) get no diagnostics")
    args = parser.parse_args(list(argv))
    if args.build_dir is not None and args.compile_commands is not None:
        parser.error("give -p or --compile-commands, not both")
    compdb = args.compile_commands
    if args.build_dir is not None:
        compdb = args.build_dir
        if not compdb.endswith(".json"):
            compdb = os.path.join(compdb, "compile_commands.json")
    settings = LspSettings(
        config=os.path.abspath(args.config) if args.config is not None else None,
        isolated=args.isolated,
        compile_commands=os.path.abspath(compdb) if compdb is not None else None,
        exclude=tuple(g.strip() for group in args.exclude for g in group.split(",")
                      if g.strip()),
    )
    if settings.config is not None:
        try:
            ConfigFinder(settings.config)  # a bad file: say so now, not per document
        except ConfigError as exc:
            parser.error(str(exc))
    from cudalint.lsp.transport import start_io

    # not pygls' start_io: its reader goes deaf or prints tracebacks on bad input
    server = create_server(max(args.debounce_ms, 0) / 1000, settings,
                           incremental=args.incremental)
    try:
        start_io(server)
    finally:
        server.checker.close()  # its worker process and temporary files
    return 0
