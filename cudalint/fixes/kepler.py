"""Kepler's 8-byte bank mode: ``cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte)``.

On sm_3x a shared-memory bank is 4 or 8 bytes wide, chosen by the host for the device
(or per kernel with ``cudaFuncSetSharedMemConfig``). 8-byte accesses (``double``,
``float2``) that conflict in 4-byte mode are often conflict-free in 8-byte mode. The
model already analyzes both modes on Kepler; the suggestion is made for a conflict in
4-byte mode when the same access is clean in 8-byte mode and no access of the file is
worse in 8-byte mode than in 4-byte mode (the setting applies to every kernel). The call
does nothing on GPUs after Kepler (their banks are always 4 bytes wide).
"""

from __future__ import annotations

from collections.abc import Sequence

from cudalint.diagnostics import Fix
from cudalint.model.arch import ArchError, parse_arch
from cudalint.model.results import AccessResult

CALL = "cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte)"
TITLE = (
    "use 8-byte banks: call " + CALL + " before the launch "
    "({before} wavefronts -> {after} in 8-byte mode); the call does nothing on GPUs after "
    "Kepler"
)


def _is_kepler(arch: str) -> bool:
    try:
        return parse_arch(arch).family == "kepler"
    except ArchError:
        return False


def eight_byte_mode_fix(result: AccessResult, results: Sequence[AccessResult]) -> Fix | None:
    """The suggestion for ``result`` (a 4-byte-mode conflict on sm_3x), or None."""
    if result.bank_mode != 4 or not _is_kepler(result.arch) or not result.has_conflict:
        return None
    if result.access.width < 8:
        return None
    by_access: dict[int, dict[int, AccessResult]] = {}
    for r in results:
        by_access.setdefault(id(r.access), {})[r.bank_mode] = r
    modes = by_access.get(id(result.access), {})
    eight = modes.get(8)
    if eight is None or eight.has_conflict or eight.wavefronts is None:
        return None
    if result.wavefronts is None or eight.wavefronts >= result.wavefronts:
        return None
    for pair in by_access.values():
        four, other = pair.get(4), pair.get(8)
        if four is None or other is None:
            continue
        if (other.wavefronts or 0) > (four.wavefronts or 0):
            return None
    return Fix(
        TITLE.format(before=result.wavefronts, after=eight.wavefronts),
        "display-only",
        (),
        checked=eight,
    )
