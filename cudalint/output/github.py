"""``--format github``: GitHub Actions workflow commands, one annotation per diagnostic.

```
::warning file=k.cu,line=10,col=25,endLine=10,endColumn=55,title=CL001 shared-...::32-way ...
```

Escaping follows the Actions runner: in the message ``%``, CR and LF become ``%25``,
``%0D`` and ``%0A``; in property values ``:`` and ``,`` also become ``%3A`` and ``%2C``.
Severities map to ``error``, ``warning`` and ``notice``; a file that could not be
analyzed is an ``error`` annotation on the file, and a run with more unknown accesses
than ``--max-unknown`` allows an ``error`` annotation without one. Columns count UTF-8
bytes, as in the text output.
"""

from __future__ import annotations

from collections.abc import Sequence

from cudalint.api import FileReport, diagnostic_sort_key
from cudalint.output import RenderOptions
from cudalint.output.statistics import totals, unknown_message
from cudalint.output.text import kernel_tags

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(command: str, message: str, **properties: object) -> str:
    props = ",".join(
        f"{key}={escape_property(str(value))}" for key, value in properties.items()
    )
    return f"::{command} {props}::{escape_data(message)}"


def render(reports: Sequence[FileReport], options: RenderOptions) -> str:
    lines: list[str] = []
    diagnostics = sorted(
        (d for report in reports for d in report.diagnostics), key=diagnostic_sort_key
    )
    tags = kernel_tags(reports)
    for d in diagnostics:
        if id(d) in tags.skip:
            continue
        notes = tags.notes.get(id(d), d.notes)
        message = d.message + tags.tags.get(id(d), "") + "".join(f"\nnote: {n}" for n in notes)
        lines.append(annotation(
            _COMMAND.get(d.severity, "warning"),
            message,
            file=d.file,
            line=d.line,
            col=d.column,
            endLine=d.end_line,
            endColumn=d.end_column,
            title=f"{d.code} {d.name}",
        ))
    for path, error in sorted((r.path, r.error) for r in reports if r.error is not None):
        lines.append(annotation("error", error, file=path, title="cudalint"))
    t = totals(reports)
    if t.too_unknown(options.max_unknown):
        lines.append(annotation("error", unknown_message(t, options.max_unknown),
                                title="cudalint"))
    return "".join(line + "\n" for line in lines)
