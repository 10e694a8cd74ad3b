"""What each line of a MEMORY.md index is, and what `check` and `fix` make of it,
through the real CLI.

Each case is one an outside attack on the index found: headings, comments and code
that "listed" memories, links inside code spans deleted as dead entries, half of a
dead list item removed, reference links never checked, entries placed before a
section's intro, links to files git ignores deleted in every other clone, rename
hints that grew with the square of the store.
"""

from __future__ import annotations

import os
import re
import subprocess
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from conftest import check_json, fix_json, git, index_findings, invoke, memory, run_cli, unlisted, write
from hypothesis import example, given
from hypothesis import strategies as st

from memcheck import config as config_mod
from memcheck.checks.index import links
from memcheck.checks.index.state import IndexState
from memcheck.index.memory import Memory
from memcheck.index.naming import _MAX_PHRASES, _WORDS, _boundaries, _phrases, _window, memories_named
from memcheck.index.plan import GENERATE
from memcheck.index.sync import _HEADING
from memcheck.text import blocks
from memcheck.workspace.discover import Workspace

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def _changes(report: dict[str, Any]) -> dict[str, Any]:
    changes: dict[str, Any] = report["changes"][INDEX]
    return changes


def _index_findings(root: Path, code: str | None = None) -> list[dict[str, Any]]:
    return index_findings(root, INDEX, code)


def _unlisted(root: Path) -> set[str]:
    return unlisted(root, INDEX)


def _settled(root: Path) -> str:
    """Fix once more: nothing to write, nothing fixable left. The index's text."""
    code, report = fix_json(root)
    assert report["fixed"] == []
    assert not [p for p in report["problems"] if p["code"].startswith("IDX") and p["fixable"]]
    return (root / INDEX).read_text()


# ---------------------------------------------------------------- which lines list a memory


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("## Deployment\n- Staging is at staging.example.com\n", id="atx-heading"),
        pytest.param("Deployment\n----------\n\n- Staging is at staging.example.com\n", id="setext-heading"),
        pytest.param("<!--\nDeployment\n-->\n", id="html-comment"),
        pytest.param("<!-- Deployment -->\n", id="one-line-comment"),
        pytest.param("[//]: # (Deployment)\n", id="comment-idiom"),
        pytest.param("[deployment]: https://example.com/deploy\n", id="link-definition"),
        pytest.param("Example:\n\n    Deployment\n", id="indented-code"),
        pytest.param("```\nDeployment\n```\n", id="fenced-code"),
        pytest.param("- run `Deployment` first\n", id="code-span"),
    ],
)
def test_headings_comments_definitions_and_code_never_list_a_memory(repo: Path, text: str) -> None:
    write(repo, f"{STORE}/feedback_ci.md", memory("CI flakiness", "retry e2e once", "feedback"))
    write(repo, f"{STORE}/project_deployment.md", memory("Deployment", "deploys go through ArgoCD", "project"))
    write(repo, INDEX, f"# Project Memory\n\n- [CI flakiness](feedback_ci.md) \u2014 retry e2e once\n\n{text}")
    assert _unlisted(repo) == {"project_deployment.md"}
    code, report = fix_json(repo)
    assert [name for name in _changes(report)["added"]] == ["project_deployment.md"]
    assert _settled(repo).count("(project_deployment.md)") == 1


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("- Deployment: ArgoCD only", id="list-item"),
        pytest.param("| Deployment | ArgoCD only |", id="table-row"),
        pytest.param("Deployment: see the runbook.", id="paragraph"),
    ],
)
def test_entry_like_lines_list_a_memory_by_its_name(repo: Path, line: str) -> None:
    write(repo, f"{STORE}/project_deployment.md", memory("Deployment", "deploys go through ArgoCD", "project"))
    write(repo, INDEX, f"# Notes\n\n{line}\n")
    assert _unlisted(repo) == set()


def test_a_decimal_does_not_list_the_shorter_name(repo: Path) -> None:
    # `Note 1.5` and `Note 1,5` are one number, not `Note 1` and more.
    write(repo, f"{STORE}/note_one.md", memory("Note 1", "one", "project"))
    write(repo, INDEX, "# Index\n\n- Note 1.5 is weird\n- Note 1,5 too\n")
    assert _unlisted(repo) == {"note_one.md"}


def test_generate_mode_says_what_it_added_when_a_heading_named_the_memory(repo: Path) -> None:
    write(repo, f"{STORE}/user.md", memory("Prefs", "likes tabs", "user"))
    write(repo, INDEX, "# Memory\n\n## User\n")
    assert _unlisted(repo) == {"user.md"}
    proc = run_cli(repo, "fix")
    assert proc.stdout.startswith(f"Fixing {INDEX}: added 1 (user.md)\n")
    assert (repo / INDEX).read_text() == "# Memory\n\n## User\n- [Prefs](user.md) - likes tabs\n"


# ---------------------------------------------------------------- links that are not links


