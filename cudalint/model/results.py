"""What the model says about one access: plain data for the rules and renderers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cudalint.ir import Access, BlockDimSource

Status = Literal["proved", "worst-case", "unknown"]
#: How a result's ``reason`` relates to its numbers, so that a rule words it without
#: reading it: a *condition* names the values for which the numbers hold and reads on
#: from them (``when S % 4 == 1``, ``for some values of n``, ``if every lane passes the
#: guard``); a *cause* says why there is no exact number, or where the stated one is
#: reached, and is set off by a colon (``the index depends on 'pos', which ...``, ``in
#: iteration 4 of the 'd' loop``).
ReasonKind = Literal["condition", "cause"]


@dataclass(frozen=True)
class BankConflict:
    """The busiest bank of the worst phase of the worst warp."""

    bank: int
    #: Distinct word indices (byte address // 4; on Kepler the 256-byte row) that bank serves.
    words: tuple[int, ...]
    #: For each entry of ``words``, the lanes that touch it.
    lanes: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Cost:
    """Wavefronts of one warp-wide access (one warp, one set of uniform values)."""

    wavefronts: int
    ideal: int
    conflict: BankConflict | None = None

    @property
    def ways(self) -> float:
        return self.wavefronts / self.ideal if self.ideal else 1.0


@dataclass(frozen=True)
class AccessResult:
    access: Access
    arch: str
    #: Bank width in bytes: 4, or 8 for Kepler's 8-byte mode.
    bank_mode: int
    status: Status
    wavefronts: int | None
    ideal_wavefronts: int | None
    #: Why the result is not ``proved`` (the condition or the cause); else None.
    reason: str | None
    #: The block shape analysed; a component is None where the launch leaves it unknown
    #: and every legal value was analysed (``dim3(32, by, bz)`` gives ``(32, None, None)``).
    block_dim: tuple[int | None, int | None, int | None] | None
    block_dim_source: BlockDimSource
    conflict: BankConflict | None = None
    #: Index of the worst warp in the block (None when unknown or assumed shape).
    warp: int | None = None
    #: Ways as a formula of a uniform symbol that changes the lane pattern, e.g.
    #: ``gcd(S, 32)``; None when the number does not depend on one.
    ways_formula: str | None = None
    #: When nvcc merges this access with its neighbours into one wider instruction:
    #: the merged width in bytes and the source text of the others; the numbers above
    #: are those of the merged instruction.
    merged_width: int | None = None
    merged_with: tuple[str, ...] = ()
    #: False when no lane of any warp executes the access for this record's shape and
    #: values (code for another template argument or block size): it costs nothing here
    #: and is dropped where another record of the same access is executed.
    executed: bool = True
    #: Whether ``reason`` is a condition or a cause (:data:`ReasonKind`); None without one.
    reason_kind: ReasonKind | None = None
    #: The worst warp's byte address per lane (None: inactive lane), as costed: the
    #: offset from the array's base plus the worst start of the array modulo the bank
    #: period (see docs/bank-model.md, "Shifts"). None when no warp was costed. For the
    #: bank map (:mod:`cudalint.model.explain`); not part of the JSON output.
    lane_addresses: tuple[int | None, ...] | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def ways(self) -> float | None:
        if self.wavefronts is None or not self.ideal_wavefronts:
            return None
        return self.wavefronts / self.ideal_wavefronts

    @property
    def has_conflict(self) -> bool:
        return (
            self.wavefronts is not None
            and self.ideal_wavefronts is not None
            and self.wavefronts > self.ideal_wavefronts
        )


def shape_text(block_dim: tuple[int | None, int | None, int | None]) -> str:
    """``(32, 8, 1)``; a component the launch leaves to run time is ``*``."""
    return "(" + ", ".join("*" if d is None else str(d) for d in block_dim) + ")"
