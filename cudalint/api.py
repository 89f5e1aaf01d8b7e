"""The pipeline as a library: analyze files and get plain results back, the results
the command line shows (suppression comments applied, code in headers reported once).

``check_file`` runs one file through the per-file pipeline, read → parse → analyse →
rules → suppressions → report (:mod:`cudalint.checker`); ``check_paths`` expands
directories (:mod:`cudalint.discovery`) and never lets one file's failure stop the
others (as pyflakes' ``api.checkPath`` does); ``run_tasks`` analyzes files with their
own options, in worker processes when asked (:mod:`cudalint.manager`), and returns the
reports in the order of the tasks, merged across files (:mod:`cudalint.runmerge`).
Nothing here prints.

Configuration files are not read here: ``check_paths`` applies the options and rules it
is given to every file. :class:`cudalint.settings.Resolver` gives each file the task the
command line would (its configuration, per-file ignores, compile command), and
``run_tasks`` of those tasks gives the command line's reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from cudalint.checker import (
    CLANG_STDERR_CHARS,
    FileReport,
    FileTask,
    check_file,
    check_source,
    check_unit,
    diagnostic_sort_key,
    enabled_codes,
)
from cudalint.discovery import (
    CUDA_SUFFIXES,
    HEADER_SUFFIXES,
    ExcludeMatcher,
    discovered_headers,
    expand_paths,
    is_header,
    path_key,
)
from cudalint.manager import (
    IsolatedChecker,
    Progress,
    covered_report,
    included_elsewhere,
    run_tasks,
)
from cudalint.options import Options
from cudalint.rules import DEFAULT_SELECTION, Rule, RuleSelection
from cudalint.runmerge import dedupe_reports, merge_reports

__all__ = [
    "CLANG_STDERR_CHARS",
    "CUDA_SUFFIXES",
    "HEADER_SUFFIXES",
    "ExcludeMatcher",
    "FileReport",
    "FileTask",
    "IsolatedChecker",
    "Progress",
    "check_file",
    "check_paths",
    "check_source",
    "check_unit",
    "covered_report",
    "dedupe_reports",
    "diagnostic_sort_key",
    "discovered_headers",
    "expand_paths",
    "included_elsewhere",
    "is_header",
    "merge_reports",
    "run_tasks",
]


def check_paths(
    paths: Iterable[str],
    options: Options,
    *,
    selection: RuleSelection = DEFAULT_SELECTION,
    jobs: int = 1,
    exclude: Callable[[str], bool] | None = None,
    per_file_ignores: Iterable[tuple[str, Sequence[str]]] = (),
) -> list[FileReport]:
    """Analyze every file under ``paths``, in order; a bad path gives an error report.

    The reports are the command line's: suppression comments applied, code in a header
    reported once. ``per_file_ignores`` are the configuration's ``per-file-ignores``
    (glob, rules), the globs relative to the current directory: the rules are off in the
    files a glob matches. UnknownSelectorError for a rule that does not exist.
    """
    paths = list(paths)
    ignores = [(glob, RuleSelection.build(select=list(rules)).rules())
               for glob, rules in per_file_ignores]
    found = discovered_headers(paths, exclude)
    tasks = [
        FileTask(path, options, _file_selection(path, selection, ignores), error=error,
                 discovered=path_key(path) in found)
        for path, error in expand_paths(paths, exclude)
    ]
    return run_tasks(tasks, jobs)


def _file_selection(path: str, selection: RuleSelection,
                    ignores: Sequence[tuple[str, Sequence[Rule]]]) -> RuleSelection:
    """``selection`` less the rules that ``per-file-ignores`` turn off for ``path`` (as
    :meth:`cudalint.settings.Resolver.file_codes` does)."""
    off = {rule.code for glob, rules in ignores if ExcludeMatcher([(glob, ".")])(path)
           for rule in rules}
    if not off:
        return selection
    return RuleSelection.build(select=sorted(enabled_codes(selection) - off))