def test_links_in_code_spans_and_after_an_escaped_bracket_are_text(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    index_text = (
        "# Notes\n\n- [a](a.md) - a\n"
        "- `[x](gone.md)` is how to write an entry\n"
        "- Write entries like `- [Title](file.md) - hook`\n"
        "- \\[not a link](gone5.md)\n"
        "- <!-- [old](gone6.md) --> a comment\n"
    )
    write(repo, INDEX, index_text)
    assert _index_findings(repo) == []
    code, report = fix_json(repo)
    assert report["fixed"] == [] and (repo / INDEX).read_text() == index_text


def test_an_escaped_backslash_before_a_link_leaves_it_a_link(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, INDEX, "- [a](a.md) - a\n- \\\\[Gone](gone.md) - deleted\n")
    (dead,) = _index_findings(repo, "IDX002")
    assert dead["line"] == 2 and dead["fixable"]


# ---------------------------------------------------------------- dead entries and what fix removes


def test_a_dead_list_item_goes_whole_with_its_wrapped_lines_and_sub_items(repo: Path) -> None:
    write(repo, f"{STORE}/keep.md", memory("Keep", "k", "project"))
    write(
        repo,
        INDEX,
        "- [Keep](keep.md) - k\n- [Gone](gone.md) - long text\n  wrapped line\n  - caveat about Gone\n\n  more about Gone\n\n## Next\n",
    )
    (dead,) = _index_findings(repo, "IDX002")
    assert dead["fixable"] and "let `memcheck fix` remove its list item (lines 2-6)" in dead["message"]
    code, report = fix_json(repo)
    assert _changes(report)["removed"] == ["gone.md"]
    assert _settled(repo) == "- [Keep](keep.md) - k\n\n## Next\n"


@pytest.mark.parametrize(
    ("tail", "why"),
    [
        pytest.param("Lazy line that continues it\n", "its list item goes on, unindented, on line 3", id="lazy-line"),
        pytest.param("  - [Still here](keep2.md) - a live sub-entry\n", "its list item holds more on line 3", id="live-sub-item"),
        pytest.param("  - Keep2: named in a sub-item\n", "its list item holds more on line 3", id="named-in-a-sub-item"),
    ],
)
def test_a_dead_item_that_holds_more_is_left_for_the_curator(repo: Path, tail: str, why: str) -> None:
    write(repo, f"{STORE}/keep.md", memory("Keep", "k", "project"))
    if "eep2" in tail:
        write(repo, f"{STORE}/keep2.md", memory("Keep2", "k2", "project"))
    index_text = f"- [Keep](keep.md) - k\n- [Gone](gone.md) - long text\n{tail}"
    write(repo, INDEX, index_text)
    (dead,) = _index_findings(repo, "IDX002")
    assert not dead["fixable"] and why in dead["message"]
    assert _unlisted(repo) == set()
    fix_json(repo)
    assert _settled(repo) == index_text


def test_a_dead_sub_item_and_its_dead_parent_go_in_one_run(repo: Path) -> None:
    write(repo, f"{STORE}/keep.md", memory("Keep", "k", "project"))
    write(repo, INDEX, "- [Keep](keep.md) - k\n- [Gone](gone.md) - x\n  - [Gone too](gone_too.md) - y\n")
    code, report = fix_json(repo)
    assert sorted(_changes(report)["removed"]) == ["gone.md", "gone_too.md"]
    assert _settled(repo) == "- [Keep](keep.md) - k\n"


@pytest.mark.parametrize("mode", ["sync", "generate"])
def test_a_dead_link_in_a_memorys_description_is_the_memorys_finding(repo: Path, mode: str) -> None:
    write(repo, ".memcheck.yaml", f"index:\n  mode: {mode}\n")
    write(repo, f"{STORE}/alpha.md", memory("alpha", "see [the spec](spec.md) for details", "project"))
    write(repo, INDEX, "# Memory\n\n## Project\n- [alpha](alpha.md) - see [the spec](spec.md) for details\n")
    found = check_json(repo)
    assert [(p["path"], p["code"], p["line"]) for p in found] == [(f"{STORE}/alpha.md", "MEM021", 3)]
    assert "the description's link 'spec.md' points at .claude/memory/spec.md, which does not exist" in found[0]["message"]
    code, report = fix_json(repo)
    assert report["fixed"] == [] and code == 0


def test_a_dead_link_in_a_hand_written_hook_is_not_fixable(repo: Path) -> None:
    write(repo, f"{STORE}/alpha.md", memory("alpha", "the alpha plan", "project"))
    write(repo, INDEX, "# Notes\n\n- [alpha](alpha.md) - read [the spec](spec.md) first\n")
    (dead,) = _index_findings(repo, "IDX002")
    assert not dead["fixable"] and "it is in the entry's description, not its own link" in dead["message"]
    fix_json(repo)
    assert _settled(repo) == "# Notes\n\n- [alpha](alpha.md) - read [the spec](spec.md) first\n"


def test_a_link_to_a_file_git_ignores_is_kept_in_every_clone(repo: Path, tmp_path: Path) -> None:
    write(repo, ".gitignore", "secret_*.md\n")
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, f"{STORE}/secret_x.md", memory("sx", "local only", "project"))
    index_text = "# Curated\n\n- [a](a.md) - a\n- [Secret](secret_x.md) - local only\n"
    write(repo, INDEX, index_text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memories")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    # Kept out of the repository on purpose, and on the machines that have it: no
    # finding (issue 40: judged unwanted on a store whose ignored memory holds credentials).
    assert _index_findings(clone, "IDX002") == []
    code, report = fix_json(clone)
    assert report["fixed"] == [] and (clone / INDEX).read_text() == index_text


def test_a_dangling_symlink_is_a_dead_entry(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, INDEX, "# Notes\n\n- [a](a.md) - a\n- [Moved](moved.md) - a link to nowhere\n")
    os.symlink("nowhere.md", repo / STORE / "moved.md")
    git(repo, "add", "-A")
    (dead,) = _index_findings(repo, "IDX002")
    assert dead["line"] == 4 and dead["fixable"]


def test_a_link_with_a_fragment_or_query_lists_its_file(repo: Path) -> None:
    # (Held on main; kept so that the block reading does not lose it.)
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, f"{STORE}/b.md", memory("b", "b", "project"))
    write(repo, INDEX, "# N\n\n- [A](a.md#usage) - curated\n- see [B](b.md?plain=1)\n")
    assert _index_findings(repo) == []


