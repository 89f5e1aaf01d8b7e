"""GPU architectures as the bank model sees them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Family = Literal["fermi", "kepler", "maxwell+"]

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
