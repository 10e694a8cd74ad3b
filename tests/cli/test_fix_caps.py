"""A `fix` a curator accepts, through the real CLI: the caps come first, new entries
look like their neighbours and go where the index's convention puts them, each has a
description, and none copies a secret into the file every agent loads.

Each case is a shape real curated indexes met: a 181-line index grown to 217 lines
with 16 curated entries pushed past the 200-line cap, entries appended past both caps
of a newest-first index, entries without a description or with link text unlike the
neighbours', a description holding a token, and placeholder descriptions left by a
broken generator.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import check_json, fix_json, index_findings, memory, run_cli, write

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"  # a GitHub token's shape, made up here


def _findings(root: Path, code: str) -> list[dict[str, Any]]:
    return index_findings(root, INDEX, code)


def _settled(root: Path) -> str:
    """Fix once more: nothing to write, nothing fixable left. The index's text."""
    _code, report = fix_json(root)
    assert report["fixed"] == []
    assert not [p for p in report["problems"] if p["code"].startswith("IDX") and p["fixable"]]
    return (root / INDEX).read_text(encoding="utf-8")


def _lines(root: Path) -> list[str]:
    return (root / INDEX).read_text(encoding="utf-8").split("\n")[:-1]


# ---------------------------------------------------------------- the caps come first


def test_fix_never_pushes_curated_lines_past_the_line_cap(repo: Path) -> None:
    # The real case: a 181-line curated index, 36 memories unlisted. fix grew it to
    # 217 lines, and 16 curated entries fell past line 200, where agents stop reading.
    curated = ["# Project memory", "", *(f"- [Note {i}](note{i:03d}.md) \u2014 curated hook {i}" for i in range(179))]
    for i in range(179):
        write(repo, f"{STORE}/note{i:03d}.md", memory(f"Note {i}", f"note {i}", "project"))
    for i in range(36):
        write(repo, f"{STORE}/new{i:02d}.md", memory(f"New {i}", f"fresh {i}", "project"))
    write(repo, INDEX, "\n".join(curated) + "\n")
    proc = run_cli(repo, "fix")
    assert proc.returncode == 1
    after = _lines(repo)
    assert len(after) == 200 and after[:181] == curated  # every curated line where it was
    added = [f"new{i:02d}.md" for i in range(19)]
    refused = [f"new{i:02d}.md" for i in range(19, 36)]
    assert [line.split("](")[1].split(")")[0] for line in after[181:]] == added
    assert (
        f"  warning: 17 new entries not written to {INDEX}: no room under its 200-line / 25,000-byte cap, "
        "where agents stop reading: new19.md, new20.md, new21.md, new22.md, new23.md and 12 more; "
        "make room (merge or shorten entries), then run `memcheck fix` (IDX003)\n"
    ) in proc.stdout
    # One finding names the memories left out, every one of them in the JSON report.
    (unlisted,) = _findings(repo, "IDX003")
    assert [path.rsplit("/", 1)[1] for path in unlisted["files"]] == refused and not unlisted["fixable"]
    # After the run the index is full: fix adds none of the rest.
    assert "`memcheck fix` adds 0 of its 17 unlisted memories" in unlisted["message"]
    assert unlisted["message"].endswith("; left out: new19.md, new20.md, new21.md, new22.md, new23.md and 12 more")
    code, report = fix_json(repo)  # a second run writes nothing, and still fails
    assert code == 1 and report["fixed"] == []


