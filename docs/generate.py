"""Write the generated documentation pages from what memcheck itself holds:

- the rule pages, docs/rules/CODE.md, and their index docs/rules/README.md, from each
  rule's own documentation (what `memcheck rule CODE` prints);
- the configuration reference, docs/configuration.md, from the config's JSON Schema
  (what `memcheck schema` prints) and its defaults, after the hand-written
  docs/configuration.intro.md;
- docs/agent-table.md, the agents and the files each reads, from the agent data;
- src/memcheck/resources/agents.json, the agent data's TOML files as one JSON file,
  which memcheck reads (JSON loads in a fraction of the time TOML takes);
- src/memcheck/resources/guard-regexes.json, pathspec's regex for each line of the
  guard's categories, which guard reads instead of importing pathspec;
- src/memcheck/resources/rules.json, every rule's code and family, which settings and
  suppression comments are checked against without importing a rule.

    python docs/generate.py          # write the pages, remove pages of rules gone
    python docs/generate.py --check  # write nothing; exit 1 when a page is missing or out of date

Tests regenerate them in memory and compare bytes, so a rule's doc or the schema and
its page never differ in a commit.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from memcheck import rules
from memcheck.agents import facts
from memcheck.checks import rule_families
from memcheck.config import defaults, schema
from memcheck.guard import categories
from memcheck.hooks.agents import table_markdown
from memcheck.hooks.rules import rule_pages
from memcheck.rules import RULE_PAGES

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = "python docs/generate.py"
CONFIG_PAGE = "configuration.md"
CONFIG_INTRO = "configuration.intro.md"
AGENTS_PAGE = ROOT / "docs" / "agent-table.md"


def agent_data_stale() -> bool:
    """resources/agents.json is missing or differs from the TOML files."""
    compiled = Path(facts.COMPILED)
    return not compiled.is_file() or compiled.read_bytes() != facts.compiled_text().encode("utf-8")


def guard_regexes_stale() -> bool:
    """resources/guard-regexes.json is missing or differs from pathspec's translation."""
    compiled = Path(categories.TRANSLATED)
    return not compiled.is_file() or compiled.read_bytes() != categories.translations_text().encode("utf-8")


RULE_CATALOGUE = ROOT / "src" / "memcheck" / "resources" / rules.CATALOGUE


def rule_catalogue_stale() -> bool:
    """resources/rules.json is missing or differs from the families' rules."""
    return not RULE_CATALOGUE.is_file() or RULE_CATALOGUE.read_bytes() != rules.catalogue_text(rule_families()).encode("utf-8")


def agents_page_stale(page: Path = AGENTS_PAGE) -> bool:
    """docs/agent-table.md is missing or differs from the agent data."""
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


def _kind(node: dict[str, Any]) -> str:
    """A key's type in words, as a user writes it in YAML."""
    if "enum" in node:
        return "one of " + ", ".join(_value(v) for v in node["enum"])
    names = {"array": "list", "object": "mapping", "string": "text", "integer": "integer", "number": "number", "boolean": "true or false", "null": "null"}
    formats = {"gitignore-pattern": "gitignore-style patterns", "folder-glob": "folder globs"}
    types = node.get("type", [])
    words = [names[t] for t in ([types] if isinstance(types, str) else types)]
    items = node.get("items", {})
    if node.get("type") == "array" and "enum" not in items:
        words = ["list of " + ("mappings" if "properties" in items else formats.get(items.get("format", ""), _kind(items)))]
    if node.get("type") == "object" and isinstance(node.get("additionalProperties"), dict):
        names_of = node.get("propertyNames", {})
        keys = "category" if "enum" in names_of else "pattern" if names_of.get("format") else "key"
        words = [f"mapping of {keys} to {_kind(node['additionalProperties'])}"]
    bounds = [f"at least {node['minimum']}" if "minimum" in node else "", f"at most {node['maximum']}" if "maximum" in node else ""]
    if node.get("minItems"):
        bounds.append(f"at least {node['minItems']} item")
    return ", ".join([" or ".join(words), *[b for b in bounds if b]])


def _value(value: object) -> str:
    """A value in YAML's flow form: JSON is YAML, and it reads the same everywhere."""
    return f"`{json.dumps(value, ensure_ascii=False)}`" if not isinstance(value, str) else f"`{value}`"


