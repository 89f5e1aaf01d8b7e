#!/usr/bin/env python3
"""Write bench/accuracy/wmma.cu: nvcuda::wmma load_matrix_sync / store_matrix_sync on
shared memory, one measured call per kernel, for the fragment shapes, element types,
layouts and leading dimensions (ldm) used in practice.

    python3 bench/accuracy/gen_wmma.py > bench/accuracy/wmma.cu

One warp per block. Load kernels fill the tile with plain stores first (the store
pipe) and consume the fragment through mma_sync and a store to global memory, so the
load pipe holds only the measured call; store kernels read one element back with one
lane (the load pipe), so the store pipe holds only the measured call. A call compiles
to several SASS instructions (LDSM / LDS.64 / STS.64 / LDS ...), all on its line.
"""
from __future__ import annotations

import sys

# (id, use, m, n, k, element type in the fragment, memory type, layout, ldm, op, width)
# use: a / b / acc; layout: row / col (fragment layout for a/b, memory layout for acc).
# width: the bytes per lane of the SASS it compiles to (checked by run_gpu.py).
CASES: list[tuple[str, str, int, int, int, str, str, str, int, str, int]] = []


def case(ident: str, use: str, shape: tuple[int, int, int], etype: str, mtype: str,
         layout: str, ldm: int, op: str) -> None:
    m, n, k = shape
    rows, cols = {"a": (m, k), "b": (k, n), "acc": (m, n)}[use]
    assert ldm >= (cols if layout == "row" else rows), f"{ident}: ldm below the line length"
    CASES.append((ident, use, *shape, etype, mtype, layout, ldm, op, sass_width(
        use, shape, etype, layout)))


def sass_width(use: str, shape: tuple[int, int, int], etype: str, layout: str) -> int:
    """Bytes per lane of the SASS the call compiles to on sm_90 (nvcc 13), as read from
    nvdisasm: LDSM rows are 16 bytes."""
    along_k = (use == "a") == (layout == "row")
    if use != "acc":
        if etype == "half" or (etype in ("signed char", "unsigned char") and along_k):
            return 16  # LDSM
        return {"signed char": 1, "unsigned char": 1, "double": 8}.get(etype, 4)
    if etype == "half":
        return 4
    if etype == "double":
        return 16 if layout == "row" else 8
    return 8 if (shape[0] != 8) == (layout == "row") else 4


H16 = (16, 16, 16)
for use in ("a", "b"):
    for lay in ("row", "col"):
        for ldm in (16, 24, 32, 40):
            case(f"h_{use}_{lay}_{ldm}", use, H16, "half", "half", lay, ldm, "load")
for op in ("load", "store"):
    for lay in ("row", "col"):
        for ldm in (16, 24):
            case(f"h_acc_{op[:2]}_{lay}_{ldm}", "acc", H16, "half", "half", lay, ldm, op)
        for ldm in (16, 20, 24):
            case(f"f_acc_{op[:2]}_{lay}_{ldm}", "acc", H16, "float", "float", lay, ldm, op)
for use, lay in (("a", "row"), ("a", "col"), ("b", "row"), ("b", "col")):
    for ldm in (16, 24):
        case(f"bf_{use}_{lay}_{ldm}", use, H16, "__nv_bfloat16", "__nv_bfloat16", lay, ldm,
             "load")
TF = (16, 16, 8)
for use, lay, ldms in (("a", "row", (8, 12, 16)), ("a", "col", (16, 20)),
                       ("b", "row", (16, 20, 24)), ("b", "col", (8, 12, 16))):
    for ldm in ldms:
        case(f"tf_{use}_{lay}_{ldm}", use, TF, "wmma::precision::tf32", "float", lay, ldm,
             "load")
for op in ("load", "store"):
    for ldm in (16, 24):
        case(f"tf_acc_{op[:2]}_row_{ldm}", "acc", TF, "float", "float", "row", ldm, op)
for use, lay in (("a", "row"), ("a", "col"), ("b", "row"), ("b", "col")):
    for ldm in (16, 32, 48):
        case(f"i8_{use}_{lay}_{ldm}", use, H16, "signed char", "signed char", lay, ldm,
             "load")