def test_fix_adds_nothing_to_an_index_over_the_cap_but_what_removing_dead_entries_makes_room_for(repo: Path) -> None:
    lines = ["# Memory", "", *(f"- [M{i}](m{i:03d}.md) - hook {i}" for i in range(203))]
    for i in range(200):  # three entries are dead
        write(repo, f"{STORE}/m{i:03d}.md", memory(f"M{i}", f"m{i}", "project"))
    for name in ("a_new", "b_new", "c_new", "d_new", "e_new", "f_new"):
        write(repo, f"{STORE}/{name}.md", memory(name, "fresh", "project"))
    write(repo, INDEX, "\n".join(lines) + "\n")
    code, report = fix_json(repo)
    changes = report["changes"][INDEX]
    assert code == 1 and sorted(changes["removed"]) == ["m200.md", "m201.md", "m202.md"]
    # 205 - 3 = 202 lines: still over the cap, so nothing is added.
    assert changes["added"] == [] and changes["refused"] == ["a_new.md", "b_new.md", "c_new.md", "d_new.md", "e_new.md", "f_new.md"]
    assert _lines(repo) == lines[:202]


def test_the_byte_cap_and_the_configured_caps_count_too(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "index:\n  max-lines: 8\n  max-bytes: 300\n")
    write(repo, f"{STORE}/a.md", memory("A", "first", "project"))
    write(repo, f"{STORE}/b.md", memory("B", "second " * 50, "project"))  # does not fit the bytes
    write(repo, f"{STORE}/c.md", memory("C", "third", "project"))
    index_text = "# Notes\n\n- [A](a.md) - first\n"
    write(repo, INDEX, index_text)
    code, report = fix_json(repo)
    changes = report["changes"][INDEX]
    # Entries go in file order while they fit: b.md does not fit, and nothing after it is tried.
    assert (code, changes["added"], changes["refused"]) == (1, [], ["b.md", "c.md"])
    assert report["fixed"] == [] and (repo / INDEX).read_text() == index_text
    write(repo, ".memcheck.yaml", "index:\n  max-lines: 8\n  max-bytes: 600\n")
    code, report = fix_json(repo)
    assert (code, report["changes"][INDEX]["added"]) == (0, ["b.md", "c.md"])
    assert len((repo / INDEX).read_bytes()) <= 600


def test_a_new_index_takes_only_what_fits(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "index:\n  max-lines: 6\n")
    for i in range(6):
        write(repo, f"{STORE}/m{i}.md", memory(f"M{i}", f"d{i}", "project"))
    code, report = fix_json(repo)
    assert code == 1 and report["changes"][INDEX]["refused"] == ["m3.md", "m4.md", "m5.md"]
    assert _lines(repo) == ["# Memory", "", "## Project", "- [M0](m0.md) - d0", "- [M1](m1.md) - d1", "- [M2](m2.md) - d2"]
    assert fix_json(repo)[1]["fixed"] == []


def test_fix_diff_shows_lines_and_bytes_against_the_caps(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "index:\n  max-lines: 5\n")
    write(repo, f"{STORE}/a.md", memory("A", "first", "project"))
    for name in ("b", "c", "d"):
        write(repo, f"{STORE}/{name}.md", memory(name.upper(), name, "project"))
    write(repo, INDEX, "# Notes\n\n- [A](a.md) - first\n")
    proc = run_cli(repo, "fix", "--diff")
    assert proc.returncode == 1
    assert proc.stdout == (
        f"{INDEX}: 3 \u2192 5 lines of 5, 29 \u2192 61 bytes of 25,000; 1 new entry does not fit: d.md\n"
        f"--- a/{INDEX}\n"
        f"+++ b/{INDEX}\n"
        "@@ -1,3 +1,5 @@\n"
        " # Notes\n"
        " \n"
        " - [A](a.md) - first\n"
        "+- [B](b.md) - b\n"
        "+- [C](c.md) - c\n"
    )
    applied = subprocess.run(["git", "apply"], cwd=repo, input=proc.stdout, text=True, capture_output=True)
    assert applied.returncode == 0, applied.stderr
    assert fix_json(repo)[1]["fixed"] == []  # the diff applied is what fix writes


