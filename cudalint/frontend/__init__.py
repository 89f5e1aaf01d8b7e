"""Frontend: the only package that imports clang. Turns a CUDA source file into IR."""

from __future__ import annotations

from cudalint.frontend.parse import (
    FrontendError,
    adopt_precompiled_shims,
    parse_file,
    precompiled_shims,
    prepare_fork,
)

__all__ = [
    "FrontendError",
    "adopt_precompiled_shims",
    "parse_file",
    "precompiled_shims",
    "prepare_fork",
]
