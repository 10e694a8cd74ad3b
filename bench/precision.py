"""How often memcheck's findings are true, judged by hand on whole repositories.

    python bench/precision.py sample OUT.tsv REPO... [--corpus DIR [--filelists DIR]] [--per-rule 4] [--seed 0] [--select CODES]
    python bench/precision.py sample OUT.tsv --list LIST.tsv --root DIR [--per-rule 30] [--verdicts OLD.tsv...]
    python bench/precision.py table JUDGED.tsv [JUDGED.tsv...]

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

``--list`` names the repositories by a TSV (``repo``, ``commit``, ``folder``: a
checkout of that commit under ``--root``); each row of the sample then carries the
repository's commit and how many findings its rule made in all of them
(``rule_findings``), and a checkout at another commit is refused. ``--verdicts``
copies the verdicts of earlier judged samples onto identical findings (the same
repository, commit, file, line, rule and message), so that after a change only the
new findings wait for the judge.

``table`` prints, from a judged TSV, the share of true and of wanted findings per
rule family and overall. A verdict left empty is counted as not judged. When the
rows carry ``rule_findings`` it also prints each rule's findings, how many were
judged (all of them, or a sample; a sample's share weights each repository by its
count of the rule), its precision, and the figure weighted by count:
each rule's precision weighted by its number of findings, per family and over all,
so that a rule firing three hundred times weighs as much as it is seen.
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
# With --list: the commit judged, and the rule's count over every repository and in
# this one (a stratified sample over-represents small repositories; the table
# weights each repository's verdicts by its count to undo that).
LISTED_COLUMNS = ("repo", "commit", "path", "line", "code", "rule_findings", "repo_findings", "message", "true", "wanted", "note")
VERDICTS = ("true", "wanted", "note")
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


class Listed(NamedTuple):
    repo: str
    commit: str
    folder: Path


def read_list(listing: Path, root: Path) -> list[Listed]:
    """The repositories of a ``--list`` TSV, each checked out under ``root`` at its
    recorded commit (a checkout that moved would be judged as another tree)."""
    listed: list[Listed] = []
    for row in csv.DictReader(listing.open(encoding="utf-8"), delimiter="\t"):
        folder = root / row["folder"]
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=folder).stdout.strip()
        if head != row["commit"]:
            raise SystemExit(f"{folder}: at {head or 'no commit'}, listed at {row['commit']}")
        listed.append(Listed(row["repo"], row["commit"], folder))
    return listed


def _key(row: dict[str, str]) -> tuple[str, ...]:
    return (row["repo"], row.get("commit", ""), row["path"], str(row["line"]), row["code"], " ".join(row["message"].split()))


def earlier_verdicts(judged: Iterable[Path]) -> dict[tuple[str, ...], dict[str, str]]:
    """Verdicts of earlier samples by finding; a later file wins over an earlier one."""
    verdicts: dict[tuple[str, ...], dict[str, str]] = {}
    for path in judged:
        for row in csv.DictReader(path.open(encoding="utf-8"), delimiter="\t"):
            if row.get("true", "").strip():
                verdicts[_key(row)] = {k: row.get(k, "") for k in VERDICTS}
    return verdicts


def write_listed_sample(
    out: Path,
    picked: Sequence[Finding],
    commits: dict[str, str],
    counts: dict[tuple[str, str], int],
    verdicts: dict[tuple[str, ...], dict[str, str]],
) -> int:
    """The sample with each repository's commit and each rule's count, over all
    repositories and in the finding's own (``counts`` by repository and rule);
    returns how many rows took an earlier verdict."""
    totals: dict[str, int] = defaultdict(int)
    for (_, code), n in counts.items():
        totals[code] += n
    reused = 0
    with out.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(LISTED_COLUMNS)
        for p in picked:
            row = {"repo": p.repo, "commit": commits[p.repo], "path": p.path, "line": str(p.line), "code": p.code}
            row |= {"rule_findings": str(totals[p.code]), "repo_findings": str(counts[p.repo, p.code])}
            row["message"] = " ".join(p.message.split())
            earlier = verdicts.get(_key(row))
            reused += earlier is not None
            row |= earlier or dict.fromkeys(VERDICTS, "")
            writer.writerow([row[c] for c in LISTED_COLUMNS])
    return reused


def table(*judged: Path) -> str:
    rows = _together([list(csv.DictReader(path.open(encoding="utf-8"), delimiter="\t")) for path in judged])
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
    if rows and "rule_findings" in rows[0]:
        lines += ["", *per_rule(rows)]
    return "\n".join(lines) + "\n"


def _together(samples: Sequence[list[dict[str, str]]]) -> list[dict[str, str]]:
    """The rows of several judged samples (of distinct repositories) as one: each
    rule's ``rule_findings`` becomes its count over all of them."""
    if len(samples) == 1 or not all(rows and "rule_findings" in rows[0] for rows in samples):
        return [row for rows in samples for row in rows]
    counts: dict[str, int] = defaultdict(int)
    for rows in samples:
        for code, count in {row["code"]: int(row["rule_findings"]) for row in rows}.items():
            counts[code] += count
    return [{**row, "rule_findings": str(counts[row["code"]])} for rows in samples for row in rows]


