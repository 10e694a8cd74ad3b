"""How often memcheck's findings are true, judged by hand on whole repositories.

    python bench/precision.py sample OUT.tsv REPO... [--corpus DIR [--filelists DIR]] [--per-rule 4] [--seed 0] [--select CODES]
    python bench/precision.py table JUDGED.tsv

``sample`` runs ``memcheck check`` on each repository (each folder of ``--corpus``
too, a repository each: copies of real repositories' agent files), and draws a
stratified sample of the findings: up to ``--per-rule`` findings per rule, taken in
turn from the repositories that have one, in an order fixed by ``--seed``, so a rule
that fires a thousand times in one repository does not crowd out the others. It
writes a TSV with two empty verdict columns for the judge:

- ``true``: y when what the finding says is literally so (the file does hold that,
  the link is dead), n when not;
- ``wanted``: y when a maintainer would want to hear it (a problem worth a change or
  a suppression), n when it is noise although true.

The corpus holds only each repository's agent files, so a link to any other file
would be dead there and true nowhere else. With ``--filelists`` (../shared/filelists:
each repository's complete list of paths), each corpus folder is checked as a copy
in which every other listed file exists (an empty stand-in), and no finding on a
stand-in is drawn. Stand-ins are left out where they would become agent files
themselves: Markdown inside a memory store, and the file names agents load.

``table`` prints, from a judged TSV, the share of true and of wanted findings per
rule family and overall. A verdict left empty is counted as not judged.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence

COLUMNS = ("repo", "path", "line", "code", "message", "true", "wanted", "note")
FAMILIES = ("MEM", "IDX", "GDN", "SKL", "AGT", "SEC", "HID", "REF", "MCK")


class Finding(NamedTuple):
    repo: str
    path: str
    line: int
    code: str
    message: str


def findings_of(memcheck: Sequence[str], repo: Path, select: str | None) -> list[Finding]:
    """Every finding of ``memcheck check`` on a repository, whatever fails."""
    args = [*memcheck, "check", str(repo), "--format", "json", "--fail-on", "never"]
    if select:
        args += ["--select", select]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=repo)
    if proc.returncode not in (0, 1):
        sys.stderr.write(f"{repo}: memcheck exited {proc.returncode}: {proc.stderr.strip()[:300]}\n")
        return []
    return [Finding(repo.name, p["path"], p["line"], p["code"], p["message"]) for p in json.loads(proc.stdout)["problems"]]


# Names a stand-in must not take: agents would load it, and memcheck would judge it.
AGENT_FOLDERS = (
    ".claude/rules",
    ".claude/skills",
    ".claude/agents",
    ".claude/commands",
    ".agents/skills",
    ".github/skills",
    ".github/instructions",
)
AGENT_NAMES = ("AGENTS.md", "AGENT.md", "CLAUDE.md", "GEMINI.md", "SKILL.md", "MEMORY.md", "CLAUDE.local.md", "AGENTS.override.md")


def with_stand_ins(copy: Path, filelist: Path, into: Path) -> tuple[Path, set[str]]:
    """``copy`` rebuilt under ``into`` with an empty stand-in for each path of
    ``filelist`` that it lacks (see the module's note); returns the tree and the
    stand-ins' paths."""
    tree = into / copy.name
    shutil.copytree(copy, tree, symlinks=True)
    stores = {p.parent for p in tree.rglob("MEMORY.md")}
    made: set[str] = set()
    for line in filelist.read_text(encoding="utf-8").splitlines():
        path = line.strip()
        if not path or path.startswith("#") or ".." in path.split("/"):
            continue
        target = tree / path
        name = target.name
        if (
            target.exists()
            or name in AGENT_NAMES
            or name.endswith((".mdc", ".instructions.md"))
            or any(f"/{d}/" in f"/{path}" for d in AGENT_FOLDERS)
        ):
            continue
        if target.suffix == ".md" and target.parent in stores:
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(b"")
        except OSError:
            continue
        made.add(path)
    return tree, made


def stratified(found: Iterable[Finding], per_rule: int, seed: int) -> list[Finding]:
    """Up to ``per_rule`` findings of each rule, one repository at a time in turn."""
    rng = random.Random(seed)
    by_rule: dict[str, dict[str, list[Finding]]] = defaultdict(lambda: defaultdict(list))
    for f in sorted(found):
        by_rule[f.code][f.repo].append(f)
    picked: list[Finding] = []
    for code in sorted(by_rule):
        pools = {repo: rng.sample(items, len(items)) for repo, items in sorted(by_rule[code].items())}
        order = sorted(pools)
        rng.shuffle(order)
        taken: list[Finding] = []
        while len(taken) < per_rule and any(pools.values()):
            for repo in order:
                if pools[repo] and len(taken) < per_rule:
                    taken.append(pools[repo].pop())
        picked += sorted(taken)
    return picked


def write_sample(out: Path, picked: Sequence[Finding]) -> None:
    with out.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for p in picked:
            writer.writerow([p.repo, p.path, p.line, p.code, " ".join(p.message.split()), "", "", ""])


def table(judged: Path) -> str:
    rows = list(csv.DictReader(judged.open(encoding="utf-8"), delimiter="\t"))
    groups: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        groups[row["code"][:3]].append(row)
        groups["all"].append(row)
    lines = ["| family | findings | judged | literally true | wanted |", "| --- | ---: | ---: | ---: | ---: |"]
    for name in [*(f for f in FAMILIES if f in groups), *sorted(set(groups) - set(FAMILIES) - {"all"}), "all"]:
        items = groups[name]
        judged_rows = [r for r in items if r["true"].strip()]
        true = sum(r["true"].strip().lower() == "y" for r in judged_rows)
        wanted = sum(r["wanted"].strip().lower() == "y" for r in judged_rows)
        lines.append(
            f"| {name} | {len(items)} | {len(judged_rows)} | {_share(true, len(judged_rows))} | {_share(wanted, len(judged_rows))} |"
        )
    return "\n".join(lines) + "\n"


def _share(count: int, judged: int) -> str:
    return f"{100 * count / judged:.0f}% ({count})" if judged else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="run memcheck on repositories and write a sample to judge")
    s.add_argument("out", type=Path)
    s.add_argument("repos", nargs="*", type=Path)
    s.add_argument("--corpus", type=Path, help="a folder of repository folders (../shared/corpus)")
    s.add_argument("--filelists", type=Path, help="a folder of <corpus folder>.txt path lists: link targets the corpus lacks get stand-ins")
    s.add_argument("--per-rule", type=int, default=4)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--select", help="rule codes or prefixes to sample (default: all)")
    s.add_argument("--memcheck", default=f"{sys.executable} -m memcheck", help="command that runs memcheck")
    t = sub.add_parser("table", help="print the per-family table of a judged sample")
    t.add_argument("judged", type=Path)
    args = parser.parse_args(argv)
    if args.command == "table":
        sys.stdout.write(table(args.judged))
        return 0
    repos = list(args.repos) + (sorted(p for p in args.corpus.iterdir() if p.is_dir()) if args.corpus else [])
    found: list[Finding] = []
    with tempfile.TemporaryDirectory() as scratch:
        for repo in repos:
            listed = args.filelists / f"{repo.name}.txt" if args.filelists and args.corpus and repo.parent == args.corpus else None
            stand_ins: set[str] = set()
            if listed is not None and listed.is_file():
                repo, stand_ins = with_stand_ins(repo, listed, Path(scratch))
            found += [f for f in findings_of(args.memcheck.split(), repo.resolve(), args.select) if f.path not in stand_ins]
    picked = stratified(found, args.per_rule, args.seed)
    write_sample(args.out, picked)
    sys.stdout.write(f"{len(found)} findings in {len(repos)} repositories; {len(picked)} sampled into {args.out}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
