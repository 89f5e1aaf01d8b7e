#!/usr/bin/env python3
"""Probe when nvcc merges neighbouring shared accesses into one wider LDS/STS.

Writes one .cu with a kernel per case, compiles it with ``nvcc -O3 -arch=sm_90 -lineinfo
-cubin``, reads the SASS with ``cuobjdump -sass`` and prints, per case, the shared
instructions of the probed kind (``LDS.64 x1``, ``LDS x2``...) and the verdict. Merging
is a compile-time decision, so no GPU is needed. The verdicts recorded below are CUDA
13.0's (``EXPECT``); ``--check`` exits 1 when this nvcc decides otherwise, ``--markdown``
prints the table docs/bank-model.md holds.

    python bench/accuracy/gen_merge_probe.py [--nvcc PATH] [--cuobjdump PATH]
        [--arch sm_90] [--keep DIR]
                                             [--markdown] [--check]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

TYPES = {  # name: (C type, bytes, value from float v, to float of x)
    "float": ("float", 4, "{v}", "{x}"),
    "int": ("int", 4, "(int){v}", "(float){x}"),
    "half": ("__half", 2, "__float2half({v})", "__half2float({x})"),
    "int8": ("signed char", 1, "(signed char){v}", "(float){x}"),
}


@dataclass(frozen=True)
class Case:
    name: str
    #: What the case shows, for the table.
    what: str
    #: Declarations and pointer set-up; ``SM`` is replaced by a per-kernel array name,
    #: ``T`` by the element type. The probed pointer is ``p``.
    setup: str
    #: Index expressions on ``p`` (``t`` is threadIdx.x, ``C`` a runtime kernel parameter).
    indices: tuple[str, ...]
    kind: str = "load"
    type: str = "float"
    #: A complete body instead of ``indices`` (loops); it writes ``out[t]`` itself.
    body: str = ""

    def kernel(self) -> str:
        ctype, _, to_t, to_f = TYPES[self.type]

        def fill(text: str) -> str:
            text = text.replace("SM", f"sm_{self.name}").replace("T ", f"{ctype} ")
            return text.replace("T*", f"{ctype}*").replace("(T)", f"({ctype})")

        setup = fill(self.setup)
        lines = [
            f'extern "C" __global__ void {self.name}(float *out, const float *in, int C) {{',
            "    const int t = threadIdx.x;",
            *("    " + s.strip() for s in setup.strip().splitlines()),
        ]
        if self.body:
            lines += ["    " + s for s in fill(self.body).strip().splitlines()]
        elif self.kind == "load":
            terms = " + ".join(to_f.format(x=f"p[{i}]") for i in self.indices)
            lines.append(f"    out[t] = {terms};")
        else:
            for k, i in enumerate(self.indices):
                lines.append(f"    p[{i}] = {to_t.format(v=f'in[t * 4 + {k}]')};")
            # one read back, so the stores are not dead (it is an LDS, never counted)
            lines += ["    __syncthreads();", f"    out[t] = {to_f.format(x='p[t ^ 5]')};"]
        lines.append("}")
        return "\n".join(lines)


S = "__shared__ T SM[4096];"
S16 = "__shared__ __align__(16) T SM[4096];"
D = "extern __shared__ T SM[];"
D16 = "extern __shared__ __align__(16) T SM[];"
PAIR = ("2 * t", "2 * t + 1")
PAIR_REV = ("2 * t + 1", "2 * t")
QUAD = ("4 * t", "4 * t + 1", "4 * t + 2", "4 * t + 3")
ODD_PAIR = ("2 * t + 1", "2 * t + 2")


def c(name: str, what: str, setup: str, indices: tuple[str, ...] = (), **kw: str) -> Case:
    return Case(name, what, setup, indices, **kw)


def _loop(header: str, load: str, extra: str = "") -> str:
    """A loop body summing ``load`` (``extra`` is a statement before it, in the body)."""
    inner = f"{{ {extra} acc += {load}; }}" if extra else f"acc += {load};"
    return f"float acc = 0.f;\n{header} {inner}\nout[t] = acc;"



def _store_loop(index: str) -> str:
    """``p[index] = in[k]`` for k < 8, then one read back (not counted)."""
    return (f"for (int k = 0; k < 8; ++k) p[{index}] = in[k];\n"
            "__syncthreads();\nout[t] = p[t ^ 5];")


CASES: list[Case] = [
    # --- static arrays: nvcc places them and raises their alignment as it needs
    c("st_pair", "static float s[]: s[2t], s[2t+1]", f"{S} T* p = SM;", PAIR),
    c("st_pair_rev", "static: s[2t+1], s[2t] (reverse source order)", f"{S} T* p = SM;",
      PAIR_REV),
    c("st_quad", "static float s[]: s[4t..4t+3]", f"{S} T* p = SM;", QUAD),
    c("st_quad_a16", "static __align__(16) float s[]: quad", f"{S16} T* p = SM;", QUAD),
    c("st_odd_pair", "static: s[2t+1], s[2t+2] (odd start)", f"{S} T* p = SM;", ODD_PAIR),
    c("st_triple", "static: s[4t], s[4t+1], s[4t+2]", f"{S} T* p = SM;",
      ("4 * t", "4 * t + 1", "4 * t + 2")),
    c("st_plus1", "static p = s + 1: p[2t], p[2t+1]", f"{S} T* p = SM + 1;", PAIR),
    c("st_plus2", "static p = s + 2: p[2t], p[2t+1]", f"{S} T* p = SM + 2;", PAIR),
    c("st_plus2_quad", "static p = s + 2: quad", f"{S} T* p = SM + 2;", QUAD),
    c("st_plus4_quad", "static p = s + 4: quad", f"{S} T* p = SM + 4;", QUAD),
    c("st_C", "static p = s + C (runtime): pair", f"{S} T* p = SM + C;", PAIR),
    c("st_2C", "static p = s + 2*C: pair", f"{S} T* p = SM + 2 * C;", PAIR),
    c("st_2C_quad", "static p = s + 2*C: quad", f"{S} T* p = SM + 2 * C;", QUAD),
    c("st_4C_quad", "static p = s + C*4: quad", f"{S} T* p = SM + C * 4;", QUAD),
    c("st_shl2_quad", "static p = s + (C<<2): quad", f"{S} T* p = SM + (C << 2);", QUAD),
    c("st_and_quad", "static p = s + (C & ~3): quad", f"{S} T* p = SM + (C & ~3);", QUAD),
    c("st_direct_C", "static s[2t+C], s[2t+C+1] (no pointer)", f"{S} T* p = SM;",
      ("2 * t + C", "2 * t + C + 1")),
    c("st_direct_2C", "static s[2t+2C], s[2t+2C+1]", f"{S} T* p = SM;",
      ("2 * t + 2 * C", "2 * t + 2 * C + 1")),
    c("st_tid", "static p = s + t: p[0], p[1]", f"{S} T* p = SM + t;", ("0", "1")),
    c("st_2tid", "static p = s + 2t: p[0], p[1]", f"{S} T* p = SM + 2 * t;", ("0", "1")),
    c("st_4tid_quad", "static p = s + 4t: p[0..3]", f"{S} T* p = SM + 4 * t;",
      ("0", "1", "2", "3")),
    c("st_block", "static p = s + 64*blockIdx.x: quad",
      f"{S} T* p = SM + 64 * blockIdx.x;", QUAD),
    c("st_row33", "static float t[32][33], row ty: t[ty][2t], t[ty][2t+1]",
      "__shared__ T SM[32][33]; T* p = SM[threadIdx.y];", PAIR),
    c("st_row34", "static float t[32][34], row ty: pair",
      "__shared__ T SM[32][34]; T* p = SM[threadIdx.y];", PAIR),
    c("st_row34_quad", "static float t[32][34], row ty: quad",
      "__shared__ T SM[32][34]; T* p = SM[threadIdx.y];", QUAD),
    c("st_with_f3", "static float s[] beside a static float3 array: pair",
      f"{S} __shared__ float3 f3_SM[32]; f3_SM[t % 32] = make_float3(in[t], in[t + 1], in[t + 2]);"
      " __syncthreads(); T* p = SM;", PAIR),
    c("st_store_pair", "static: store s[2t], s[2t+1]", f"{S} T* p = SM;", PAIR, kind="store"),
    c("st_store_quad", "static: store quad", f"{S} T* p = SM;", QUAD,
      kind="store"),
    c("st_store_C", "static p = s + C: store pair", f"{S} T* p = SM + C;", PAIR,
      kind="store"),
    # --- extern __shared__ (dynamic): its base is 16-byte aligned for nvcc
    c("dyn_pair", "extern float s[]: pair", f"{D} T* p = SM;", PAIR),
    c("dyn_quad", "extern float s[]: quad", f"{D} T* p = SM;", QUAD),
    c("dyn_quad_a16", "extern __align__(16) float s[]: quad", f"{D16} T* p = SM;", QUAD),
    c("dyn_plus1", "extern p = s + 1: pair", f"{D} T* p = SM + 1;", PAIR),
    c("dyn_plus2", "extern p = s + 2: pair", f"{D} T* p = SM + 2;", PAIR),
    c("dyn_plus2_quad", "extern p = s + 2: quad", f"{D} T* p = SM + 2;", QUAD),
    c("dyn_plus4_quad", "extern p = s + 4: quad", f"{D} T* p = SM + 4;", QUAD),
    c("dyn_C", "extern p = s + C (llm.c layernorm): pair", f"{D} T* p = SM + C;", PAIR),
    c("dyn_C_quad", "extern p = s + C: quad", f"{D} T* p = SM + C;", QUAD),
    c("dyn_2C", "extern p = s + 2*C: pair", f"{D} T* p = SM + 2 * C;", PAIR),
    c("dyn_2C_quad", "extern p = s + 2*C: quad", f"{D} T* p = SM + 2 * C;", QUAD),
    c("dyn_4C_quad", "extern p = s + C*4: quad", f"{D} T* p = SM + C * 4;", QUAD),
    c("dyn_shl2_quad", "extern p = s + (C<<2): quad", f"{D} T* p = SM + (C << 2);", QUAD),
    c("dyn_C2C", "extern p = s + C, q = p + C: pair on q",
      f"{D} T* p0 = SM + C; T* p = p0 + C;", PAIR),
    c("dyn_2tid", "extern p = s + 2t: p[0], p[1]", f"{D} T* p = SM + 2 * t;", ("0", "1")),
    c("dyn_tid", "extern p = s + t: p[0], p[1]", f"{D} T* p = SM + t;", ("0", "1")),
    c("dyn_int_C", "extern int, p = (float*)(s + C): pair",
      "extern __shared__ int SM[]; float* p = (float*)(SM + C);", PAIR),
    c("dyn_f4_C", "extern float4 s[], p = (float*)(s + C): quad",
      "extern __shared__ float4 SM[]; float* p = (float*)(SM + C);", QUAD),
    c("dyn_char_C", "extern char s[], p = (float*)(s + 8*C): pair",
      "extern __shared__ char SM[]; float* p = (float*)(SM + 8 * C);", PAIR),
    c("dyn_char_4C", "extern char s[], p = (float*)(s + 4*C): pair",
      "extern __shared__ char SM[]; float* p = (float*)(SM + 4 * C);", PAIR),
    c("dyn_assume8", "extern p = assume_aligned(s + C, 8): pair",
      f"{D} T* p = (T*)__builtin_assume_aligned(SM + C, 8);", PAIR),
    c("dyn_assume16", "extern p = assume_aligned(s + C, 16): quad",
      f"{D} T* p = (T*)__builtin_assume_aligned(SM + C, 16);", QUAD),
    c("dyn_assume8_quad", "extern p = assume_aligned(s + C, 8): quad",
      f"{D} T* p = (T*)__builtin_assume_aligned(SM + C, 8);", QUAD),
    c("dyn_store_C", "extern p = s + C: store pair", f"{D} T* p = SM + C;", PAIR,
      kind="store"),
    c("dyn_store_2C", "extern p = s + 2*C: store pair", f"{D} T* p = SM + 2 * C;",
      PAIR, kind="store"),
    c("dyn_store_quad", "extern: store quad", f"{D} T* p = SM;", QUAD,
      kind="store"),
    # --- struct members
    c("st_struct_ab", "static struct {float a, b;} s[]: s[t].a, s[t].b",
      "struct AB { float a, b; }; __shared__ AB SM[512];",
      body="out[t] = SM[t].a + SM[t].b;"),
    c("dyn_struct_ab", "extern struct {float a, b;} s[]: s[t].a, s[t].b",
      "struct AB { float a, b; }; extern __shared__ AB SM[];",
      body="out[t] = SM[t].a + SM[t].b;"),
    c("dyn_struct_ab_C", "extern AB, q = s + C: q[t].a, q[t].b",
      "struct AB { float a, b; }; extern __shared__ AB SM[]; AB* q = SM + C;",
      body="out[t] = q[t].a + q[t].b;"),
    c("dyn_struct_ab_fC", "extern AB, q = (AB*)(float s + C): q[t].a, q[t].b",
      "struct AB { float a, b; }; extern __shared__ float SM[]; AB* q = (AB*)(SM + C);",
      body="out[t] = q[t].a + q[t].b;"),
    c("st_struct_abc", "static struct {float a, b, c;} s[]: s[t].a, s[t].b",
      "struct ABC { float a, b, c; }; __shared__ ABC SM[512];",
      body="out[t] = SM[t].a + SM[t].b;"),
    c("st_struct_abcd", "static struct {float a, b, c, d;} s[]: all four",
      "struct ABCD { float a, b, c, d; }; __shared__ ABCD SM[512];",
      body="out[t] = SM[t].a + SM[t].b + SM[t].c + SM[t].d;"),
    c("st_f2_xy", "static float2 s[]: s[t].x, s[t].y",
      "__shared__ float2 SM[512];", body="out[t] = SM[t].x + SM[t].y;"),
    c("st_f2_pair", "static float2 s[]: s[2t], s[2t+1] (all members)",
      "__shared__ float2 SM[512];",
      body="float2 a = SM[2 * t], b = SM[2 * t + 1]; out[t] = a.x + a.y + b.x + b.y;"),
    c("dyn_f2_C_pair", "extern float2, q = s + C: q[2t], q[2t+1]",
      "extern __shared__ float2 SM[]; float2* q = SM + C;",
      body="float2 a = q[2 * t], b = q[2 * t + 1]; out[t] = a.x + a.y + b.x + b.y;"),
    # --- narrow types
    c("st_half_pair", "static half s[]: pair", f"{S} T* p = SM;", PAIR,
      type="half"),
    c("st_half_quad", "static half s[]: quad", f"{S} T* p = SM;", QUAD,
      type="half"),
    c("dyn_half_C", "extern half, p = s + C: pair", f"{D} T* p = SM + C;", PAIR, type="half"),
    c("dyn_half_2C", "extern half, p = s + 2*C: pair", f"{D} T* p = SM + 2 * C;",
      PAIR, type="half"),
    c("dyn_half_store_C", "extern half, p = s + C: store pair", f"{D} T* p = SM + C;",
      PAIR, kind="store", type="half"),
    c("st_i8_pair", "static int8 s[]: pair", f"{S} T* p = SM;", PAIR,
      type="int8"),
    c("st_i8_quad", "static int8 s[]: quad", f"{S} T* p = SM;", QUAD,
      type="int8"),
    c("dyn_i8_C_quad", "extern int8, p = s + C: quad", f"{D} T* p = SM + C;", QUAD, type="int8"),
    c("dyn_i8_4C_quad", "extern int8, p = s + 4*C: quad", f"{D} T* p = SM + 4 * C;",
      QUAD, type="int8"),
    c("st_i8_store_quad", "static int8: store quad", f"{S} T* p = SM;", QUAD,
      kind="store", type="int8"),
    c("st_int_pair", "static int s[]: pair", f"{S} T* p = SM;", PAIR,
      type="int"),
    # --- three of four neighbours: a load reads the whole aligned 16 bytes (not a store)
    c("st_gap_last", "static: s[4t+1], s[4t+2], s[4t+3]", f"{S} T* p = SM;",
      ("4 * t + 1", "4 * t + 2", "4 * t + 3")),
    c("st_gap_mid", "static: s[4t], s[4t+1], s[4t+3]", f"{S} T* p = SM;",
      ("4 * t", "4 * t + 1", "4 * t + 3")),
    c("st_two_of_four", "static: s[4t], s[4t+2]", f"{S} T* p = SM;", ("4 * t", "4 * t + 2")),
    c("st_triple_pair", "static: s[2t], s[2t+1], s[2t+2]", f"{S} T* p = SM;",
      ("2 * t", "2 * t + 1", "2 * t + 2")),
    c("dyn_triple_2C", "extern p = s + 2*C: p[4t], p[4t+1], p[4t+2]", f"{D} T* p = SM + 2 * C;",
      ("4 * t", "4 * t + 1", "4 * t + 2")),
    c("st_store_triple", "static: store s[4t], s[4t+1], s[4t+2]", f"{S} T* p = SM;",
      ("4 * t", "4 * t + 1", "4 * t + 2"), kind="store"),
    c("st_half_triple", "static half: s[4t], s[4t+1], s[4t+2]", f"{S} T* p = SM;",
      ("4 * t", "4 * t + 1", "4 * t + 2"), type="half"),
    # --- how far nvcc raises a static array's alignment, and type limits
    c("st_i8_a2_quad", "static __align__(2) int8 s[]: quad",
      "__shared__ __align__(2) T SM[4096]; T* p = SM;",
      QUAD, type="int8"),
    c("st_i8_a4_quad", "static __align__(4) int8 s[]: quad",
      "__shared__ __align__(4) T SM[4096]; T* p = SM;",
      QUAD, type="int8"),
    c("st_i8_a4_oct", "static __align__(4) int8 s[]: 8 neighbours",
      "__shared__ __align__(4) T SM[4096]; T* p = SM;", tuple(f"8 * t + {k}" for k in range(8)),
      type="int8"),
    c("dyn_i8_16", "extern int8 s[]: 16 neighbours", f"{D} T* p = SM;",
      tuple(f"16 * t + {k}" for k in range(16)), type="int8"),
    c("st_short_oct", "static short s[]: 8 neighbours", "__shared__ short SM[4096]; short* p = SM;",
      tuple(f"8 * t + {k}" for k in range(8))),
    c("st_short_a16_oct", "static __align__(16) short s[]: 8 neighbours",
      "__shared__ __align__(16) short SM[4096]; short* p = SM;",
      tuple(f"8 * t + {k}" for k in range(8))),
    c("dyn_short_oct", "extern short s[]: 8 neighbours",
      "extern __shared__ short SM[]; short* p = SM;", tuple(f"8 * t + {k}" for k in range(8))),
    c("dyn_half_oct", "extern half s[]: 8 neighbours", f"{D} T* p = SM;",
      tuple(f"8 * t + {k}" for k in range(8)), type="half"),
    c("st_half_a16_oct", "static __align__(16) half s[]: 8 neighbours", f"{S16} T* p = SM;",
      tuple(f"8 * t + {k}" for k in range(8)), type="half"),
    c("st_double_pair", "static double s[]: pair", "__shared__ double SM[2048]; double* p = SM;",
      PAIR),
    c("dyn_double_C", "extern double, p = s + C: pair",
      "extern __shared__ double SM[]; double* p = SM + C;", PAIR),
    c("st_bf16_copy", "static bf16 s[]: s[2t], s[2t+1] copied as bf16",
      "__shared__ __nv_bfloat16 SM[4096];",
      body="__nv_bfloat16 *o = (__nv_bfloat16 *)out;\no[2 * t] = SM[2 * t];\n"
           "o[2 * t + 1] = SM[2 * t + 1];"),
    c("st_bf16_cvt", "static bf16 s[]: __bfloat162float(s[2t]) + ...(s[2t+1])",
      "__shared__ __nv_bfloat16 SM[4096];",
      body="out[t] = __bfloat162float(SM[2 * t]) + __bfloat162float(SM[2 * t + 1]);"),
    c("st_i8_struct4", "static struct {int8 a, b, c, d;} s[]: all four",
      "struct C4 { signed char a, b, c, d; }; __shared__ C4 SM[512];",
      body="out[t] = SM[t].a + SM[t].b + SM[t].c + SM[t].d;"),
    c("st_char4", "static char4 s[]: .x .y .z .w", "__shared__ char4 SM[512];",
      body="out[t] = SM[t].x + SM[t].y + SM[t].z + SM[t].w;"),
    c("st_f3_xy", "static float3 s[]: s[t].x, s[t].y", "__shared__ float3 SM[512];",
      body="out[t] = SM[t].x + SM[t].y;"),
    # --- unrolled loops
    c("st_unroll_quad", "static: #pragma unroll k<4: acc += s[4t+k]", f"{S} T* p = SM;",
      body="float acc = 0.f;\n#pragma unroll\nfor (int k = 0; k < 4; ++k) acc += p[4 * t + k];"
           "\nout[t] = acc;"),
    c("dyn_unroll_C", "extern p = s + C: #pragma unroll k<4: p[4t+k]",
      f"{D} T* p = SM + C;",
      body="float acc = 0.f;\n#pragma unroll\nfor (int k = 0; k < 4; ++k) acc += p[4 * t + k];"
           "\nout[t] = acc;"),
    c("dyn_unroll_2C", "extern p = s + 2*C: #pragma unroll k<2: p[2t+k]",
      f"{D} T* p = SM + 2 * C;",
      body="float acc = 0.f;\n#pragma unroll\nfor (int k = 0; k < 2; ++k) acc += p[2 * t + k];"
           "\nout[t] = acc;"),
    # --- constant-trip loops without #pragma unroll: nvcc unrolls them fully, then
    # merges neighbouring iterations' accesses where it can prove the alignment
    c("loop_8", "static: k<8: acc += s[8t+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 8; ++k)", "p[8 * t + k]")),
    c("loop_8_uint", "static: unsigned k<8 (SGEMM): r[k] = s[8t+k]", f"{S} T* p = SM;",
      body="float r[8];\nfor (unsigned k = 0; k < 8; ++k) r[k] = p[8 * t + k];\n"
           "out[t] = r[0] * r[1] + r[2] * r[3] + r[4] * r[5] + r[6] * r[7];"),
    c("loop_2", "static: k<2: s[2t+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 2; ++k)", "p[2 * t + k]")),
    c("loop_6", "static: k<6: s[8t+k] (not a multiple of 4)", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 6; ++k)", "p[8 * t + k]")),
    c("loop_3", "static: k<3: s[4t+k] (three of four)", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 3; ++k)", "p[4 * t + k]")),
    c("loop_start1", "static: 1<=k<5: s[8t+k] (odd start)", f"{S} T* p = SM;",
      body=_loop("for (int k = 1; k < 5; ++k)", "p[8 * t + k]")),
    c("loop_start2", "static: 2<=k<6: s[8t+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 2; k < 6; ++k)", "p[8 * t + k]")),
    c("loop_le", "static: k<=7: s[8t+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k <= 7; ++k)", "p[8 * t + k]")),
    c("loop_down", "static: k=7..0: s[8t+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 7; k >= 0; --k)", "p[8 * t + k]")),
    c("loop_stride2", "static: k<4: s[8t+2k] (element stride 2)", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 4; ++k)", "p[8 * t + 2 * k]")),
    c("loop_step2", "static: k<8 step 2: s[8t+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 8; k += 2)", "p[8 * t + k]")),
    c("loop_row", "static float s[][8]: k<8: s[t][k]", "__shared__ T SM[512][8];",
      body=_loop("for (int k = 0; k < 8; ++k)", "SM[t][k]")),
    c("loop_C", "static: k<4: s[4t+C+k] (runtime offset)", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 4; ++k)", "p[4 * t + C + k]")),
    c("loop_4C", "static: k<4: s[4t+4C+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 4; ++k)", "p[4 * t + 4 * C + k]")),
    c("loop_2C", "static: k<4: s[4t+2C+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 4; ++k)", "p[4 * t + 2 * C + k]")),
    c("loop_32", "static: k<32: s[32t+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 32; ++k)", "p[32 * t + k]")),
    c("loop_runtime", "static: k<C (runtime trip): s[k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < C; ++k)", "p[t + k * 64]")
      .replace("p[t + k * 64]", "p[k]")),
    c("loop_nested_rt", "static: j<C, k<8: s[128j+8t+k]", f"{S} T* p = SM;",
      body=_loop("for (int j = 0; j < C; ++j)\nfor (int k = 0; k < 8; ++k)",
                 "p[128 * j + 8 * (t % 16) + k]")),
    c("loop_nested", "static: j<2, k<2: s[8t+4j+k] (both unrolled)", f"{S} T* p = SM;",
      body=_loop("for (int j = 0; j < 2; ++j)\nfor (int k = 0; k < 2; ++k)",
                 "p[8 * t + 4 * j + k]")),
    c("loop_pragma1", "static: #pragma unroll 1, k<8: s[8t+k]", f"{S} T* p = SM;",
      body=_loop("#pragma unroll 1\nfor (int k = 0; k < 8; ++k)", "p[8 * t + k]")),
    c("loop_sync", "static: k<4: s[4t+k] with a barrier in the body", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 4; ++k)", "p[4 * t + k]", "__syncthreads();")),
    c("loop_if", "static: k<4: if (in[k] > 0) acc += s[4t+k]", f"{S} T* p = SM;",
      body="float acc = 0.f;\nfor (int k = 0; k < 4; ++k)\n"
           "  if (in[k] > 0.f) acc += p[4 * t + k];\nout[t] = acc;"),
    c("loop_store", "static: k<4: store s[4t+k]", f"{S} T* p = SM;",
      body="for (int k = 0; k < 4; ++k) p[4 * t + k] = in[t * 4 + k];\n"
           "__syncthreads();\nout[t] = p[t ^ 5];", kind="store"),
    c("loop_dyn", "extern: k<8: s[8t+k]", f"{D} T* p = SM;",
      body=_loop("for (int k = 0; k < 8; ++k)", "p[8 * t + k]")),
    c("loop_dyn_C", "extern p = s + C: k<4: p[4t+k]", f"{D} T* p = SM + C;",
      body=_loop("for (int k = 0; k < 4; ++k)", "p[4 * t + k]")),
    c("loop_half", "static half: k<4: s[4t+k]", f"{S} T* p = SM;", type="half",
      body="float acc = 0.f;\nfor (int k = 0; k < 4; ++k) acc += __half2float(p[4 * t + k]);"
           "\nout[t] = acc;"),
    c("loop_pairs", "static: k<2: s[8t+2k], s[8t+2k+1] (pairs become a quad)",
      f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 2; ++k)", "p[8 * t + 2 * k] * p[8 * t + 2 * k + 1]")),
    c("loop_store_between", "static: k<8: s[2048+t] = acc; acc += s[8t+k]", f"{S} T* p = SM;",
      body=_loop("for (int k = 0; k < 8; ++k)", "p[8 * t + k]", "p[4096 + t] = acc;")
      .replace("4096 + t", "2048 + t")),
    c("loop_unroll4", "static: #pragma unroll 4, k<16: s[16t+k]", f"{S} T* p = SM;",
      body=_loop("#pragma unroll 4\nfor (int k = 0; k < 16; ++k)", "p[16 * t + k]")),
    c("loop_unroll16", "static: #pragma unroll 16, k<16: s[16t+k]", f"{S} T* p = SM;",
      body=_loop("#pragma unroll 16\nfor (int k = 0; k < 16; ++k)", "p[16 * t + k]")),
    c("loop_128", "static: k<128: s[128t+k]", "__shared__ T SM[8192]; T* p = SM;",
      body=_loop("for (int k = 0; k < 128; ++k)", "p[128 * (t % 32) + k]")),
    c("loop_ptr_walk", "static: q = &s[32t], k<4: acc += *q; q += 1", f"{S} T* p = SM;",
      body="float acc = 0.f;\nconst T* q = p + 32 * t;\n"
           "for (int k = 0; k < 4; ++k) { acc += *q; q += 1; }\nout[t] = acc;"),
    # --- falling offsets: the grouping depends on how the index is written
    c("loop_desc_odd", "static: k<8: store s[1023-32t-k]", f"{S} T* p = SM;", kind="store",
      body=_store_loop("1023 - 32 * t - k")),
    c("loop_desc_7", "static: k<8: store s[7-32t-k]", f"{S} T* p = SM + 1024;", kind="store",
      body=_store_loop("7 - 32 * t - k")),
    c("loop_desc_even", "static: k<8: store s[1024-32t-k]", f"{S} T* p = SM;", kind="store",
      body=_store_loop("1024 - 32 * t - k")),
    c("loop_desc_neg_first", "static: k<8: store s[-32t+7-k]", f"{S} T* p = SM + 1024;",
      kind="store", body=_store_loop("-32 * t + 7 - k")),
    c("loop_desc_plus", "static: k<8: store s[1016-32t+k]", f"{S} T* p = SM;", kind="store",
      body=_store_loop("1016 - 32 * t + k")),
    c("loop_desc_lane_up", "static: k<8: store s[32t+7-k]", f"{S} T* p = SM;", kind="store",
      body=_store_loop("32 * t + 7 - k")),
]

#: CUDA 13.0 (V13.0.88, sm_90): the probed kind's shared instructions in each case's SASS.
RECORDED = {
    "st_pair": "LDS.64 x1",
    "st_pair_rev": "LDS.64 x1",
    "st_quad": "LDS.128 x1",
    "st_quad_a16": "LDS.128 x1",
    "st_odd_pair": "LDS x2",
    "st_triple": "LDS.128 x1",
    "st_plus1": "LDS x2",
    "st_plus2": "LDS.64 x1",
    "st_plus2_quad": "LDS.64 x2",
    "st_plus4_quad": "LDS.128 x1",
    "st_C": "LDS x2",
    "st_2C": "LDS.64 x1",
    "st_2C_quad": "LDS.64 x2",
    "st_4C_quad": "LDS.128 x1",
    "st_shl2_quad": "LDS.128 x1",
    "st_and_quad": "LDS.128 x1",
    "st_direct_C": "LDS x2",
    "st_direct_2C": "LDS.64 x1",
    "st_tid": "LDS x2",
    "st_2tid": "LDS.64 x1",
    "st_4tid_quad": "LDS.128 x1",
    "st_block": "LDS.128 x1",
    "st_row33": "LDS x2",
    "st_row34": "LDS.64 x1",
    "st_row34_quad": "LDS.64 x2",
    "st_with_f3": "LDS.64 x1",
    "st_store_pair": "STS.64 x1",
    "st_store_quad": "STS.128 x1",
    "st_store_C": "STS x2",
    "dyn_pair": "LDS.64 x1",
    "dyn_quad": "LDS.128 x1",
    "dyn_quad_a16": "LDS.128 x1",
    "dyn_plus1": "LDS x2",
    "dyn_plus2": "LDS.64 x1",
    "dyn_plus2_quad": "LDS.64 x2",
    "dyn_plus4_quad": "LDS.128 x1",
    "dyn_C": "LDS x2",
    "dyn_C_quad": "LDS x4",
    "dyn_2C": "LDS.64 x1",
    "dyn_2C_quad": "LDS.64 x2",
    "dyn_4C_quad": "LDS.128 x1",
    "dyn_shl2_quad": "LDS.128 x1",
    "dyn_C2C": "LDS.64 x1",
    "dyn_2tid": "LDS.64 x1",
    "dyn_tid": "LDS x2",
    "dyn_int_C": "LDS x2",
    "dyn_f4_C": "LDS.128 x1",
    "dyn_char_C": "LDS.64 x1",
    "dyn_char_4C": "LDS x2",
    "dyn_assume8": "LDS x2",
    "dyn_assume16": "LDS x4",
    "dyn_assume8_quad": "LDS x4",
    "dyn_store_C": "STS x2",
    "dyn_store_2C": "STS.64 x1",
    "dyn_store_quad": "STS.128 x1",
    "st_struct_ab": "LDS.64 x1",
    "dyn_struct_ab": "LDS.64 x1",
    "dyn_struct_ab_C": "LDS.64 x1",
    "dyn_struct_ab_fC": "LDS x2",
    "st_struct_abc": "LDS x2",
    "st_struct_abcd": "LDS.128 x1",
    "st_f2_xy": "LDS.64 x1",
    "st_f2_pair": "LDS.128 x1",
    "dyn_f2_C_pair": "LDS.64 x2",
    "st_half_pair": "LDS x1",
    "st_half_quad": "LDS.64 x1",
    "dyn_half_C": "LDS.U16 x2",
    "dyn_half_2C": "LDS x1",
    "dyn_half_store_C": "STS.U16 x2",
    "st_i8_pair": "LDS.S8 x2",
    "st_i8_quad": "LDS.S8 x4",
    "dyn_i8_C_quad": "LDS.S8 x4",
    "dyn_i8_4C_quad": "LDS x1",
    "st_i8_store_quad": "STS.U8 x4",
    "st_int_pair": "LDS.64 x1",
    "st_gap_last": "LDS.128 x1",
    "st_gap_mid": "LDS.128 x1",
    "st_two_of_four": "LDS x2",
    "st_triple_pair": "LDS x1, LDS.64 x1",
    "dyn_triple_2C": "LDS x1, LDS.64 x1",
    "st_store_triple": "STS x1, STS.64 x1",
    "st_half_triple": "LDS.64 x1",
    "st_i8_a2_quad": "LDS.U16 x2",
    "st_i8_a4_quad": "LDS x1",
    "st_i8_a4_oct": "LDS.64 x1",
    "dyn_i8_16": "LDS.128 x1",
    "st_short_oct": "LDS.S16 x8",
    "st_short_a16_oct": "LDS.128 x1",
    "dyn_short_oct": "LDS.128 x1",
    "dyn_half_oct": "LDS.64 x2",
    "st_half_a16_oct": "LDS.64 x2",
    "st_double_pair": "LDS.128 x1",
    "dyn_double_C": "LDS.64 x2",
    "st_bf16_copy": "LDS x1",
    "st_bf16_cvt": "LDS.U16 x2",
    "st_i8_struct4": "LDS.S8 x4",
    "st_char4": "LDS x1",
    "st_f3_xy": "LDS x2",
    "st_unroll_quad": "LDS.128 x1",
    "dyn_unroll_C": "LDS x4",
    "dyn_unroll_2C": "LDS.64 x1",
    "loop_8": "LDS.128 x2",
    "loop_8_uint": "LDS.128 x2",
    "loop_2": "LDS.64 x1",
    "loop_6": "LDS.128 x1, LDS.64 x1",
    "loop_3": "LDS.128 x1",
    "loop_start1": "LDS x1, LDS.128 x1",
    "loop_start2": "LDS.64 x2",
    "loop_le": "LDS.128 x2",
    "loop_down": "LDS.128 x2",
    "loop_stride2": "LDS x4",
    "loop_step2": "LDS x4",
    "loop_row": "LDS.128 x2",
    "loop_C": "LDS x4",
    "loop_4C": "LDS.128 x1",
    "loop_2C": "LDS.64 x2",
    "loop_32": "LDS.128 x8",
    "loop_runtime": "LDS x1, LDS.128 x7",
    "loop_nested_rt": "LDS.128 x10",
    "loop_nested": "LDS.64 x2",
    "loop_pragma1": "LDS x1",
    "loop_sync": "LDS x4",
    "loop_if": "LDS x4",
    "loop_store": "STS.128 x1",
    "loop_dyn": "LDS.128 x2",
    "loop_dyn_C": "LDS x4",
    "loop_half": "LDS.64 x1",
    "loop_pairs": "LDS.128 x1",
    "loop_store_between": "LDS x1, LDS.128 x2",
    "loop_unroll4": "LDS.64 x2",
    "loop_unroll16": "LDS.128 x4",
    "loop_128": "LDS.128 x32",
    "loop_ptr_walk": "LDS.128 x1",
    "loop_desc_odd": "STS x8",
    "loop_desc_7": "STS x8",
    "loop_desc_even": "STS x2, STS.128 x1, STS.64 x1",
    "loop_desc_neg_first": "STS.128 x2",
    "loop_desc_plus": "STS.128 x2",
    "loop_desc_lane_up": "STS.128 x2",
}

WIDTH_SUFFIX = re.compile(r"\b(LDS|STS)((?:\.[A-Z0-9]+)*)(?=[\s;])")


def width_of(suffix: str) -> int:
    for part, w in ((".128", 16), (".64", 8), ("16", 2), ("8", 1)):
        if part in suffix:
            return w
    return 4


def sass_shared(sass: str) -> dict[str, Counter[str]]:
    """Per kernel, how many of each LDS/STS form (``LDS.64``, ``STS.U16``) it has."""
    out: dict[str, Counter[str]] = {}
    current: str | None = None
    for line in sass.splitlines():
        m = re.search(r"Function : (\w+)", line)
        if m:
            current = m.group(1)
            out[current] = Counter()
            continue
        m = WIDTH_SUFFIX.search(line)
        if m and current is not None:
            out[current][m.group(1) + m.group(2).replace(".U.", ".")] += 1
    return out


def verdict(case: Case, found: Counter[str]) -> str:
    op = "LDS" if case.kind == "load" else "STS"
    mine = sorted((k, n) for k, n in found.items() if k.split(".")[0] == op)
    return ", ".join(f"{k} x{n}" for k, n in mine) or "none"


def merged(case: Case, text: str) -> str:
    """"merged" when a probed instruction is wider than one element, else "separate"."""
    elem = TYPES[case.type][1]
    if case.body or "short" in case.setup or "double" in case.setup:
        elem = {"bf16": 2, "C4": 1, "char4": 1, "double": 8, "short": 2}.get(
            next((k for k in ("bf16", "C4", "char4", "double", "short") if k in case.setup
                  or (k == "bf16" and "bfloat16" in case.setup)), ""), 4)
    widths = [width_of(k.split(" ")[0]) for k in text.split(", ") if k != "none"]
    return "merged" if any(w > elem for w in widths) else "separate"


def source() -> str:
    """The probe file: one kernel per case, named after it."""
    return "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n\n" + "\n\n".join(
        k.kernel() for k in CASES) + "\n"


def recorded_counts(case: Case) -> Counter[tuple[str, int]]:
    """CUDA 13.0's instructions for the case as (kind, bytes) counts."""
    out: Counter[tuple[str, int]] = Counter()
    for part in RECORDED[case.name].split(", "):
        op, n = part.split(" x")
        out[("load" if op.startswith("LDS") else "store", width_of(op))] += int(n)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--cuobjdump", default=shutil.which("cuobjdump"),
                    help="default: on PATH, else beside nvcc (PyPI: nvidia-cuda-cuobjdump)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--keep", type=Path, help="write the .cu and .cubin here")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a verdict differs from the recorded CUDA 13.0 one")
    args = ap.parse_args(argv)
    src = source()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        cu, cubin = work / "merge_probe.cu", work / "merge_probe.cubin"
        cu.write_text(src)
        build = subprocess.run([args.nvcc, "-O3", f"-arch={args.arch}", "-lineinfo", "-w",
                                "-cubin", "-o", str(cubin), str(cu)],
                               capture_output=True, text=True)
        if build.returncode:
            print(build.stdout + build.stderr, file=sys.stderr)
            return 2
        cuobjdump = args.cuobjdump or str(Path(args.nvcc).resolve().with_name("cuobjdump"))
        sass = subprocess.run([cuobjdump, "-sass", str(cubin)], check=True,
                              capture_output=True, text=True).stdout
    found = sass_shared(sass)
    differ = 0
    if args.markdown:
        print("| case | accesses | SASS (probed kind) | nvcc |")
        print("|---|---|---|---|")
    for case in CASES:
        got = verdict(case, found.get(case.name, Counter()))
        want = RECORDED.get(case.name, "")
        mark = "" if got == want else f"   (recorded: {want})"
        differ += bool(mark)
        if args.markdown:
            print(f"| `{case.name}` | {case.what} | {got} | {merged(case, got)} |")
        else:
            print(f"{case.name:18} {merged(case, got):9} {got:22} {case.what}{mark}")
    if differ:
        print(f"{differ} case(s) differ from the recorded verdicts", file=sys.stderr)
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