def test_a_link_that_leaves_the_store_and_comes_back_lists_the_memory(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, f"{STORE}/b.md", memory("b", "b", "project"))
    index_text = "# Notes\n\n- [a](a.md) - a\n- [b](../memory/b.md) - b\n"
    write(repo, INDEX, index_text)
    assert _index_findings(repo) == []
    assert fix_json(repo)[1]["fixed"] == []


# ---------------------------------------------------------------- reference links


def test_reference_links_list_memories_and_their_dead_definitions_are_reported(repo: Path) -> None:
    write(repo, f"{STORE}/alpha_new.md", memory("Alpha", "renamed", "project"))
    write(repo, f"{STORE}/beta.md", memory("Beta", "b", "project"))
    write(
        repo,
        INDEX,
        "# Notes\n\n- [Alpha][1] - renamed\n- [Gone][2] - deleted\n- [beta] - a shortcut\n- [Also gone][] - collapsed\n\n"
        "[1]: alpha_old.md\n[2]: gone.md\n[BETA]: beta.md\n[also gone]: gone_too.md\n",
    )
    found = {p["line"]: p for p in _index_findings(repo)}
    assert sorted(found) == [8, 9, 11]
    assert found[8]["code"] == "IDX002" and "renamed to alpha_new.md" in found[8]["message"]
    assert "remove the definition and the entry using it (lines 4, 9)" in found[9]["message"]
    assert all(p["fixable"] for p in found.values())
    code, report = fix_json(repo)
    assert _changes(report)["repointed"] == [{"from": "alpha_old.md", "to": "alpha_new.md"}]
    assert sorted(_changes(report)["removed"]) == ["gone.md", "gone_too.md"]
    assert _settled(repo) == "# Notes\n\n- [Alpha][1] - renamed\n- [beta] - a shortcut\n\n[1]: alpha_new.md\n[BETA]: beta.md\n"