def per_rule(rows: Sequence[dict[str, str]]) -> list[str]:
    """Each rule's findings and precision, and the count-weighted figure per family
    and over all: each rule's share weighted by how many findings it made.

    A sampled rule's share is each repository's share weighted by that repository's
    count of the rule (the stratified draw takes as many from a repository with two
    findings as from one with two hundred); a repository the draw did not reach is
    left out of its rule's share."""
    by_rule: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        by_rule[row["code"]].append(row)
    lines = ["| rule | findings | judged | literally true | wanted |", "| --- | ---: | ---: | ---: | ---: |"]
    weighted: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for code in sorted(by_rule):
        items = by_rule[code]
        count = int(items[0]["rule_findings"])
        judged_rows = [r for r in items if r["true"].strip()]
        true, wanted = _estimate(judged_rows, "true"), _estimate(judged_rows, "wanted")
        how = "all" if len(judged_rows) == count else f"{len(judged_rows)} sampled"
        lines.append(f"| {code} | {count} | {how} | {_rate(true, judged_rows, 'true')} | {_rate(wanted, judged_rows, 'wanted')} |")
        if judged_rows:
            for group in (code[:3], "all"):
                weighted[group][0] += count
                weighted[group][1] += count * true
                weighted[group][2] += count * wanted
    lines += ["", "| weighted by count | findings | literally true | wanted |", "| --- | ---: | ---: | ---: |"]
    for group in [*(f for f in FAMILIES if f in weighted), *sorted(set(weighted) - set(FAMILIES) - {"all"}), "all"]:
        if group in weighted:
            n, t, w = weighted[group]
            lines.append(f"| {group} | {n:.0f} | {100 * t / n:.1f}% | {100 * w / n:.1f}% |")
    return lines


def _estimate(judged_rows: Sequence[dict[str, str]], column: str) -> float:
    """The share of y in ``column``, each repository weighted by its count of the rule."""
    by_repo: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in judged_rows:
        by_repo[row["repo"]].append(row)
    total = sum(int(items[0].get("repo_findings") or len(items)) for items in by_repo.values())
    if not total:
        return 0.0
    share = 0.0
    for items in by_repo.values():
        yes = sum(r[column].strip().lower() == "y" for r in items)
        share += int(items[0].get("repo_findings") or len(items)) * yes / len(items)
    return share / total


def _rate(estimate: float, judged_rows: Sequence[dict[str, str]], column: str) -> str:
    yes = sum(r[column].strip().lower() == "y" for r in judged_rows)
    return f"{100 * estimate:.0f}% ({yes})" if judged_rows else "-"


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
    s.add_argument("--list", type=Path, help="a TSV of repositories (repo, commit, folder) checked out under --root")
    s.add_argument("--root", type=Path, default=Path("."), help="the folder holding the --list checkouts")
    s.add_argument("--verdicts", type=Path, nargs="*", default=[], help="judged samples whose verdicts identical findings keep")
    t = sub.add_parser("table", help="print the per-family table of a judged sample (of several together: one table)")
    t.add_argument("judged", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "table":
        sys.stdout.write(table(*args.judged))
        return 0
    if args.list:
        return sample_listed(args)
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


def sample_listed(args: argparse.Namespace) -> int:
    listed = read_list(args.list, args.root)
    found: list[Finding] = []
    for repo in listed:
        found += [f._replace(repo=repo.repo) for f in findings_of(args.memcheck.split(), repo.folder.resolve(), args.select)]
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for f in found:
        counts[f.repo, f.code] += 1
    picked = stratified(found, args.per_rule, args.seed)
    commits = {r.repo: r.commit for r in listed}
    reused = write_listed_sample(args.out, picked, commits, counts, earlier_verdicts(args.verdicts))
    sys.stdout.write(
        f"{len(found)} findings in {len(listed)} repositories; {len(picked)} sampled into {args.out} ({reused} with an earlier verdict)\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
