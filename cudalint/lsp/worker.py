"""The language server's analysis worker: the incremental path (issue 15).

:class:`DocumentChecker` is ``IsolatedChecker`` (one worker process kept from edit to
edit, under the workers' CPU and memory caps) whose worker also keeps, between edits,

- each document's libclang translation unit, reparsed with a precompiled preamble
  instead of parsed anew (:func:`cudalint.frontend.parse.keep_documents`),
- with it, the walker's results of the document's last version: the host-launch
  evaluation and each kernel's and device function's run, reused while their inputs are
  unchanged (:mod:`cudalint.frontend.reuse`), and
- the analyses of the kernels whose inputs did not change, which are reused instead of
  proved again, also by the fix re-checks (:mod:`cudalint.model.slices`).

Everything else is the per-file pipeline ``cudalint`` runs (``checker.run_task``), so the
diagnostics are the command line's. Where the incremental path cannot help (the clang
arguments changed, the main file's preprocessor directives or an included file changed,
a reparse failed, code outside a kernel's body changed, a kernel's inputs changed) it
parses, walks or proves from scratch; a worker that dies is replaced by a fresh one,
which starts from scratch.
"""

from __future__ import annotations

from collections.abc import Callable

from cudalint.manager import IsolatedChecker, _worker_init

__all__ = ["DOCUMENTS_KEPT", "DocumentChecker", "start_incremental"]

#: Translation units kept in the worker (the most recently analysed documents).
DOCUMENTS_KEPT = 8


def start_incremental(limit: int = DOCUMENTS_KEPT) -> None:
    """In this process from now on: keep documents' translation units and reuse the
    analyses of unchanged kernels."""
    from cudalint.frontend.parse import keep_documents
    from cudalint.model.analyze import use_analysis_cache

    keep_documents(limit)
    use_analysis_cache(True)


def _document_worker_init(run_dir: str | None, main_pid: int | None,
                          memory: int | None) -> None:
    _worker_init(run_dir, main_pid, memory)
    start_incremental()


class DocumentChecker(IsolatedChecker):
    """``IsolatedChecker`` whose worker keeps documents and analyses between calls."""

    def _initializer(self) -> Callable[[str | None, int | None, int | None], None]:
        return _document_worker_init
