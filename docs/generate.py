"""Write the rule pages, docs/rules/CODE.md and their index docs/rules/README.md,
from each rule's own documentation (what `memcheck rule CODE` prints), and
docs/agents.md, the agents and the files each reads, from the agent data.

    python docs/generate.py          # write the pages, remove pages of rules gone
    python docs/generate.py --check  # write nothing; exit 1 when a page is missing or out of date

A test regenerates them in memory and compares bytes, so a rule's doc and its page
never differ in a commit.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memcheck.hooks.agents import table_markdown
from memcheck.hooks.rules import rule_pages
from memcheck.rules import RULE_PAGES

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = "python docs/generate.py"
AGENTS_PAGE = ROOT / "docs" / "agents.md"


def agents_page_stale(page: Path = AGENTS_PAGE) -> bool:
    """docs/agents.md is missing or differs from the agent data."""
    return not page.is_file() or page.read_bytes() != table_markdown().encode("utf-8")


def stale(folder: Path) -> list[str]:
    """The pages in ``folder`` that are missing, out of date or of no rule, by name."""
    pages = rule_pages()
    found = {p.name: p.read_bytes() for p in folder.glob("*.md")} if folder.is_dir() else {}
    wrong = [name for name, text in pages.items() if found.get(name) != text.encode("utf-8")]
    return sorted(wrong + [name for name in found if name not in pages])


def write(folder: Path) -> list[str]:
    """Bring ``folder`` up to date; the names of the pages written or removed."""
    folder.mkdir(parents=True, exist_ok=True)
    pages = rule_pages()
    changed = stale(folder)
    for name in changed:
        if name in pages:
            (folder / name).write_bytes(pages[name].encode("utf-8"))
        else:
            (folder / name).unlink()
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a page is missing or out of date")
    parser.add_argument("--out", type=Path, default=ROOT / RULE_PAGES, help="the folder of the pages (default: docs/rules)")
    args = parser.parse_args(argv)
    if args.check:
        wrong = stale(args.out)
        for name in wrong:
            print(f"{args.out / name}: missing or out of date; regenerate the rule pages: {REGENERATE}", file=sys.stderr)
        if agents_page_stale():
            print(f"{AGENTS_PAGE}: missing or out of date; regenerate it: {REGENERATE}", file=sys.stderr)
        return 1 if wrong or agents_page_stale() else 0
    for name in write(args.out):
        print(f"wrote {args.out / name}" if (args.out / name).exists() else f"removed {args.out / name}")
    if agents_page_stale():
        AGENTS_PAGE.write_bytes(table_markdown().encode("utf-8"))
        print(f"wrote {AGENTS_PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