def test_a_dead_definition_that_several_lines_or_none_use_is_left_for_the_curator(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    index_text = "# Notes\n\n- [a](a.md) - a\n- [Gone][g] - one\n- [Gone again][g] - two\n\n[g]: gone.md\n[unused]: gone_too.md\n"
    write(repo, INDEX, index_text)
    found = {p["line"]: p for p in _index_findings(repo, "IDX002")}
    assert sorted(found) == [7, 8] and not any(p["fixable"] for p in found.values())
    assert "several lines use this definition" in found[7]["message"]
    assert "no line uses this definition" in found[8]["message"]
    fix_json(repo)
    assert _settled(repo) == index_text


def test_new_entries_go_before_the_definitions_that_end_an_index(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, f"{STORE}/b.md", memory("b", "b", "project"))
    write(repo, INDEX, "# Notes\n\n- [a][1] - a\n\n[1]: a.md\n")
    fix_json(repo)
    assert _settled(repo) == "# Notes\n\n- [a][1] - a\n- [b](b.md) - b\n\n[1]: a.md\n"


# ---------------------------------------------------------------- renames


def test_rename_hints_stay_short_and_linear_when_many_memories_share_a_name(repo: Path) -> None:
    n = 300
    for i in range(n):
        write(repo, f"{STORE}/new_{i:05d}.md", memory("Shared", f"d{i}", "project"))
    write(repo, INDEX, "# Notes\n\n" + "".join(f"- [Shared](old-{i:05d}.md)\n" for i in range(n)))
    proc = run_cli(repo, "check")
    dead = [line for line in proc.stdout.splitlines() if " IDX002 " in line]
    assert len(dead) == n and all(len(line) < 300 for line in dead)
    assert dead[0].endswith("(new_00000.md, new_00001.md, new_00002.md and 297 more look like its file renamed)")
    assert len(proc.stdout) < 1000 * n  # every memory named once per dead entry was 3 GB at n=8,000
    assert _unlisted(repo) == set()  # claimed by the dead entries, until the curator picks
    code, report = fix_json(repo)
    assert report["fixed"] == []  # nothing re-pointed, removed or added: the curator picks


@pytest.mark.parametrize(
    "bar",
    [
        pytest.param("- [Bar](bar_old.md) - one\n", id="one-entry-two-memories"),
        pytest.param("- [Bar](bar_old.md) - one\n- [Bar](bar-older.md) - two\n", id="two-entries-one-memory"),
    ],
)
def test_an_ambiguous_rename_keeps_the_entry_and_its_memories_for_the_curator(repo: Path, bar: str) -> None:
    # Once fix had added the candidates, the next fix found the entry with nothing to
    # be renamed to and removed it, curated text and all.
    write(repo, f"{STORE}/bar_new.md", memory("Bar", "b", "project"))
    if bar.count("\n") == 1:  # one entry: two memories it may be
        write(repo, f"{STORE}/bar_two.md", memory("Bar", "b2", "project"))
    index_text = f"# N\n\n{bar}"
    write(repo, INDEX, index_text)
    found = _index_findings(repo)
    assert {p["code"] for p in found} == {"IDX002"} and not any(p["fixable"] for p in found)
    assert all("point it at the right file by hand (bar_new.md" in p["message"] for p in found)
    fix_json(repo)
    assert _settled(repo) == index_text


def test_a_unique_name_match_wins_over_a_loose_one(repo: Path) -> None:
    write(repo, f"{STORE}/beta_new.md", memory("Alpha notes", "b", "project"))
    write(repo, f"{STORE}/keep.md", memory("Keep", "k", "project"))
    write(repo, INDEX, "# Notes\n\n- [Keep](keep.md) - k\n- [Alpha notes](beta_old.md) - curated\n- [Beta new](gone_beta.md) - other\n")
    code, report = fix_json(repo)
    assert _changes(report)["repointed"] == [{"from": "beta_old.md", "to": "beta_new.md"}]
    assert _settled(repo) == "# Notes\n\n- [Keep](keep.md) - k\n- [Alpha notes](beta_new.md) - curated\n"


def test_re_pointing_keeps_the_fragment(repo: Path) -> None:
    write(repo, f"{STORE}/foo_bar.md", memory("Foo", "x", "project"))
    write(repo, INDEX, "# C\n\n- [Foo](foo-bar.md#usage) - x\n")
    fix_json(repo)
    assert _settled(repo) == "# C\n\n- [Foo](foo_bar.md#usage) - x\n"


def test_a_link_in_another_unicode_form_is_re_pointed_not_replaced(repo: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "café.md")
    write(repo, f"{STORE}/{decomposed}", memory("Cafe", "nfd", "project"))
    write(repo, f"{STORE}/keep.md", memory("Keep", "k", "project"))
    write(repo, INDEX, "# Notes\n\n- [Keep](keep.md) - k\n- [Café notes](caf%C3%A9.md#top) - curated text\n")
    assert _unlisted(repo) == set()
    (dead,) = _index_findings(repo, "IDX002")
    assert dead["fixable"] and "the same name in another Unicode form" in dead["message"]
    code, report = fix_json(repo)
    assert _changes(report)["added"] == [] and _changes(report)["removed"] == []
    assert _settled(repo) == "# Notes\n\n- [Keep](keep.md) - k\n- [Café notes](cafe%CC%81.md#top) - curated text\n"


# ---------------------------------------------------------------- where new entries go


def test_a_new_entry_goes_after_a_sections_intro_not_into_it(repo: Path) -> None:
    write(repo, f"{STORE}/feedback_b.md", memory("B", "fb", "feedback"))
    write(repo, f"{STORE}/user_a.md", memory("A", "ua", "user"))
    write(repo, INDEX, "# Notes\n\n## User\nWho the user is.\n\n## Feedback\n- [B](feedback_b.md) - fb\n")
    fix_json(repo)
    assert _settled(repo) == "# Notes\n\n## User\nWho the user is.\n\n- [A](user_a.md) - ua\n\n## Feedback\n- [B](feedback_b.md) - fb\n"


def test_setext_sections_count_and_a_missing_section_follows_the_last_type_section(repo: Path) -> None:
    write(repo, f"{STORE}/feedback_b.md", memory("B", "fb", "feedback"))
    write(repo, f"{STORE}/feedback_c.md", memory("C", "fc", "feedback"))
    write(repo, f"{STORE}/project_d.md", memory("D", "pd", "project"))
    write(
        repo,
        INDEX,
        "# Notes\n\nFeedback memories\n-----------------\nHow to work.\n- [B](feedback_b.md) - fb\n\n## Links\n- [site](https://example.com)\n",
    )
    fix_json(repo)
    assert _settled(repo) == (
        "# Notes\n\nFeedback memories\n-----------------\nHow to work.\n- [B](feedback_b.md) - fb\n- [C](feedback_c.md) - fc\n\n"
        "## Project\n- [D](project_d.md) - pd\n\n## Links\n- [site](https://example.com)\n"
    )


def test_a_table_of_links_gets_rows_and_a_table_without_one_a_list_below(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("A", "aa", "project"))
    write(repo, f"{STORE}/b.md", memory("B|pipe", "has | pipe", "project"))
    write(repo, INDEX, "# Memory\n\n| Memory | What |\n| --- | --- |\n| [A](a.md) | aa |\n")
    fix_json(repo)
    assert _settled(repo) == "# Memory\n\n| Memory | What |\n| --- | --- |\n| [A](a.md) | aa |\n| [B\\|pipe](b.md) | has \\| pipe |\n"
    write(repo, INDEX, "# Memory\n\n## Project\n\n| Name | What |\n|---|---|\n| A | aa |\n")
    fix_json(repo)
    assert _settled(repo) == "# Memory\n\n## Project\n\n| Name | What |\n|---|---|\n| A | aa |\n\n- [B|pipe](b.md) - has | pipe\n"


# ---------------------------------------------------------------- markers, line endings, names


def test_a_memory_listed_around_the_markers_is_not_repeated_inside(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("A", "aa", "project"))
    write(repo, f"{STORE}/b.md", memory("B", "bb", "project"))
    write(repo, INDEX, "# Notes\n\nStart with [A](a.md), the key one.\n\n<!-- memcheck:start -->\n<!-- memcheck:end -->\n")
    assert _unlisted(repo) == {"b.md"}
    code, report = fix_json(repo)
    assert _changes(report)["added"] == ["b.md"]
    text = _settled(repo)
    assert text.count("(a.md)") == 1 and text.count("(b.md)") == 1


def test_a_marker_block_with_nothing_to_list_is_settled_in_one_run(repo: Path) -> None:
    # Emptied as flat-emdash (its old entry's style), it was then filled with a lone
    # `# Memory` (an empty index's default style), a change on every other run.
    write(repo, f"{STORE}/a.md", memory("A", "aa", "project"))
    write(
        repo, INDEX, "# Notes\n\n- [A](a.md) \u2014 the one\n\n<!-- memcheck:start -->\n- [x](gone.md) \u2014 old\n<!-- memcheck:end -->\n"
    )
    code, report = fix_json(repo)
    assert _changes(report)["removed"] == ["gone.md"]
    assert _settled(repo) == "# Notes\n\n- [A](a.md) \u2014 the one\n\n<!-- memcheck:start -->\n<!-- memcheck:end -->\n"


def test_lone_cr_line_endings_are_line_breaks(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "aa", "project"))
    write(repo, f"{STORE}/b.md", memory("b", "bb", "project"))
    write(repo, INDEX, "# Curated\r\r- [a](a.md) - aa\r- [gone](gone.md) - x\r- hand note\r")
    assert {p["code"] for p in _index_findings(repo)} == {"IDX002", "IDX003", "IDX010"}
    assert "CR line endings" in _index_findings(repo, "IDX010")[0]["message"]
    fix_json(repo)
    assert _settled(repo) == "# Curated\n\n- [a](a.md) - aa\n- hand note\n- [b](b.md) - bb\n"


