"""Run cudalint on public CUDA repositories the way a user does, and tabulate the result.

For each repository: ``cudalint --format json --show-all -j N [-I ...] .`` at its root,
then one row: files, accesses, proved / worst-case / unknown, diagnostics per rule, how
many CL004 point outside the repository (into cudalint's or the system's headers), kernels
analysed with a shape from a launch vs assumed, and how many of the kernels that are
launched somewhere in the repository (``name<<<`` or ``name<...><<<`` in its text) got a
launch shape. Wall time is the cudalint run's.

The repositories are not part of cudalint: fetch them yourself (``git clone``) into one
folder and point ``--root`` at it. Nothing of theirs is committed here, only this script
and the tables it prints (bench/README.md).

    python bench/repos.py --root /path/to/clones [--cudalint cudalint] [-j 2] [--only NAME]
    python bench/repos.py --root ... --json results.json   # also keep the raw rows
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Repo:
    name: str  # folder under --root
    url: str  # where it is cloned from (for the reader)
    include: tuple[str, ...] = ()  # -I, relative to the repository root
    exclude: tuple[str, ...] = ()
    extra: tuple[str, ...] = field(default=())
    #: Folders built with their own include directories and defines (the repository's
    #: build scripts name them; a bare entry is an include directory): a
    #: compile_commands.json with these flags is written for the files under each
    #: folder and given with -p, as a user of such a repository would.
    subtrees: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: The commit the tables in bench/README.md were taken at, where one was recorded
    #: (``git -C NAME checkout COMMIT`` to see the same code).
    commit: str = ""


REPOS = (
    Repo("cuda-samples", "https://github.com/NVIDIA/cuda-samples", include=("Common",),
         # the samples whose CMakeLists.txt adds their own inc/ folder
         # (target_include_directories(... inc)), as their build does
         subtrees=tuple((d, ("Common", f"{d}/inc")) for d in (
             "Samples/5_Domain_Specific/FDTD3d",
             "Samples/2_Concepts_and_Techniques/interval",
             *(f"Samples/2_Concepts_and_Techniques/{s}" for s in (
                 "MC_EstimatePiP", "MC_EstimatePiQ", "MC_EstimatePiInlineP",
                 "MC_EstimatePiInlineQ", "MC_SingleAsianOptionP")),
         ))),
    Repo("llm.c", "https://github.com/karpathy/llm.c", include=(".", "dev/cuda")),
    Repo("SGEMM_CUDA", "https://github.com/siboehm/SGEMM_CUDA", include=("src",)),
    Repo("flash-attention-minimal", "https://github.com/tspeterkim/flash-attention-minimal"),
    Repo("lectures", "https://github.com/gpu-mode/lectures"),
    Repo("LeetCUDA", "https://github.com/xlite-dev/LeetCUDA", subtrees=(
        # kernels/flash-attn/flash_attn_mma.py and kernels/hgemm/tools/utils.py
        ("kernels/flash-attn", tuple(f"kernels/flash-attn/{d}" for d in (
            "", "utils", "mma", "mma/basic", "mma/swizzle", "mma/others", "cutlass",
            "pybind"))),
        ("kernels/hgemm", (*(f"kernels/hgemm/{d}" for d in (
            "", "utils", "naive", "wmma", "mma/basic", "mma/swizzle", "cutlass", "cublas",
            "pybind")), "-DNO_MMA_HGEMM_BIN", "-DNO_WMMA_HGEMM_BIN", "-DNO_CUTE_HGEMM_BIN",
            "-DNO_CUBLAS_HGEMM_BIN")),
    )),
    # ggml's CUDA backend (the one llama.cpp uses): src/CMakeLists.txt gives the backends
    # include/ (ggml.h) and src/ (ggml-impl.h, ggml-common.h)
    Repo("ggml", "https://github.com/ggml-org/ggml", include=("include", "src"),
         commit="d99724f2b141fed9e1a9f402213506c081433465"),
    # CMakeLists.txt: include_directories(src/common)
    Repo("cuda_hgemm", "https://github.com/Bruce-Lee-LY/cuda_hgemm", include=("src/common",),
         commit="0d26c2e4415ab0d0af5a6bfae301275c608d46b4"),
    # PyTorch extensions (session 11): setup.py's include_dirs
    Repo("apex", "https://github.com/NVIDIA/apex", include=("csrc",),
         commit="6424da3b4faa6c8f062da4a48c424fff3f02d42d"),
    # the union of the CUDA ops' include_paths() in op_builder/*.py (each op is built with
    # its own; one cudalint run gives them all)
    Repo("DeepSpeed", "https://github.com/deepspeedai/DeepSpeed",
         include=("csrc/includes", "csrc/transformer/inference/includes",
                  "csrc/fp_quantizer/includes", "csrc/spatial/includes",
                  *(f"deepspeed/inference/v2/{d}" for d in (
                      "kernels/includes", "ragged/includes",
                      "kernels/core_ops/bias_activations", "kernels/core_ops/blas_kernels",
                      "kernels/core_ops/cuda_layer_norm", "kernels/core_ops/cuda_linear",
                      "kernels/core_ops/cuda_rms_norm", "kernels/core_ops/gated_activations",
                      "kernels/cutlass_ops/mixed_gemm", "kernels/cutlass_ops/moe_gemm",
                      "kernels/cutlass_ops/shared_resources", "kernels/ragged_ops",
                      "kernels/ragged_ops/includes", "kernels/ragged_ops/atom_builder",
                      "kernels/ragged_ops/blocked_flash", "kernels/ragged_ops/embed",
                      "kernels/ragged_ops/linear_blocked_kv_rotary",
                      "kernels/ragged_ops/logits_gather", "kernels/ragged_ops/moe_gather",
                      "kernels/ragged_ops/moe_scatter", "kernels/ragged_ops/ragged_helpers",
                      "kernels/ragged_ops/top_k_gating"))),
         commit="edaa7221267243c7be7fb49c5d5f5c4fb97b4641"),
    Repo("mmcv", "https://github.com/open-mmlab/mmcv",
         include=("mmcv/ops/csrc/common", "mmcv/ops/csrc/common/cuda"),
         commit="a8073c74bf83d62ec36a103f835faa4837fb6585"),
    Repo("mamba", "https://github.com/state-spaces/mamba",
         commit="e9594ce1c732d97440f0332fdc43170a2294dbfa"),
)

_SOURCE = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".inl", ".cxx")


def launched_names(root: str) -> set[str]:
    """Names that appear before ``<<<`` (possibly with template arguments) in the repo."""
    pat = re.compile(r"([A-Za-z_]\w*)\s*(?:<[^<>;{}]*(?:<[^<>;{}]*>[^<>;{}]*)*>)?\s*<<<")
    names: set[str] = set()
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for f in files:
            if f.endswith(_SOURCE):
                try:
                    with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                        names.update(pat.findall(fh.read()))
                except OSError:
                    continue
    return names


def launch_sites(root: str, names: set[str], limit: int = 3) -> dict[str, list[str]]:
    """For ``--details``: where each of ``names`` is launched (``file:line <<<config>>>``,
    the first ``limit``), so that a kernel left without a launch shape shows the launch
    configuration cudalint could not evaluate (a block size from a ``.cpp`` caller, a
    class member, a command-line value)."""
    pat = re.compile(r"([A-Za-z_]\w*)\s*(?:<[^<>;{}]*(?:<[^<>;{}]*>[^<>;{}]*)*>)?\s*<<<"
                     r"([^;]*?)>>>")
    out: dict[str, list[str]] = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if not f.endswith(_SOURCE):
                continue
            try:
                with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
            except OSError:
                continue
            for m in pat.finditer(text):
                if m.group(1) in names and len(out.setdefault(m.group(1), [])) < limit:
                    rel = os.path.relpath(os.path.join(d, f), root)
                    line = text.count("\n", 0, m.start()) + 1
                    config = " ".join(m.group(2).split())
                    out[m.group(1)].append(f"{rel}:{line} <<<{config}>>>")
    return out


def write_compdb(repo: Repo, path: str) -> str:
    """A compile_commands.json (in a fresh temporary folder) for the files of
    ``repo.subtrees``, each with its folder's ``-I`` flags; returns the folder."""
    import tempfile

    entries = []
    for sub, incs in repo.subtrees:
        flags = [i if i.startswith("-") else f"-I{os.path.normpath(os.path.join(path, i))}"
                 for i in incs]
        for d, dirs, files in os.walk(os.path.join(path, sub)):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for f in sorted(files):
                if f.endswith((".cu", ".cuh")):
                    file = os.path.join(d, f)
                    entries.append({"directory": path, "file": file,
                                    "arguments": ["nvcc", "-std=c++17", *flags, "-c", file]})
    out = tempfile.mkdtemp(prefix="cudalint-repos-")
    with open(os.path.join(out, "compile_commands.json"), "w", encoding="utf-8") as fh:
        json.dump(entries, fh)
    return out