def test_fix_diff_counts_the_index_as_agents_load_it(repo: Path) -> None:
    # CRLF line endings count (they are bytes agents load); a BOM does not.
    write(repo, f"{STORE}/a.md", memory("A", "first", "project"))
    write(repo, INDEX, "\ufeff# Notes\r\n\r\n- [A](a.md) - first\r\n".encode("utf-8"))
    proc = run_cli(repo, "fix", "--diff")
    assert proc.stdout.startswith(f"{INDEX}: 3 \u2192 3 lines of 200, 32 \u2192 29 bytes of 25,000\n--- a/{INDEX}\n")


# ---------------------------------------------------------------- the neighbours' form


@pytest.mark.parametrize(
    ("neighbours", "new"),
    [
        pytest.param(
            "- [user_prefs](user_prefs.md) \u2014 likes tabs\n- [user_role](user_role.md) \u2014 backend\n",
            "- [user_tools](user_tools.md) \u2014 Uses vim",
            id="stem-as-link-text",
        ),
        pytest.param(
            "* [Prefs](user_prefs.md): likes tabs\n* [Role](user_role.md): backend\n",
            "* [Tools](user_tools.md): Uses vim",
            id="star-bullets-colon",
        ),
        pytest.param(
            "- **[Prefs](user_prefs.md)** \u2013 likes tabs\n- **[Role](user_role.md)** \u2013 backend\n",
            "- **[Tools](user_tools.md)** \u2013 Uses vim",
            id="bold-en-dash",
        ),
        pytest.param(
            "- [user_prefs.md](user_prefs.md) - likes tabs\n- [user_role.md](user_role.md) - backend\n",
            "- [user_tools.md](user_tools.md) - Uses vim",
            id="file-name-as-link-text",
        ),
        pytest.param(
            "- [Tabs over spaces](user_prefs.md) - likes tabs\n- [Backend engineer](user_role.md) - backend\n",
            "- [Editor: vim](user_tools.md) - Uses vim",
            id="title-as-link-text",
        ),
        pytest.param(
            "- user_prefs: likes tabs [user]\n- user_role: backend [user]\n",
            "- user_tools: Uses vim [user]",
            id="link-less-with-type-tag",
        ),
        pytest.param(
            "- `user_prefs.md` \u2014 likes tabs\n- `user_role.md` \u2014 backend\n",
            "- `user_tools.md` \u2014 Uses vim",
            id="file-name-in-a-code-span",
        ),
    ],
)
def test_a_new_entry_takes_the_form_of_its_neighbours(repo: Path, neighbours: str, new: str) -> None:
    write(repo, f"{STORE}/user_prefs.md", memory("Prefs", "Likes tabs", "user", body="# Tabs over spaces\n\nAlways.\n"))
    write(repo, f"{STORE}/user_role.md", memory("Role", "Backend", "user", body="# Backend engineer\n\nGo.\n"))
    write(repo, f"{STORE}/user_tools.md", memory("Tools", "Uses vim", "user", body="# Editor: vim\n\nNo IDE.\n"))
    write(repo, INDEX, "# Team memory\n\n" + neighbours)
    code, report = fix_json(repo)
    assert code == 0 and report["changes"][INDEX]["added"] == ["user_tools.md"]
    assert _settled(repo) == "# Team memory\n\n" + neighbours + new + "\n"


@pytest.mark.parametrize("after", ["", "\n## Notes\nKeep entries short.\n"], ids=["last-section", "before-another"])
def test_new_entries_join_the_section_that_lists_the_memories(repo: Path, after: str) -> None:
    # A curated index of topical notes whose memories are all listed under one
    # heading (here `## See Also`): new ones go there, not under a new `## Other`.
    for stem in ("patterns", "debugging"):
        write(repo, f"{STORE}/{stem}.md", memory(stem, f"about {stem}", "project"))
    see_also = "## See Also\n- [patterns.md](patterns.md) \u2014 code patterns\n- [debugging.md](debugging.md) \u2014 pitfalls\n"
    head = "# Project Memory\n\n## Key Paths\n- **Server**: `src/Server`\n\n"
    write(repo, INDEX, head + see_also + after)
    write(repo, f"{STORE}/lobby-ui.md", memory("lobby", "Lobby pager UI", "project"))
    assert fix_json(repo)[1]["changes"][INDEX]["added"] == ["lobby-ui.md"]
    assert _settled(repo) == head + see_also + "- [lobby-ui.md](lobby-ui.md) \u2014 Lobby pager UI\n" + after


