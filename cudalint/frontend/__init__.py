"""Frontend: the only package that imports clang. Turns a CUDA source file into IR."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cudalint.frontend.parse import (
        FrontendError,
        adopt_precompiled_shims,
        parse_file,
        precompile_shims,
        precompiled_shims,
        prepare_fork,
    )


def __getattr__(name: str) -> object:
    # Imported on first use (PEP 562): ``cudalint.frontend.cache`` and the package's
    # light modules must not load libclang and the walker (a result cache hit, ``--help``).
    if name in __all__:
        import importlib

        return getattr(importlib.import_module("cudalint.frontend.parse"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FrontendError",
    "adopt_precompiled_shims",
    "parse_file",
    "precompile_shims",
    "precompiled_shims",
    "prepare_fork",
]
