"""Record what memcheck prints on a set of trees, and compare two records byte for byte.

    python bench/same_output.py record OUT [--tree DIR ...] [--corpus DIR] [--memcheck CMD]
    python bench/same_output.py compare BEFORE AFTER

A restructuring must not change what a user sees. ``record`` runs every command a
user types (check in each format, fix --diff, fix on a copy, index, context, guard in
each mode, rules and rule pages) on each tree, and keeps each command's exit code,
standard output and standard error as one file under OUT. ``compare`` names every
command whose record differs and exits 1 when any does.

The trees: the benchmark's M tree by default (a git repository, so the guard's range
and staged modes run too) and, with --corpus, each repository folder of the corpus.
Every tree is copied first, because ``fix`` writes.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV = {
    **os.environ,
    "LC_ALL": "C.UTF-8",
    "NO_COLOR": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}
for variable in ("GITHUB_ACTIONS", "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "PRE_COMMIT_REMOTE_NAME", "CLAUDECODE"):
    ENV.pop(variable, None)


def run(memcheck: list[str], args: list[str], cwd: Path) -> bytes:
    done = subprocess.run([*memcheck, *args], cwd=cwd, env=ENV, capture_output=True, stdin=subprocess.DEVNULL, timeout=600)
    # The temporary folder's name is the one thing that differs from run to run.
    out = done.stdout.replace(str(cwd).encode(), b"<tree>")
    err = done.stderr.replace(str(cwd).encode(), b"<tree>")
    return b"exit %d\n--- stdout\n%s\n--- stderr\n%s" % (done.returncode, out, err)


def stores(tree: Path) -> list[str]:
    found = sorted({str(p.parent.relative_to(tree)) for p in tree.rglob("MEMORY.md") if ".git" not in p.parts})
    return found[:20]


def commands(tree: Path) -> list[list[str]]:
    cmds: list[list[str]] = [["check", "."]]
    cmds += [["check", ".", "--format", f] for f in ("json", "github", "sarif")]
    cmds += [["check", ".", "--statistics"], ["check", ".", "--fail-on", "warning", "--select", "MEM,IDX"]]
    cmds += [["fix", "--diff", "."], ["guard", "--list"], ["guard", "--list", "--format", "json"]]
    cmds += [["context", "."], ["context", ".", "--format", "json"]]
    for store in stores(tree):
        cmds += [["index", store], ["index", store, "--explain"]]
    if (tree / ".git").exists():
        cmds += [
            ["guard", "--base", "bench-base", "--head", "bench-head"],
            ["guard", "--base", "bench-base", "--format", "sarif"],
            ["guard"],
        ]
    return cmds


def record_tree(memcheck: list[str], source: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        shutil.copytree(source, tree, symlinks=True)
        for args in commands(tree):
            name = "_".join(a.replace("/", "%") for a in args)[:150]
            (out / name).write_bytes(run(memcheck, args, tree))
        # fix itself: its report, and the tree it leaves.
        (out / "fix_write").write_bytes(run(memcheck, ["fix", "."], tree))
        digest = hashlib.sha256()
        for path in sorted(p for p in tree.rglob("*") if p.is_file() and ".git" not in p.relative_to(tree).parts):
            digest.update(str(path.relative_to(tree)).encode() + b"\0" + path.read_bytes() + b"\0")
        (out / "fix_tree_digest").write_text(digest.hexdigest() + "\n")


def record(args: argparse.Namespace) -> int:
    memcheck = shlex.split(args.memcheck)
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "rules").write_bytes(run(memcheck, ["rules", "--format", "json"], out))
    (out / "rules_markdown").write_bytes(run(memcheck, ["rules", "--format", "markdown"], out))
    trees = [Path(t) for t in args.tree]
    if not trees:
        subprocess.run([sys.executable, str(HERE / "generate.py"), "--sizes", "M"], check=True, stdout=subprocess.DEVNULL)
        trees = [HERE / "out" / "M"]
    for tree in trees:
        record_tree(memcheck, tree, out / "tree" / tree.name)
    if args.corpus:
        for repo in sorted(p for p in Path(args.corpus).iterdir() if p.is_dir()):
            record_tree(memcheck, repo, out / "corpus" / repo.name)
    count = sum(1 for p in out.rglob("*") if p.is_file())
    print(f"recorded {count} outputs under {out}")
    return 0


def compare(args: argparse.Namespace) -> int:
    before, after = Path(args.before), Path(args.after)
    names = sorted(
        {str(p.relative_to(before)) for p in before.rglob("*") if p.is_file()}
        | {str(p.relative_to(after)) for p in after.rglob("*") if p.is_file()}
    )
    differ = [
        n for n in names if not ((before / n).is_file() and (after / n).is_file() and filecmp.cmp(before / n, after / n, shallow=False))
    ]
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(names) - len(differ)} of {len(names)} outputs byte-identical")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out")
    rec.add_argument("--tree", action="append", default=[], help="a tree to run on (default: the benchmark's M tree)")
    rec.add_argument("--corpus", help="a folder of repository folders (the shared corpus)")
    rec.add_argument("--memcheck", default=str(Path(sys.executable).parent / "memcheck"))
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before")
    cmp_.add_argument("after")
    args = parser.parse_args()
    return record(args) if args.what == "record" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
