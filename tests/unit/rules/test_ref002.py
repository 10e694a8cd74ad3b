"""REF002 private-path: an absolute path into a user's home folder."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint, memory

REMEDY = "write the path relative to the repository root, or from the home folder (~/…) if it is outside the repository"


def test_the_docs_example_is_reported_with_the_user_name_redacted() -> None:
    files = {"CLAUDE.md": "# Guide\n\n" + example("REF002")}
    assert lint(files, "REF002") == [("CLAUDE.md", 3, "REF002")]
    (found,) = findings(files, "REF002")
    assert found.col == len("Logs are in `") + 1
    assert found.message == (
        "absolute path into a user's home folder (/Users/j***/…, user name redacted): it tells readers the user name "
        f"and points nowhere on other clones; {REMEDY}"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({"CLAUDE.md": "# Guide\n\n" + example("REF002", "Use instead")}, "REF002") == []


@pytest.mark.parametrize(
    ("line", "col", "shown"),
    [
        ("Open C:\\Users\\Olivia\\work\\app\\notes.txt first.", 6, "C:\\Users\\O***\\…"),
        ("Data: /home/wei/data/cc_all", 7, "/home/w***/…"),
    ],
)
def test_a_home_path_is_reported_where_it_starts_with_the_user_name_redacted(line: str, col: int, shown: str) -> None:
    (found,) = findings({"CLAUDE.md": f"# Guide\n\n{line}\n"}, "REF002")
    assert (found.line, found.col, found.code) == (3, col, "REF002") and f"({shown}, user name redacted)" in found.message
    assert "Olivia" not in found.message and "/wei/" not in found.message
    # A path outside the repository (an SDK, the agent's own folder) has a remedy too.
    assert found.message.endswith(REMEDY)


@pytest.mark.parametrize(
    "line",
    [
        "Set up /home/user/app and /Users/<name>/work, /home/$USER/x, C:\\Users\\%USERNAME%\\x",
        "CI runs in /home/runner/work/app; shared files in /Users/Shared/x and C:\\Users\\Public\\x",
        "See https://example.com/home/alice/ and ~/home/bob/.",
        # A dotfiles repository's own `home/` folder, after a variable or a command (chezmoi's source tree).
        "Edit ${projectRoot}/home/dot_claude/settings.json, or $(chezmoi source-path)/home/dot_zshrc.",
    ],
)
def test_placeholder_and_no_ones_home_paths_are_not_reported(line: str) -> None:
    assert lint({"CLAUDE.md": f"# Guide\n\n{line}\n"}, "REF002") == []


def test_one_finding_per_line() -> None:
    assert lint({"CLAUDE.md": "# Guide\n\nFrom /home/wei/a to /home/wei/b.\n"}, "REF002") == [("CLAUDE.md", 3, "REF002")]


def _store(folder: str) -> dict[str, str]:
    body = "Logs are in /Users/jsmith/work/shop/logs/.\n"
    return {
        f"{folder}MEMORY.md": "# Memory\n\n- [Logs](project_logs.md) — where the logs are; /Users/jsmith/work/shop/\n",
        f"{folder}project_logs.md": memory("Logs", "where the logs are", "project", body),
    }


def test_a_repository_that_is_one_persons_store_names_their_home() -> None:
    # The repository is the store (a backup of ~/.claude/projects/<p>/memory/): its
    # only reader is the person whose home it names.
    assert lint({**_store(""), "notes/CLAUDE.md": "# Guide\n\nSee /Users/jsmith/x.\n"}, "REF002") == [("notes/CLAUDE.md", 3, "REF002")]


def test_a_store_inside_a_project_still_reports_a_home_path() -> None:
    assert lint(_store(".claude/memory/"), "REF002") == [
        (".claude/memory/MEMORY.md", 3, "REF002"),
        (".claude/memory/project_logs.md", 7, "REF002"),
    ]


def test_a_store_s_own_document_is_read_as_its_memories_are() -> None:
    # SOUL.md, loaded by name beside the memories: reported inside a project, and
    # left alone in a repository that is one person's store, as its memories are.
    soul = "# Soul\n\nMy notes are in /Users/jsmith/notes/.\n"
    assert (".claude/memory/SOUL.md", 3, "REF002") in lint({**_store(".claude/memory/"), ".claude/memory/SOUL.md": soul}, "REF002")
    assert lint({**_store(""), "SOUL.md": soul}, "REF002") == []


def test_it_is_off_unless_selected() -> None:
    """Issue 40 (three unseen sets): wanted on 5 of 48 judged findings, so opt-in."""
    files = {"CLAUDE.md": "# Guide\n\n" + example("REF002")}
    assert [f for f in lint(files) if f[2] == "REF002"] == []
    assert lint(files, "REF") == []
    assert lint(files, "REF002") == [("CLAUDE.md", 3, "REF002")]


def test_an_ellipsis_is_no_user_name() -> None:
    """Issue 40 (a third unseen set): a rule against such paths writes `/Users/…`."""
    assert lint({"AGENTS.md": "# Repo\n\n- No hardcoded `/Users/…` or `/home/…` paths.\n"}, "REF002") == []


def test_the_root_claude_md_of_a_repository_that_is_one_persons_store_is_theirs() -> None:
    # The repository mirrors one person's ~/.claude (MEMORY.md at the root): its root
    # CLAUDE.md is their user-level file, checking where their own sessions start.
    guide = "# Global\n\nIf the directory is not /home/zenko/github, stop and say so.\n"
    assert lint({**_store(""), "CLAUDE.md": guide}, "REF002") == []
    # In a project whose store is in a folder of its own, the root CLAUDE.md travels
    # with the project: still reported, as is a guidance file elsewhere in the mirror.
    assert lint({**_store(".claude/memory/"), "CLAUDE.md": guide}, "REF002")[-1] == ("CLAUDE.md", 3, "REF002")
    assert lint({**_store(""), "AGENTS.md": guide}, "REF002") == [("AGENTS.md", 3, "REF002")]