def run(repo: Repo, root: str, cudalint: list[str], jobs: int, timeout: float,
        raw: str | None = None) -> dict[str, object]:
    path = os.path.join(root, repo.name)
    cmd = [*cudalint, "--format", "json", "--show-all", "--isolated", "-j", str(jobs),
           "--timeout", str(timeout)]
    for inc in repo.include:
        cmd += ["-I", inc]
    for ex in repo.exclude:
        cmd += ["--exclude", ex]
    if repo.subtrees:
        cmd += ["-p", write_compdb(repo, path)]
    cmd += [*repo.extra, "."]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=path, capture_output=True, text=True, check=False)
    wall = time.monotonic() - t0
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"repo": repo.name, "error": proc.stderr[-2000:], "rc": proc.returncode}
    if raw:
        os.makedirs(raw, exist_ok=True)
        with open(os.path.join(raw, f"{repo.name}.json"), "w", encoding="utf-8") as fh:
            fh.write(proc.stdout)
    accesses = data["accesses"]
    status = Counter(a["status"] for a in accesses)
    codes = Counter(d["code"] for d in data["diagnostics"])
    outside = sum(
        1 for d in data["diagnostics"]
        if d["code"] == "CL004" and (os.path.isabs(d["file"]) or d["file"].startswith(".."))
    )
    kernels: dict[str, set[str]] = {}
    for a in accesses:
        kernels.setdefault(a["kernel"], set()).add(a["block_dim_source"])
    launched = launched_names(path)
    from_launch = sum(1 for s in kernels.values() if "launch" in s)
    with_site = [k for k in kernels if k.split("<")[0].split("::")[-1] in launched]
    site_ok = sum(1 for k in with_site if "launch" in kernels[k])
    files = {a["file"] for a in accesses} | {d["file"] for d in data["diagnostics"]}
    return {
        "repo": repo.name,
        "files_reported": len(files),
        "accesses": len(accesses),
        "proved": status["proved"],
        "worst-case": status["worst-case"],
        "unknown": status["unknown"],
        "CL001": codes["CL001"], "CL002": codes["CL002"], "CL003": codes["CL003"],
        "CL004": codes["CL004"], "CL004_outside": outside,
        "kernels": len(kernels), "kernels_launch": from_launch,
        "kernels_launched_in_repo": len(with_site), "of_those_with_launch": site_ok,
        "errors": len(data["errors"]),
        "without_launch": sorted(k for k in with_site if "launch" not in kernels[k]),
        "without_launch_sites": launch_sites(path, {
            k.split("<")[0].split("::")[-1] for k in with_site if "launch" not in kernels[k]}),
        "unknown_by_reason": dict(Counter(
            _reason_group(a["reason"]) for a in accesses if a["status"] == "unknown"
        ).most_common()),
        "wall_s": round(wall, 1), "rc": proc.returncode,
    }


