"""What `memcheck guard` flags over real repositories' complete file lists.

    python bench/guard_filelists.py [FILELISTS] [--show] [--json]

For each category: how many paths across all lists are flagged, and how many of
those are source code or documentation by extension (the target is zero for the
name-substring categories: they aim at secret-bearing files, not at a tokenizer).
It also lists the paths that must be flagged (.env files, keys, certificates,
kubeconfigs, .aws/credentials) and were not. ``--show`` prints every flagged path
for a check by eye. tests/test_guard_filelists.py asserts the same figures.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import NamedTuple

from memcheck.config import default_config
from memcheck.guard.paths import Guard

DEFAULT_FILELISTS = Path(__file__).resolve().parents[2] / "shared" / "filelists"
NAME_SUBSTRING = ("credentials", "auth-tokens", "config-secrets")
SOURCE_OR_DOC = frozenset(
    "py pyi go ts tsx js jsx mjs cjs rs java kt kts scala swift c h cc cpp hpp cs fs rb php pl lua dart ex exs erl hrl "
    "clj elm hs ml vue svelte astro sol sh bash zsh fish ps1 bats sql graphql proto tf bicep hcl nix zig "
    "md mdx markdown rst txt adoc org tex html htm css scss sass less ipynb".split()
)
# Paths that must be flagged whatever the patterns say: secrets by their shape.
MUST_FLAG = re.compile(
    r"(^|/)(\.env(\.[^/]+)?|[^/]+\.(pem|key|p12|pfx|jks|crt|cer|ppk)|kubeconfig|\.aws/credentials|\.kube/config"
    r"|id_(rsa|dsa|ecdsa|ed25519)([_.-][^/]*)?|\.pypirc|[^/]+\.tfstate(\.[^/]+)?|CLAUDE\.local\.md|\.claude/settings\.local\.json)$",
    re.IGNORECASE,
)
TEMPLATE = re.compile(r"\.(example|sample|template|dist|pub)$", re.IGNORECASE)  # templates and public keys


class Figures(NamedTuple):
    paths: int
    lists: int
    flagged: dict[str, list[str]]  # category -> flagged paths ("owner/name: path")
    source_or_doc: dict[str, list[str]]
    missed: list[str]  # must-flag paths that were not flagged
    seconds: float


def is_source_or_doc(path: str) -> bool:
    name = path.rpartition("/")[2]
    return "." in name.lstrip(".") and name.rpartition(".")[2].lower() in SOURCE_OR_DOC


def read_lists(folder: Path) -> dict[str, list[str]]:
    lists = {}
    for file in sorted(folder.glob("*__*.txt")):
        lines = file.read_text("utf-8").split("\n")
        repo = lines[0].lstrip("# ").split(" ")[0] if lines and lines[0].startswith("#") else file.stem
        lists[repo] = [line for line in lines if line and not line.startswith("# ")]
    return lists


def measure(folder: Path) -> Figures:
    guard = Guard(default_config(Path.cwd()).guard)
    lists = read_lists(folder)
    flagged: dict[str, list[str]] = {}
    source_or_doc: dict[str, list[str]] = {}
    missed: list[str] = []
    start = time.perf_counter()
    for repo, paths in lists.items():
        for path in paths:
            hit = guard.hit(path)
            if hit is not None:
                flagged.setdefault(hit.category, []).append(f"{repo}: {path}")
                if is_source_or_doc(path):
                    source_or_doc.setdefault(hit.category, []).append(f"{repo}: {path}")
            elif MUST_FLAG.search(path) and not TEMPLATE.search(path):
                missed.append(f"{repo}: {path}")
    seconds = time.perf_counter() - start
    return Figures(sum(map(len, lists.values())), len(lists), flagged, source_or_doc, missed, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filelists", nargs="?", type=Path, default=DEFAULT_FILELISTS)
    parser.add_argument("--show", action="store_true", help="print every flagged path")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.filelists)
    if args.json:
        json.dump(figures._asdict(), sys.stdout, indent=2)
        print()
        return 0
    print(f"{figures.paths} paths in {figures.lists} file lists, matched in {figures.seconds:.3f} s\n")
    print(f"{'category':<16} {'flagged':>8} {'source/doc':>11}")
    for name in sorted(figures.flagged, key=lambda n: -len(figures.flagged[n])):
        mark = "  (name-substring)" if name in NAME_SUBSTRING else ""
        print(f"{name:<16} {len(figures.flagged[name]):>8} {len(figures.source_or_doc.get(name, [])):>11}{mark}")
    print(f"\nmust-flag paths not flagged: {len(figures.missed)}")
    for path in figures.missed:
        print(f"  {path}")
    if args.show:
        for name, paths in figures.flagged.items():
            print(f"\n## {name}")
            print("\n".join(f"  {p}" for p in paths))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
