"""Every relative link in README.md and docs/**/*.md leads somewhere: to a file or
folder of this repository and, with a #fragment, to a heading of the target as GitHub
slugs it. A page that moves or a heading that is renamed fails here, naming the link."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest
from conftest import REPO_ROOT

# Fenced blocks and code spans hold examples, not links.
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\S\n]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
_HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"", re.I)


def pages() -> list[Path]:
    # configuration.intro.md is checked where it is read: inside configuration.md.
    docs = [p for p in sorted((REPO_ROOT / "docs").rglob("*.md")) if p.name != "configuration.intro.md"]
    return [REPO_ROOT / "README.md", *docs]


def _prose(text: str) -> str:
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its rendered text (code, links and emphasis
    as their text), lower-cased, with everything but letters, digits, spaces, `-` and
    `_` dropped and each space a hyphen. (No library reproduces GitHub's slugger;
    this is its documented rule.)"""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    kept = "".join(c for c in text.lower() if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page has: its headings' slugs (a repeated one gets -1, -2, ...)
    and its HTML anchors."""
    found: set[str] = set(_HTML_ANCHOR.findall(text))
    seen: dict[str, int] = {}
    for _, title in _HEADING.findall(_FENCE.sub("", text)):
        slug = github_slug(title)
        found.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return found


def links(text: str) -> list[str]:
    prose = _prose(text)
    return _INLINE.findall(prose) + _DEFINITION.findall(prose)


def broken(page: Path, root: Path = REPO_ROOT) -> list[str]:
    """The links of ``page`` that lead nowhere, each with the reason."""
    wrong = []
    text = page.read_text(encoding="utf-8")
    for target in links(text):
        if not target or re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:
            continue
        path, _, fragment = unquote(target).partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.is_relative_to(root.resolve()) or not dest.exists():
            wrong.append(f"{target}: no such file")
        elif fragment and dest.is_file() and dest.suffix == ".md" and fragment not in anchors(dest.read_text(encoding="utf-8")):
            wrong.append(f"{target}: no heading #{fragment} in {dest.relative_to(root.resolve())}")
    return wrong


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken(page) == []


def test_the_map_links_every_page_and_the_readme_links_the_map() -> None:
    # A page no one links is a page no one reads: each is linked from docs/index.md.
    index = links((REPO_ROOT / "docs" / "index.md").read_text(encoding="utf-8"))
    linked = {(REPO_ROOT / "docs" / target.partition("#")[0]).resolve() for target in index}
    top = {p.resolve() for p in (REPO_ROOT / "docs").glob("*.md") if p.name not in ("index.md", "configuration.intro.md")}
    assert sorted(str(p.name) for p in top - linked) == []
    assert "docs/index.md" in links((REPO_ROOT / "README.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        pytest.param(
            "Old findings never fail new work: `--new-since`", "old-findings-never-fail-new-work---new-since", id="code-and-colon"
        ),
        pytest.param("`memcheck context PATH`", "memcheck-context-path", id="code-only"),
        pytest.param('What "listed" means', "what-listed-means", id="quotes"),
        pytest.param("MEMORY.md indexes", "memorymd-indexes", id="dot"),
        pytest.param("`guard.agents.add[].id`", "guardagentsaddid", id="brackets"),
        pytest.param("Suppression comments and [baselines](x.md)", "suppression-comments-and-baselines", id="link-text"),
        pytest.param("Größe und Übersicht", "größe-und-übersicht", id="unicode-letters-kept"),
        pytest.param("snake_case **bold**", "snake_case-bold", id="underscore-kept-emphasis-dropped"),
    ],
)
def test_github_slug(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


def test_repeated_headings_are_numbered() -> None:
    assert anchors("# A\n\n## Notes\n\n## Notes\n\n```\n# not a heading\n```\n") == {"a", "notes", "notes-1"}


def test_a_missing_file_a_missing_heading_and_a_link_out_of_the_repository_are_reported(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## Real heading\n", encoding="utf-8")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Page\n\n[ok](other.md#real-heading) [self](#page) [site](https://example.com/x.md)\n"
        "[gone](gone.md) [typo](other.md#real-headings) [out](../../etc/passwd)\n"
        "`[in code](nowhere.md)`\n\n```\n[in a fence](nowhere.md)\n```\n\n[ref]: missing.md\n",
        encoding="utf-8",
    )
    assert broken(page, tmp_path) == [
        "gone.md: no such file",
        "other.md#real-headings: no heading #real-headings in docs/other.md",
        "../../etc/passwd: no such file",
        "missing.md: no such file",
    ]


def test_no_page_of_the_docs_is_a_file_agents_load_as_instructions() -> None:
    # docs/agents.md was one: a case-insensitive file system finds it as AGENTS.md, so
    # Codex, Amp or Cursor working in docs/ would load the agents table as instructions.
    from memcheck.agents import kind_of
    from memcheck.config import defaults

    names = defaults()["guidance"]["filenames"]
    found = [p.relative_to(REPO_ROOT).as_posix() for p in pages()]
    assert [p for p in found if kind_of(p, names) is not None] == []
