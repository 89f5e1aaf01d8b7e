"""GPU architectures as the bank model sees them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Family = Literal["fermi", "kepler", "maxwell+"]

#: The architecture analyzed when neither the command line, the compile command nor the
#: configuration names one.
DEFAULT_ARCH = "sm_90"
#: Threads one block may have on every architecture since Fermi, and its largest z extent.
MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK_Z = 64

# ASCII digits only (int() also reads other scripts' digits); the suffixes nvcc knows are
# "a" (arch-specific, sm_90a) and "f" (family-specific, sm_100f).
_ARCH_RE = re.compile(r"(?:sm_|compute_)?([0-9]{2,3})[af]?")

# fmt: off
#: Architectures nvcc has targeted (sm_XX); anything else is a usage error.
KNOWN_ARCHS = (
    20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90,
    100, 101, 103, 110, 120, 121,
)
# fmt: on


class ArchError(ValueError):
    """An ``--arch`` value cudalint does not know."""


@dataclass(frozen=True)
class Arch:
    name: str
    major: int
    minor: int

    @property
    def number(self) -> int:
        return self.major * 10 + self.minor

    @property
    def family(self) -> Family:
        if self.major == 2:
            return "fermi"
        if self.major == 3:
            return "kepler"
        return "maxwell+"

    @property
    def measured(self) -> bool:
        """Whether the 8/16-byte phase rules were measured on this arch (sm_90) or inferred."""
        return self.number == 90


def parse_arch(text: str) -> Arch:
    """``sm_90`` / ``90`` / ``sm_90a`` / ``compute_90`` → Arch; ArchError otherwise."""
    m = _ARCH_RE.fullmatch(text.strip().lower())
    if not m:
        raise ArchError(f"invalid arch {text!r}: expected sm_XX, e.g. sm_90")
    number = int(m.group(1))
    major, minor = divmod(number, 10)
    if number not in KNOWN_ARCHS:
        known = ", ".join(f"sm_{n}" for n in KNOWN_ARCHS)
        raise ArchError(f"unknown arch {text!r}; known: {known}")
    return Arch(f"sm_{number}", major, minor)


# --- shared memory capacity (padding fixes report their cost against these) ---------------

KIB = 1024
#: Static ``__shared__`` memory a block may declare on every architecture: more needs
#: dynamic shared memory and an opt-in (``cudaFuncSetAttribute``), so fixes never pad
#: static arrays past it.
STATIC_SHARED_LIMIT = 48 * KIB


@dataclass(frozen=True)
class SharedMemoryLimits:
    """Per-SM limits that decide how many blocks fit on an SM by shared memory.

    Source: the CUDA C++ Programming Guide, "Technical Specifications per Compute
    Capability" (maximum shared memory per SM and per block, resident blocks and
    threads per SM); the allocation granularity and the per-block maximum of resident
    blocks as in the toolkit's ``cuda_occupancy.h``; from cc 8.0 on the driver reserves
    1 KiB of shared memory per block ("reserved for system use").
    """

    per_sm: int
    #: Most a block may use (with the opt-in above 48 KiB where that is larger).
    per_block: int
    max_threads_per_sm: int
    max_blocks_per_sm: int
    #: Shared memory is allocated to a block in multiples of this many bytes.
    granularity: int
    #: Bytes the driver reserves per block on top of what it declares.
    reserved_per_block: int = 0

    def blocks_per_sm(self, shared_bytes: int, threads_per_block: int | None) -> int:
        """Resident blocks per SM given a block's shared memory and thread count."""
        limit = self.max_blocks_per_sm
        if threads_per_block:
            warps = -(-threads_per_block // 32)
            limit = min(limit, self.max_threads_per_sm // (warps * 32))
        used = shared_bytes + self.reserved_per_block
        if used > self.per_block:
            return 0
        if used > 0:
            allocated = -(-used // self.granularity) * self.granularity
            limit = min(limit, self.per_sm // allocated)
        return limit


def _limits(per_sm_kib: int, per_block_kib: int, threads: int, blocks: int, gran: int,
            reserved: int = 0) -> SharedMemoryLimits:
    return SharedMemoryLimits(per_sm_kib * KIB, per_block_kib * KIB, threads, blocks, gran,
                              reserved)


# fmt: off
#: Keyed by ``Arch.number``.
SHARED_MEMORY: dict[int, SharedMemoryLimits] = {
    20: _limits(48, 48, 1536, 8, 128),
    21: _limits(48, 48, 1536, 8, 128),
    30: _limits(48, 48, 2048, 16, 256),
    32: _limits(48, 48, 2048, 16, 256),
    35: _limits(48, 48, 2048, 16, 256),
    37: _limits(112, 48, 2048, 16, 256),
    50: _limits(64, 48, 2048, 32, 256),
    52: _limits(96, 48, 2048, 32, 256),
    53: _limits(64, 48, 2048, 32, 256),
    60: _limits(64, 48, 2048, 32, 256),
    61: _limits(96, 48, 2048, 32, 256),
    62: _limits(64, 48, 2048, 32, 256),
    70: _limits(96, 96, 2048, 32, 256),
    72: _limits(96, 96, 2048, 32, 256),
    75: _limits(64, 64, 1024, 16, 256),
    80: _limits(164, 163, 2048, 32, 128, KIB),
    86: _limits(100, 99, 1536, 16, 128, KIB),
    87: _limits(164, 163, 1536, 16, 128, KIB),
    89: _limits(100, 99, 1536, 24, 128, KIB),
    90: _limits(228, 227, 2048, 32, 128, KIB),
    100: _limits(228, 227, 2048, 32, 128, KIB),
    101: _limits(228, 227, 1536, 24, 128, KIB),
    103: _limits(228, 227, 2048, 32, 128, KIB),
    110: _limits(228, 227, 1536, 24, 128, KIB),
    120: _limits(100, 99, 1536, 24, 128, KIB),
    121: _limits(100, 99, 1536, 24, 128, KIB),
}
# fmt: on


def shared_memory(arch: Arch) -> SharedMemoryLimits:
    """The shared-memory limits of ``arch`` (every entry of KNOWN_ARCHS has one)."""
    return SHARED_MEMORY[arch.number]
