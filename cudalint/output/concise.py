"""``--format concise``: one line per finding, for pre-commit hooks and CI logs.

```
k.cu:32:32: CL001 [*] 32-way bank conflict on load of 'tile' (32 wavefronts, ideal 1)
k.cu:40:9: CL002 possible 2-way bank conflict on store of 's' ...

1 file, 4 accesses: 4 proved, 0 worst-case, 0 unknown; 2 conflicts
[*] 1 fixable with `--fix`
```

ruff's ``concise`` layout: ``path:line:col: CODE message``, ``[*]`` after the code when
``--fix`` fixes the finding; no source excerpt and no notes. The summary (and the count
of fixable findings) follows a blank line unless ``-q``. Messages are one line: a line
break in one (there is none today) is written as ``\\n``.
"""

from __future__ import annotations

from collections.abc import Sequence

from cudalint.api import FileReport
from cudalint.output import RenderOptions
from cudalint.output.text import fixable, fixable_line, kernel_tags, printable, summary

__all__ = ["render"]


def render(reports: Sequence[FileReport], options: RenderOptions) -> str:
    lines: list[str] = []
    tags = kernel_tags(reports)
    for report in reports:
        for d in report.diagnostics:
            if id(d) in tags.skip:
                continue
            mark = " [*]" if fixable(d) == "safe" else ""
            # escapes line breaks too: one line each
            message = printable(d.message + tags.tags.get(id(d), ""))
            lines.append(f"{printable(d.file)}:{d.line}:{d.column}: {d.code}{mark} {message}")
    out = "".join(line + "\n" for line in lines)
    if not options.quiet:
        fixes = fixable_line(reports)
        out += ("\n" if lines else "") + summary(reports) + "\n" + (
            fixes + "\n" if fixes else "")
    return out
