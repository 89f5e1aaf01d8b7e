"""Where shared arrays sit: the alignment cudalint relies on for an array's base, and
the byte offsets nvcc gives a kernel's static arrays in its shared window."""

from __future__ import annotations

from cudalint.ir import SharedArray, TranslationUnit

__all__ = ["alignment", "static_layout"]


def alignment(array: SharedArray | None, width: int) -> int:
    """The alignment of the array's base that cudalint relies on."""
    if array is not None and array.alignment > 0:
        return array.alignment
    size = array.element_bytes if array is not None else width
    a = 1
    while size % (a * 2) == 0 and a < 16:
        a *= 2
    return a


def static_layout(
    tu: TranslationUnit, min_alignment: dict[str, int] | None = None
) -> dict[tuple[str, str], int]:
    """Byte offsets of static shared arrays in each kernel's shared window, where certain.

    nvcc (ptxas, CUDA 12/13, checked in SASS on sm_90) places the static ``__shared__``
    variables a kernel references in declaration order, each at its natural alignment,
    after a reserved area whose size is a multiple of 256 bytes; unreferenced ones are
    dropped. Offsets are given only when every array of the kernel is known: none
    declared in a ``__device__`` function (called kernels would interleave them) and
    no dynamic shared memory. Keys are (kernel, array key).
    """
    kernel_names = {k.name for k in tu.kernels}
    if any(a.kernel is not None and a.kernel not in kernel_names for a in tu.arrays):
        return {}
    used: dict[str, set[str]] = {}
    for acc in tu.accesses:
        used.setdefault(acc.kernel, set()).add(acc.array)
    order = sorted(tu.arrays, key=lambda a: (a.span.line, a.span.column))
    out: dict[tuple[str, str], int] = {}
    for kernel, keys in used.items():
        offset = 0
        for arr in order:
            if arr.key not in keys:
                continue
            align = max(alignment(arr, arr.element_bytes), (min_alignment or {}).get(arr.key, 1))
            offset = (offset + align - 1) // align * align
            out[(kernel, arr.key)] = offset
            offset += arr.size_bytes
    return out