def test_names_that_would_break_their_link_are_escaped_and_yaml_anchors_are_values(repo: Path) -> None:
    write(repo, f"{STORE}/t.md", memory("run `make", "then `test` it", "project"))
    write(repo, f"{STORE}/u.md", memory("see <http://x.y/>", "x", "project"))
    write(repo, f"{STORE}/y.md", memory("&a ok9", "*a", "project"))
    write(repo, f"{STORE}/e.md", memory("''", "empty name", "project"))
    fix_json(repo)
    assert _settled(repo) == (
        "# Memory\n\n## Project\n- [e](e.md) - empty name\n- [run \\`make](t.md) - then `test` it\n"
        "- [see \\<http://x.y/>](u.md) - x\n- [ok9](y.md) - ok9\n"
    )


# ---------------------------------------------------------------- an index that is not a file


def test_an_index_that_is_a_folder_or_a_symlink_out_is_reported_not_written(repo: Path, tmp_path: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, f"{INDEX}/x", "a folder named MEMORY.md\n")
    (found,) = _index_findings(repo)
    assert found["code"] == "IDX011" and not found["fixable"]
    assert found["message"].startswith(
        "MEMORY.md is a folder, not a file: agents load no index from it; `memcheck fix` will not write through or replace it"
    )
    code, report = fix_json(repo)
    assert report["fixed"] == [] and code == 1 and (repo / INDEX / "x").exists()