def _dated(name: str, updated: str | None) -> str:
    return memory(name, f"about {name}", "project", extra=f"updated: {updated}\n" if updated else "")


def test_new_entries_go_where_a_newest_first_list_puts_them(repo: Path) -> None:
    # Entries ordered by their memories' `updated`, newest first: a new memory goes
    # where its date puts it (at the top when it is the newest, or has no date), not
    # at the end, where a long list is past the cap.
    dates = {"d": "2026-05-20", "c": "2026-05-10", "b": "2026-04-30", "a": "2026-04-02"}
    for stem, updated in dates.items():
        write(repo, f"{STORE}/{stem}.md", _dated(stem, updated))
    index_text = "# Log\n\n" + "".join(f"- [{stem}]({stem}.md) \u2014 {stem} notes\n" for stem in dates)
    write(repo, INDEX, index_text)
    write(repo, f"{STORE}/newest.md", _dated("newest", "2026-06-01"))
    write(repo, f"{STORE}/middle.md", _dated("middle", "2026-05-01"))
    write(repo, f"{STORE}/oldest.md", _dated("oldest", "2026-01-01"))
    write(repo, f"{STORE}/undated.md", _dated("undated", None))
    code, report = fix_json(repo)
    assert code == 0
    assert [line.split("](")[1].split(".md")[0] for line in _lines(repo)[2:]] == [
        "undated",
        "newest",
        "d",
        "c",
        "middle",
        "b",
        "a",
        "oldest",
    ]
    _settled(repo)


def test_a_newest_first_list_by_the_dates_in_its_file_names(repo: Path) -> None:
    for day in ("2026-04-30", "2026-04-12", "2026-03-01"):
        write(repo, f"{STORE}/session_{day}.md", memory(f"Session {day}", "what happened", "project"))
    index_text = "".join(f"- [Session {day}](session_{day}.md) - notes of {day}\n" for day in ("2026-04-30", "2026-04-12", "2026-03-01"))
    write(repo, INDEX, "# Sessions\n\n" + index_text)
    write(repo, f"{STORE}/session_2026-05-02.md", memory("Session 2026-05-02", "the latest", "project"))
    assert fix_json(repo)[0] == 0
    assert _settled(repo) == "# Sessions\n\n- [Session 2026-05-02](session_2026-05-02.md) - the latest\n" + index_text


def test_a_newest_first_list_at_the_cap_gets_no_entry_past_it(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "index:\n  max-lines: 4\n")
    for stem, updated in (("c", "2026-05-03"), ("b", "2026-05-02"), ("a", "2026-05-01")):
        write(repo, f"{STORE}/{stem}.md", _dated(stem, updated))
    index_text = "".join(f"- [{stem}]({stem}.md) - {stem} notes\n" for stem in "cba")
    write(repo, INDEX, index_text)
    write(repo, f"{STORE}/e.md", _dated("e", "2026-05-05"))
    write(repo, f"{STORE}/d.md", _dated("d", "2026-05-04"))
    code, report = fix_json(repo)
    # The newest one fits, at the top; the other does not fit at all.
    assert (code, report["changes"][INDEX]["added"], report["changes"][INDEX]["refused"]) == (1, ["e.md"], ["d.md"])
    assert (repo / INDEX).read_text() == "- [e](e.md) - about e\n" + index_text


# ---------------------------------------------------------------- each entry's description


