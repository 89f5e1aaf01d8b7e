#!/usr/bin/env python3
"""Stage the sources of the real-world suite's programs for a GPU machine.

    python3 bench/accuracy/realworld/stage.py --repos DIR [--dest DIR]

DIR holds a git checkout (or a bare mirror) of each repository of programs.json,
named NAME or OWNER+NAME. For each repository, `git archive` of the pinned commit
(only the folders its programs need) is unpacked under DEST/OWNER+NAME (default:
bench/accuracy/realworld/_src, which git ignores: third-party code is never
committed). measure.py builds from there; copy the folder along to the GPU
machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# folders each repository's programs need, beside the programs' own folders
EXTRA = {"NVIDIA/cuda-samples": ["Common"], "Kobzol/hardware-effects-gpu": ["common.h"]}


def find_repo(base: Path, repo: str) -> Path:
    owner, name = repo.split("/")
    for cand in (base / f"{owner}+{name}", base / f"{owner}+{name}" / "repo", base / name):
        if (cand / ".git").exists() or (cand / "HEAD").exists():
            return cand
    raise SystemExit(f"stage: no checkout of {repo} under {base} (fetch it first)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repos", type=Path, required=True)
    ap.add_argument("--dest", type=Path, default=HERE / "_src")
    ap.add_argument("--manifest", type=Path, default=HERE / "programs.json")
    args = ap.parse_args()
    man = json.loads(args.manifest.read_text())
    for repo, info in man["repos"].items():
        src = find_repo(args.repos, repo)
        dirs = sorted({p["dir"] for p in man["programs"] if p["repo"] == repo} | set(EXTRA.get(repo, [])))
        paths = [] if "." in dirs else dirs
        dest = args.dest / repo.replace("/", "+")
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        arch = subprocess.run(["git", "-C", str(src), "archive", "--format=tar", info["commit"], *paths],
                              capture_output=True)
        if arch.returncode == 0:
            subprocess.run(["tar", "-x", "-C", str(dest)], input=arch.stdout, check=True)
        else:
            # a partial clone lacks some blobs (docs, images): copy the checkout's
            # folders instead, once HEAD is the pinned commit and they are unmodified
            head = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"],
                                  capture_output=True, text=True).stdout.strip()
            dirty = subprocess.run(["git", "-C", str(src), "status", "--porcelain", "--", *paths],
                                   capture_output=True, text=True).stdout
            # a partial checkout lists missing or unindexed files: only modified ones count
            dirty = "\n".join(ln for ln in dirty.splitlines() if "M" in ln[:2])
            if head != info["commit"] or dirty:
                print(f"stage: {repo}: git archive failed and {src} is not a clean checkout of "
                      f"{info['commit']}: {arch.stderr.decode(errors='replace')[:300]}", file=sys.stderr)
                return 1
            for d in paths or ["."]:
                shutil.copytree(src / d, dest / d, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns(".git", "doc", "*.pdf"))
        size = sum(f.stat().st_size for f in dest.rglob("*") if f.is_file())
        print(f"{repo}: {info['commit'][:12]} {len(dirs)} folders, {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