for op in ("load", "store"):
    for ldm in (16, 24):
        case(f"i_acc_{op[:2]}_row_{ldm}", "acc", H16, "int", "int", "row", ldm, op)
for shape, tag in (((32, 8, 16), "m32"), ((8, 32, 16), "m8")):
    for use, lay in (("a", "row"), ("b", "row"), ("a", "col"), ("b", "col")):
        for ldm in (16, 40) if (use == "a" and lay == "row") or (use == "b" and lay == "col") \
                else (shape[1] if use == "b" else shape[0], 40):
            case(f"{tag}_{use}_{lay}_{ldm}", use, shape, "half", "half", lay, ldm, "load")
    for ldm in (shape[1], shape[1] + 8):
        case(f"{tag}_acc_st_row_{ldm}", "acc", shape, "float", "float", "row", ldm, "store")

# Second batch: the other shapes of each element type, accumulators in both layouts,
# unsigned 8-bit, and double (m8n8k4).
for shape, tag in (((32, 8, 16), "m32"), ((8, 32, 16), "m8")):
    for op in ("load", "store"):
        for lay in ("row", "col"):
            if op == "store" and lay == "row":
                continue  # above
            length = shape[1] if lay == "row" else shape[0]  # elements along a line
            case(f"{tag}_acc_{op[:2]}_{lay}_{length}", "acc", shape, "float", "float", lay,
                 length, op)
            case(f"{tag}_hacc_{op[:2]}_{lay}_{length + 8}", "acc", shape, "half", "half",
                 lay, length + 8, op)
    for use, lay in (("a", "row"), ("a", "col"), ("b", "row"), ("b", "col")):
        rows, cols = (shape[0], shape[2]) if use == "a" else (shape[2], shape[1])
        length = cols if lay == "row" else rows
        for ldm in sorted({max(length, 16), 32}):
            case(f"{tag}_i8_{use}_{lay}_{ldm}", use, shape, "signed char", "signed char",
                 lay, ldm, "load")
        case(f"{tag}_bf_{use}_{lay}_{max(length, 16)}", use, shape, "__nv_bfloat16",
             "__nv_bfloat16", lay, max(length, 16), "load")
    case(f"{tag}_i_acc_st_row_{shape[1]}", "acc", shape, "int", "int", "row", shape[1],
         "store")
for lay in ("row", "col"):
    case(f"i_acc_st_{lay}_32", "acc", H16, "int", "int", lay, 32, "store")
    case(f"tf_acc_st_{lay}_20", "acc", TF, "float", "float", lay, 20, "store")
    case(f"u8_a_{lay}_32", "a", H16, "unsigned char", "unsigned char", lay, 32, "load")
    case(f"u8_b_{lay}_32", "b", H16, "unsigned char", "unsigned char", lay, 32, "load")
D8 = (8, 8, 4)
for use, lay in (("a", "row"), ("a", "col"), ("b", "row"), ("b", "col")):
    for ldm in (8, 16, 12):
        case(f"d_{use}_{lay}_{ldm}", use, D8, "double", "double", lay, ldm, "load")
for op in ("load", "store"):
    for lay in ("row", "col"):
        for ldm in (8, 16, 12):
            case(f"d_acc_{op[:2]}_{lay}_{ldm}", "acc", D8, "double", "double", lay, ldm, op)

GRID = 132
ACC_OF = {"half": "float", "__nv_bfloat16": "float", "wmma::precision::tf32": "float",
          "signed char": "int", "unsigned char": "int", "double": "double"}


def frag(use: str, m: int, n: int, k: int, etype: str, lay: str) -> str:
    if use == "acc":
        return f"wmma::fragment<wmma::accumulator, {m}, {n}, {k}, {etype}>"
    name = "matrix_a" if use == "a" else "matrix_b"
    return f"wmma::fragment<wmma::{name}, {m}, {n}, {k}, {etype}, wmma::{lay}_major>"


