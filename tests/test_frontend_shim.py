"""The shim's types against the CUDA toolkit: sizeof/alignof of every type nvcc reports.

A probe puts ``sizeof(T), alignof(T)`` of each type into a ``__device__`` constant array,
``nvcc --ptx`` compiles it (no GPU needed) and the initializer is read back from the PTX.
The same probe parsed by libclang with the shim must give the same numbers. Skipped where
nvcc is absent.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

import pytest

from cudalint.frontend import parse_file
from cudalint.options import Options

_SCALARS = (
    "char",
    "uchar",
    "short",
    "ushort",
    "int",
    "uint",
    "long",
    "ulong",
    "longlong",
    "ulonglong",
    "float",
    "double",
)

TYPES: tuple[str, ...] = (
    *(f"{s}{n}" for s in _SCALARS for n in range(1, 5)),
    *(f"{s}4_{a}a" for s in ("long", "ulong", "longlong", "ulonglong", "double") for a in (16, 32)),
    "__half",
    "__half2",
    "half",
    "half2",
    "__nv_bfloat16",
    "__nv_bfloat162",
    "nv_bfloat16",
    "nv_bfloat162",
    "dim3",
    "uint3",
)

_HEADER = "#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"


def _probe_source(types: tuple[str, ...]) -> str:
    items = ", ".join(f"sizeof({t}), alignof({t})" for t in types)
    # Deprecation warnings for the 4-component 8-byte types are expected.
    return _HEADER + "__device__ const unsigned long long cudalint_probe[] = {" + items + "};\n"


def _nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found is None and os.path.exists("/usr/local/cuda/bin/nvcc"):
        found = "/usr/local/cuda/bin/nvcc"
    return found


def _nvcc_table(tmp_path: pathlib.Path, types: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    nvcc = _nvcc()
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    src = tmp_path / "probe.cu"
    src.write_text(_probe_source(types))
    ptx = tmp_path / "probe.ptx"
    run = subprocess.run(
        [nvcc, "--ptx", "-arch=sm_90", "-Wno-deprecated-declarations", str(src), "-o", str(ptx)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    text = ptx.read_text()
    m = re.search(r"cudalint_probe\[(\d+)\]\s*=\s*\{([^}]*)\}", text)
    assert m, text[-2000:]
    raw = [int(x) for x in m.group(2).split(",")]
    n = int(m.group(1))
    raw += [0] * (n - len(raw))  # PTX drops trailing zero bytes
    words = [int.from_bytes(bytes(raw[i : i + 8]), "little") for i in range(0, n, 8)]
    return {t: (words[2 * i], words[2 * i + 1]) for i, t in enumerate(types)}


def _shim_table(tmp_path: pathlib.Path, types: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    """The same numbers through the shim: ``char a_i[sizeof(T)][alignof(T)]`` declarations,
    read back from the IR's extents (clang evaluates them with the shim's types)."""
    decls = "".join(
        f"  __shared__ char a{i}[sizeof({t})][alignof({t})];\n" for i, t in enumerate(types)
    )
    src = tmp_path / "shim_probe.cu"
    src.write_text(_HEADER + "__global__ void k() {\n" + decls + "}\n")
    tu = parse_file(str(src), Options())
    errors = [n for n in tu.notes if n.severity == "error"]
    assert not errors, errors
    by_name = {a.name: a.dims for a in tu.arrays}
    return {t: (by_name[f"a{i}"][0], by_name[f"a{i}"][1]) for i, t in enumerate(types)}


def test_array_alignment_is_clangs(tmp_path: pathlib.Path) -> None:
    types = ("float4", "double2", "float3", "__half2", "char3", "double4_32a")
    expected = _shim_table(tmp_path, types)
    decls = "".join(f"  __shared__ {t} b{i}[4];\n" for i, t in enumerate(types))
    src = tmp_path / "aligned.cu"
    src.write_text(_HEADER + "__global__ void k() {\n" + decls + "}\n")
    tu = parse_file(str(src), Options())
    got = {t: tu.array(f"k::b{i}").alignment for i, t in enumerate(types)}
    assert got == {t: expected[t][1] for t in types}


def test_shim_sizes_and_alignments_match_nvcc(tmp_path: pathlib.Path) -> None:
    expected = _nvcc_table(tmp_path, TYPES)
    got = _shim_table(tmp_path, TYPES)
    wrong = {t: (got[t], expected[t]) for t in TYPES if got[t] != expected[t]}
    assert wrong == {}, "shim (size, align) vs nvcc: " + repr(wrong)


def test_known_sizes_without_nvcc(tmp_path: pathlib.Path) -> None:
    """The numbers vector_types.h gives, checked even where nvcc is missing."""
    known = {
        "float4": (16, 16),
        "double2": (16, 16),
        "longlong2": (16, 16),
        "float3": (12, 4),
        "double4_32a": (32, 32),
        "double4_16a": (32, 16),
        "char3": (3, 1),
        "short2": (4, 4),
        "__half2": (4, 4),
        "__nv_bfloat16": (2, 2),
        "long3": (24, 8),
        "uint3": (12, 4),
    }
    got = _shim_table(tmp_path, tuple(known))
    assert got == known