def test_an_index_symlinked_inside_the_repository_says_fix_will_not_write_it(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, "docs/index.md", "- stale\n")
    os.symlink("../../docs/index.md", repo / INDEX)
    found = {p["code"]: p for p in _index_findings(repo)}
    assert set(found) == {"IDX003", "IDX013"} and not any(p["fixable"] for p in found.values())
    assert "does not write through symlinks: edit ../../docs/index.md" in found["IDX013"]["message"]
    result = invoke(repo, "fix", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "Fixing" not in result.output
    assert (repo / "docs/index.md").read_text() == "- stale\n"


# ---------------------------------------------------------------- settled states


@pytest.mark.parametrize("style", [None, "flat", "flat-emdash", "grouped"])
def test_an_empty_store_with_an_empty_index_is_settled_in_every_style(repo: Path, style: str | None) -> None:
    if style:
        write(repo, ".memcheck.yaml", f"index:\n  style: {style}\n")
    write(repo, INDEX, "- [gone](gone.md) \u2014 x\n")
    run_cli(repo, "fix")
    text = (repo / INDEX).read_text()
    assert _settled(repo) == text
    assert [p for p in check_json(repo) if p["code"] == "IDX006"] == []
    write(repo, INDEX, "\n\n")
    assert _settled(repo) == "\n\n"


def test_warnings_alone_pass_check_andfix_json(repo: Path) -> None:
    lines = ["# Project memory", "", *(f"- [M{i}](m{i}.md) \u2014 hook {i}" for i in range(185))]
    for i in range(185):
        write(repo, f"{STORE}/m{i}.md", memory(f"M{i}", f"m {i}", "project"))
    write(repo, INDEX, "\n".join(lines) + "\n")
    assert [p["code"] for p in check_json(repo)] == ["IDX009"]
    assert run_cli(repo, "check").returncode == 0
    code, report = fix_json(repo)
    assert code == 0 and [p["code"] for p in report["problems"]] == ["IDX009"]


# ---------------------------------------------------------------- more from the attack


def test_a_grouped_index_with_a_hand_written_hook_is_kept_in_sync_mode(repo: Path) -> None:
    # The grouped style is what agents write, but a curator edits it: a title and a
    # hook that regenerating would replace with the memory's own name and description.
    write(repo, f"{STORE}/user_role.md", memory("Role", "senior dev", "user"))
    write(repo, f"{STORE}/user_tools.md", memory("Tools", "uses vim", "user"))
    index_text = "# Memory\n\n## User\n- [Role: read first](user_role.md) - NEVER push to main; ask Dana before deploys\n"
    write(repo, INDEX, index_text)
    explained = run_cli(repo, "index", STORE, "--explain")
    assert "mode sync (automatic): line 4 (user_role.md) carries a name or description other than its memory's" in explained.stdout
    code, report = fix_json(repo)
    assert _changes(report)["added"] == ["user_tools.md"]
    assert _settled(repo) == index_text + "- [Tools](user_tools.md) - uses vim\n"


def test_a_link_target_with_a_raw_space_is_read_as_a_link(repo: Path) -> None:
    # Not a link to CommonMark, but one to the agent and the curator: it lists a
    # memory that is there, and is a dead entry when the file is gone.
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    write(repo, f"{STORE}/Old Notes.md", memory("Olds", "o", "project"))
    write(repo, INDEX, "# N\n\n- [a](a.md) - a\n- [x](Old Notes.md) - there\n- [y](Gone Notes.md) - not there\n- [sic] (see above)\n")
    assert _unlisted(repo) == set()
    (dead,) = _index_findings(repo, "IDX002")
    assert (dead["line"], dead["fixable"]) == (5, True) and "'Gone Notes.md', which does not exist" in dead["message"]
    code, report = fix_json(repo)
    assert _changes(report)["removed"] == ["Gone Notes.md"]
    assert _settled(repo) == "# N\n\n- [a](a.md) - a\n- [x](Old Notes.md) - there\n- [sic] (see above)\n"


def test_new_entries_that_would_push_a_flat_index_past_the_cap_are_not_written(repo: Path) -> None:
    # A real curated index went from 181 to 207 lines with its new entries at the end;
    # moving them up instead pushed the curator's oldest entries out of view. Neither:
    # what fits is added, the rest is named and not written.
    for i in range(190):
        write(repo, f"{STORE}/m{i:03d}.md", memory(f"M{i}", f"d{i}", "project"))
    for i in range(15):
        write(repo, f"{STORE}/new{i:02d}.md", memory(f"N{i}", f"n{i}", "project"))
    curated = ["# Memory", "", *(f"- [M{i}](m{i:03d}.md) \u2014 curated {i}" for i in range(190))]
    write(repo, INDEX, "\n".join(curated) + "\n")
    proc = run_cli(repo, "fix")
    assert proc.returncode == 1 and "8 new entries" not in proc.stdout and "7 new entries not written" in proc.stdout
    lines = (repo / INDEX).read_text().split("\n")[:-1]
    assert lines[:192] == curated and lines[192:] == [f"- [N{i}](new{i:02d}.md) \u2014 n{i}" for i in range(8)]
    assert " IDX007 " not in proc.stdout and " IDX009 " in proc.stdout
    assert fix_json(repo)[1]["fixed"] == []


def test_new_entries_go_into_their_section_and_a_new_section_only_when_it_fits(repo: Path) -> None:
    index_lines = ["# Memory", "", "## User", *(f"- [U{i}](u{i}.md) - u" for i in range(5)), "", "## Feedback"]
    for i in range(5):
        write(repo, f"{STORE}/u{i}.md", memory(f"U{i}", "u", "user"))
    for i in range(184):
        write(repo, f"{STORE}/f{i:03d}.md", memory(f"F{i}", "f", "feedback"))
        index_lines.append(f"- [F{i}](f{i:03d}.md) - f")
    index_lines += ["", "## Links", "- [site](https://example.com)"]
    write(repo, INDEX, "\n".join(index_lines) + "\n")
    write(repo, f"{STORE}/fnew.md", memory("Fnew", "new feedback", "feedback"))
    write(repo, f"{STORE}/pnew.md", memory("Pnew", "new project", "project"))
    code, report = fix_json(repo)
    # 197 lines: the feedback entry fits (198), a new Project section would not (201).
    assert code == 1 and (_changes(report)["added"], _changes(report)["refused"]) == (["fnew.md"], ["pnew.md"])
    lines = (repo / INDEX).read_text().split("\n")[:-1]
    assert len(lines) == 198 and lines[-3:] == index_lines[-3:]
    fnew = lines.index("- [Fnew](fnew.md) - new feedback")
    assert lines[fnew - 1] == "- [F183](f183.md) - f" and lines[fnew + 1] == ""
    assert fix_json(repo)[1]["fixed"] == []


# ---------------------------------------------------------------- patterns read in one pass

# The patterns as they were before they were made linear on long runs of spaces and
# glue: the new ones must split, find and match exactly as these did.
_GLUE = r".'\u2019+\-/&@%$"
_OLD_BOUNDARY = re.compile(rf"\s*(?:(?:[^\w\s{_GLUE},]|(?<!\d),|,(?!\d)|(?<!\S)[{_GLUE}]+|[{_GLUE}]+(?!\S))\s*)+")
_OLD_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$")
_OLD_ATX = re.compile(r"^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
# Spaces of several kinds, every glue character, commas and digits, punctuation,
# letters and `#`: what the patterns tell apart.
_PATTERN_CHARS = " \t\u00a0\u3000\n.'\u2019+-/&@%$,:;|*()[]`_a1b9\u00e9#\uff0c\u2014"
_PATTERN_LINES = st.text(st.sampled_from(_PATTERN_CHARS), max_size=24)


def _spaced(parts: list[str], joined: str) -> list[str]:
    return [joined.join(part.split()) for part in parts]


@given(_PATTERN_LINES)
@example("note a" + " " * 40 + "b")
@example("note a" + "." * 40 + "b")
@example("- api: x , y 1,5 node.js - c++ .. ' ")
@example(" ,1 ., - a")
def test_boundaries_are_found_as_before(line: str) -> None:
    # A boundary now starts at its punctuation, leaving the spaces before it to the
    # phrase: the same boundaries and phrases, once spaces are collapsed.
    parts = _boundaries().split(line)  # phrase, boundary, phrase, ..., phrase
    assert _spaced(parts[::2], " ") == _spaced(_OLD_BOUNDARY.split(line), " ")
    assert _spaced(parts[1::2], "") == _spaced(_OLD_BOUNDARY.findall(line), "")


def _phrases_in_two_passes(text: str) -> tuple[list[str], list[str]]:
    """How a text's phrases were read before one split pass (and a shortcut for
    texts with no boundary) replaced split() plus findall(), and before a boundary
    started at its punctuation."""
    parts, between = _OLD_BOUNDARY.split(text), _OLD_BOUNDARY.findall(text)
    phrases: list[str] = []
    seps: list[str] = []
    pending = ""
    for i, part in enumerate(parts):
        phrase = re.sub(r"\s+", " ", part).strip().casefold()
        if phrase:
            if phrases:
                seps.append(pending)
            phrases.append(phrase)
            pending = ""
        if i < len(between):
            pending += re.sub(r"\s+", "", between[i])
    return phrases, seps


@given(
    st.lists(
        st.sampled_from([".md", " .md", "md", "\u0130", "\u00df", "\ufb01", "\u0307", "\x1c", "\x85", *_PATTERN_CHARS]), max_size=24
    ).map("".join)
)
@example("feedback_api_docs_248.md")
@example("Deploy Notes")
@example("  a  b .md ")
@example("x .md")
def test_phrases_are_read_as_before(text: str) -> None:
    assert _phrases(text) == _phrases_in_two_passes(text)


def _named_the_long_way(lines: list[str], memories: list[Memory]) -> dict[int, set[str]]:
    """Which memories each line names, read the long way: every window of every
    line's phrases joined, and every word of every line tried as a file name."""
    found: dict[int, set[str]] = {}
    for lineno, line in enumerate(lines, 1):
        phrases, seps = _phrases_in_two_passes(line)
        windows = {
            "\x00".join([phrases[a], *(x for i in range(a + 1, b) for x in (seps[i - 1], phrases[i]))])
            for a in range(len(phrases))
            for b in range(a + 1, len(phrases) + 1)
        }
        words = {w.rstrip(".,;:!?'\u2019").removeprefix("./") for w in _WORDS.findall(line)}
        here = set()
        for m in memories:
            for text in {m.filename, m.stem, m.name or ""}:
                phrases, seps = _phrases_in_two_passes(text)
                if phrases and len(phrases) <= _MAX_PHRASES and _window(phrases, seps, 0, len(phrases)) in windows:
                    here.add(m.filename)
            if m.filename in words:
                here.add(m.filename)
        if here:
            found[lineno] = here
    return found


_NAME_PARTS = st.sampled_from(["api", "Api", "ci-cd", "node.js", "1", "1,5", " ", ":", "_x", ".md", "\u00df", "SS"])
_NAMES = st.lists(_NAME_PARTS, min_size=1, max_size=4).map("".join)


@given(
    st.lists(st.tuples(_NAMES, st.none() | _NAMES), min_size=1, max_size=4, unique_by=lambda m: m[0].strip()),
    st.lists(
        st.lists(
            st.sampled_from(["- ", "api", "Api", ": ", "ci-cd", "node.js", "x.md", "./", "**", " ", "1,5", ".", "\u00df", "ss"]), max_size=8
        ).map("".join),
        max_size=6,
    ),
)
@example([("api", "Deploy Notes"), ("notes", None)], ["- api: the api", "- Deploy notes", "see ./notes.md."])
@example([("a.MD", None), ("b.md", None)], ["see a.MD now", "a.MD"])
def test_lines_name_memories_as_the_long_way_does(stems: list[tuple[str, str | None]], lines: list[str]) -> None:
    """Looking names up per phrase, and skipping the word split on lines without
    the memories' common file-name ending, names what trying everything names."""
    memories = [
        Memory(stem.strip() if stem.strip().endswith((".md", ".MD")) else f"{stem.strip()}.md", name, None, None)
        for stem, name in stems
        if stem.strip()
    ]
    assert memories_named(enumerate(lines, 1), memories) == _named_the_long_way(lines, memories)


@given(st.integers(0, 8), _PATTERN_LINES)
@example(1, " a" + " " * 40 + "b")
@example(2, " Title ## ")
@example(7, " x")
def test_headings_are_read_as_before(hashes: int, rest: str) -> None:
    line = "#" * hashes + rest
    old, new = _OLD_HEADING.match(line), _HEADING.match(line)
    assert (new and (new.span(), new.groups())) == (old and (old.span(), old.groups()))
    old, new = _OLD_ATX.match(line), blocks._ATX.match(line)
    assert (new and (new.span(), new.groups())) == (old and (old.span(), old.groups()))


class _CountedSplits(str):
    """A generated index text that counts how often it is split into lines."""

    splits = 0

    def split(self, *args: Any, **kwargs: Any) -> list[str]:  # type: ignore[override]
        _CountedSplits.splits += 1
        return super().split(*args, **kwargs)


def test_the_generated_index_is_split_into_lines_once_however_many_links_are_dead(repo: Path) -> None:
    # It was split once per dead link: work that grew with dead links times lines.
    write(repo, ".memcheck.yaml", "index:\n  mode: generate\n")
    write(repo, f"{STORE}/a.md", memory("a", "a", "project"))
    text = "# Memory\n\n## Project\n- [a](a.md) - a\n" + "".join(f"- [dup](gone{i}.md) - x\n" for i in range(30))
    write(repo, INDEX, text)
    ws = Workspace(config_mod.load(repo))
    (store,) = ws.stores
    state = IndexState(ws, store, ws.document(INDEX))
    assert state.plan.mode == GENERATE
    state.plan = state.plan._replace(text=_CountedSplits(state.plan.text))
    _CountedSplits.splits = 0
    found = list(links.check(ws, store, state))
    assert len(found) == 30 and all("`memcheck fix` regenerates the index without it" in p.message for p in found)
    assert _CountedSplits.splits == 1
