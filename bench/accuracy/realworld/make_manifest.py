#!/usr/bin/env python3
"""Write programs.json: the real-world programs the H100 suite builds and profiles.

Run locally (standard library only) with checkouts of the repositories:

    python3 bench/accuracy/realworld/make_manifest.py --repos /work/repos

Each program is built from its repository's own sources with `nvcc -O3
-arch=sm_90 -lineinfo` and run with the arguments a user would give it. The
kernel filter lists every `__global__` function defined in the program's own
sources (library kernels such as cuBLAS are not profiled).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent

REPOS = {
    "karpathy/llm.c": {"commit": "f1e2ace651495b74ae22d45d1723443fd00ecd3a",
                       "cudalint_args": ["-I", ".", "-I", "dev/cuda"]},
    "siboehm/SGEMM_CUDA": {"commit": "60cba6f9b20a198116c76f18de8047f44df8c8b8",
                           "cudalint_args": ["-I", "src"]},
    "NVIDIA/cuda-samples": {"commit": "c94ff366aed18c797b8a85dfaac7817b0228b420",
                            "cudalint_args": ["-I", "Common"]},
    "gpu-mode/lectures": {"commit": "7cb40f67ad68f59a7c13e9a8c4d8a816a3c68e7a",
                          "cudalint_args": []},
    "NVIDIA-developer-blog/code-samples": {"commit": "72d62ec464442786a36754508bcb1094d197d6a5",
                                           "cudalint_args": []},
    "Kobzol/hardware-effects-gpu": {"commit": "1b03fa9816002ba835132a2a34581a7481964e61",
                                    "cudalint_args": []},
    # two tutorial repositories added in session 8: GEMM double buffering, the reduce
    # ladder, YHs's PTX-addressed SGEMMs
    "Liu-xiandong/How_to_optimize_in_GPU": {"commit": "5d2def3e082c4e1364c3ade54451b7b9d1d6f044",
                                            "cudalint_args": []},
    "BBuf/how-to-optim-algorithm-in-cuda": {"commit": "10a3a8d243037e2544686eb673fda86fba23143f",
                                            "cudalint_args": []},
}

LLMC = {  # file: (kernel numbers, extra nvcc flags)
    "attention_backward": (range(1, 9), []),
    "attention_forward": ([1, 2, 3, 4, 5, 6], []),
    "classifier_fused": (range(1, 6), []),
    "fused_residual_forward": (range(1, 7), []),
    "global_norm": (range(1, 5), []),
    "layernorm_backward": (range(1, 11), []),
    "layernorm_forward": (range(1, 7), []),
    "matmul_backward": ([1], ["-Xcompiler", "-fopenmp"]),
    "matmul_backward_bias": ([1, 2, 3, 4, 5, 7, 8, 9], []),
    "matmul_forward": (range(1, 5), ["-Xcompiler", "-fopenmp"]),
    "softmax_forward": (range(1, 9), []),
    "trimat_forward": (range(0, 5), []),
}

SAMPLES = {  # sample dir: list of argument lists
    "0_Introduction/matrixMul": [[]],
    "0_Introduction/mergeSort": [[]],
    "0_Introduction/simpleTemplates": [[]],
    "0_Introduction/fp16ScalarProduct": [[]],
    "0_Introduction/clock": [[]],
    "2_Concepts_and_Techniques/convolutionSeparable": [[]],
    "2_Concepts_and_Techniques/histogram": [[]],
    "2_Concepts_and_Techniques/reduction": [[f"--kernel={k}"] for k in range(0, 7)],
    "2_Concepts_and_Techniques/scalarProd": [[]],
    "2_Concepts_and_Techniques/scan": [[]],
    "2_Concepts_and_Techniques/shfl_scan": [[]],
    "2_Concepts_and_Techniques/sortingNetworks": [[]],
    "2_Concepts_and_Techniques/threadFenceReduction": [[]],
    "2_Concepts_and_Techniques/dct8x8": [[]],
    "2_Concepts_and_Techniques/eigenvalues": [[]],
    "3_CUDA_Features/cudaTensorCoreGemm": [[]],
    "3_CUDA_Features/bf16TensorCoreGemm": [[]],
    "3_CUDA_Features/tf32TensorCoreGemm": [[]],
    "3_CUDA_Features/immaTensorCoreGemm": [[]],
    "3_CUDA_Features/globalToShmemAsyncCopy": [[]],
    "5_Domain_Specific/fastWalshTransform": [[]],
    "5_Domain_Specific/binomialOptions": [[]],
    "5_Domain_Specific/SobolQRNG": [[]],
    "5_Domain_Specific/dwtHaar1D": [[]],
    "5_Domain_Specific/stereoDisparity": [[]],
    "6_Performance/transpose": [[]],
}

KERNEL_RE = re.compile(r"__global__[^;{(]*?\b([A-Za-z_]\w*)\s*\(")


def _strip(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"__launch_bounds__\s*\((?:[^()]|\([^()]*\))*\)", "", text)


def _body(text: str, start: int) -> str:
    """The brace-matched body of the function whose name ends at `start`."""
    i = text.find("{", start)
    semi = text.find(";", start)
    if i < 0 or (0 <= semi < i and text[start:semi].count("(") == text[start:semi].count(")")):
        return ""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i:j + 1]
    return text[i:]


FUNC_RE = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^<>;{}]*>)?\s*\(")
SHARED_RE = re.compile(r"__shared__|SharedMemory|\bcg::|cooperative_groups|wmma::|__cvta_generic_to_shared|cp\.async|ld\.shared|st\.shared")


def kernels_in(paths: list[Path]) -> list[str]:
    """The `__global__` functions of these files that reach shared memory.

    A kernel is kept when its body, or the body of a function it calls
    (transitively, among the functions defined in these files), mentions a
    shared-memory construct. A cheap lexical filter that spares the GPU the
    kernels with nothing to measure; it errs towards keeping a kernel.
    """
    text = "\n".join(_strip(p.read_text(errors="replace")) for p in paths)
    bodies: dict[str, list[str]] = {}
    for m in FUNC_RE.finditer(text):
        b = _body(text, m.end())
        if b:
            bodies.setdefault(m.group(1), []).append(b)
    names: set[str] = set()
    for m in KERNEL_RE.finditer(text):
        name = m.group(1)
        if name in ("void",):
            continue
        seen: set[str] = set()
        todo = [name]
        hit = False
        while todo and not hit:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            for b in bodies.get(f, []):
                if SHARED_RE.search(b):
                    hit = True
                    break
                todo += [c.group(1) for c in FUNC_RE.finditer(b) if c.group(1) in bodies]
        if hit:
            names.add(name)
    return sorted(names)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repos", type=Path, required=True,
                    help="folder with a checkout of each repository (named NAME or OWNER+NAME)")
    args = ap.parse_args()

    def root(repo: str) -> Path:
        owner, name = repo.split("/")
        for cand in (args.repos / f"{owner}+{name}", args.repos / name):
            if cand.is_dir():
                head = subprocess.run(["git", "-C", str(cand), "rev-parse", "HEAD"],
                                      capture_output=True, text=True).stdout.strip()
                if head != REPOS[repo]["commit"]:
                    raise SystemExit(f"{cand}: HEAD {head}, manifest wants {REPOS[repo]['commit']}")
                return cand
        raise SystemExit(f"no checkout of {repo} under {args.repos}")

    progs: list[dict[str, object]] = []

    r = root("karpathy/llm.c")
    for stem, (nums, extra) in LLMC.items():
        src = r / "dev/cuda" / f"{stem}.cu"
        progs.append({
            "id": f"llm.c/{stem}", "repo": "karpathy/llm.c", "dir": "dev/cuda",
            "sources": [f"{stem}.cu"],
            "flags": ["--use_fast_math", "-std=c++17", *extra], "libs": ["-lcublas", "-lcublasLt"],
            "stop_at_benchmark": True, "first_invocation_only": False,
            "runs": [[str(n)] for n in nums], "kernels": kernels_in([src, r / "dev/cuda/common.h"]),
        })

    r = root("siboehm/SGEMM_CUDA")
    progs.append({
        "id": "SGEMM_CUDA/sgemm", "repo": "siboehm/SGEMM_CUDA", "dir": ".",
        "sources": ["sgemm.cu", "src/runner.cu"], "flags": ["-I", "src", "-std=c++17"],
        "libs": ["-lcublas"], "stop_at_benchmark": True, "first_invocation_only": False,
        "runs": [[str(n)] for n in range(1, 13)],
        "kernels": kernels_in(sorted((r / "src").rglob("*.cuh"))),
    })

    r = root("NVIDIA/cuda-samples")
    for d, runs in SAMPLES.items():
        sd = r / "Samples" / d
        srcs = sorted(p.name for p in sd.iterdir() if p.suffix in (".cu", ".cpp"))
        hdrs = [p for p in sd.iterdir() if p.suffix in (".cu", ".cuh", ".h", ".hpp")]
        progs.append({
            "id": f"cuda-samples/{sd.name}", "repo": "NVIDIA/cuda-samples", "dir": f"Samples/{d}",
            "sources": srcs, "flags": ["-I", "../../../Common", "-std=c++17"],
            "libs": ["-lcublas"] if "cublas" in " ".join(p.read_text(errors="replace") for p in hdrs) else [],
            "stop_at_benchmark": False, "first_invocation_only": True,
            "runs": runs, "kernels": kernels_in(hdrs),
        })

    r = root("gpu-mode/lectures")
    for rel in ["lecture_008/tiling.cu", "lecture_008/privatization.cu",
                "lecture_008/privatization2.cu", "lecture_009/shared_reduce.cu",
                "lecture_009/reduce_coarsening.cu", "lecture_009/segment_reduce.cu",
                "lecture_009/multistream-reduce.cu"]:
        p = r / rel
        if not p.exists() or "int main" not in p.read_text(errors="replace"):
            continue
        progs.append({
            "id": f"lectures/{rel}", "repo": "gpu-mode/lectures", "dir": str(Path(rel).parent),
            "sources": [p.name], "flags": ["-std=c++17"], "libs": [],
            "stop_at_benchmark": False, "first_invocation_only": True,
            "runs": [[]], "kernels": kernels_in([p]),
        })

    r = root("NVIDIA-developer-blog/code-samples")
    for rel in ["series/cuda-cpp/transpose/transpose.cu",
                "series/cuda-cpp/finite-difference/finite-difference.cu",
                "series/cuda-cpp/shared-memory/shared-memory.cu"]:
        p = r / rel
        progs.append({
            "id": f"code-samples/{p.stem}", "repo": "NVIDIA-developer-blog/code-samples",
            "dir": str(Path(rel).parent), "sources": [p.name], "flags": [], "libs": [],
            "stop_at_benchmark": False, "first_invocation_only": True,
            "runs": [[]], "kernels": kernels_in([p]),
        })

    r = root("Kobzol/hardware-effects-gpu")
    progs.append({
        "id": "hardware-effects-gpu/bank-conflicts", "repo": "Kobzol/hardware-effects-gpu",
        "dir": "bank-conflicts", "sources": ["bank-conflicts.cu", "init.cpp"],
        # the file relies on a host compiler that brings uint32_t without <cstdint>
        "flags": ["-std=c++17", "-include", "cstdint"],
        "libs": [], "stop_at_benchmark": False, "first_invocation_only": True,
        "runs": [["1"], ["2"], ["4"]], "kernels": kernels_in([r / "bank-conflicts/bank-conflicts.cu"]),
    })

    r = root("Liu-xiandong/How_to_optimize_in_GPU")
    for stem in ("sgemm_v1", "sgemm_v3"):  # main: M K N, a cuBLAS check after the timing
        progs.append({
            "id": f"How_to_optimize_in_GPU/{stem}", "repo": "Liu-xiandong/How_to_optimize_in_GPU",
            "dir": "sgemm", "sources": [f"{stem}.cu"], "flags": ["-std=c++17"],
            "libs": ["-lcublas"], "stop_at_benchmark": False, "first_invocation_only": True,
            "runs": [["1024", "1024", "1024"]], "kernels": kernels_in([r / "sgemm" / f"{stem}.cu"]),
        })
    for p in sorted((r / "reduce").glob("reduce_v*.cu")):
        progs.append({
            "id": f"How_to_optimize_in_GPU/{p.stem}", "repo": "Liu-xiandong/How_to_optimize_in_GPU",
            "dir": "reduce", "sources": [p.name], "flags": ["-std=c++17"], "libs": [],
            "stop_at_benchmark": False, "first_invocation_only": True,
            "runs": [[]], "kernels": kernels_in([p]),
        })

    r = root("BBuf/how-to-optim-algorithm-in-cuda")
    yhs = "cuda-mode/code/YHs_Sample/cuda/gemm"
    for stem in ("sgemm", "ampere_sgemm"):
        progs.append({
            "id": f"how-to-optim-algorithm-in-cuda/YHs_{stem}",
            "repo": "BBuf/how-to-optim-algorithm-in-cuda", "dir": yhs, "sources": [f"{stem}.cu"],
            "flags": ["-std=c++17"], "libs": [], "stop_at_benchmark": False,
            "first_invocation_only": True, "runs": [[]],
            "kernels": kernels_in([r / yhs / f"{stem}.cu"]),
        })
    for p in sorted((r / "cuda-kernels/reduce").glob("reduce_v*.cu")):
        progs.append({
            "id": f"how-to-optim-algorithm-in-cuda/{p.stem}",
            "repo": "BBuf/how-to-optim-algorithm-in-cuda", "dir": "cuda-kernels/reduce",
            "sources": [p.name], "flags": ["-std=c++17"], "libs": [],
            "stop_at_benchmark": False, "first_invocation_only": True,
            "runs": [[]], "kernels": kernels_in([p]),
        })

    progs = [p for p in progs if p["kernels"]]  # nothing to measure
    out = {"repos": REPOS, "programs": progs}
    (HERE / "programs.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(progs)} programs, {sum(len(p['runs']) for p in progs)} runs, "
          f"{sum(len(p['kernels']) for p in progs)} kernels")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