@pytest.mark.parametrize(
    ("body", "description"),
    [
        pytest.param("Run pytest before pushing. Never skip it.\n", "Run pytest before pushing.", id="first-sentence"),
        pytest.param(
            "# Testing\n\n<!-- kept by hand -->\nUse the [staging DB](../../docs/db.md) and `pytest -x`\nfor every change! Then push.\n",
            "Use the staging DB and `pytest -x` for every change!",
            id="links-become-text-lines-join",
        ),
        pytest.param("```\ncode first\n```\n\n- Tabs, not spaces; 4 wide\n", "Tabs, not spaces; 4 wide", id="after-code-from-a-list"),
        pytest.param("# Only a heading\n", "Only a heading", id="the-title"),
        pytest.param(
            "word " * 60 + "\n",
            ("word " * 28).rstrip() + "\u2026",
            id="bounded",
        ),
    ],
)
def test_a_new_entry_without_a_description_gets_its_bodys_first_sentence(repo: Path, body: str, description: str) -> None:
    write(repo, f"{STORE}/a.md", memory("A", "about a", "feedback"))
    write(repo, f"{STORE}/b.md", f"---\nname: B\ntype: feedback\n---\n\n{body}")
    write(repo, INDEX, "# Notes\n\n- [A](a.md) \u2014 about a\n")
    fix_json(repo)
    assert _lines(repo)[-1] == f"- [B](b.md) \u2014 {description}"
    _settled(repo)


def test_a_memory_with_nothing_to_say_still_gets_a_description(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("A", "about a", "feedback"))
    write(repo, f"{STORE}/b.md", "---\nname: B\ntype: feedback\n---\n")
    write(repo, INDEX, "# Notes\n\n- [A](a.md) \u2014 about a\n")
    fix_json(repo)
    assert _lines(repo)[-1] == "- [B](b.md) \u2014 (no description)"


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        pytest.param("How the deploy bot logs in.\n", "How the deploy bot logs in.", id="the-body-says-what-it-is"),
        pytest.param(f"Token {TOKEN} again.\n", "(description not copied: it holds a secret)", id="the-body-holds-it-too"),
    ],
)
def test_a_description_holding_a_secret_is_not_copied_into_the_index(repo: Path, body: str, shown: str) -> None:
    write(repo, f"{STORE}/a.md", memory("A", "about a", "reference"))
    write(repo, f"{STORE}/deploy.md", memory("Deploy", f"deploy token is {TOKEN}", "reference", body=body))
    write(repo, INDEX, "# Notes\n\n- [A](a.md) - about a\n")
    fix_json(repo)
    text = (repo / INDEX).read_text()
    assert "ghp_" not in text and "deploy token" not in text
    assert text.endswith(f"- [Deploy](deploy.md) - {shown}\n")


def test_a_generated_index_copies_no_secret_either(repo: Path) -> None:
    write(repo, f"{STORE}/deploy.md", memory("Deploy", f"deploy token is {TOKEN}", "reference", body="How the bot logs in.\n"))
    fix_json(repo)
    assert (repo / INDEX).read_text() == "# Memory\n\n## Reference\n- [Deploy](deploy.md) - How the bot logs in.\n"


def test_a_private_home_path_is_written_from_the_home_folder(repo: Path) -> None:
    """Issue 40's shape: a memory's description names `/Users/<name>/...`; copied into
    MEMORY.md it would tell every reader the user name, and be REF002's next check."""
    write(repo, f"{STORE}/a.md", memory("A", "about a", "reference"))
    write(repo, f"{STORE}/logs.md", memory("Logs", "Logs live in /Users/jsmith/work/shop/logs for the app", "reference"))
    write(repo, INDEX, "# Notes\n\n- [A](a.md) - about a\n")
    fix_json(repo)
    assert (repo / INDEX).read_text().endswith("- [Logs](logs.md) - Logs live in ~/work/shop/logs for the app\n")
    assert [p for p in check_json(repo) if p["path"] == INDEX] == []
    (repo / INDEX).unlink()
    fix_json(repo)  # the generated index the same
    assert "- [Logs](logs.md) - Logs live in ~/work/shop/logs for the app\n" in (repo / INDEX).read_text()


