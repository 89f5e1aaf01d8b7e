"""The language server (pygls 2): diagnostics, quick fixes and hover for .cu/.cuh files
and for .h/.hpp/.inl headers that hold a kernel or a shared array.

- Diagnostics: on open and save at once, on change after a short pause (debounced),
  always analyzing the buffer as the editor holds it (``check_file(contents=...)``),
  with the configuration found from the document's path, as on the command line
  (``pyproject.toml``/``cudalint.toml``, per-file ignores, suppression comments).
- Code actions: each diagnostic's fix as a quick fix with its workspace edit (safe fixes
  preferred; unsafe ones say so; display-only fixes are not offered).
- Hover on a shared-memory access: wavefronts, ideal, status, block shape and arch.

Analyses run one at a time in a worker thread, so the server keeps answering; a result
for an outdated version of a document is dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
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
from cudalint.config import ConfigError, ConfigFinder
from cudalint.diagnostics import Diagnostic, Edit, Fix
from cudalint.lsp.positions import character_to_column, column_to_character, lines_of
from cudalint.model.explain import results_at
from cudalint.model.results import AccessResult, shape_text
from cudalint.settings import CliSettings, Resolver, SettingsError
from cudalint.suppressions import UNUSED_CODE, apply_suppressions

__all__ = ["CudalintServer", "analyze_text", "main"]

#: Seconds to wait after a change before analyzing (more changes restart the wait).
DEFAULT_DEBOUNCE = 0.3
SOURCE = "cudalint"

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


def analyze_text(path: str, text: str, version: int | None = None, *,
                 checker: IsolatedChecker | None = None) -> Analysis:
    """Analyze ``text`` as the file ``path``, with the configuration that applies to it;
    in ``checker``'s worker process when given (the server's: a file spinning or
    allocating inside libclang is stopped by the worker's caps, not left running)."""
    contents = text.encode("utf-8", errors="surrogatepass")
    try:
        resolver = Resolver(CliSettings(), ConfigFinder(None, isolated=False))
        task, codes = resolver.task(path, contents=contents)
    except (ConfigError, SettingsError) as exc:
        return Analysis(path, version, text, FileReport(path=path), [], str(exc))
    if task.error is not None:
        return Analysis(path, version, text, FileReport(path=path), [], task.error)
    if checker is not None:
        report = checker.check(dataclasses.replace(task, contents=contents))
    else:
        report = check_file(path, task.options, contents, selection=task.selection)
    if report.error is not None:
        return Analysis(path, version, text, report, [], report.error)
    mine = [d for d in report.diagnostics if d.file == path]
    kept, _ = apply_suppressions(
        mine, {path: contents}, report_unused=UNUSED_CODE in codes, enabled_codes=codes,
        main_file=path,
    )
    return Analysis(path, version, text, report, sorted(kept, key=diagnostic_sort_key))


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
        name = a.array.rsplit("::", 1)[-1]
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
    def __init__(self, debounce: float = DEFAULT_DEBOUNCE) -> None:
        super().__init__("cudalint", __version__)
        self.debounce = debounce
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cudalint")
        #: The worker process that analyses the documents (started by the first one).
        self.checker = IsolatedChecker()

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
            self.executor, functools.partial(analyze_text, checker=self.checker), path, text,
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
        only = params.context.only
        if only and not any(types.CodeActionKind.QuickFix.value.startswith(k) for k in only):
            return []
        uri = params.text_document.uri
        analysis = self.current(uri)
        if analysis is None:
            return []
        lines = lines_of(analysis.text)
        actions: list[types.CodeAction] = []
        for d in analysis.diagnostics:
            fix = d.fix
            if fix is None or fix.applicability == "display-only":
                continue
            diagnostic = lsp_diagnostic(d, lines, self.encoding)
            if not _overlaps(diagnostic.range, params.range):
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


def _is_cuda(uri: str, text: str | None) -> bool:
    """A .cu/.cuh document, or a C/C++ header that holds a kernel or a shared array (as
    directory discovery decides; ``text`` None: any header may have been one)."""
    path = uri.split("?", 1)[0].split("#", 1)[0]
    if path.endswith(CUDA_SUFFIXES):
        return True
    if not path.endswith(HEADER_SUFFIXES):
        return False
    return text is None or "__global__" in text or "__shared__" in text


def create_server(debounce: float = DEFAULT_DEBOUNCE) -> CudalintServer:
    server = CudalintServer(debounce)

    @server.feature(types.INITIALIZE)
    def initialize(ls: CudalintServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounceMs"), int | float):
            ls.debounce = max(0.0, float(options["debounceMs"]) / 1000)

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
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
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
    args = parser.parse_args(list(argv))
    from cudalint.lsp.transport import start_io

    # not pygls' start_io: its reader goes deaf or prints tracebacks on bad input
    server = create_server(max(args.debounce_ms, 0) / 1000)
    try:
        start_io(server)
    finally:
        server.checker.close()  # its worker process and temporary files
    return 0