def _reason_group(reason: str | None) -> str:
    """A reason with its names left out, so that reasons of one kind group together."""
    text = re.sub(r"'[^']*'", "'…'", reason or "")
    return re.sub(r"\b[A-Za-z_]\w*(?= change| is )", "V", text)


COLUMNS = (
    ("repo", "repository"), ("accesses", "accesses"), ("proved", "proved"),
    ("worst-case", "worst"), ("unknown", "unknown"), ("CL001", "CL001"), ("CL002", "CL002"),
    ("CL003", "CL003"), ("CL004", "CL004"), ("CL004_outside", "CL004 outside repo"),
    ("kernels", "kernels"), ("kernels_launch", "from launch"),
    ("kernels_launched_in_repo", "launched in repo"), ("of_those_with_launch", "… with launch"),
    ("errors", "file errors"), ("wall_s", "wall s"), ("rc", "exit"),
)


def table(rows: list[dict[str, object]]) -> str:
    out = ["| " + " | ".join(h for _, h in COLUMNS) + " |",
           "|" + "---|" * len(COLUMNS)]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['repo']} | failed: rc {r['rc']} |")
            continue
        out.append("| " + " | ".join(str(r.get(k, "")) for k, _ in COLUMNS) + " |")
    return "\n".join(out)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--root", required=True, help="folder holding the clones")
    p.add_argument("--cudalint", default="cudalint", help="command to run (split on spaces)")
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--timeout", type=float, default=10)
    p.add_argument("--only", action="append", default=[])
    p.add_argument("--json", default=None, help="write the rows here too")
    p.add_argument("--raw", default=None, metavar="DIR",
                   help="keep cudalint's JSON output per repository in DIR (NAME.json)")
    p.add_argument("--details", action="store_true",
                   help="also list, per repository, the kernels launched in it that got no "
                        "launch shape and the unknown accesses grouped by reason")
    args = p.parse_args()
    rows = []
    for repo in REPOS:
        if args.only and repo.name not in args.only:
            continue
        if not os.path.isdir(os.path.join(args.root, repo.name)):
            at = f", then git -C {repo.name} checkout {repo.commit}" if repo.commit else ""
            print(f"skip {repo.name}: not under {args.root} (git clone {repo.url}{at})",
                  file=sys.stderr)
            continue
        row = run(repo, args.root, args.cudalint.split(), args.j, args.timeout, args.raw)
        print(json.dumps(row), file=sys.stderr)
        rows.append(row)
    print(table(rows))
    if args.details:
        for r in rows:
            if "error" in r:
                continue
            print(f"\n{r['repo']}: kernels launched in it without a launch shape:")
            sites = r.get("without_launch_sites", {})
            for k in r["without_launch"]:  # type: ignore[attr-defined]
                print(f"  {k}")
                for where in sites.get(k.split("<")[0].split("::")[-1], ()):  # type: ignore[attr-defined]
                    print(f"      launched at {where}")
            print(f"{r['repo']}: unknown accesses by reason:")
            for why, n in r["unknown_by_reason"].items():  # type: ignore[attr-defined]
                print(f"  {n:5d}  {why}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