def test_short_room_goes_to_the_lessons_and_the_newest_not_to_file_name_order(repo: Path) -> None:
    """Issue 40's shape: room under the cap for two of four new entries. File-name order
    gave it to the superseded plans; a curator gives it to the lesson and the newest
    memory, and the entries that get in are placed as ever (file-name order)."""
    write(repo, ".memcheck.yaml", "index:\n  max-lines: 5\n")
    write(repo, f"{STORE}/a.md", memory("A", "about a", "reference"))
    write(repo, f"{STORE}/a_first_plan.md", memory("First plan", "Superseded by the second plan", "project", extra="created: 2025-01-10\n"))
    write(repo, f"{STORE}/b_second_plan.md", memory("Second plan", "The rollout plan", "project", extra="created: 2025-03-01\n"))
    write(repo, f"{STORE}/y_newest.md", memory("Newest", "The release this week", "project", extra="created: 2026-11-27\n"))
    write(repo, f"{STORE}/z_lesson.md", memory("Lesson", "Run the migrations before the tests", "feedback", extra="created: 2026-06-01\n"))
    write(repo, INDEX, "# Notes\n\n- [A](a.md) - about a\n")
    code, report = fix_json(repo)
    changes = report["changes"][INDEX]
    assert code == 1 and changes["refused"] == ["a_first_plan.md", "b_second_plan.md"]
    assert _lines(repo)[3:] == [
        "- [Newest](y_newest.md) - The release this week",
        "- [Lesson](z_lesson.md) - Run the migrations before the tests",
    ]
    assert _settled(repo) == (repo / INDEX).read_text()


# ---------------------------------------------------------------- placeholder descriptions


@pytest.mark.parametrize(
    "placeholders",
    [
        pytest.param(("TODO", "TODO", "TODO"), id="todo"),
        pytest.param(("---", "TBD", "..."), id="dashes-tbd-dots"),
        pytest.param(("memory", "memory", "memory"), id="same-text-on-every-line"),
    ],
)
def test_placeholder_descriptions_are_reported_and_fix_fills_them_in(repo: Path, placeholders: tuple[str, str, str]) -> None:
    for stem in "abc":
        write(repo, f"{STORE}/{stem}.md", memory(stem.upper(), f"all about {stem}", "project"))
    write(repo, INDEX, "# Memory\n\n" + "".join(f"- [{s.upper()}]({s}.md) \u2014 {p}\n" for s, p in zip("abc", placeholders)))
    (finding,) = _findings(repo, "IDX015")
    assert (finding["line"], finding["severity"], finding["fixable"]) == (3, "warning", True)
    assert finding["message"].startswith("3 entries of MEMORY.md carry a placeholder instead of a description")
    code, report = fix_json(repo)
    assert code == 0 and report["changes"][INDEX]["filled"] == ["a.md", "b.md", "c.md"]
    assert _settled(repo) == "# Memory\n\n" + "".join(f"- [{s.upper()}]({s}.md) \u2014 all about {s}\n" for s in "abc")


def test_a_placeholder_stays_until_its_memory_parses(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("A", "all about a", "project"))
    write(repo, f"{STORE}/b.md", "Just text, no frontmatter.\n")
    write(repo, INDEX, "- [A](a.md) - TODO\n- [B](b.md) - TODO\n")
    code, report = fix_json(repo)
    assert report["changes"][INDEX]["filled"] == ["a.md"]
    assert (repo / INDEX).read_text() == "- [A](a.md) - all about a\n- [B](b.md) - TODO\n"
    (finding,) = _findings(repo, "IDX015")
    assert finding["line"] == 2 and not finding["fixable"]
    assert "b.md" in finding["message"]


def test_an_index_of_real_descriptions_has_no_placeholder(repo: Path) -> None:
    for stem in "ab":
        write(repo, f"{STORE}/{stem}.md", memory(stem, f"about {stem}", "project"))
    write(repo, INDEX, "# Memory\n\n- [a](a.md) - about a\n- [b](b.md) - todo: write the migration\n")
    assert [p["code"] for p in check_json(repo) if p["path"] == INDEX] == []


