"""Hints that name the one cause and the one safe remedy, and rules that report a cause
once rather than once per file or per symptom (issue 27: memcheck judged by hand on
whole repositories). Each tree is a minimal reproduction built here."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import check_json, memory, write

STORE = ".claude/memory"


def _of(problems: list[dict[str, Any]], *codes: str) -> list[tuple[str, int, str, str]]:
    return sorted((p["path"], p["line"], p["code"], p["message"]) for p in problems if p["code"] in codes)


def _store(repo: Path, files: dict[str, str | bytes]) -> None:
    for name, text in files.items():
        write(repo, f"{STORE}/{name}", text)
    write(repo, f"{STORE}/MEMORY.md", "".join(f"- [{n[:-3]}]({n}) \u2014 d\n" for n in sorted(files)))


# ---------------------------------------------------------------- MEM004 (SKL003: tests/unit/rules/test_skl003.py)


@pytest.mark.parametrize(
    ("line", "key", "fixed"),
    [
        pytest.param('name: "Deploy" target notes', "name", "name: '\"Deploy\" target notes'", id="double-quoted-start"),
        pytest.param("description: 'fast' reviews: always", "description", "description: '''fast'' reviews: always'", id="single-quoted-start"),
    ],
)
def test_mem004_a_quoted_start_followed_by_more_text_says_to_quote_the_whole_value(repo: Path, line: str, key: str, fixed: str) -> None:
    fields = {"name": "name: Deploy", "description": "description: Where we deploy", "type": "type: project"}
    fields[key] = line
    _store(repo, {"deploy.md": "---\n" + "\n".join(fields.values()) + "\n---\nBody.\n"})
    ((_, at, _, message),) = _of(check_json(repo), "MEM004")
    assert at == list(fields).index(key) + 2
    assert message.endswith(f"the value of {key!r} starts with a quoted string and goes on after it; quote the whole value: {fixed}"), message


def test_mem004_keeps_the_plain_hint_for_an_unquoted_value(repo: Path) -> None:
    _store(repo, {"deploy.md": "---\nname: Deploy\ndescription: Target: Railway\ntype: project\n---\nBody.\n"})
    ((_, _, _, message),) = _of(check_json(repo), "MEM004")
    assert message.endswith("; quote the value of 'description'"), message


# ---------------------------------------------------------------- MEM006 / MEM010


def test_a_misspelt_required_key_is_one_finding_that_says_to_rename_it(repo: Path) -> None:
    _store(repo, {"review.md": "---\nname: Review\nDescription: Concise reviews\ntype: user\n---\nBody.\n"})
    found = _of(check_json(repo), "MEM006", "MEM010")
    assert found == [
        (
            f"{STORE}/review.md",
            3,
            "MEM006",
            "required field 'description' is missing: the key 'Description' is not read as it (keys are matched exactly); rename it to description",
        )
    ]


def test_frontmatter_with_none_of_the_memory_fields_is_one_finding(repo: Path) -> None:
    # A session log kept in the store: its keys are not a memory's, which is one cause.
    log = "---\nended: 2026-05-06T22:30:00Z\nproject: shop\nbranch: main\n---\n# Last session\n"
    _store(repo, {"last_session.md": log, "review.md": memory("Review", "Concise reviews", "user")})
    found = _of(check_json(repo), "MEM006", "MEM010")
    assert found == [
        (
            f"{STORE}/last_session.md",
            1,
            "MEM006",
            "frontmatter has none of the memory fields name, description, type (it holds ended, project, branch), "
            "so agents cannot index this file as a memory; add name, description and type",
        )
    ]


def test_an_unrelated_misspelt_key_beside_a_missing_field_is_still_reported(repo: Path) -> None:
    _store(repo, {"review.md": "---\nname: Review\ntype: user\nUpdated: 2026-01-01\nlastReadAt: 1\n---\nBody.\n"})
    assert [(c, ln) for _, ln, c, _ in _of(check_json(repo), "MEM006", "MEM010")] == [("MEM006", 1), ("MEM010", 4)]


def test_only_a_key_one_slip_from_a_known_one_is_reported(repo: Path) -> None:
    # Agents ignore keys they do not know, and the tools that write memories add their
    # own (lastReadAt, created_at): only a slip of the keyboard loses a setting.
    extra = "".join(f"{key}: x\n" for key in ("tpye", "descripton", "Updated", "lastReadAt", "created_at", "updated_at", "colour", "extra", "lastRead"))
    _store(repo, {"review.md": memory("Review", "Concise reviews", "user", extra=extra)})
    assert _of(check_json(repo), "MEM006", "MEM010") == [
        (f"{STORE}/review.md", line, "MEM010", f"frontmatter key {key!r} looks like a misspelling of {meant!r}: agents match keys exactly, so this setting is ignored; rename it to {meant}")
        for line, key, meant in ((5, "tpye", "type"), (6, "descripton", "description"), (7, "Updated", "updated"))
    ]


# ---------------------------------------------------------------- GDN001


def _agent_md_beside_agents_md(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Agents\n\nRun the tests.\n")
    write(repo, "AGENT.md", "# Agent protocol\n\nHow agents hand work over.\n")


def test_gdn001_never_reads_a_citation_through_a_symlink_out_of_the_repository(repo: Path, tmp_path: Path) -> None:
    _agent_md_beside_agents_md(repo)
    outside = write(tmp_path, "elsewhere/notes.md", "See AGENT.md.\n")
    (repo / "docs").mkdir()
    (repo / "docs/notes.md").symlink_to(outside)
    write(repo, "README.md", "# Shop\n\nSee [the notes](docs/notes.md).\n")
    assert [p for p, _, _, _ in _of(check_json(repo), "GDN001")] == ["AGENT.md"]


# ---------------------------------------------------------------- MEM012


def test_mem012_leaves_capital_letters_alone(repo: Path) -> None:
    # Names other tools look for as they are (OpenClaw's SOUL.md, a hook's LAST_SESSION.md).
    _store(repo, {"SOUL.md": memory("Soul", "Who the agent is", "user"), "LAST_SESSION.md": memory("Last", "The last session", "project")})
    assert _of(check_json(repo), "MEM012") == []


def test_mem012_reports_names_that_break_links_or_checkouts(repo: Path) -> None:
    _store(repo, {"deploy notes.md": memory("Deploy", "d", "project"), "what?.md": memory("What", "w", "project"), "ok.md": memory("Ok", "o", "user")})
    found = _of(check_json(repo), "MEM012")
    assert [(p, m) for p, _, _, m in found] == [
        (f"{STORE}/deploy notes.md", "file name 'deploy notes.md' holds a space, which breaks unescaped Markdown links to it; rename it to deploy-notes.md"),
        (f"{STORE}/what?.md", "file name 'what?.md' holds '?', which Windows does not allow in a file name; rename it to what.md"),
    ]


def test_mem012_reports_names_that_differ_only_by_case(repo: Path) -> None:
    _store(repo, {"Notes.md": memory("Notes", "n", "user"), "notes.md": memory("More notes", "m", "user")})
    assert [(p, m) for p, _, _, m in _of(check_json(repo), "MEM012")] == [
        (f"{STORE}/notes.md", "notes.md and Notes.md differ only by case and collide on macOS and Windows checkouts; merge them into one memory"),
    ]


# ---------------------------------------------------------------- MEM015 / MEM018: once per store


def test_mem015_is_one_finding_per_store_naming_its_memories(repo: Path) -> None:
    long = "word " * 70  # 349 characters once stripped
    files: dict[str, str | bytes] = {f"m{i}.md": memory(f"M{i}", long.strip(), "project") for i in range(7)}
    files["short.md"] = memory("Short", "One line", "user")
    _store(repo, files)
    write(repo, ".memory/x.md", memory("X", long.strip(), "user"))
    write(repo, ".memory/MEMORY.md", "- [X](x.md) \u2014 d\n")
    found = _of(check_json(repo), "MEM015")
    assert found == [
        (
            f"{STORE}/MEMORY.md",
            1,
            "MEM015",
            "7 memories of this store have a description over the 300 characters configured (m0.md 349, m1.md 349, m2.md 349, m3.md 349, m4.md 349 and 2 more); "
            "descriptions go into MEMORY.md, which agents load every session: shorten them to one sentence and keep the detail in the body",
        ),
        (
            ".memory/MEMORY.md",
            1,
            "MEM015",
            "x.md has a description of 349 characters, over the 300 configured; "
            "descriptions go into MEMORY.md, which agents load every session: shorten it to one sentence and keep the detail in the body",
        ),
    ]


def test_mem015_of_one_memory_is_suppressed_by_that_memory(repo: Path) -> None:
    long = ("word " * 70).strip()
    _store(repo, {"m.md": memory("M", long, "project", body="<!-- memcheck-disable-file MEM015 -->\nBody.\n")})
    assert _of(check_json(repo), "MEM015", "MCK001") == []


def test_mem018_is_one_finding_per_store(repo: Path) -> None:
    crlf = b"---\r\nname: X\r\ndescription: d\r\ntype: user\r\n---\r\nBody\r\n"
    _store(repo, {"a.md": crlf, "b.md": crlf, "c.md": memory("C", "c", "user")})
    assert _of(check_json(repo), "MEM018") == [
        (
            f"{STORE}/MEMORY.md",
            1,
            "MEM018",
            "2 memory files of this store use CRLF line endings (a.md, b.md); agents that split frontmatter at '---\\n' find none in them: "
            "convert them to LF and add '*.md text eol=lf' to .gitattributes",
        )
    ]


# ---------------------------------------------------------------- a store's own documents


def test_a_file_named_in_capitals_without_memory_fields_is_the_store_s_own_document(repo: Path) -> None:
    # A harness's identity files and session log, loaded by name: not memories, so
    # neither frontmatter findings on them nor an index entry for them.
    write(repo, f"{STORE}/a.md", memory("a", "About a", "user"))
    write(repo, f"{STORE}/SOUL.md", "# SOUL.md - who you are\n\nBe kind.\n")
    write(repo, f"{STORE}/LAST_SESSION.md", "---\nended: 2026-05-06T22:30:00Z\nbranch: main\n---\n\n# Last session\n")
    write(repo, f"{STORE}/NOTES.md", memory("notes", "Notes kept as a memory", "project"))  # capitals, but a memory
    write(repo, f"{STORE}/MEMORY.md", "- [a](a.md) \u2014 About a\n")
    found = [(p["path"], p["code"]) for p in check_json(repo)]
    assert found == [(f"{STORE}/MEMORY.md", "IDX003")]
    (unlisted,) = [p for p in check_json(repo) if p["code"] == "IDX003"]
    assert "NOTES.md" in unlisted["message"]


def test_capitals_in_any_script_make_a_store_s_own_document(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "About a", "user"))
    write(repo, f"{STORE}/ÉTÉ.md", "# Été\n")
    write(repo, f"{STORE}/MEMORY.md", "- [a](a.md) \u2014 About a\n")
    assert check_json(repo) == []
