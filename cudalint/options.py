"""Analysis settings shared by every stage (built by the CLI, read by the pipeline)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cudalint.budget import DEFAULT_TIMEOUT
from cudalint.ir import BlockDimSource
from cudalint.model.arch import DEFAULT_ARCH

BankModeOption = Literal["4", "8", "both"]


@dataclass(frozen=True)
class Options:
    #: Target architecture, ``sm_XX``.
    arch: str = DEFAULT_ARCH
    #: Kepler bank mode(s) to analyze; None means the arch's default (both on sm_3x, 4 elsewhere).
    bank_mode: BankModeOption | None = None
    #: Block shape forced by the user (``--block-dim``); overrides launch sites.
    block_dim: tuple[int, int, int] | None = None
    block_dim_source: BlockDimSource = "cli"
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    std: str = "c++17"
    #: A CUDA toolkit whose headers to use; None parses against cudalint's shim only.
    cuda_path: str | None = None
    extra_args: tuple[str, ...] = field(default_factory=tuple)
    #: Seconds one file may take (parse and model) before it is reported as not fully
    #: analyzed; None or 0: no limit (``--timeout``, cudalint.budget).
    timeout: float | None = DEFAULT_TIMEOUT

    def bank_modes(self) -> tuple[int, ...]:
        """The bank widths in bytes to analyze under this arch."""
        from cudalint.model.arch import parse_arch

        arch = parse_arch(self.arch)
        if self.bank_mode is None or self.bank_mode == "both":
            return (4, 8) if arch.family == "kepler" else (4,)
        return (int(self.bank_mode),)
