"""Reliability runs of issue 17 ("must show"): the mutation fuzz and the ``$TMPDIR`` count.

``fuzz``: mutates real CUDA files (byte flips, truncation, deleted and duplicated lines,
inserted ``#include``s and macros, bytes that are not UTF-8, huge lines, now and then an
exponential macro) with a fixed seed, runs cudalint on them in batches
(``--format json --show-all --isolated -j 2``) and counts what must never happen: a
Python traceback, a batch that does not end (a hang), an exit status other than 0, 1 or
2, output that is not one JSON document, and files reported as an internal error. The
mutated files are written to a scratch folder that is removed afterwards (they are the
repositories' code: never commit them).

    python bench/faults.py fuzz --repos /work/repos --count 2000 --seed 17

``tmpdir``: the number of entries in a private ``$TMPDIR`` before and after a command
(the full test suite, a ``-j 2`` corpus run): it must not change.

    python bench/faults.py tmpdir -- python -m pytest -q -x -p no:cacheprovider
    python bench/faults.py tmpdir --cwd /work/repos/llm.c -- cudalint -j 2 -I . -I dev/cuda .

The corpus identity runs (three runs, ``-j 1`` against ``-j 2``) are ``bench/identity.py``.
Results are in bench/README.md ("Reliability").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repos import REPOS

SUFFIXES = (".cu", ".cuh")
#: Each worker's address-space cap during the fuzz: an exponential macro then ends fast
#: and two workers cannot take a small machine's memory.
FUZZ_WORKER_MEMORY = "2G"
#: A batch that has not ended after this many seconds is a hang (the default budget
#: gives a file at most about a minute, 2 workers share the batch).
BATCH_TIMEOUT = 900.0

_MACRO_LINES = (
    "#define __shared__\n",
    "#undef __global__\n",
    "#define threadIdx blockIdx\n",
    "#define blockDim (dim3)0\n",
    "#define __syncthreads() (\n",
    "#define X X X\nint x = X;\n",
    "#define F(a, b) a##b\nint F(x,) = F(, 1);\n",
    "#define S(x) #x\nconst char *s = S(\"\\\n",
    "#if\n",
    "#endif\n",
    "#define float double\n",
    "#define int long long\n",
    "#pragma unroll 0\n",
    "#line 0 \"\"\n",
    "#define W 0x7fffffffffffffff\n__shared__ float w[W][W];\n",
)

#: 2^(2^9) tokens: the preprocessor allocates until a cap stops it.
_EXPONENTIAL = "".join(
    f"#define E{i}(x) E{i - 1}(E{i - 1}(x))\n" if i else "#define E0(x) x x\n"
    for i in range(10)
) + "int e = E9(1+) 1;\n"


def real_files(root: str) -> list[tuple[str, str]]:
    """(repository name, path) of every CUDA file of the repositories, sorted."""
    out = []
    for repo in REPOS:
        base = os.path.join(root, repo.name)
        if not os.path.isdir(base):
            continue
        for d, dirs, names in os.walk(base):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for name in sorted(names):
                path = os.path.join(d, name)
                if name.endswith(SUFFIXES) and os.path.isfile(path) \
                        and not os.path.islink(path):
                    out.append((repo.name, path))
    return out


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


def mutate(data: bytes, rng: random.Random, headers: list[str], name: str
           ) -> tuple[bytes, list[str]]:
    """One mutant of ``data`` and the names of the mutations applied."""
    kinds = rng.sample(
        ["flip", "truncate", "delete", "duplicate", "include", "macro", "non_utf8",
         "huge_line"], k=rng.choice((1, 1, 1, 2, 2, 3)))
    if rng.random() < 0.005:
        kinds.append("exponential")
    for kind in kinds:
        lines = _lines(data)
        at = rng.randrange(len(lines) + 1)
        if kind == "flip" and data:
            buf = bytearray(data)
            for _ in range(rng.randint(1, 20)):
                i = rng.randrange(len(buf))
                buf[i] ^= rng.randint(1, 255)
            data = bytes(buf)
        elif kind == "truncate" and data:
            data = data[:rng.randrange(len(data))]
        elif kind == "delete":
            n = rng.randint(1, 20)
            data = b"".join(lines[:at] + lines[at + n:])
        elif kind == "duplicate":
            n = rng.randint(1, 50)
            chunk = lines[at:at + n]
            to = rng.randrange(len(lines) + 1)
            data = b"".join(lines[:to] + chunk + lines[to:])
        elif kind == "include":
            choice = rng.choice((
                f'#include "{rng.choice(headers)}"\n' if headers else '#include "a.h"\n',
                f'#include "{name}"\n',  # itself
                "#include <vector>\n",
                "#include <cuda_runtime.h>\n",
                '#include "does/not/exist.cuh"\n',
                "#include_next <cuda.h>\n",
                "#include\n",
                '#include "\n',
            ))
            data = b"".join([*lines[:at], choice.encode(), *lines[at:]])
        elif kind == "macro":
            line = rng.choice(_MACRO_LINES).encode()
            data = b"".join([*lines[:at], line, *lines[at:]])
        elif kind == "non_utf8":
            buf = bytearray(data)
            for _ in range(rng.randint(1, 10)):
                buf.insert(rng.randrange(len(buf) + 1), rng.randint(0x80, 0xFF))
            data = bytes(buf)
        elif kind == "huge_line":
            size = rng.choice((10_000, 100_000, 1_000_000))
            line = rng.choice((
                b"// " + b"x" * size + b"\n",
                b"int h = " + b"1+" * (size // 2) + b"1;\n",
                b'const char *h = "' + b"a" * size + b'";\n',
                b"__device__ int " + b"h" * size + b";\n",
            ))
            data = b"".join([*lines[:at], line, *lines[at:]])
        elif kind == "exponential":
            data = b"".join([*lines[:at], _EXPONENTIAL.encode(), *lines[at:]])
    return data, kinds


def fuzz(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    files = real_files(args.repos)
    if not files:
        sys.stderr.write(f"no CUDA files under {args.repos}\n")
        return 2
    by_repo = {r.name: r for r in REPOS}
    headers: dict[str, list[str]] = {}
    for repo, path in files:
        if path.endswith(".cuh"):
            headers.setdefault(repo, []).append(os.path.basename(path))
    work = tempfile.mkdtemp(prefix="cudalint-fuzz-", dir=args.work)
    counts: Counter[str] = Counter()
    mutations: Counter[str] = Counter()
    bad: list[dict[str, Any]] = []
    slowest: list[tuple[float, int]] = []
    start = time.monotonic()
    try:
        # (original path, mutant path) by repository, run in batches of one repository
        mutants: dict[str, list[tuple[str, str]]] = {}
        for n in range(args.count):
            repo, path = files[rng.randrange(len(files))]
            with open(path, "rb") as f:
                data = f.read()
            name = os.path.basename(path)
            mutant, kinds = mutate(data, rng, headers.get(repo, []), name)
            mutations.update(kinds)
            folder = os.path.join(work, repo)
            os.makedirs(folder, exist_ok=True)
            target = os.path.join(folder, f"m{n:04d}_{name}")
            with open(target, "wb") as f:
                f.write(mutant)
            mutants.setdefault(repo, []).append((path, target))
        env = dict(os.environ, CUDALINT_WORKER_MEMORY=args.worker_memory)
        batches = [(name, items[i:i + args.batch]) for name, items in sorted(mutants.items())
                   for i in range(0, len(items), args.batch)]
        def run_batch(b: int, name: str, items: list[tuple[str, str]]
                      ) -> tuple[subprocess.CompletedProcess[str] | None, float]:
            repo = by_repo[name]
            base = os.path.join(args.repos, repo.name)
            cmd = [*args.cudalint.split(), "--format", "json", "--show-all", "--isolated",
                   "--color", "never", "-j", str(args.jobs)]
            for inc in repo.include:
                cmd += ["-I", os.path.join(base, inc)]
            for d in sorted({os.path.dirname(p) for p, _ in items}):
                cmd += ["-I", d]
            cmd += [t for _, t in items]
            t0 = time.monotonic()
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                                      timeout=args.batch_timeout, errors="replace",
                                      check=False)
            except subprocess.TimeoutExpired:
                return None, time.monotonic() - t0
            return proc, time.monotonic() - t0

        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
            futures = [pool.submit(run_batch, b, name, items)
                       for b, (name, items) in enumerate(batches)]
            for b, ((_, items), future) in enumerate(zip(batches, futures, strict=True)):
                proc, wall = future.result()
                if proc is None:
                    counts["hangs"] += 1
                    bad.append({"batch": b, "what": "hang", "files": [t for _, t in items]})
                    if args.verbose:
                        sys.stderr.write(f"batch {b}: hang\n")
                    continue
                slowest.append((wall, b))
                counts["batches"] += 1
                counts["files"] += len(items)
                if proc.returncode not in (0, 1, 2):
                    counts["bad_exit"] += 1
                    bad.append({"batch": b, "what": f"exit {proc.returncode}",
                                "stderr": proc.stderr[-2000:]})
                if "Traceback" in proc.stderr:
                    counts["tracebacks"] += 1
                    bad.append({"batch": b, "what": "traceback",
                                "stderr": proc.stderr[-4000:]})
                try:
                    doc = json.loads(proc.stdout)
                except ValueError:
                    counts["bad_json"] += 1
                    bad.append({"batch": b, "what": "output is not JSON",
                                "stdout": proc.stdout[:500], "stderr": proc.stderr[-2000:]})
                    if args.verbose:
                        sys.stderr.write(f"batch {b}: output is not JSON: {bad[-1]}\n")
                    continue
                for err in doc.get("errors", []):
                    text = json.dumps(err)
                    counts["file_errors"] += 1
                    if "internal error" in text:
                        counts["internal_errors"] += 1
                        bad.append({"batch": b, "what": "internal error", "error": err})
                    if "analysis stopped" in text or "time budget" in text:
                        counts["budget_stops"] += 1
                counts["accesses"] += len(doc.get("accesses", []))
                counts["diagnostics"] += len(doc.get("diagnostics", []))
                if args.verbose:
                    sys.stderr.write(f"batch {b}: {len(items)} files, exit "
                                     f"{proc.returncode}, {wall:.1f} s\n")
    finally:
        if args.keep:
            sys.stderr.write(f"mutants kept in {work}\n")
        else:
            shutil.rmtree(work, ignore_errors=True)
    summary = {
        "seed": args.seed, "mutants": args.count, "real_files": len(files),
        "jobs": args.jobs, "batch": args.batch, "parallel": args.parallel,
        "wall_s": round(time.monotonic() - start, 1),
        "slowest_batch_s": round(max(slowest)[0], 1) if slowest else None,
        "mutations": dict(sorted(mutations.items())),
        **{k: counts[k] for k in ("files", "batches", "tracebacks", "hangs", "bad_exit",
                                  "bad_json", "internal_errors", "file_errors",
                                  "budget_stops", "accesses", "diagnostics")},
        "problems": bad[:20],
    }
    json.dump(summary, sys.stdout, indent=1)
    sys.stdout.write("\n")
    failed = (counts["tracebacks"] or counts["hangs"] or counts["bad_exit"]
              or counts["bad_json"] or counts["internal_errors"])
    return 1 if failed else 0


def _entries(directory: str) -> list[str]:
    return sorted(os.listdir(directory))


def tmpdir(args: argparse.Namespace) -> int:
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        sys.stderr.write("tmpdir: give the command after --\n")
        return 2
    private = tempfile.mkdtemp(prefix="cudalint-tmpcount-")
    try:
        # a few entries that must stay as they are
        for name in ("keep.txt", "keep-dir"):
            path = os.path.join(private, name)
            if name.endswith(".txt"):
                with open(path, "w") as f:
                    f.write("x")
            else:
                os.mkdir(path)
        before = _entries(private)
        env = dict(os.environ, TMPDIR=private, TMP=private, TEMP=private)
        t0 = time.monotonic()
        proc = subprocess.run(command, cwd=args.cwd, env=env, check=False,
                              stdout=subprocess.DEVNULL if args.quiet else None)
        after = _entries(private)
        out = {"command": command, "returncode": proc.returncode,
               "wall_s": round(time.monotonic() - t0, 1), "before": len(before),
               "after": len(after), "new": sorted(set(after) - set(before))[:50],
               "gone": sorted(set(before) - set(after))}
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0 if before == after else 1
    finally:
        shutil.rmtree(private, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    f = sub.add_parser("fuzz", help="the mutation fuzz")
    f.add_argument("--repos", default="/work/repos", help="folder holding the clones")
    f.add_argument("--count", type=int, default=2000)
    f.add_argument("--seed", type=int, default=17)
    f.add_argument("--batch", type=int, default=20, help="files per cudalint run")
    f.add_argument("-j", "--jobs", type=int, default=2)
    f.add_argument("--parallel", type=int, default=1,
                   help="batches run at once (on a machine with more cores)")
    f.add_argument("--cudalint", default=f"{sys.executable} -m cudalint")
    f.add_argument("--worker-memory", default=FUZZ_WORKER_MEMORY)
    f.add_argument("--batch-timeout", type=float, default=BATCH_TIMEOUT)
    f.add_argument("--work", default=None, help="where the scratch folder goes")
    f.add_argument("--keep", action="store_true", help="keep the mutants")
    f.add_argument("-v", "--verbose", action="store_true")
    t = sub.add_parser("tmpdir", help="entries of a private TMPDIR before and after")
    t.add_argument("--cwd", default=None)
    t.add_argument("-q", "--quiet", action="store_true", help="drop the command's stdout")
    t.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args(argv)
    return fuzz(args) if args.what == "fuzz" else tmpdir(args)


if __name__ == "__main__":
    sys.exit(main())
