"""Renderers: one module per output format. Each takes the file reports and returns text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cudalint.checker import FileReport

__all__ = ["FORMATS", "RenderOptions", "render"]


@dataclass(frozen=True)
class RenderOptions:
    #: Emit ANSI colour (text only).
    color: bool = False
    #: Only diagnostics: no summary line (text only).
    quiet: bool = False
    #: JSON ``accesses``: every analyzed access instead of only those behind diagnostics.
    show_all: bool = False
    #: ``--max-unknown``: above this percentage of unknown accesses the run is reported
    #: as not having seen most of the code (see :mod:`cudalint.output.statistics`).
    max_unknown: float = 50.0


Renderer = Callable[[Sequence["FileReport"], RenderOptions], str]


def _renderer(fmt: str) -> Renderer:
    """The renderer of ``fmt``, importing only its module."""
    import importlib

    if fmt not in FORMATS:
        raise KeyError(fmt)
    module = importlib.import_module(f"cudalint.output.{fmt}")
    renderer: Renderer = module.render
    return renderer


#: The values ``--format`` accepts.
FORMATS = ("text", "concise", "json", "sarif", "github")


def render(fmt: str, reports: Sequence[FileReport], options: RenderOptions) -> str:
    return _renderer(fmt)(reports, options)
