"""Frontend: the only package that imports clang. Turns a CUDA source file into IR."""

from __future__ import annotations

from cudalint.frontend.parse import FrontendError, parse_file

__all__ = ["FrontendError", "parse_file"]