def _keys(node: dict[str, Any], prefix: str, default: object, depth: int) -> list[str]:
    lines: list[str] = []
    for name, child in node.get("properties", {}).items():
        path = f"{prefix}{name}"
        value = default.get(name) if isinstance(default, dict) else None
        lines += [f"{'#' * depth} `{path}`", "", child.get("description", "").strip(), ""]
        if "properties" in child:
            lines += _keys(child, f"{path}.", value, min(depth + 1, 4))
            continue
        lines.append(f"- Type: {_kind(child)}")
        if isinstance(default, dict) and name in default:
            lines.append(f"- Default: {_value(value)}")
        if "enum" in child.get("items", {}):
            lines.append("- Values: " + ", ".join(_value(v) for v in child["items"]["enum"]))
        if "enum" in child.get("propertyNames", {}):
            lines.append("- Keys: " + ", ".join(_value(v) for v in child["propertyNames"]["enum"]))
        lines.append("")
        item = child.get("items", {})
        if "properties" in item:
            lines += [f"Each item of `{path}` takes these keys. {item.get('description', '')}".rstrip(), ""] + _keys(item, f"{path}[].", None, min(depth + 1, 4))
    return lines


def config_reference(intro: str) -> str:
    """docs/configuration.md: ``intro`` (hand-written), then every key of the schema,
    its type, default and values, in the schema's order."""
    lines = [
        "<!-- Generated by docs/generate.py from the config's JSON Schema and defaults, after",
        "     configuration.intro.md: edit those, then run `python docs/generate.py`. -->",
        "",
        intro.rstrip("\n"),
        "",
        "## Every key",
        "",
        "Generated from the JSON Schema that `memcheck schema` prints and the defaults memcheck",
        "ships. A key left out takes its default.",
        "",
    ]
    return "\n".join(lines + _keys(schema(), "", defaults(), 3)).rstrip("\n") + "\n"


def _config_page(docs: Path) -> str:
    return config_reference((docs / CONFIG_INTRO).read_text(encoding="utf-8"))


def config_stale(docs: Path) -> bool:
    page = docs / CONFIG_PAGE
    return not page.is_file() or page.read_bytes() != _config_page(docs).encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a page is missing or out of date")
    parser.add_argument("--out", type=Path, default=ROOT / RULE_PAGES, help="the folder of the rule pages (default: docs/rules)")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs", help="the folder of configuration.md and its intro (default: docs)")
    args = parser.parse_args(argv)
    if args.check:
        wrong = [args.out / name for name in stale(args.out)] + ([args.docs / CONFIG_PAGE] if config_stale(args.docs) else [])
        wrong += [AGENTS_PAGE] if agents_page_stale() else []
        wrong += [Path(facts.COMPILED)] if agent_data_stale() else []
        wrong += [Path(categories.TRANSLATED)] if guard_regexes_stale() else []
        wrong += [RULE_CATALOGUE] if rule_catalogue_stale() else []
        for path in wrong:
            print(f"{path}: missing or out of date; regenerate the pages: {REGENERATE}", file=sys.stderr)
        return 1 if wrong else 0
    if agent_data_stale():  # first: the pages below are made from it
        Path(facts.COMPILED).write_bytes(facts.compiled_text().encode("utf-8"))
        facts.load.cache_clear()
        print(f"wrote {facts.COMPILED}")
    if guard_regexes_stale():
        Path(categories.TRANSLATED).write_bytes(categories.translations_text().encode("utf-8"))
        print(f"wrote {categories.TRANSLATED}")
    if rule_catalogue_stale():
        RULE_CATALOGUE.write_bytes(rules.catalogue_text(rule_families()).encode("utf-8"))
        rules.families.cache_clear()
        print(f"wrote {RULE_CATALOGUE}")
    for name in write(args.out):
        print(f"wrote {args.out / name}" if (args.out / name).exists() else f"removed {args.out / name}")
    if config_stale(args.docs):
        (args.docs / CONFIG_PAGE).write_bytes(_config_page(args.docs).encode("utf-8"))
        print(f"wrote {args.docs / CONFIG_PAGE}")
    if agents_page_stale():
        AGENTS_PAGE.write_bytes(table_markdown().encode("utf-8"))
        print(f"wrote {AGENTS_PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
