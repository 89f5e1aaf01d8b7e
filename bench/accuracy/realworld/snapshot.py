#!/usr/bin/env python3
"""Record the IR cudalint's frontend extracts from the measured repositories.

    python3 bench/accuracy/realworld/snapshot.py --repos DIR

CI cannot fetch third-party repositories, and their code is never committed. What
is committed instead is, per repository, the IR of a cudalint run over the
folders of its measured programs (`cudalint.irjson`: index expressions, spans,
launches — derived facts, not code), written to results/ir/OWNER+NAME.json.gz.
`score.py --ir` and tests/test_realworld_score.py replay the model and rules on
it, so a model change that loses a measured line fails in CI. Run this again
after a frontend change (and commit the result) with checkouts at the pinned
commits; `--check` says whether the committed IR is still what the frontend
extracts.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from score import find_checkout  # noqa: E402

IR_DIR = HERE / "results" / "ir"


def run_args(man: dict, repo: str) -> list[str]:
    dirs = sorted({p["dir"] for p in man["programs"] if p["repo"] == repo})
    return [*man["repos"][repo]["cudalint_args"], "--timeout", "0", *(dirs if "." not in dirs else ["."])]


def main() -> int:
    from cudalint import irjson

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repos", type=Path, required=True)
    ap.add_argument("--manifest", type=Path, default=HERE / "programs.json")
    ap.add_argument("--check", action="store_true", help="compare with the committed IR; write nothing")
    ap.add_argument("--out", type=Path, default=IR_DIR,
                    help="write (or --check against) the IR in this folder (default: results/ir)")
    a = ap.parse_args()
    man = json.loads(a.manifest.read_text())
    out_dir: Path = a.out
    out_dir.mkdir(parents=True, exist_ok=True)
    stale = 0
    for repo in man["repos"]:
        root = find_checkout(a.repos, repo)
        text = irjson.dump_run(run_args(man, repo), cwd=str(root))
        path = out_dir / (repo.replace("/", "+") + ".json.gz")
        if a.check:
            old = gzip.decompress(path.read_bytes()).decode() if path.exists() else ""
            same = old == text
            stale += not same
            print(f"{repo}: {'current' if same else 'STALE'}")
            continue
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
        print(f"{repo}: {len(text) / 1e3:.0f} kB of IR -> {path.name} ({path.stat().st_size / 1e3:.0f} kB)")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