def kernel(c: tuple[str, str, int, int, int, str, str, str, int, str, int]) -> str:
    ident, use, m, n, k, etype, mtype, lay, ldm, op, width = c
    # lines of the stored tile: rows for a row-major tile, columns for a column-major one
    rows, cols = {"a": (m, k), "b": (k, n), "acc": (m, n)}[use]
    lines = rows if lay == "row" else cols
    size = lines * ldm + 64
    mark = f"// measure: {ident} {op}.{width}"
    out = [f"__global__ void wm_{ident}(float *out, const float *in) {{",
           f"    __shared__ __align__(128) {mtype} s[{size}];",
           "    const unsigned t = threadIdx.x;"]
    conv = {"half": "__float2half", "__nv_bfloat16": "__float2bfloat16"}.get(mtype, f"({mtype})")
    memlay = "wmma::mem_row_major" if lay == "row" else "wmma::mem_col_major"
    if op == "load":
        out += [f"    for (unsigned i = t; i < {size}; i += 32)",
                f"        s[i] = {conv}((float)((i * 7u + blockIdx.x) & 15u));",
                "    __syncthreads();"]
        if use == "acc":
            out += [f"    {frag('acc', m, n, k, etype, '')} c;",
                    f"    wmma::load_matrix_sync(c, s, {ldm}, {memlay});  {mark}",
                    f"    wmma::store_matrix_sync(({etype} *)out + blockIdx.x * {m * n}, c, {n},"
                    " wmma::mem_row_major);"]
        else:
            other = "b" if use == "a" else "a"
            acc = ACC_OF[etype]
            out += [f"    {frag(use, m, n, k, etype, lay)} x;",
                    f"    {frag(other, m, n, k, etype, 'row')} y;",
                    f"    {frag('acc', m, n, k, acc, '')} c;",
                    f"    wmma::fill_fragment(y, {conv}(in[blockIdx.x]));"
                    if mtype != "float" else "    wmma::fill_fragment(y, in[blockIdx.x]);",
                    f"    wmma::fill_fragment(c, ({acc})0);",
                    f"    wmma::load_matrix_sync(x, s, {ldm});  {mark}",
                    "    wmma::mma_sync(c, x, y, c);" if use == "a"
                    else "    wmma::mma_sync(c, y, x, c);",
                    f"    wmma::store_matrix_sync(({acc} *)out + blockIdx.x * {m * n}, c, {n},"
                    " wmma::mem_row_major);"]
    else:
        val = {"half": "__float2half(in[blockIdx.x])"}.get(etype, f"({etype})in[blockIdx.x]")
        out += [f"    {frag('acc', m, n, k, etype, '')} c;",
                f"    wmma::fill_fragment(c, {val});",
                f"    wmma::store_matrix_sync(s, c, {ldm}, {memlay});  {mark}",
                "    __syncthreads();",
                "    if (t == 0)",
                f"        out[{GRID * 512} + blockIdx.x] = (float)s[blockIdx.x % {lines * ldm}];"]
    out.append("}")
    return "\n".join(out)


def main() -> None:
    w = sys.stdout.write
    w("// nvcuda::wmma fragment loads and stores on shared memory. GENERATED by\n"
      "// gen_wmma.py: edit that script, not this file.\n//\n"
      "// One warp per block; each kernel's load (or store) pipe holds only the measured\n"
      "// call, which compiles to several SASS instructions on its line.\n"
      "#include <mma.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
      "using namespace nvcuda;\n\n"
      f"constexpr int GRID = {GRID};\n\n")
    for c in CASES:
        w(kernel(c) + "\n\n")
    w("int main() {\n    float *out, *in;\n"
      f"    cudaMalloc(&out, {GRID * 1024} * sizeof(float));\n"
      f"    cudaMalloc(&in, {GRID} * sizeof(float));\n"
      f"    cudaMemset(in, 0, {GRID} * sizeof(float));\n")
    for c in CASES:
        w(f"    wm_{c[0]}<<<GRID, 32>>>(out, in);\n")
    w("    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;\n}\n")


if __name__ == "__main__":
    main()