# ---------------------------------------------------------------- found by an outside attack


def test_a_description_s_links_are_copied_as_their_text(repo: Path) -> None:
    # A link copied into the index is judged there as the index's own: dead, or
    # leaving the store, and fix would have made a finding it cannot fix.
    write(repo, f"{STORE}/alpha.md", memory("alpha", "Alpha thing", "user"))
    write(repo, f"{STORE}/gamma.md", memory("gamma", "Gamma [x](y) and [docs](https://example.com/d) end", "user"))
    write(repo, INDEX, "* `alpha.md` \u2014 Alpha thing\n")
    fix_json(repo)
    assert _settled(repo) == "* `alpha.md` \u2014 Alpha thing\n* `gamma.md` \u2014 Gamma x and docs end\n"
    assert not [p for p in check_json(repo) if p["path"] == INDEX]


def test_a_huge_description_is_shown_cut_not_refused_for_ever(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "A", "user"))
    write(repo, f"{STORE}/big.md", memory("big", "word " * 6000, "user"))
    write(repo, INDEX, "# Notes\n\n- [a](a.md) \u2014 A\n")  # curated: a title of its own
    code, _report = fix_json(repo)
    assert code == 0
    (entry,) = [line for line in _settled(repo).splitlines() if "big.md" in line]
    assert entry.endswith("\u2026") and len(entry) < 340


def test_blank_lines_at_the_end_of_a_curated_index_are_left_alone(repo: Path) -> None:
    for stem, kind in (("a", "user"), ("b", "project"), ("c", "feedback")):
        write(repo, f"{STORE}/{stem}.md", memory(stem, stem.upper(), kind))
    text = "- [c](c.md) - C\n- [a](a.md) - A\n- [b](b.md) - B\n\n"
    write(repo, INDEX, text)
    assert check_json(repo) == []
    assert run_cli(repo, "fix", "--diff").returncode == 0
    assert run_cli(repo, "fix", "--exit-non-zero-on-fix").returncode == 0
    assert (repo / INDEX).read_text() == text


def test_fix_fail_on_never_exits_zero_when_it_refused_entries_for_lack_of_room(repo: Path) -> None:
    """Issue 40's shape: a CI step that asked never to fail went red because fix had
    no room for an entry. The refusal is still said, and the run still exits 0."""
    write(repo, ".memcheck.yaml", "index:\n  max-lines: 3\n")
    write(repo, f"{STORE}/a.md", memory("A", "about a", "reference"))
    write(repo, f"{STORE}/b.md", memory("B", "about b", "reference"))
    write(repo, INDEX, "# Notes\n\n- [A](a.md) - about a\n")
    assert run_cli(repo, "fix").returncode == 1
    proc = run_cli(repo, "fix", "--fail-on", "never")
    assert proc.returncode == 0
    assert "new entry not written" in proc.stdout or "not written to" in proc.stdout


def test_fix_adds_nothing_to_an_index_that_lists_no_file(tmp_path: Path) -> None:
    """Issue 40 (a third unseen set): a digest a tool writes, whose entries name no
    memory file, is left as it is: check reports no unlisted memory, and fix agrees."""
    digest = (
        "# Auto Memory\n\n- **Umlauts** (I=2.0)\n  Real umlauts.\n- **Training data**\n  Trust the user.\n- **Search**\n  Prefer httpx.\n"
    )
    write(tmp_path, ".claude/memory/MEMORY.md", digest)
    write(tmp_path, ".claude/memory/user_prefs.md", memory("User preferences", "How the user likes to work", "user"))
    _code, report = fix_json(tmp_path)
    assert (tmp_path / ".claude/memory/MEMORY.md").read_text(encoding="utf-8") == digest
    assert not [p for p in check_json(tmp_path) if p["code"] == "IDX003"]
    assert report is not None
